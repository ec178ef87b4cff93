"""The workbooks the app writes, written one way: a write-only sheet with a bold frozen header,
widths from the content and a number format per column, and every text cell made safe. Text is
made safe for spreadsheets as core/report/export.py makes it: a cell that starts with = + - @ TAB
or CR gets a leading apostrophe, and a text cell is never written as a formula.
"""
from __future__ import annotations

import io
import re
from decimal import Decimal

import numpy as np

from core.report.export import safe_cell

DOLLARS = '"$"#,##0.00'
SCORE = "0.000"
WHOLE = "0"
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")   # characters an .xlsx cannot hold
_LINE_BREAK = re.compile(r"\r\n?")


def text_cell(value) -> str:
    """A text cell of a workbook: what an .xlsx cannot hold shown by its code, then made safe, and
    every line break (CR LF, a lone CR) written as a workbook's own, LF. openpyxl writes a CR
    as it is with its own writer (and XML reads it back as LF) but as `&#13;` with lxml's, where
    lxml is installed: the same export would hold different text on different machines."""
    value = _ILLEGAL.sub(lambda m: f"[U+{ord(m.group()):04X}]", str(value))
    return _LINE_BREAK.sub("\n", safe_cell(value))


def dollars(cents) -> Decimal:
    return Decimal(int(cents)).scaleb(-2)   # exact: 123456 -> 1234.56


class Sheet:
    """A write-only worksheet: a bold frozen header, widths from the content, formats per column."""

    def __init__(self, wb, title: str, columns: list[str], formats: dict[str, str] | None = None,
                 widths: dict[str, int] | None = None, wrap: tuple[str, ...] = (),
                 freeze: bool = True, filter_rows: int | None = None, titles: dict[str, str] | None = None):
        from openpyxl.utils import get_column_letter
        self.ws = wb.create_sheet(title)
        self.columns, self.formats, self.wrap = columns, formats or {}, set(wrap)
        for i, c in enumerate(columns, start=1):   # widths come first in a write-only sheet
            self.ws.column_dimensions[get_column_letter(i)].width = (widths or {}).get(c, max(10, min(len(c) + 3, 40)))
        if freeze:
            self.ws.freeze_panes = "A2"
        if filter_rows is not None and columns:
            self.ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{filter_rows + 1}"
        self.append([(titles or {}).get(c, c) for c in columns], bold=True)

    def append(self, values, bold: bool = False) -> None:
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.styles import Alignment, Font
        cells = []
        for column, value in zip(self.columns, values):
            if value is None or (isinstance(value, float) and value != value):
                cells.append(None)
                continue
            if isinstance(value, (bool, np.bool_)):
                value = "yes" if value else "no"
            if isinstance(value, str):
                cell = WriteOnlyCell(self.ws, text_cell(value))
                cell.data_type = "s"   # never a formula, whatever the text
            else:
                cell = WriteOnlyCell(self.ws, value.item() if isinstance(value, np.generic) else value)
                if column in self.formats and not bold:
                    cell.number_format = self.formats[column]
            if bold:
                cell.font = Font(bold=True)
            if column in self.wrap or bold:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
            cells.append(cell)
        self.ws.append(cells)


def new_workbook():
    import openpyxl
    return openpyxl.Workbook(write_only=True)


def saved(wb) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def width_of(values, title: str, lo: int = 8, hi: int = 50) -> int:
    longest = max((len(str(v)) for v in values[:2000]), default=0)
    return max(lo, min(hi, max(longest, len(title)) + 2))


def as_dollars(text):
    from core.law.money import ValidationError, to_cents
    if text in ("", None):
        return None
    try:
        return dollars(to_cents(text, "amount"))
    except ValidationError:
        return text


def as_number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return text if text not in ("", None) else None
    return value if value == value else None
