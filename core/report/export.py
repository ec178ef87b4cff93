"""Files users take away: CSV made safe for spreadsheets.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, and a TAB
or CR at the start is dropped by some of them before that test. A CR or LF inside a cell
can end the row for a reader that does not expect it, so that what follows (`x\\r=2+2`)
starts a new row as a formula. Every such cell is prefixed with an apostrophe (shown as
text by every spreadsheet) and every cell holding a CR or LF is quoted: rows end with
CRLF (RFC 4180), so the CSV writer quotes any cell with either character in it.
"""
from __future__ import annotations

import re

import pandas as pd

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_RISKY_CELL = r"^[=+\-@\t\r]|[\r\n]"
_ANY_RISKY = re.compile("\x00[=+\\-@\t\r]|[\r\n]")
LINE_END = "\r\n"   # the writer quotes every cell holding a character of this: CR and LF both


def dangerous(value) -> bool:
    """Text a spreadsheet could run, or that could break a row for a careless reader."""
    return isinstance(value, str) and (value.startswith(_FORMULA_START) or "\r" in value or "\n" in value)


def safe_cell(value):
    """A text cell a spreadsheet would run as a formula (or one holding a line break) gets a
    leading apostrophe; everything else is left alone."""
    if dangerous(value):
        return "'" + value
    return value


def spreadsheet_safe(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    for col in out.columns:
        s = out[col]
        if pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s):
            continue
        if isinstance(s.dtype, pd.StringDtype):   # text columns (pandas 3): one vectorised regex
            risky = s.str.contains(_RISKY_CELL, regex=True).fillna(False).astype(bool)
            if risky.any():
                out[col] = s.where(~risky, "'" + s)
            continue
        values = s.to_numpy(dtype=object)
        try:   # the batch writes 200,000 rows: one C-level scan finds the columns with nothing risky
            joined = "\x00" + "\x00".join(values)
        except TypeError:   # not all text: cell by cell
            out[col] = s.map(safe_cell)
            continue
        if not _ANY_RISKY.search(joined):
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
