"""Tables read from a CSV file or an Excel workbook (core/law/tables.py): the same cells, rows
numbered as in the file, blank rows skipped, every limit on both formats, one clear line for a
file that cannot be read."""
import datetime
import io
import zipfile
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from core.law.batch import BatchError, parse_frame
from core.law.portfolio import SAMPLE, read_portfolio, run
from core.law.tables import MAX_COLUMNS, TableError, kind, read
from core.law.tables_xlsx import cell_text, column_letter, number_text, sheet_names
from tests.support.workbooks import rewritten, workbook, workbook_of_csv

HEADER = ["name", "project_type", "eligible_cost", "local_contribution"]
CSV_TEXT = "name,project_type,eligible_cost,local_contribution\nCafé Ämter,renovation,1000000,500000\n"


def sample_text() -> str:
    return SAMPLE.read_text(encoding="utf-8")


# --- the sample, both ways -----------------------------------------------------------------------


def test_an_xlsx_of_the_sample_gives_the_csvs_results_exactly():
    """Done when: the Portfolio page and allocate read an .xlsx of the sample and give the same results."""
    csv_table = read_portfolio(SAMPLE.read_bytes(), SAMPLE.name)
    xlsx_table = read_portfolio(workbook_of_csv(sample_text()), "sample.xlsx")
    assert list(xlsx_table.rows) == list(csv_table.rows) == list(range(3, 23))   # under the note line and the titles
    assert list(xlsx_table.frame.columns) == list(csv_table.frame.columns)
    a = run(csv_table.frame, 400_000_000, rows=csv_table.rows)
    b = run(xlsx_table.frame, 400_000_000, rows=xlsx_table.rows)
    for column in ("award", "binding", "route", "standard_award", "priority_score", "rank", "allocated", "error"):
        assert list(a.table[column]) == list(b.table[column]), column
    assert a.awards.tolist() == b.awards.tolist() and a.allocated.tolist() == b.allocated.tolist()
    assert int(a.awards.sum()) == 655_300_000 and int(a.allocated.sum()) == 400_000_000
    # numbers came back as the text a person typed: integers as digits, cents as two decimals
    assert xlsx_table.frame["eligible_cost"][0] == "3265000" and xlsx_table.frame["distance_to_center_miles"][0] == "7.40"


def test_the_first_sheet_or_a_named_one():
    data = workbook({"Notes": [["this sheet is read by default"]],
                     "Applications": [HEADER, ["A", "renovation", 1_000_000, 500_000]]})
    assert sheet_names(data) == ("Notes", "Applications")
    with pytest.raises(BatchError, match="missing column 'project_type'"):
        run(read(data, "w.xlsx").frame, 1)   # the first sheet is read unless another is named
    table = read(data, "w.xlsx", sheet="Applications")
    assert table.sheet == "Applications" and table.sheets == ("Notes", "Applications")
    assert table.frame.to_dict("records") == [{"name": "A", "project_type": "renovation",
                                               "eligible_cost": "1000000", "local_contribution": "500000"}]
    assert list(table.rows) == [2]
    with pytest.raises(TableError) as err:
        read(data, "w.xlsx", sheet="Budget")
    assert str(err.value) == "w.xlsx: no sheet named 'Budget'; its sheets are 'Notes', 'Applications'"
    with pytest.raises(TableError, match=r"^a.csv: a sheet was named \('Applications'\), but this is a CSV file"):
        read(b"name\nA\n", "a.csv", sheet="Applications")


# --- row numbers and blank rows -----------------------------------------------------------------


def test_a_csv_with_a_blank_line_and_an_all_commas_last_row_reports_only_its_bad_rows_by_line():
    """Done when: only the truly bad rows, by their line numbers (after a blank line every number
    was off by one, and an Excel-style ',,,' last row counted as a bad row)."""
    text = ("name,project_type,eligible_cost,local_contribution\n"   # line 1
            "Alder,renovation,1000000,500000\n"                       # 2
            "\n"                                                      # 3: blank
            "Birch,renovation,oops,0\n"                               # 4: bad
            "Cedar,renovation,300000,150000\n"                        # 5
            " , , , \n"                                               # 6: empty cells only
            "Dunmore,castle,100000,0\n"                               # 7: bad
            ",,,\n")                                                  # 8: Excel's last row
    table = read_portfolio(text.encode(), "p.csv")
    assert list(table.rows) == [2, 4, 5, 7]
    result = run(table.frame, 100_000_000, rows=table.rows)
    bad = {int(result.rows[i]): result.table["error"][i] for i in np.flatnonzero(~result.good)}
    assert bad == {4: "eligible_cost: 'oops' is not a number; enter dollars such as 1250000 or 1,250,000.50",
                   7: "project_type: 'castle' is not a project type; use one of conversion, acquisition, "
                      "renovation, construction, equipment, master_plan"}


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_csv_rows_are_numbered_by_the_line_they_start_on(end):
    """Notes and blank lines above the titles, CRLF or CR, and a quoted cell spanning two lines."""
    lines = ["# a note", "", "name,project_type,eligible_cost", "A,renovation,1", '"B', 'two lines",renovation,2',
             "", ",,", "C,renovation,3", ""]
    table = read(end.join(lines).encode(), "q.csv")
    assert list(table.rows) == [4, 5, 9]
    assert table.frame["name"].tolist() == ["A", f"B{end}two lines", "C"]
    plain = read(end.join(["# note", "name,project_type,eligible_cost", "", "A,renovation,1", ",,", "B,x,2"]).encode(),
                 "p.csv")
    assert list(plain.rows) == [4, 6] and plain.frame["name"].tolist() == ["A", "B"]


def test_a_workbooks_rows_are_the_spreadsheets_row_numbers():
    data = workbook({"Applications": [["# an illustrative note"], [], HEADER, ["A", "renovation", 1, 0], [],
                                      [None, None, "  ", None], ["B", "renovation", 2, 0]]})
    data = rewritten(data, "xl/worksheets/sheet1.xml",   # a row far below, with rows missing between: as Excel saves
                     lambda xml: xml.replace(b"</sheetData>", b'<row r="40"><c r="A40" t="inlineStr"><is><t>C</t>'
                                                          b'</is></c><c r="B40" t="inlineStr"><is><t>renovation</t>'
                                                          b'</is></c><c r="C40"><v>3</v></c></row></sheetData>'))
    table = read(data, "w.xlsx")
    assert list(table.rows) == [4, 7, 40]
    assert table.frame["name"].tolist() == ["A", "B", "C"] and table.frame["local_contribution"].tolist() == ["0", "0", ""]


def test_blank_lines_of_any_kind_and_width_are_skipped():
    """Wider than the header but blank, spaces other than ASCII ones, a first line after the titles
    wider than them (pandas would drop its extra cells, not refuse them)."""
    text = "name,project_type,eligible_cost\n,,,,,,,\nA,renovation,1\n\u00a0, \u3000 ,\t\nB,renovation,2\n"
    table = read(text.encode(), "b.csv")
    assert list(table.rows) == [3, 5] and table.frame["name"].tolist() == ["A", "B"]
    with pytest.raises(TableError, match=r"^w.csv: row 2 has 4 cells but the header names 3 columns"):
        read(b"name,project_type,eligible_cost\nA,renovation,1,extra\nB,renovation,2\n", "w.csv")
    assert read(b"name,project_type,eligible_cost\n\x01,,\n", "c.csv").frame["name"].tolist() == ["\x01"]


def test_a_table_of_titles_only_has_no_rows():
    for data, name in ((b"name,project_type,eligible_cost\n,,\n\n", "t.csv"),
                       (workbook({"S": [HEADER, [None, None, None, None]]}), "t.xlsx")):
        table = read(data, name)
        assert len(table.frame) == 0 and list(table.frame.columns)[:3] == ["name", "project_type", "eligible_cost"]


# --- a workbook's cells as text ----------------------------------------------------------------


@pytest.mark.parametrize("value,text", [
    (1000000.0, "1000000"), (1250.5, "1250.50"), (0.30000000000000004, "0.30"), (0.1, "0.10"), (7.4, "7.40"),
    (1250.0999999999999, "1250.10"), (12345678901234.56, "12345678901234.56"), (0.0, "0"), (-0.0, "0"),
    (1e30, "1000000000000000000000000000000"), (1e-05, "0.00001"), (1250.555, "1250.555"), (2.675, "2.675"),
    (float("inf"), "inf"),
])
def test_a_number_becomes_the_text_a_person_typed(value, text):
    assert number_text(value) == text


def test_cells_of_every_kind():
    assert cell_text(None) == "" and cell_text(42) == "42" and cell_text("x") == "x" and cell_text(True) == "TRUE"
    assert cell_text(datetime.datetime(2026, 1, 5)) == "2026-01-05"
    assert cell_text(datetime.datetime(2026, 1, 5, 13, 30)) == "2026-01-05 13:30:00"
    assert cell_text(datetime.date(2026, 1, 5)) == "2026-01-05" and cell_text(datetime.time(9, 0)) == "09:00:00"
    assert cell_text("=SUM(B2:B4)", "f") == "=SUM(B2:B4)"
    assert [column_letter(i) for i in (0, 25, 26, 499)] == ["A", "Z", "AA", "SF"]


def test_formulas_and_dates_in_amount_cells_are_refused_by_row_and_column():
    data = workbook({"S": [HEADER, ["A", "renovation", "=B2*2", 0], ["B", "renovation", 1_000_000,
                                                                     datetime.date(2026, 1, 5)],
                           ["C", "renovation", 1_000_000, True], ["D", "renovation", 400_000, 200_000]]})
    table = read(data, "w.xlsx")
    result = run(table.frame, 100_000_000, rows=table.rows)
    assert result.good.tolist() == [False, False, False, True]
    assert result.table["error"][0] == ("eligible_cost: '=B2*2' is a spreadsheet formula, not a number; enter the "
                                        "value itself (in the spreadsheet: copy the cells, then Paste Special, Values)")
    assert result.table["error"][1] == ("local_contribution: '2026-01-05' is a date, not a number; the spreadsheet "
                                        "cell is formatted as a date: format it as a number and enter the value again")
    assert result.table["error"][2].startswith("local_contribution: 'TRUE' is not a number")
    assert result.rows.tolist() == [2, 3, 4, 5]


def test_booleans_and_labels_read_as_typed():
    data = workbook({"S": [HEADER + ["federal_law_contrary", "senior_density"],
                           ["A", "Master plan", 40_000, 20_000, False, 12.5]]})
    table = read(data, "w.xlsx")
    values, errors = parse_frame(table.frame)
    assert errors.tolist() == [""] and values["federal_law_contrary"].tolist() == [False]
    assert values["senior_density"].tolist() == [12.5] and values["eligible_cost"].tolist() == [4_000_000]


# --- limits, and files that are not tables ------------------------------------------------------


def test_the_limits_hold_for_a_workbook_too():
    rows = [HEADER] + [["x", "renovation", 1, 0]] * 4
    with pytest.raises(TableError, match=r"^w.xlsx: more than 3 applications; split the portfolio"):
        read(workbook({"S": rows}), "w.xlsx", max_rows=3)
    with pytest.raises(TableError, match=r"^w.xlsx: row 2, column 'name': 1,001 characters; a cell holds at most 1,000"):
        read(workbook({"S": [HEADER, ["n" * 1001, "renovation", 1, 0]]}), "w.xlsx")
    with pytest.raises(TableError, match=f"^w.xlsx: more than {MAX_COLUMNS} columns"):
        read(workbook({"S": [[f"c{i}" for i in range(MAX_COLUMNS + 1)]]}), "w.xlsx")
    with pytest.raises(TableError, match=r"^w.xlsx: row 3 has a value in column F, right of the header's 4 columns"):
        read(workbook({"S": [HEADER, ["A", "renovation", 1, 0], ["B", "renovation", 1, 0, None, "stray"]]}), "w.xlsx")
    with pytest.raises(TableError, match=r"the column 'name' appears twice in the header \(columns A and C\)"):
        read(workbook({"S": [["name", "project_type", " name "]]}), "w.xlsx")
    with pytest.raises(TableError, match=r"the column 'name' appears twice in the header \(columns 1 and 3\)"):
        read(b"name,project_type,name\n", "d.csv")
    with pytest.raises(TableError, match="^w.xlsx: the sheet is empty"):
        read(workbook({"S": [[], [None]]}), "w.xlsx")


def test_blank_rows_count_toward_a_limit_of_their_own():
    """A file of blank lines is not read to its end: five rows a row allowed, blank ones included."""
    with pytest.raises(TableError, match=r"^b.csv: more than 15 rows, blank ones included"):
        read(b"name,project_type,eligible_cost\n" + b",,\n" * 16, "b.csv", max_rows=3)
    with pytest.raises(TableError, match=r"^b.csv: more than 15 rows, blank ones included"):
        read(b'name,project_type,eligible_cost\n' + b'"",,\n' * 16, "b.csv", max_rows=3)


@pytest.mark.slow
def test_a_workbook_that_claims_every_row_and_column_is_read_quickly():
    """A sheet's stated size A1:XFD1048576 and a last row at 1,048,576: read as the cells it has."""
    import time
    data = workbook({"S": [HEADER, ["A", "renovation", 1, 0]]})
    data = rewritten(data, "xl/worksheets/sheet1.xml", lambda xml: xml.replace(b'ref="A1:D2"', b'ref="A1:XFD1048576"')
                     .replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'))
    start = time.process_time()
    with pytest.raises(TableError, match=r"more than 100,000 rows, blank ones included"):
        read(data, "w.xlsx", max_rows=20_000)
    assert time.process_time() - start < 20
    table = read(rewritten(workbook({"S": [HEADER, ["A", "renovation", 1, 0]]}), "xl/worksheets/sheet1.xml",
                           lambda xml: xml.replace(b'ref="A1:D2"', b'ref="A1:XFD1048576"')), "w.xlsx")
    assert list(table.rows) == [2] and len(table.frame.columns) == 4


def _zip(parts: dict[str, bytes]) -> bytes:
    """A zip of these parts, the same bytes on every run (a fixed date in each entry): the bytes are in
    the test's id, and every pytest-xdist worker must collect the same ids."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, body in parts.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), body)
    return out.getvalue()


@pytest.mark.parametrize("data,name,said", [
    (b"not a workbook at all", "p.xlsx", "p.xlsx: not an Excel workbook, though its name ends in .xlsx (a workbook is "
                                         "a zip archive and this is not one); the file may be damaged or renamed: open "
                                         "it in Excel and save it again, or save it as CSV"),
    (b"PK\x03\x04 broken", "p.xlsx", "p.xlsx: cannot be read as an Excel workbook (the file is damaged); open it in "
                                     "Excel and save it again"),
    (_zip({"notes.txt": b"hello"}), "p.xlsx", "p.xlsx: a zip archive, not an Excel workbook; a table is read from a "
                                              "CSV file (.csv) or an Excel workbook (.xlsx)"),
    (_zip({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w/>"}), "letter.xlsx",
     "letter.xlsx: a Word document, not an Excel workbook; a table is read from a CSV file (.csv) or an Excel "
     "workbook (.xlsx)"),
    (_zip({"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<workbook/>"}), "p.xlsx",
     "p.xlsx: cannot be read as an Excel workbook"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "old.xls",
     "old.xls: an Excel 97-2003 workbook (.xls) or a password-protected file; a table is read from a CSV file (.csv) "
     "or an Excel workbook (.xlsx): in Excel, use Save As and pick Excel Workbook (.xlsx) or CSV UTF-8, without a "
     "password"),
    (b"%PDF-1.4 ...", "board.pdf", "board.pdf: a PDF file; a table is read from a CSV file (.csv) or an Excel workbook "
                                   "(.xlsx)"),
    # issue 36: a PDF renamed .csv was read as a table ("missing column 'project_type'"); UTF-16 text
    # ("not a text file") said nothing of how to save it
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "applications.csv",
     "applications.csv: a PDF file, though its name ends in .csv; a table is read from a CSV file (.csv) or an "
     "Excel workbook (.xlsx)"),
    (b"%PDF-1.7\n", "-", "-: a PDF file; a table is read from a CSV file (.csv) or an Excel workbook (.xlsx)"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "photo.csv", "photo.csv: an image, though its name ends in .csv; a table is read"),
    *[(CSV_TEXT.encode(codec), "unicode.csv", "unicode.csv: UTF-16 text (what Excel calls Unicode Text), which is "
                                              "not read; save it as CSV UTF-8 (in Excel: Save As, CSV UTF-8 (Comma "
                                              "delimited)) and choose that file")
      for codec in ("utf-16", "utf-16-le", "utf-16-be")],
    (b"\x00\x01\x02\x03binary" * 10, "data.csv", "data.csv: this is not a text file (it holds binary data)"),
    (_zip({"mimetype": b"application/vnd.oasis.opendocument.spreadsheet"}), "budget.ods",
     "budget.ods: an OpenDocument spreadsheet (.ods); a table is read from a CSV file (.csv) or an Excel workbook "
     "(.xlsx)"),
])
def test_a_file_that_is_not_a_table_gets_one_clear_line(data, name, said):
    with pytest.raises(TableError) as err:
        read(data, name)
    assert str(err.value).startswith(said) and "\n" not in str(err.value)


def test_a_part_that_declares_a_document_type_is_refused_before_it_is_parsed():
    bomb = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
            b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol2;</t></si></sst>')
    data = workbook({"S": [["name"], ["A"]]})
    data = rewritten(data, "[Content_Types].xml", lambda xml: b'<!DOCTYPE Types [<!ENTITY a "a">]>' + xml)
    with pytest.raises(TableError, match=r"^w.xlsx: its part \[Content_Types\].xml declares an XML document type"):
        read(data, "w.xlsx")
    utf16 = workbook({"S": [["name"], ["A"]]})
    utf16 = rewritten(utf16, "xl/workbook.xml", lambda xml: bomb.decode().encode("utf-16"))
    with pytest.raises(TableError, match="declares an XML document type"):
        read(utf16, "w.xlsx")


def test_a_workbook_that_unpacks_past_the_cap_is_refused_before_it_is_parsed():
    data = workbook({"S": [["name"]] + [["x" * 500]] * 200})
    with pytest.raises(TableError, match=r"^w.xlsx: unpacks to .* MB; a workbook may unpack to at most"):
        read(data, "w.xlsx", unpacked=50_000)


def test_kind_by_content_whatever_the_name():
    assert kind(workbook({"S": [["a"]]}), "-") == "xlsx" and kind(b"a,b\n", "-") == "csv" and kind("a,b", "x.xlsx") == "csv"
    assert kind(b"a,b\n1,2\n", "applications.dat") == "csv"


# --- both ways, any table ------------------------------------------------------------------------

amount = st.one_of(st.none(), st.integers(0, 10**12 * 100).map(lambda c: Decimal(c).scaleb(-2)))
row = st.tuples(st.sampled_from(["renovation", "master_plan", "equipment"]), amount.filter(lambda a: a is not None),
                amount, amount, st.sampled_from([None, "yes", "no"]), st.one_of(st.none(), st.integers(0, 5000)),
                st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=20))


@settings(max_examples=40, deadline=None)
@given(st.lists(row, min_size=1, max_size=6))
def test_any_table_written_as_csv_and_as_xlsx_reads_back_the_same(rows):
    """Amounts as numbers in the workbook (the float a spreadsheet holds) and as text in the CSV:
    the same parsed cents, flags, types and messages."""
    import csv
    header = ["project_type", "eligible_cost", "federal_grant", "local_contribution", "federal_law_contrary",
              "senior_density", "name"]
    text = io.StringIO()
    w = csv.writer(text)
    w.writerow(header)
    for r in rows:
        w.writerow(["" if v is None else format(v, "f") if isinstance(v, Decimal) else str(v) for v in r])
    sheet = [header] + [[float(v) if isinstance(v, Decimal) else v for v in r] for r in rows]
    a, b = read(text.getvalue(), "t.csv"), read(workbook({"S": sheet}), "t.xlsx")
    assert list(a.rows) == list(b.rows)
    va, ea = parse_frame(a.frame)
    vb, eb = parse_frame(b.frame)
    pd.testing.assert_frame_equal(va, vb)
    assert ea.tolist() == eb.tolist()


@pytest.mark.parametrize("text,cells,rows", [
    # hostile probe, 2026-12-06: the quote never closed took rows B to D into A's cell, and they were lost
    ('name,project_type,eligible_cost\nA,renovation,"1000\nB,renovation,2000\nC,renovation,3000\nD,renovation,4000\n',
     [["A", "renovation", '"1000'], ["B", "renovation", "2000"], ["C", "renovation", "3000"],
      ["D", "renovation", "4000"]], [2, 3, 4, 5]),
    # the quote on the last row but one: it took only the line after it
    ('name,project_type,eligible_cost\nA,renovation,"1000\nB,renovation,2000\n',
     [["A", "renovation", '"1000'], ["B", "renovation", "2000"]], [2, 3]),
    # a quoted cell before it, a blank line after it, CR LF line ends (a quote further down would close it:
    # a cell may span lines, so the reader cannot tell that from a stray quote)
    ('name,project_type,eligible_cost,notes\r\n"A, Inc.",renovation,1000,"a note, with\r\n\r\nB,renovation,2000,x y\r\n',
     [["A, Inc.", "renovation", "1000", '"a note, with'], ["B", "renovation", "2000", "x y"]], [2, 4]),
])
def test_a_quote_never_closed_hides_no_row_after_it(text, cells, rows):
    t = read(text, "q.csv")
    assert t.frame.to_numpy().tolist() == cells and list(t.rows) == rows
    values, errors = parse_frame(t.frame)
    assert [bool(e) for e in errors] == [c[2].startswith('"') or c[1].startswith('"') for c in cells]


@pytest.mark.parametrize("data", [b"", b"\n\n  \r\n", b" " * 5000])
def test_an_empty_file_is_said_to_be_empty(data):
    """Hostile probe, 2026-12-06: a 0-byte CSV was called "UTF-16 text (what Excel calls Unicode Text)"."""
    with pytest.raises(TableError, match=r"^e\.csv: the file is empty$"):
        read(data, "e.csv")
