"""Excel workbooks made in tests: from rows of typed cells, from a CSV file's text as a person
would type it into a spreadsheet, and with one of their XML parts rewritten (hostile files)."""
from __future__ import annotations

import csv
import io
import zipfile


def workbook(sheets: dict[str, list[list]]) -> bytes:
    """A workbook whose sheets hold these rows (None is an empty cell), in this order."""
    import openpyxl
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for row in rows:
            ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def typed(text: str):
    """A CSV cell as a spreadsheet holds it once typed: a number when it reads as one, else text."""
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def workbook_of_csv(text: str, title: str = "Applications", others: tuple[str, ...] = ()) -> bytes:
    """The rows of a CSV file typed into a sheet, line for line (a '#' note line is row 1 as it is
    line 1), each number a number; `others`: more sheets, after it, each with a cell of text."""
    rows = [[typed(c) for c in r] if r and not r[0].startswith("#") else r for r in csv.reader(io.StringIO(text))]
    return workbook({title: rows, **{o: [["another sheet"]] for o in others}})


def rewritten(data: bytes, part: str, change) -> bytes:
    """The workbook with its part `part` (an XML file in the archive) passed through change(bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info)
            dst.writestr(info.filename, change(body) if info.filename == part else body)
    return out.getvalue()


def cells(data: bytes, sheet: str) -> list[list]:
    """Every cell object of a sheet, row by row (openpyxl, not read-only: formats and panes too)."""
    import openpyxl
    return [list(r) for r in openpyxl.load_workbook(io.BytesIO(data))[sheet].iter_rows()]
