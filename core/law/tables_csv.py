"""A CSV file read as a Table (core/law/tables.py): UTF-8 with or without a byte-order mark, or
Latin-1; comma or semicolon; each row with its line number in the file (notes, the header and blank
lines counted; a quoted cell that spans lines counts them all). Lines without quotes are read in
whole columns by numpy and Arrow; with quotes, the csv module reads each row. A quote never closed
does not swallow the rows after it (`_unclosed`)."""
from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd

from core.law.tables import (LINE_END, UTF16_MARKS, BLANK_ALLOWANCE, MAX_COLUMNS, WHAT_IS_READ, Table, TableError, as_table,
                             column_titles, too_long, too_many)


def _decode(data: bytes | str, name: str) -> str:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    head = data[:4096]
    if not head.strip() and not data[4096:].strip():   # nothing, or only blanks (an empty head passed the UTF-16 test)
        raise TableError(f"{name}: the file is empty")
    zeros = sorted((head[::2].count(0), head[1::2].count(0)))   # UTF-16 of Latin text: one byte of two is 0
    if head.startswith(UTF16_MARKS) or (zeros[1] >= 0.4 * len(head) and zeros[0] <= 0.05 * len(head)):
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
        m = LINE_END.search(text)
        line = text[:m.start()] if m else text
        if line.strip() and not line.lstrip().startswith("#"):
            break
        if not m:
            text = ""
            break
        text, before = text[m.end():], before + 1
    if not text.strip():
        raise TableError(f"{name}: the file is empty")
    first = LINE_END.split(text, maxsplit=1)[0]
    unquoted = re.sub(r'"[^"]*"?', "", first)   # a separator inside a quoted title is not one
    sep = ";" if unquoted.count(";") > unquoted.count(",") else ","
    header, header_lines = _header(text, sep, name)
    body = text
    for _ in range(header_lines):
        m = LINE_END.search(body)
        body = body[m.end():] if m else ""
    limit = None if max_rows is None else max_rows * (1 + BLANK_ALLOWANCE)
    first_row = before + header_lines + 1
    if '"' in body:
        records, rows = _quoted_records(body, sep, len(header), first_row, name, limit, max_rows)
        frame = pd.DataFrame(records, columns=range(len(header)), dtype="str") if records else None
    else:
        frame, rows = _plain_records(body, sep, len(header), first_row, name, limit, max_rows)
    return as_table(frame, rows, column_titles(header, name, _ordinal), name)


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
        raise too_long(name, limit)
    if not count:
        return None, np.zeros(0, dtype=np.int64)
    blank, lines = _blank_lines(body, raw, np.concatenate([[0], ends + 1])[:count], sep)
    widths = _Widths(raw, ends, sep, count, columns, blank, name, first_row)
    kept = np.flatnonzero(~blank)
    if max_rows is not None and len(kept) > max_rows:
        widths.check()
        raise too_many(name, max_rows)
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
    widths.check()
    try:
        frame = pd.read_csv(io.BytesIO(data), sep=sep, header=None, names=range(columns), dtype=str,
                            keep_default_na=False, na_filter=False, on_bad_lines="error", index_col=False,
                            skip_blank_lines=False, encoding="utf-8")
    except (pd.errors.ParserError, ValueError) as exc:
        raise TableError(f"{name}: cannot be read as CSV ({str(exc).splitlines()[0]})") from None
    return frame, rows


def _blank_lines(body: str, raw: np.ndarray, starts: np.ndarray, sep: str) -> tuple[np.ndarray, list | None]:
    """Which lines are blank (spaces of any kind and separators only), and the lines split in Python
    where any had to be looked at (None where none did)."""
    # Visible: a byte of 33 to 127 (one subtraction that wraps below 33), not the separator.
    shown = ((raw - np.uint8(33)) < np.uint8(95)) & (raw != ord(sep))
    visible = np.logical_or.reduceat(shown, starts)   # an empty line: its "\n"
    blank = np.zeros(len(starts), dtype=bool)
    lines = None
    if not visible.all():
        lines = body.split("\n")
        for i in np.flatnonzero(~visible):
            blank[i] = not lines[i].replace(sep, "").strip()
    return blank, lines


class _Widths:
    """The cells of each line counted by its separators, only when asked: no row may be wider than
    the header (pandas would drop the extra cells of a first line, or fail on a later one)."""

    def __init__(self, raw, ends, sep: str, count: int, columns: int, blank, name: str, first_row: int):
        self.raw, self.ends, self.sep, self.count, self.columns = raw, ends, sep, count, columns
        self.blank, self.name, self.first_row = blank, name, first_row

    def check(self) -> None:
        at = np.searchsorted(self.ends, np.flatnonzero(self.raw == ord(self.sep)))
        cells = np.bincount(at, minlength=self.count)[:self.count] + 1
        wide = np.flatnonzero((cells > self.columns) & ~self.blank)
        if wide.size:
            raise _too_wide(self.name, self.first_row + int(wide[0]), int(cells[wide[0]]), self.columns)


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
    records, rows, seen, done, started = [], [], 0, 0, 0
    try:
        for cells in reader:
            started = done
            row, done, seen = first_row + done, reader.line_num, seen + 1
            if limit is not None and seen > limit:
                raise too_long(name, limit)
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > columns:
                raise _too_wide(name, row, len(cells), columns)
            records.append(cells + [""] * (columns - len(cells)))
            rows.append(row)
            if max_rows is not None and len(records) > max_rows:
                raise too_many(name, max_rows)
    except csv.Error as exc:
        raise TableError(f"{name}: row {first_row + done} cannot be read as CSV ({str(exc)[:80]})") from None
    if records and rows[-1] == first_row + started and done - started > 1 and body.count('"') % 2:
        # A quote opened and never closed took every line after it into one cell of the last row. That row
        # keeps its quote as a character (its own check then says what is wrong with that cell); every
        # line after it is read as rows of their own: a stray quote never hides the good rows below it.
        lines = io.StringIO(body, newline="").readlines()
        cells = _unclosed(lines[started].rstrip("\r\n"), sep)
        if len(cells) > columns:
            raise _too_wide(name, rows[-1], len(cells), columns)
        records[-1] = cells + [""] * (columns - len(cells))
        rest = "".join(lines[started + 1:])
        if rest.strip():
            left = None if limit is None else limit - seen
            more, more_rows = _quoted_records(rest, sep, columns, rows[-1] + 1, name, left,
                                              None if max_rows is None else max_rows - len(records))
            records += more
            rows += list(more_rows)
    return records, np.array(rows, dtype=np.int64)


def _unclosed(line: str, sep: str) -> list[str]:
    """The cells of a line whose last quote opens a cell it never closes: the cells before it as CSV,
    then that quote and the rest of the line as one cell."""
    at = line.rfind('"')
    head = next(csv.reader([line[:at]], delimiter=sep), [""]) if line[:at] else [""]
    return head[:-1] + [head[-1] + line[at:]]


def _ordinal(i: int) -> str:
    return str(i + 1)
