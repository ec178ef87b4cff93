"""An Excel workbook (.xlsx) read as a Table (core/law/tables.py), each row with its row number in
the sheet.

Cells are text, as the validators expect. A workbook's numbers are turned into the text a person
typed: 1000000.0 is "1000000", 1250.5 is "1250.50" (never a binary-float artefact such as
0.30000000000000004); a formula keeps its text ("=SUM(B2:B4)") and a date its ISO text, so that
the amount validator refuses them by name (core/law/money.py).

A workbook is a zip archive of XML parts; before any of it is parsed, its parts are counted, their
unpacked size is capped, and a part that declares a document type (the vehicle of XML entity
expansion) is refused.
"""
from __future__ import annotations

import io
import math
import re
import warnings
import zipfile
from decimal import Decimal

import numpy as np
import pandas as pd

from core.law.tables import (MB, BLANK_ALLOWANCE, EXCEL_ROWS, MAX_COLUMNS, MAX_PARTS, MAX_UNPACKED, WHAT_IS_READ, Table,
                             TableError, as_table, column_titles, too_long, too_many)


def number_text(value: float) -> str:
    """A workbook's number as the text a person typed: integral -> its digits; up to two
    decimals -> two decimals; more -> every decimal, for the validators to refuse as fractions
    of a cent. Shortest round-trip first (what the cell holds), then Excel's own 15 significant
    digits (0.30000000000000004 was 0.3 to it)."""
    if not math.isfinite(value):
        return repr(value)
    exact = Decimal(repr(value))
    if exact == 0:
        return "0"   # -0.0 too
    if exact == exact.to_integral_value():
        return format(exact.normalize(), "f")   # a float has at most 17 digits: exact
    if exact.as_tuple().exponent >= -2:
        return f"{exact:.2f}"
    excel = Decimal(format(value, ".15g"))
    if excel.as_tuple().exponent >= -2 and excel != excel.to_integral_value():
        return f"{excel:.2f}"
    return format(exact, "f")


def cell_text(value, data_type: str = "n") -> str:
    """One workbook cell as text: see the module's docstring."""
    import datetime as dt
    if value is None:
        return ""
    if data_type == "f":   # a formula: its text, never a value computed when the file was last saved
        text = value if isinstance(value, str) else str(getattr(value, "text", "") or "")
        return text if text.startswith("=") else "=" + text
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def column_letter(i: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    letters = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def _archive(data: bytes, name: str, unpacked: int) -> None:
    """Refuse, before any XML is parsed, what is not a workbook or could not be read safely."""
    damaged = f"{name}: cannot be read as an Excel workbook (the file is damaged); open it in Excel and save it again"
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise TableError(damaged) from None
    with zf:
        if len(infos) > MAX_PARTS:
            raise TableError(f"{name}: {len(infos):,} files in the archive; an Excel workbook has a few dozen")
        names = {i.filename for i in infos}
        if "[Content_Types].xml" not in names or not any(n.startswith("xl/") for n in names):
            what = ("a Word document" if any(n.startswith("word/") for n in names) else
                    "a PowerPoint file" if any(n.startswith("ppt/") for n in names) else
                    "an OpenDocument file" if "mimetype" in names else "a zip archive")
            raise TableError(f"{name}: {what}, not an Excel workbook; {WHAT_IS_READ}")
        total = sum(i.file_size for i in infos)   # what is read never exceeds what the archive declares
        if total > unpacked:
            raise TableError(f"{name}: unpacks to {total / MB:,.0f} MB; a workbook may unpack to at most "
                             f"{unpacked // MB:,} MB: split it, or save it as CSV")
        for info in infos:
            if info.flag_bits & 0x1:
                raise TableError(f"{name}: the workbook is encrypted; save it without a password")
            if info.filename.endswith((".xml", ".rels")) and info.file_size:
                try:
                    with zf.open(info) as fh:
                        head = fh.read(65_536)
                except (zipfile.BadZipFile, NotImplementedError, ValueError, OSError, EOFError):
                    raise TableError(damaged) from None
                if _declares_doctype(head, info.file_size > len(head)):
                    raise TableError(f"{name}: its part {info.filename[:60]} declares an XML document type, which "
                                     "an Excel workbook never does; it is not read")


def _declares_doctype(head: bytes, more: bool) -> bool:
    """A document type comes before the root element: is one there, or is the root not within
    the first 64 KB (a prolog so long is not Excel's)?"""
    text = head.replace(b"\x00", b"")   # UTF-16 parts read as their ASCII letters
    root = re.search(rb"<[A-Za-z_]", text)
    doctype = re.search(rb"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE)
    if doctype and (root is None or doctype.start() < root.start()):
        return True
    return root is None and more


def _unreadable(name: str, exc: BaseException) -> TableError:
    reason = str(exc).splitlines()[0][:80] if str(exc).strip() else type(exc).__name__
    return TableError(f"{name}: cannot be read as an Excel workbook ({reason}); open it in Excel and save it "
                      "again as .xlsx, or save it as CSV")


def _open(data: bytes, name: str, unpacked: int):
    _archive(data, name, unpacked)
    import openpyxl
    try:
        with warnings.catch_warnings():   # "no default style", unknown extensions: nothing for the user
            warnings.simplefilter("ignore")
            return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False, keep_links=False)
    except Exception as exc:   # noqa: BLE001 - a hostile archive can fail anywhere in the library
        raise _unreadable(name, exc) from None


def sheet_names(data: bytes, name: str = "file", unpacked: int = MAX_UNPACKED) -> tuple[str, ...]:
    """The worksheets of a workbook, in order (chart sheets left out)."""
    wb = _open(data, name, unpacked)
    try:
        return tuple(ws.title for ws in wb.worksheets)
    finally:
        wb.close()


def read_xlsx(data: bytes, name: str = "file", sheet: str | None = None, max_rows: int | None = None,
              unpacked: int = MAX_UNPACKED) -> Table:
    """The first worksheet of an Excel workbook (or the one named `sheet`) as a Table. Leading
    rows that are blank or whose first cell starts with '#' are notes; the next row is the header."""
    wb = _open(data, name, unpacked)
    try:
        sheets = tuple(ws.title for ws in wb.worksheets)
        if sheet is None:
            if not sheets:
                raise TableError(f"{name}: the workbook has no worksheet")
            ws = wb.worksheets[0]
        elif sheet in sheets:
            ws = wb.worksheets[sheets.index(sheet)]
        elif sheet in wb.sheetnames:
            raise TableError(f"{name}: the sheet {sheet!r} is a chart, not a table")
        else:
            listed = ", ".join(repr(s) for s in sheets[:20]) + (", ..." if len(sheets) > 20 else "")
            raise TableError(f"{name}: no sheet named {sheet!r}; its sheets are {listed}")
        label = f"{name}, sheet {ws.title!r}" if sheet is not None or len(sheets) > 1 else name
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                frame, rows, titles = _sheet(ws, label, max_rows)
        except TableError:
            raise
        except Exception as exc:   # noqa: BLE001 - damaged XML, a number of 5,000 digits, ...
            raise _unreadable(name, exc) from None
        return as_table(frame, rows, titles, label, ws.title, sheets)
    finally:
        wb.close()


def _sheet(ws, name: str, max_rows: int | None):
    from openpyxl.cell.read_only import EMPTY_CELL
    ws.reset_dimensions()   # a sheet's stated size may be wrong, or hostile (A1:XFD1048576)
    limit = None if max_rows is None else max_rows * (1 + BLANK_ALLOWANCE)
    header, header_row, width = None, 0, 0
    records, rows = [], []
    # At most MAX_COLUMNS + 1 cells a row: a cell further right only shows the row is too wide.
    for r, cells in enumerate(ws.iter_rows(min_row=1, min_col=1, max_col=MAX_COLUMNS + 1, max_row=EXCEL_ROWS),
                              start=1):
        if header is None:
            texts = [cell_text(c.value, c.data_type) for c in cells]
            if not any(t.strip() for t in texts) or texts[0].lstrip().startswith("#"):
                continue   # notes above the header, as a CSV file's '#' lines
            while texts and not texts[-1].strip():
                texts.pop()
            if len(texts) > MAX_COLUMNS:
                raise TableError(f"{name}: more than {MAX_COLUMNS} columns; a portfolio has at most {MAX_COLUMNS}")
            header, header_row, width = texts, r, len(texts)
            continue
        if limit is not None and r - header_row > limit:
            raise too_long(name, limit)
        beyond = cells[width:]
        if beyond and {id(c) for c in beyond} != {id(EMPTY_CELL)}:   # a cell of its own right of the header
            extra = [i for i, c in enumerate(beyond, start=width) if cell_text(c.value, c.data_type).strip()]
            if extra:
                raise TableError(f"{name}: row {r} has a value in column {column_letter(extra[-1])}, right of the "
                                 f"header's {width:,} columns; every value is under a column title")
        texts = [cell_text(c.value, c.data_type) for c in cells[:width]]
        if not any(t.strip() for t in texts):
            continue
        records.append(texts)
        rows.append(r)
        if max_rows is not None and len(records) > max_rows:
            raise too_many(name, max_rows)
    if header is None:
        raise TableError(f"{name}: the sheet is empty")
    titles = column_titles(header, name, column_letter)
    frame = pd.DataFrame(records, columns=range(width), dtype="str") if records else None
    return frame, np.array(rows, dtype=np.int64), titles
