"""The portfolio's spreadsheets (core/report/spreadsheets.py): the results workbook opened with
openpyxl (rank order, dollar formats on numbers, frozen header, filter, both sheets), the
results CSV in the same order with words beside the codes, both safe for spreadsheets, and the
template read back as one good illustrative row."""
import csv
import io
import os
from decimal import Decimal

import numpy as np

from core.law.money import fmt
import openpyxl
import pytest

from core.law.analysis import caps_words
from core.law.fields import PORTFOLIO_FIELDS
from core.law.portfolio import read_portfolio, run, sample
from core.law.provisions import CAP, ROUTES
from core.law.tables import read
from core.report.spreadsheets import (PEOPLE_COLUMNS, TEMPLATE_NOTE, batch_xlsx, people, results_csv, results_xlsx,
                                      settings, template_csv, template_xlsx)
from core.report.workbook import DOLLARS
from tests.support import ROOT

HOSTILE = ROOT / "tests" / "fixtures" / "hostile"


@pytest.fixture(scope="module")
def allocation():
    table = sample()
    return run(table.frame, 400_000_000, rows=table.rows)


def book(data: bytes):
    return openpyxl.load_workbook(io.BytesIO(data))


def test_the_workbook_opens_in_rank_order_with_dollar_formats(allocation):
    r = allocation
    wb = book(results_xlsx(r, [("Budget", Decimal("4000000.00"))], ["A finding."]))
    assert wb.sheetnames == ["Results", "For programs", "About"]
    ws = wb["Results"]
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == "A1:J21"
    rows = list(ws.iter_rows(values_only=True))
    assert list(rows[0]) == ["Rank", "Application", "Locality", "Project type", "Maximum award", "Held down by",
                             "Board's exception adds", "Priority score (0 to 1)", "Allocated", "Not yet met"]
    ranks = [row[0] for row in rows[1:21]]
    assert ranks == list(range(1, 21))
    order = np.argsort(r.table["rank"].astype(int).to_numpy())
    assert [row[1] for row in rows[1:21]] == r.table["name"].iloc[order].tolist()
    # dollars: numbers, not text, to the cent, with a dollar format
    for row, i in zip(ws.iter_rows(min_row=2, max_row=21), order):
        award, allocated = row[4], row[8]
        assert isinstance(award.value, (int, float)) and award.number_format == DOLLARS
        assert round(award.value * 100) == r.awards[i] and round(allocated.value * 100) == r.allocated[i]
        assert row[5].value == caps_words(r.binding[i].split(";"))      # the registry's labels, in words
        assert row[7].number_format == "0.000" and row[7].value == float(r.table["priority_score"][i])
        assert (row[9].value or "") == ("" if not r.shortfall[i] else f"Local match: {fmt(int(r.shortfall[i]))} short")
    first = rows[1]
    assert first[:4] == (1, "Illustrative: Twin Oaks senior center", "Twin Oaks", "Planning, design and construction")
    assert first[5] == CAP["prior_grant_room"].label
    total = rows[21]
    assert total[1] == "Total" and total[4] == 6_553_000 and total[8] == 4_000_000
    # what is allocated to the rows that do not yet meet the local match (issue 35)
    assert total[9] == f"{int(r.unmet.sum())} not yet meeting the local match, allocated " \
        f"{fmt(int(r.allocated[r.unmet].sum()))}" == "11 not yet meeting the local match, allocated $2,557,500"
    assert ws.column_dimensions["B"].width >= 30 and ws.column_dimensions["F"].width >= 12


def test_for_programs_holds_the_ids_and_codes_with_words_beside_them(allocation):
    r = allocation
    ws = book(results_xlsx(r))["For programs"]
    rows = list(ws.iter_rows(values_only=True))
    head = list(rows[0])
    assert head[:2] == ["row", "rank"] and head[head.index("project_type") + 1] == "project_type_words"
    assert head[-11:] == ["award", "binding", "binding_words", "route", "route_words", "standard_award",
                          "priority_score", "allocated", "local_shortfall", "unmet_requirements", "error"]
    assert ws.freeze_panes == "A2"
    first = dict(zip(head, rows[1]))
    assert first["row"] == 22 and first["rank"] == 1                     # Twin Oaks is the sample's last line
    assert first["project_type"] == "construction" and first["project_type_words"] == "Planning, design and construction"
    assert first["binding"] == "prior_grant_room" and first["binding_words"] == CAP["prior_grant_room"].label
    assert first["route"] == "standard" and first["route_words"] == ROUTES["standard"]
    assert first["award"] == 50_000 and first["eligible_cost"] == 1_840_000 and first["requested_amount"] is None
    cells = {c.column_letter: c for c in next(ws.iter_rows(min_row=2, max_row=2))}
    assert cells[openpyxl.utils.get_column_letter(head.index("award") + 1)].number_format == DOLLARS
    assert [row[1] for row in rows[1:]] == list(range(1, 21))


def test_the_results_csv_is_the_programs_sheet_in_rank_order(allocation):
    r = allocation
    rows = list(csv.DictReader(io.StringIO(results_csv(r).decode())))
    assert [int(x["rank"]) for x in rows] == list(range(1, 21))
    assert rows[0]["row"] == "22" and rows[0]["award"] == "50000.00" and rows[0]["binding_words"] == "the limit for earlier grantees"
    two = [x for x in rows if ";" in x["binding"]]
    for x in two:   # ties are named in words too
        assert x["binding_words"] == caps_words(x["binding"].split(";")) and " and " in x["binding_words"]
    assert sum(Decimal(x["allocated"]) for x in rows) == Decimal("4000000.00")


def test_rows_not_used_come_last_by_their_row_in_the_file():
    text = ("name,project_type,eligible_cost,local_contribution\n"
            "Alder,renovation,1000000,500000\n\n"
            "Birch,renovation,oops,0\n"
            "Cedar,renovation,300000,150000\n,,,\n")
    table = read_portfolio(text.encode(), "p.csv")
    r = run(table.frame, 100_000_000, rows=table.rows)
    rows = list(csv.DictReader(io.StringIO(results_csv(r).decode())))
    assert [(x["row"], x["rank"]) for x in rows] == [("2", "1"), ("5", "2"), ("4", "")]
    assert rows[2]["error"].startswith("eligible_cost: 'oops' is not a number")
    wb = book(results_xlsx(r))
    assert wb.sheetnames == ["Results", "For programs", "Rows not used", "About"]
    assert list(wb["Rows not used"].iter_rows(values_only=True)) == [
        ("Row of the file", "Application", "Problem"),
        (4, "Birch", "eligible_cost: 'oops' is not a number; enter dollars such as 1250000 or 1,250,000.50")]
    bad = list(wb["For programs"].iter_rows(values_only=True))[3]
    assert bad[:6] == (4, None, "Birch", "renovation", "Renovation", "oops")   # as given, where it did not read


def test_formula_cells_are_neutralised_in_the_workbook_and_the_csv():
    table = read_portfolio((HOSTILE / "formulas.csv").read_bytes(), "formulas.csv")
    r = run(table.frame, 100_000_000, rows=table.rows)
    data = results_xlsx(r, [("Applications from", "=cmd|' /C calc'!A0")], ["@SUM(1)"])
    wb = book(data)
    seen = 0
    for ws in wb:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str):
                    seen += 1
                    assert c.data_type == "s" and not c.value.startswith(("=", "+", "-", "@", "\t", "\r")), (
                        ws.title, c.coordinate, c.value)
    assert seen > 50
    programs = list(wb["For programs"].iter_rows(values_only=True))
    assert "'=HYPERLINK(\"http://example.com\")" in programs[0]
    names = [row[2] for row in programs[1:]]
    assert {"'@cmd", "'=1+1", "'-5", "'x\n=2+2"} <= set(names)
    import zipfile
    with zipfile.ZipFile(io.BytesIO(data)) as z:   # no formula anywhere in the sheets' XML
        assert not any(b"<f>" in z.read(n) or b"<f " in z.read(n) for n in z.namelist() if n.startswith("xl/worksheets"))
    text = results_csv(r).decode()
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows) == 7   # the titles and six rows: no line break escaped its cell
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row)


# The hostile portfolio's results workbook, written by a process of its own with openpyxl's XML
# writer chosen by OPENPYXL_LXML (lxml's where "True" and lxml is installed, its own otherwise).
_WRITE_HOSTILE = """
import sys
from core.law.portfolio import read_portfolio, run
from core.report.spreadsheets import results_xlsx
table = read_portfolio(open(sys.argv[1], "rb").read(), "formulas.csv")
sys.stdout.buffer.write(results_xlsx(run(table.frame, 100_000_000, rows=table.rows), [("From", "a\\r\\nb\\rc")]))
"""


def _cells(data: bytes) -> list:
    return [(ws.title, c.coordinate, c.data_type, c.value) for ws in book(data) for row in ws.iter_rows() for c in row]


@pytest.mark.slow
def test_the_workbook_holds_the_same_cells_whether_or_not_lxml_is_installed():
    """Issue 49: with lxml installed, openpyxl writes a lone CR as `&#13;` (read back as CR), with
    its own writer as it is (read back as LF): "x\\r=2+2" came back as two different texts. Every
    line break is written as LF, so both writers give the same cells."""
    pytest.importorskip("lxml", reason="lxml (requirements-dev.txt) is needed to compare openpyxl's two writers")
    import subprocess
    import sys
    made = {}
    for lxml in ("True", "False"):
        done = subprocess.run([sys.executable, "-c", _WRITE_HOSTILE, str(HOSTILE / "formulas.csv")], cwd=ROOT,
                              capture_output=True, timeout=300, env={**os.environ, "OPENPYXL_LXML": lxml})
        assert done.returncode == 0, done.stderr.decode()
        made[lxml] = _cells(done.stdout)
    assert made["True"] == made["False"]
    values = [value for *_, value in made["True"] if isinstance(value, str)]
    assert "'x\n=2+2" in values and "'\n@SUM(1)" in values and "'a\nb\nc" in values
    assert not any("\r" in value for value in values)


def test_characters_a_workbook_cannot_hold_are_shown_not_fatal():
    table = read_portfolio(b"name,project_type,eligible_cost,notes\nA,renovation,1000000,bell\x07here\n", "c.csv")
    r = run(table.frame, 100_000_000, rows=table.rows)
    programs = list(book(results_xlsx(r))["For programs"].iter_rows(values_only=True))
    assert programs[1][programs[0].index("notes")] == "bell[U+0007]here"


def test_the_about_sheet_says_what_the_allocation_was_made_of(allocation):
    from core.law.portfolio import MODES, formula_words, insight
    from core.law.rulesets import load
    rs = load()
    about = settings(allocation, rs, MODES["priority"], formula_words({"density": 1, "proximity": 1,
                                                                        "new_locality": 1}), "the illustrative sample")
    rows = list(book(results_xlsx(allocation, about, insight(allocation, rs)))["About"].iter_rows(values_only=True))
    values = {row[0]: row[1] for row in rows if row[0]}
    assert values["Applications from"] == "the illustrative sample" and values["Ruleset fingerprint"] == rs.version
    assert values["Budget"] == 4_000_000 and values["Rows used"] == 20 and values["Rows not used"] == 0
    assert (None, "7 of 20 are held down by the $600,000 program maximum.") in rows


def test_the_page_and_the_workbook_read_the_same_people_table(allocation):
    table = people(allocation)
    assert list(table.columns) == PEOPLE_COLUMNS and table["Rank"].tolist() == list(range(1, 21))
    assert table["Maximum award"].sum() == 655_300_000


def test_the_template_reads_back_as_one_good_illustrative_row():
    for data, name, row in ((template_xlsx(), "portfolio.xlsx", 2), (template_csv(), "portfolio.csv", 3)):
        table = read_portfolio(data, name)
        assert list(table.frame.columns) == [f.name for f in PORTFOLIO_FIELDS] and list(table.rows) == [row]
        result = run(table.frame, 100_000_000, rows=table.rows)
        assert result.good.tolist() == [True], result.table["error"][0]
        assert table.frame["name"][0].startswith("Illustrative:")
        assert (result.table["award"][0], result.table["binding"][0]) == ("600000.00", "program_max")
    assert template_csv().decode().startswith(f"# {TEMPLATE_NOTE}\r\n")


def test_the_templates_titles_are_the_field_tables_words_not_code_names():
    titles = [f.label for f in PORTFOLIO_FIELDS]
    assert titles[:4] == ["Application", "Locality", "Project type", "Total cost of eligible work"]
    apps = book(template_xlsx())["Applications"]
    assert [c.value for c in apps[1]] == titles
    assert "Request the Board of Public Works exception" in titles and "bpw_exception_requested" not in titles
    lines = template_csv().decode().split("\r\n")
    assert next(csv.reader([lines[1]])) == titles


def test_the_template_downloaded_filled_and_uploaded_reads_every_value_exactly():
    wb = book(template_xlsx())
    ws = wb["Applications"]
    column = {c.value: c.column for c in ws[1]}
    filled = {"Application": "Illustrative: Hand-filled hall", "Locality": "Alder County",
              "Project type": "construction", "Total cost of eligible work": 2_400_000.5,
              "Federal grant": 100_000, "Local contribution": 1_200_000.25,
              "Request the Board of Public Works exception": "no", "Senior population density": 410}
    for title, value in filled.items():
        ws.cell(2, column[title], value)
    out = io.BytesIO()
    wb.save(out)
    table = read_portfolio(out.getvalue(), "filled.xlsx")
    assert table.unknown == () and list(table.frame.columns) == [f.name for f in PORTFOLIO_FIELDS]
    r = run(table.frame, 100_000_000, rows=table.rows)
    assert r.good.tolist() == [True], r.table["error"][0]
    assert int(r.values["eligible_cost"].iat[0]) == 240_000_050 and int(r.values["local_contribution"].iat[0]) == 120_000_025
    assert int(r.values["federal_grant"].iat[0]) == 10_000_000 and r.values["senior_density"].iat[0] == 410.0
    assert (r.table["name"][0], r.table["award"][0], r.table["binding"][0]) == (
        "Illustrative: Hand-filled hall", "600000.00", "program_max")


def test_the_templates_notes_explain_every_column_from_the_field_table():
    wb = book(template_xlsx())
    assert wb.sheetnames == ["Applications", "Notes"]
    apps = wb["Applications"]
    assert apps.freeze_panes == "A2"
    of_title = {f.label: f for f in PORTFOLIO_FIELDS}
    money = [c for c in next(apps.iter_rows(min_row=2, max_row=2)) if of_title[apps.cell(1, c.column).value].kind
             == "money" and c.value is not None]
    assert money and all(c.number_format == DOLLARS for c in money)
    lists = {str(dv.sqref): dv.formula1 for dv in apps.data_validations.dataValidation}
    assert lists["C2:C20001"] == '"conversion,acquisition,renovation,construction,equipment,master_plan"'
    notes = list(wb["Notes"].iter_rows(values_only=True))
    assert notes[0] == ("Column", "Code name (for programs)", "What to enter", "If left empty", "More")
    by_name = {row[1]: row for row in notes[1:] if row[1]}
    for f in PORTFOLIO_FIELDS:   # each column's words and its code name, side by side
        assert by_name[f.name][0] == f.label and (f.help in by_name[f.name][4])
    assert by_name["project_type"][3] == "Required" and by_name["federal_grant"][3] == "$0"
    assert by_name["requested_amount"][3] == "None given"
    assert "ILLUSTRATIVE" in {row[0] for row in notes}


def test_batch_results_as_a_workbook():
    from core.law.batch import evaluate_table
    table = read(b"name,project_type,eligible_cost\nA,renovation,1000000.50\nB,renovation,x\n", "b.csv")
    out = evaluate_table(table.frame)
    rows = list(book(batch_xlsx(out))["Results"].iter_rows(values_only=True))
    head = list(rows[0])
    a, b = dict(zip(head, rows[1])), dict(zip(head, rows[2]))
    assert a["award"] == 500000.25 and a["eligible_cost"] == 1000000.5 and a["error"] is None
    assert b["eligible_cost"] == "x" and b["award"] is None and b["error"].startswith("eligible_cost: 'x'")
