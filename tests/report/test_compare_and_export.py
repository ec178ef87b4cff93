"""The comparison table and CSV export (core/report/compare.py, export.py): every input of the
computation has a column, and every cell is safe for spreadsheets."""
import csv
import io
import os
import subprocess
import sys

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from core.law import readings as R
from core.law.award import evaluate
from core.report.export import csv_bytes, dangerous, spreadsheet_safe
from tests.support import ROOT
from tests.support.builders import conversion
from tests.support.strategies import applications


@settings(max_examples=200, deadline=None)
@given(applications(), applications(), st.sampled_from(R.every()), st.sampled_from(R.every()))
def test_compare_rows_of_different_awards_never_show_identical_inputs(a1, a2, r1, r2):
    from core.report.compare import COLUMNS, table
    x, y = evaluate(a1, readings=r1), evaluate(a2, readings=r2)
    df = table([("one", x), ("two", y)])
    inputs = [c for c in COLUMNS if c not in ("State grant award", "Held down by", "Route", "Local match shortfall",
                                              "Funding gap")]
    if x.amount != y.amount:
        assert not df.iloc[0][inputs].equals(df.iloc[1][inputs])


def test_compare_shows_federal_law_and_the_exception_inputs():
    from core.report.compare import table
    one = evaluate(conversion(eligible_cost=1_000_000, federal_grant=400_000, local_contribution=100_000))
    two = evaluate(conversion(eligible_cost=1_000_000, federal_grant=400_000, local_contribution=100_000,
                       federal_law_contrary=True))
    assert one.amount != two.amount
    df = table([("one", one), ("two", two)])
    assert list(df["Federal law requires otherwise"]) == ["no", "yes"]
    three = evaluate(conversion(project_type="renovation", eligible_cost=1_000_000, local_contribution=100_000,
                         bpw_exception=dict(local_property_value=700_000, state_bonded_debt=True)))
    row = table([("three", three)]).iloc[0]
    assert (row["Value of property made available locally"], row["The State carries bonded debt on it"]) == \
        ("$700,000", "yes")


def test_on_the_boards_route_the_local_match_would_be_waived_not_0():
    """A shortfall of "$0" would say the match was met; on the exception route it would be waived."""
    from core.report.compare import table
    std = evaluate(conversion(eligible_cost=1_000_000, local_contribution=100_000))
    exc = evaluate(conversion(project_type="renovation", eligible_cost=1_000_000, local_contribution=100_000,
                              bpw_exception=dict(local_property_value=700_000)))
    assert (std.route, exc.route) == ("standard", "bpw_exception")
    assert list(table([("std", std), ("exc", exc)])["Local match shortfall"]) == ["$400,000", "Would be waived"]
    assert list(table([("std", std), ("exc", exc)], machine=True)["Local match shortfall"]) == ["400000.00", "0.00"]


HOSTILE = ROOT / "tests" / "fixtures" / "hostile"


DANGER = ("=", "+", "-", "@", "\t", "\r")


APP = {"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000}


def run(*args, stdin=None, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "core", *map(str, args)], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, env={**os.environ, **(env or {})})


def cells(data: bytes) -> list[list[str]]:
    """Rows as a real CSV reader sees them (newline='' as the csv module asks)."""
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def assert_safe(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(DANGER), f"unsafe cell {cell!r} in {row}"


@pytest.mark.parametrize("value, written", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(1)", "'@SUM(1)"), ("\tx", "'\tx"),
    ("\r@SUM(1)", "'\r@SUM(1)"), ("x\r=2+2", "'x\r=2+2"), ("a\nb", "'a\nb"), ("plain", "plain"), ("", ""),
])
def test_every_dangerous_cell_is_prefixed_and_quoted(value, written):
    data = csv_bytes(pd.DataFrame({"name": [value], "n": [-5]}))
    rows = cells(data)
    assert rows == [["name", "n"], [written, "-5"]]   # one row: no CR or LF escaped its cell
    if dangerous(value) and ("\r" in value or "\n" in value):
        assert f'"{written}"'.encode() in data          # quoted, so every reader keeps it in its cell


def test_portfolio_and_comparison_downloads_are_safe():
    from core.law.award import evaluate
    from core.law.application import Application
    from core.report.compare import table
    from core.law.portfolio import read_table, run as allocate

    result = allocate(read_table((HOSTILE / "formulas.csv").read_bytes(), "formulas.csv"), 100_000_000)
    assert_safe(cells(csv_bytes(result.table)))
    award = evaluate(Application.from_dict(APP))
    rows = cells(csv_bytes(table([("x\r=2+2", award), ("=cmd|' /C calc'!A0", award)], machine=True)))
    assert_safe(rows) and len(rows) == 3


@given(st.lists(st.text(alphabet=st.sampled_from("=+-@\t\r\n\",;'ab1 é"), max_size=8), min_size=1, max_size=5))
def test_any_text_reads_back_as_one_safe_row(values):
    """Whatever the cells, a real CSV reader sees one row per table row, no cell a spreadsheet
    would run, and each cell is what was written, with a leading apostrophe where it was risky."""
    df = pd.DataFrame({f"c{i}": [v] for i, v in enumerate(values)})
    rows = cells(csv_bytes(df))
    assert len(rows) == 2
    assert_safe(rows)
    assert rows[1] == [("'" + v) if dangerous(v) else v for v in values]


def test_spreadsheet_formula_cells_are_neutralised():
    df = pd.DataFrame({"name": ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "ok", "\tx"], "n": range(6)})
    safe = spreadsheet_safe(df)
    assert list(safe["name"]) == ["'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@SUM(A1)", "ok", "'\tx"]
    assert b"'=HYPERLINK" in csv_bytes(df)


def test_the_comparison_says_what_holds_each_award_down_in_words_and_in_ids():
    """The answer's "Held down by" column is filled on the screen (words) and in the CSV (the limits'
    titles: a board reads words, not `cost_share;funding_need`, issue 51)."""
    from core.law.application import Application
    from core.law.award import evaluate
    from core.report.compare import table
    a = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": "1000000",
                                        "local_contribution": "500000"}))
    assert table([("A", a)])["Held down by"].tolist() == [
        "the State's share of the cost and what the project still lacks (both $500,000)"]
    assert table([("A", a)], machine=True)["Held down by"].tolist() == ["State's share of the cost; What the project still lacks"]


HIDDEN_ROWS = ("name,locality,project_type,eligible_cost,local_contribution,senior_density,distance_to_center_miles,"
               "previously_funded\nAl\u202eder,Al\u200bder Co,renovation,1000000,500000,10,1,no\n"
               "=Birch\u2066,Birch Co,renovation,1000000,500000,10,1,no\nOk,Ok Co,renovation,1000000,500000,10,1,no\n")


def _every_text(data: bytes, workbook: bool) -> str:
    if not workbook:
        return data.decode("utf-8")
    import openpyxl
    book = openpyxl.load_workbook(io.BytesIO(data))
    return "\n".join(str(c) for ws in book.worksheets for row in ws.iter_rows(values_only=True) for c in row
                     if c is not None)


@pytest.mark.parametrize("export", ["portfolio csv", "portfolio workbook", "batch csv", "batch workbook"])
def test_rows_refused_for_hidden_characters_show_them_by_code_in_every_export(export):
    """Issue 36: the screen shows a refused row's U+202E as [U+202E]; the CSV and workbook exports
    kept the character itself, which reorders the text around it (the name read otherwise). The
    same for every text a batch passes through."""
    from core.law.batch import evaluate_table
    from core.law.portfolio import read_portfolio, run as allocate
    from core.law.rulesets import load
    from core.law.tables import read
    from core.report.spreadsheets import batch_xlsx, results_csv, results_xlsx
    if export.startswith("portfolio"):
        table = read_portfolio(HIDDEN_ROWS.encode(), "rows.csv")
        result = allocate(table.frame, 100_000_000, "priority", {"density": 1, "proximity": 1, "new_locality": 1},
                          load(), rows=table.rows)
        data = results_xlsx(result) if export.endswith("workbook") else results_csv(result)
    else:
        out = evaluate_table(read(HIDDEN_ROWS.encode(), "rows.csv").frame, load())
        data = batch_xlsx(out) if export.endswith("workbook") else csv_bytes(out)
    text = _every_text(data, export.endswith("workbook"))
    assert not [ch for ch in "\u202e\u200b\u2066" if ch in text]
    assert "Al[U+202E]der" in text and "Al[U+200B]der Co" in text and "'=Birch[U+2066]" in text   # and still safe
    if export.startswith("portfolio"):   # the portfolio refuses such a row (batch passes names through)
        assert "(U+202E RIGHT-TO-LEFT OVERRIDE)" in text


def test_raw_csv_for_programs_keeps_every_character():
    df = pd.DataFrame({"name": ["Al\u202eder", "=x"]})
    assert cells(csv_bytes(df, raw=True)) == [["name"], ["Al\u202eder"], ["=x"]]
    assert cells(csv_bytes(df)) == [["name"], ["Al[U+202E]der"], ["'=x"]]
