"""Tables people hand over, a CSV file or an Excel workbook (.xlsx), read as text cells, each
row with the number it has in the file, under the same limits whatever the format.

A row's number is the file's own: the spreadsheet's row, or the CSV's line (notes, the header
and blank lines counted; a quoted cell that spans lines counts them all), so that "row 7" is
where the person finds it. Blank rows, and rows of empty cells such as the `,,,,` a
spreadsheet writes, are skipped and never counted as errors.

Cells are text, as the validators expect. A workbook's numbers are turned into the text a
person typed: 1000000.0 is "1000000", 1250.5 is "1250.50" (never a binary-float artefact
such as 0.30000000000000004); a formula keeps its text ("=SUM(B2:B4)") and a date its ISO
text, so that the amount validator refuses them by name (core/law/money.py).

A workbook is a zip archive of XML parts; before any of it is parsed, its parts are counted,
their unpacked size is capped, and a part that declares a document type (the vehicle of XML
entity expansion) is refused.

The reading of each format is its own module: core/law/tables_csv.py (CSV) and
core/law/tables_xlsx.py (Excel workbooks); this one holds what they share: the limits, the
Table, the file's kind, the column titles and the refusals in words.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

import numpy as np
import pandas as pd

MAX_CELL = 1_000      # characters in one cell
MAX_COLUMNS = 500     # columns of a table, in its header and in every row
BLANK_ALLOWANCE = 4   # with a row cap, at most this many blank rows per allowed row are read past
EXCEL_ROWS = 1_048_576   # the most rows a worksheet has: a row number beyond it is not read
MAX_UNPACKED = 256 * 1024 * 1024   # a workbook's parts unpacked: as much text as a CSV file may hold
MAX_PARTS = 10_000    # files in a workbook's archive (a real one has a few dozen)
LINE_END = re.compile(r"\r\n|\r|\n")   # what ends a line for pandas and the csv module alike
MB = 1024 * 1024

# Files people pick by mistake, said in words (read by content otherwise: "-" has no name).
_OTHER_KINDS = {".xls": "an Excel 97-2003 workbook (.xls)", ".ods": "an OpenDocument spreadsheet (.ods)",
                ".numbers": "a Numbers spreadsheet", ".json": "a JSON file", ".pdf": "a PDF file",
                ".doc": "a Word document", ".docx": "a Word document", ".pptx": "a PowerPoint file",
                ".zip": "a zip archive", ".png": "an image", ".jpg": "an image", ".jpeg": "an image",
                ".toml": "a TOML file", ".html": "a web page", ".htm": "a web page"}
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"   # .xls, .doc, and any password-protected Office file
# Files known by their first bytes, whatever their name says (a PDF renamed .csv was read as a
# table and got "missing column 'project_type'").
_MAGIC = {b"%PDF-": "a PDF file", b"\x89PNG": "an image", b"\xff\xd8\xff": "an image", b"GIF8": "an image",
          b"{\\rtf": "a Word (RTF) document"}
UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")   # the byte-order marks of UTF-16 text (Excel's "Unicode Text")
WHAT_IS_READ = "a table is read from a CSV file (.csv) or an Excel workbook (.xlsx)"
SAVE_AS = "in Excel, use Save As and pick Excel Workbook (.xlsx) or CSV UTF-8"


class TableError(ValueError):
    """The file as a whole cannot be used; the message is one line that names the file and says why."""


@dataclass(frozen=True)
class Table:
    frame: pd.DataFrame          # text cells, one row per row of the file that is not blank
    rows: np.ndarray             # int64: each row's number in the file
    sheet: str | None = None     # the worksheet read, for a workbook
    sheets: tuple[str, ...] = field(default=())   # every worksheet of the workbook
    unknown: tuple[str, ...] = field(default=())  # a portfolio's column titles that are no field's (kept as given)


def read(data: bytes | str, name: str = "file", sheet: str | None = None, max_rows: int | None = None,
         unpacked: int = MAX_UNPACKED) -> Table:
    """A CSV file's text or an Excel workbook's bytes as a Table. `sheet`: a workbook's sheet
    by name (the first if None). `max_rows`: the most rows (blank ones not counted)."""
    if kind(data, name) == "xlsx":
        from core.law.tables_xlsx import read_xlsx   # each reader reads this module's limits: imported when asked
        return read_xlsx(data, name, sheet, max_rows, unpacked)
    if sheet is not None:
        raise TableError(f"{name}: a sheet was named ({sheet!r}), but this is a CSV file, which has none; "
                         "sheets are for an Excel workbook (.xlsx)")
    from core.law.tables_csv import read_csv
    return read_csv(data, name, max_rows)


def kind(data: bytes | str, name: str = "file") -> str:
    """'xlsx' or 'csv', by content; a file of another kind is refused in words."""
    suffix = PurePath(name).suffix.lower()
    if isinstance(data, str):
        return "csv"
    if data[:2] == b"PK":   # every zip archive, and so every .xlsx, starts so
        if suffix in _OTHER_KINDS and suffix != ".zip":
            raise TableError(f"{name}: {_OTHER_KINDS[suffix]}; {WHAT_IS_READ}")
        return "xlsx"
    found = next((what for magic, what in _MAGIC.items() if data.startswith(magic)), None)
    if found:
        named = f", though its name ends in {suffix}" if suffix and _OTHER_KINDS.get(suffix) != found else ""
        raise TableError(f"{name}: {found}{named}; {WHAT_IS_READ}")
    if data[:8] == _OLE:
        raise TableError(f"{name}: an Excel 97-2003 workbook (.xls) or a password-protected file; {WHAT_IS_READ}: "
                         f"{SAVE_AS}, without a password")
    if suffix in (".xlsx", ".xlsm"):
        raise TableError(f"{name}: not an Excel workbook, though its name ends in {suffix} (a workbook is a zip "
                         f"archive and this is not one); the file may be damaged or renamed: open it in Excel "
                         f"and save it again, or save it as CSV")
    if suffix in _OTHER_KINDS:
        raise TableError(f"{name}: {_OTHER_KINDS[suffix]}; {WHAT_IS_READ}")
    return "csv"


def too_many(name: str, max_rows: int) -> TableError:
    return TableError(f"{name}: more than {max_rows:,} applications; split the portfolio into smaller files")


def too_long(name: str, limit: int) -> TableError:
    return TableError(f"{name}: more than {limit:,} rows, blank ones included; remove the blank rows or split "
                      "the file")


def column_titles(header: list, name: str, column_name) -> list[str]:
    """Column titles: trimmed; an empty one named as pandas names it; each title at most once."""
    titles = [str(h).strip() or f"Unnamed: {i}" for i, h in enumerate(header)]
    first: dict[str, int] = {}
    for i, t in enumerate(titles):
        if t in first:
            raise TableError(f"{name}: the column {t[:60]!r} appears twice in the header (columns "
                             f"{column_name(first[t])} and {column_name(i)}); name each column once")
        first[t] = i
    return titles


def as_table(frame: pd.DataFrame | None, rows: np.ndarray, titles: list[str], name: str, sheet=None,
           sheets=()) -> Table:
    if frame is None:
        frame = pd.DataFrame({t: pd.Series([], dtype="str") for t in titles})
    frame.columns = titles
    for col in frame.columns:   # a 1 MB name froze the browser for 95 s: no cell is longer than a sentence
        lengths = frame[col].str.len()
        if len(frame) and lengths.max() > MAX_CELL:
            at = int(lengths.to_numpy().argmax())
            raise TableError(f"{name}: row {int(rows[at])}, column {str(col)[:40]!r}: {int(lengths.max()):,} "
                             f"characters; a cell holds at most {MAX_CELL:,}")
    return Table(frame, rows, sheet, tuple(sheets))
