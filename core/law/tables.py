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
"""
from __future__ import annotations

import csv
import io
import math
import re
import warnings
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import PurePath

import numpy as np
import pandas as pd

MAX_CELL = 1_000      # characters in one cell
MAX_COLUMNS = 500     # columns of a table, in its header and in every row
BLANK_ALLOWANCE = 4   # with a row cap, at most this many blank rows per allowed row are read past
EXCEL_ROWS = 1_048_576   # the most rows a worksheet has: a row number beyond it is not read
MAX_UNPACKED = 256 * 1024 * 1024   # a workbook's parts unpacked: as much text as a CSV file may hold
MAX_PARTS = 10_000    # files in a workbook's archive (a real one has a few dozen)
_LINE = re.compile(r"\r\n|\r|\n")   # what ends a line for pandas and the csv module alike
_MB = 1024 * 1024

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
_UTF16 = (b"\xff\xfe", b"\xfe\xff")   # the byte-order marks of UTF-16 text (Excel's "Unicode Text")
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
        return read_xlsx(data, name, sheet, max_rows, unpacked)
    if sheet is not None:
        raise TableError(f"{name}: a sheet was named ({sheet!r}), but this is a CSV file, which has none; "
                         "sheets are for an Excel workbook (.xlsx)")
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


# --- CSV ---------------------------------------------------------------------------------------


def _decode(data: bytes | str, name: str) -> str:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    head = data[:4096]
    zeros = sorted((head[::2].count(0), head[1::2].count(0)))   # UTF-16 of Latin text: one byte of two is 0
    if head.startswith(_UTF16) or (zeros[1] >= 0.4 * len(head) and zeros[0] <= 0.05 * len(head)):
        raise TableError(f"{name}: UTF-16 text (what Excel calls Unicode Text), which is not read; save it as "
                         f"CSV UTF-8 (in Excel: Save As, CSV UTF-8 (Comma delimited)) and choose that file")
    if b"\x00" in head:
        raise TableError(f"{name}: this is not a text file (it holds binary data); {WHAT_IS_READ}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_csv(data: bytes | str, name: str = "file", max_rows: int | None = None) -> Table:
    """A CSV file (UTF-8 with or without BOM, or Latin-1; comma or semicolon) as a Table.
    Leading lines that are blank or start with '#' are notes, skipped and counted."""
    text = _decode(data, name)
    before = 0   # lines above the header
    while True:
        m = _LINE.search(text)
        line = text[:m.start()] if m else text
        if line.strip() and not line.lstrip().startswith("#"):
            break
        if not m:
            text = ""
            break
        text, before = text[m.end():], before + 1
    if not text.strip():
        raise TableError(f"{name}: the file is empty")
    first = _LINE.split(text, maxsplit=1)[0]
    unquoted = re.sub(r'"[^"]*"?', "", first)   # a separator inside a quoted title is not one
    sep = ";" if unquoted.count(";") > unquoted.count(",") else ","
    header, header_lines = _header(text, sep, name)
    body = text
    for _ in range(header_lines):
        m = _LINE.search(body)
        body = body[m.end():] if m else ""
    limit = None if max_rows is None else max_rows * (1 + BLANK_ALLOWANCE)
    first_row = before + header_lines + 1
    if '"' in body:
        records, rows = _quoted_records(body, sep, len(header), first_row, name, limit, max_rows)
        frame = pd.DataFrame(records, columns=range(len(header)), dtype="str") if records else None
    else:
        frame, rows = _plain_records(body, sep, len(header), first_row, name, limit, max_rows)
    return _table(frame, rows, _titles(header, name, _ordinal), name)


def _header(text: str, sep: str, name: str) -> tuple[list[str], int]:
    """The header's cells (a quoted title may hold the separator or a line break), at most
    MAX_COLUMNS, and how many lines it takes."""
    reader = csv.reader(io.StringIO(text[:1_000_000], newline=""), delimiter=sep)
    try:
        header = next(reader)
    except (csv.Error, StopIteration) as exc:
        raise TableError(f"{name}: the header cannot be read as CSV ({str(exc)[:80] or 'no header'})") from None
    if len(header) > MAX_COLUMNS:
        raise TableError(f"{name}: {len(header):,} columns; a portfolio has at most {MAX_COLUMNS}")
    return header, reader.line_num


def _too_wide(name: str, row: int, cells: int, columns: int) -> TableError:
    # pandas made the extra cells an index of thousands of levels, then failed (7.6 s of CPU)
    return TableError(f"{name}: row {row} has {cells:,} cells but the header names {columns:,} columns; "
                      "every row has at most as many cells as the header")


def _too_many(name: str, max_rows: int) -> TableError:
    return TableError(f"{name}: more than {max_rows:,} applications; split the portfolio into smaller files")


def _too_long(name: str, limit: int) -> TableError:
    return TableError(f"{name}: more than {limit:,} rows, blank ones included; remove the blank rows or split "
                      "the file")


def _plain_records(body: str, sep: str, columns: int, first_row: int, name: str, limit, max_rows):
    """No quotes: each line is a row. Line ends and blank lines are found with numpy and the rows
    read by Arrow's CSV reader, all in C (a loop of Python over 200,000 lines doubled the batch's
    reading time); only a line that may be blank (no visible ASCII character but separators) is
    looked at in Python. A row of another width than the header's fails Arrow's reader; then the
    separators are counted per line and the rows read by pandas, which says what is wrong as before."""
    if "\r" in body:
        body = body.replace("\r\n", "\n").replace("\r", "\n")   # the line ends pandas and the csv module know
    data = body.encode("utf-8")   # UTF-8: no byte of a letter is a line break, a separator or ASCII
    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw == 10)
    count = len(ends) + (1 if len(raw) and raw[-1] != 10 else 0)
    if limit is not None and count > limit:
        raise _too_long(name, limit)
    if not count:
        return None, np.zeros(0, dtype=np.int64)
    starts = np.concatenate([[0], ends + 1])[:count]
    # Visible: a byte of 33 to 127 (one subtraction that wraps below 33), not the separator.
    shown = ((raw - np.uint8(33)) < np.uint8(95)) & (raw != ord(sep))
    visible = np.logical_or.reduceat(shown, starts)   # an empty line: its "\n"
    blank = np.zeros(count, dtype=bool)
    lines = None
    if not visible.all():
        lines = body.split("\n")
        for i in np.flatnonzero(~visible):   # spaces of any kind and separators only: blank
            blank[i] = not lines[i].replace(sep, "").strip()

    def no_row_too_wide():
        cells = np.bincount(np.searchsorted(ends, np.flatnonzero(raw == ord(sep))), minlength=count)[:count] + 1
        wide = np.flatnonzero((cells > columns) & ~blank)
        if wide.size:   # pandas would drop the extra cells of a first line, or fail on a later one
            raise _too_wide(name, first_row + int(wide[0]), int(cells[wide[0]]), columns)

    kept = np.flatnonzero(~blank)
    if max_rows is not None and len(kept) > max_rows:
        no_row_too_wide()
        raise _too_many(name, max_rows)
    rows = first_row + kept.astype(np.int64)
    if not len(kept):
        return None, rows
    if len(kept) < count:
        lines = lines if lines is not None else body.split("\n")
        data = ("\n".join(lines[i] for i in kept) + "\n").encode("utf-8")
    if b"\x00" not in data:
        frame = _arrow_frame(data, sep, columns)
        if frame is not None:
            return frame, rows
    no_row_too_wide()
    try:
        frame = pd.read_csv(io.BytesIO(data), sep=sep, header=None, names=range(columns), dtype=str,
                            keep_default_na=False, na_filter=False, on_bad_lines="error", index_col=False,
                            skip_blank_lines=False, encoding="utf-8")
    except (pd.errors.ParserError, ValueError) as exc:
        raise TableError(f"{name}: cannot be read as CSV ({str(exc).splitlines()[0]})") from None
    return frame, rows


def _arrow_frame(data: bytes, sep: str, columns: int) -> pd.DataFrame | None:
    """Lines without quotes as text columns, or None where a line has another number of cells than
    the header (Arrow's reader refuses it; pandas' then reads or refuses it as before). Arrow's CSV
    reader parses them in C, each cell as written (no quoting, no trimming, no missing values), into
    the same text columns pandas' reader gives (tests/law/test_batch_io.py compares them). It makes
    no Python string per cell (pandas' reader made one, then Arrow text of it: half the batch's
    reading time)."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv
    names = [str(i) for i in range(columns)]
    try:
        table = pa_csv.read_csv(
            io.BytesIO(data),
            # One thread: on a shared machine more threads cost more CPU and took no less time.
            read_options=pa_csv.ReadOptions(column_names=names, block_size=1 << 20, use_threads=False),
            parse_options=pa_csv.ParseOptions(delimiter=sep, quote_char=False, double_quote=False,
                                              escape_char=False, newlines_in_values=False, ignore_empty_lines=False),
            convert_options=pa_csv.ConvertOptions(column_types={n: pa.large_string() for n in names},
                                                  strings_can_be_null=False, quoted_strings_can_be_null=False))
    except pa.ArrowInvalid:
        return None
    text = pd.StringDtype("pyarrow", na_value=np.nan)   # pandas' "str"
    return pd.DataFrame({i: pd.Series(table.column(i), dtype=text) for i in range(columns)})


def _quoted_records(body: str, sep: str, columns: int, first_row: int, name: str, limit, max_rows):
    """With quotes, a cell may hold the separator or a line break: the csv module reads each row,
    and its line count gives the line each row starts on."""
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=sep)
    records, rows, seen, done = [], [], 0, 0
    try:
        for cells in reader:
            row, done, seen = first_row + done, reader.line_num, seen + 1
            if limit is not None and seen > limit:
                raise _too_long(name, limit)
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > columns:
                raise _too_wide(name, row, len(cells), columns)
            records.append(cells + [""] * (columns - len(cells)))
            rows.append(row)
            if max_rows is not None and len(records) > max_rows:
                raise _too_many(name, max_rows)
    except csv.Error as exc:
        raise TableError(f"{name}: row {first_row + done} cannot be read as CSV ({str(exc)[:80]})") from None
    return records, np.array(rows, dtype=np.int64)


def _ordinal(i: int) -> str:
    return str(i + 1)


def _titles(header: list, name: str, column_name) -> list[str]:
    """Column titles: trimmed; an empty one named as pandas names it; each title at most once."""
    titles = [str(h).strip() or f"Unnamed: {i}" for i, h in enumerate(header)]
    first: dict[str, int] = {}
    for i, t in enumerate(titles):
        if t in first:
            raise TableError(f"{name}: the column {t[:60]!r} appears twice in the header (columns "
                             f"{column_name(first[t])} and {column_name(i)}); name each column once")
        first[t] = i
    return titles


def _table(frame: pd.DataFrame | None, rows: np.ndarray, titles: list[str], name: str, sheet=None,
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


# --- Excel workbooks ----------------------------------------------------------------------------


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
            raise TableError(f"{name}: unpacks to {total / _MB:,.0f} MB; a workbook may unpack to at most "
                             f"{unpacked // _MB:,} MB: split it, or save it as CSV")
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
        return _table(frame, rows, titles, label, ws.title, sheets)
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
            raise _too_long(name, limit)
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
            raise _too_many(name, max_rows)
    if header is None:
        raise TableError(f"{name}: the sheet is empty")
    titles = _titles(header, name, column_letter)
    frame = pd.DataFrame(records, columns=range(width), dtype="str") if records else None
    return frame, np.array(rows, dtype=np.int64), titles
