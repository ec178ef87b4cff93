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
    return csv_text(df, raw).encode("utf-8")
