"""Files users take away: CSV made safe for spreadsheets.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, and a TAB
or CR at the start is dropped by some of them before that test. A CR or LF inside a cell
can end the row for a reader that does not expect it, so that what follows (`x\\r=2+2`)
starts a new row as a formula. Every such cell is prefixed with an apostrophe (shown as
text by every spreadsheet) and every cell holding a CR or LF is quoted: rows end with
CRLF (RFC 4180), so the CSV writer quotes any cell with either character in it.

A character that hides or reorders text (a bidirectional override such as U+202E, a zero-width
space) is written as its code, "[U+202E]", as the screen shows it: a refused row's name kept it
raw, and the file showed a name other than the one on screen.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from core.law.names import visible

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_CONTROLS = "".join(map(chr, range(32))) + "\x7f"   # made safe below (apostrophe, quoting), not written as codes
_RISKY_CELL = r"^[=+\-@\t\r]|[\r\n]"
_ANY_RISKY = re.compile("\x00[=+\\-@\t\r]|[\r\n]")
LINE_END = "\r\n"   # the writer quotes every cell holding a character of this: CR and LF both


def dangerous(value) -> bool:
    """Text a spreadsheet could run, or that could break a row for a careless reader."""
    return isinstance(value, str) and (value.startswith(_FORMULA_START) or "\r" in value or "\n" in value)


def safe_cell(value):
    """A text cell a spreadsheet would run as a formula (or one holding a line break) gets a
    leading apostrophe, and its hidden characters are written as their codes; everything else is
    left alone."""
    if isinstance(value, str) and not value.isprintable():
        value = visible(value, keep=_CONTROLS)
    if dangerous(value):
        return "'" + value
    return value


def spreadsheet_safe(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    for col in out.columns:
        s = out[col]
        if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s):
            continue
        if isinstance(s.dtype, pd.StringDtype):   # text columns (pandas 3): vectorised tests
            hidden = ~s.map(str.isprintable, na_action="ignore").fillna(True).astype(bool)
            odd = s.str.contains(_RISKY_CELL, regex=True).fillna(False).astype(bool) | hidden
            if odd.any():
                out[col] = s.where(~odd, s[odd].map(safe_cell))
            continue
        values = s.to_numpy(dtype=object)
        try:   # the batch writes 200,000 rows: one C-level scan finds the columns with nothing risky
            joined = "\x00" + "\x00".join(values)
        except TypeError:   # not all text: cell by cell
            out[col] = s.map(safe_cell)
            continue
        if not _ANY_RISKY.search(joined) and joined.replace("\x00", "").isprintable():
            continue
        out[col] = [safe_cell(v) for v in values]
    out.columns = [safe_cell(str(c)) for c in out.columns]
    return out


def csv_text(df: pd.DataFrame, raw: bool = False) -> str:
    """The table as CSV text. raw=True keeps every cell as it is (for programs), still
    quoting CR and LF so that rows stay rows."""
    return (df if raw else spreadsheet_safe(df)).to_csv(index=False, lineterminator=LINE_END)


def csv_bytes(df: pd.DataFrame, raw: bool = False) -> bytes:
    """csv_text's bytes (UTF-8). A table of text held by Arrow (the batch's 200,000 rows) is made safe,
    quoted and joined by Arrow's compute functions in C, to the same bytes (tests/report compares them)."""
    fast = _arrow_csv(df, raw)
    return fast if fast is not None else csv_text(df, raw).encode("utf-8")


_NEEDS_QUOTES = '[,"\r\n]'   # what Python's csv writer quotes, with LINE_END (its QUOTE_MINIMAL)
_ASCII_CONTROL = "[\x00-\x1f\x7f]"   # in an ASCII cell, what str.isprintable refuses
# The bytes of UTF-8 text that never ask for a change or quotes: ASCII shown, but the comma and the quote
# (left: a control, a comma, a quote, a byte of a non-ASCII character).
_PLAIN_BYTES = bytes(b for b in range(32, 127) if b not in b',"')
_FORMULA_BYTES = np.frombuffer("".join(_FORMULA_START).encode(), dtype=np.uint8)


def _arrow_csv(df: pd.DataFrame, raw: bool) -> bytes | None:
    """csv_text(df, raw) as bytes, for a table whose every column is text held by Arrow and titled by
    text; None for any other table (numbers, objects, one column, no rows), which pandas writes.

    A column with no byte that may need a change or quotes (found with numpy on its buffers) is
    written as it is; the others are made safe (`_arrow_safe`) and quoted where Python's csv writer
    quotes. With no quoted cell anywhere, Arrow's CSV writer writes the rows; otherwise each row is
    joined by Arrow's compute functions."""
    if len(df) == 0 or len(df.columns) < 2 or not df.columns.is_unique or not all(isinstance(c, str) for c in df.columns):
        return None   # (one column: Python's writer quotes a row's lone empty cell; this does not)
    if not all(isinstance(t, pd.StringDtype) and t.storage == "pyarrow" for t in df.dtypes):
        return None
    import csv
    import io

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pa_csv

    def text_of(value):
        return pa.scalar(value, type=pa.large_string())

    head = io.StringIO()
    csv.writer(head, lineterminator=LINE_END).writerow(list(df.columns) if raw else
                                                       [safe_cell(c) for c in df.columns])
    cells, quoted_any = [], False
    for col in df.columns:
        text = pc.cast(df[col].array.__arrow_array__(), pa.large_string())
        if _may_be_odd(text):
            if not raw:
                text = _arrow_safe(text, pa, pc)
            needs = pc.fill_null(pc.match_substring_regex(text, _NEEDS_QUOTES), False)
            if pc.any(needs).as_py():
                quoted = pc.binary_join_element_wise(text_of('"'), pc.replace_substring(text, '"', '""'),
                                                     text_of('"'), text_of(""))
                text, quoted_any = pc.if_else(needs, quoted, text), True
        cells.append(text)
    if not quoted_any:   # nothing for a writer to quote: Arrow's writes every cell as it is, nulls empty
        body = io.BytesIO()
        pa_csv.write_csv(pa.table(cells, names=[str(i) for i in range(len(cells))]), body,
                         pa_csv.WriteOptions(include_header=False, quoting_style="none", eol=LINE_END))
        return head.getvalue().encode("utf-8") + body.getvalue()
    cells = [pc.fill_null(c, text_of("")) for c in cells]   # na_rep
    rows = pc.binary_join_element_wise(*cells, text_of(","))
    rows = pc.binary_join_element_wise(rows, text_of(""), text_of(LINE_END)).combine_chunks()
    offsets = np.frombuffer(rows.buffers()[1], dtype=np.int64)
    body = memoryview(rows.buffers()[2])[offsets[rows.offset]:offsets[rows.offset + len(rows)]]
    return head.getvalue().encode("utf-8") + bytes(body)


def _may_be_odd(text) -> bool:
    """Whether any cell of an Arrow large-text column holds a byte not in _PLAIN_BYTES or starts as a formula
    does: read straight off its buffers (one pass of numpy over the bytes, none per cell in Python)."""
    for chunk in text.chunks:
        if len(chunk) == 0:
            continue
        offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int64)[chunk.offset:chunk.offset + len(chunk) + 1]
        data = chunk.buffers()[2]
        if data is None:
            continue
        body = np.frombuffer(data, dtype=np.uint8)[offsets[0]:offsets[-1]]
        if body.tobytes().translate(None, _PLAIN_BYTES):   # a byte is left that is not plain
            return True
        firsts = offsets[:-1][offsets[1:] > offsets[:-1]] - offsets[0]
        if np.isin(body[firsts], _FORMULA_BYTES).any():
            return True
    return False


def _arrow_safe(text, pa, pc):
    """spreadsheet_safe of one Arrow text column: the cells safe_cell would change (a formula's start, a
    CR or LF, a character str.isprintable refuses) found in C, then changed by safe_cell itself. An ASCII
    cell is printable unless it holds a control character; any other is asked of Python."""
    risky = pc.fill_null(pc.match_substring_regex(text, _RISKY_CELL), False)
    ascii_ = pc.fill_null(pc.string_is_ascii(text), True)
    hidden = pc.and_(ascii_, pc.fill_null(pc.match_substring_regex(text, _ASCII_CONTROL), False))
    odd = pc.or_(risky, hidden).to_numpy(zero_copy_only=False)
    for i in np.flatnonzero(~ascii_.to_numpy(zero_copy_only=False)):
        odd[i] = odd[i] or not text[int(i)].as_py().isprintable()
    if not odd.any():
        return text
    at = np.flatnonzero(odd)
    changed = pa.array([safe_cell(v) for v in text.take(at).to_pylist()], type=pa.large_string())
    return pc.replace_with_mask(text, pa.array(odd), changed)
