"""Files users take away: CSV made safe for spreadsheets."""
from __future__ import annotations

import pandas as pd

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def spreadsheet_safe(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    for col in out.columns:
        if out[col].dtype == object or pd.api.types.is_string_dtype(out[col]):
            out[col] = out[col].map(safe_cell)
    out.columns = [safe_cell(str(c)) for c in out.columns]
    return out


def csv_bytes(df: pd.DataFrame) -> bytes:
    return spreadsheet_safe(df).to_csv(index=False).encode("utf-8")
