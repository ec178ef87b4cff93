"""Exact money: integer cents in, integer cents out (shares are taken in core/law/caps.py, rounded down).

Every amount in core is an ``int`` of cents. Decimal is used only to parse; binary
floats never carry money (a float given by a widget is rounded to the nearest cent
once, at the edge).
"""
from __future__ import annotations

import math
import re
from decimal import Context, Decimal, InvalidOperation, localcontext

# docs/rules.md: amounts over 10^12 dollars are absurd and rejected.
MAX_DOLLARS = 10**12
MAX_CENTS = MAX_DOLLARS * 100

# ASCII digits only: Python's Decimal and float read Arabic-Indic and other digits too (issue 30).
_NUMERIC = re.compile(r"^\$?\s*[-+]?([0-9]{1,3}(,[0-9]{3})+|[0-9]*)(\.[0-9]*)?([eE][-+]?[0-9]+)?$")
# What a spreadsheet's cell becomes when it held a date or a formula (core/law/tables.py).
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?)?$|^[0-9]{2}:[0-9]{2}:[0-9]{2}$")


class ValidationError(ValueError):
    """Bad input at an edge; names the field and the value, says what is allowed."""

    def __init__(self, field: str, value, problem: str):
        self.field = field
        self.value = value
        self.problem = problem
        if value is None or (isinstance(value, str) and not value.strip()):
            super().__init__(f"{field}: {problem}")  # nothing to show: the problem says it is missing
        else:
            shown = repr(value[:60] + "…") if isinstance(value, str) and len(value) > 60 else (
                str(value) if isinstance(value, Decimal) and len(str(value)) <= 60 else _short_repr(value))
            super().__init__(f"{field}: {shown} {problem}")


def _short_repr(value) -> str:
    """repr, cut to a readable length (a 5,000-digit number or a huge list is not echoed whole)."""
    try:
        shown = repr(value)
    except ValueError:  # an integer too long for Python to print
        return "a number of more than 4,300 digits"
    return shown if len(shown) <= 80 else shown[:60] + f"… ({len(shown):,} characters)"


def to_cents(value, field: str) -> int:
    """Parse a dollar amount (number or numeric string, cents allowed) into cents."""
    if isinstance(value, bool) or value is None:
        raise ValidationError(field, value, "is not an amount; enter dollars such as 1250000 or 1,250,000.50")
    if isinstance(value, int):
        dec = Decimal(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValidationError(field, value, "is not a finite amount; enter dollars such as 1250000")
        dec = Decimal(repr(value))
        if 0 <= dec <= MAX_DOLLARS:
            # A binary float cannot hold cents exactly: take the nearest cent, once.
            dec = dec.quantize(Decimal("0.01"))
    elif isinstance(value, Decimal):
        dec = value
    elif isinstance(value, str):
        text = value.strip().replace(" ", "")
        if not text or not _NUMERIC.match(text) or not any(c in "0123456789" for c in text):
            raise ValidationError(field, value, not_a_number(value) or
                                  "is not a number; enter dollars such as 1250000 or 1,250,000.50")
        if len(text) > 40:  # "$1,000,000,000,000.00" is 21 characters; longer is not an amount
            raise ValidationError(field, value, f"is {len(text):,} characters long; not an amount")
        try:
            dec = Decimal(text.lstrip("$").replace(",", ""))
        except InvalidOperation:
            raise ValidationError(field, value, "is not a number; enter dollars such as 1250000") from None
    else:
        raise ValidationError(field, value, "is not an amount; enter dollars such as 1250000")
    if not dec.is_finite():
        raise ValidationError(field, value, "is not a finite amount; enter dollars such as 1250000")
    if dec < 0:
        raise ValidationError(field, value, "is negative; amounts must be $0 or more")
    if dec > MAX_DOLLARS:
        raise ValidationError(field, value, "is over $1,000,000,000,000, the largest amount accepted")
    if dec and dec.adjusted() < -2:  # "1e-99999999" would underflow to 0 in the multiplication below
        raise ValidationError(field, value, "has fractions of a cent; use at most two decimal places")
    with localcontext(Context(prec=80)):  # at most 40 digits in: the product is exact, never rounded
        cents = dec * 100
    if cents != cents.to_integral_value():
        raise ValidationError(field, value, "has fractions of a cent; use at most two decimal places")
    return int(cents)


def not_a_number(value) -> str:
    """The problem with a spreadsheet's formula or date where a number belongs, or ''."""
    text = str(value).strip()
    if text.startswith("="):
        return ("is a spreadsheet formula, not a number; enter the value itself (in the spreadsheet: copy the "
                "cells, then Paste Special, Values)")
    if _DATE.match(text):
        return ("is a date, not a number; the spreadsheet cell is formatted as a date: format it as a number "
                "and enter the value again")
    return ""


def plain(cents: int) -> str:
    """Machine form with two decimals: 60000000 -> '600000.00'."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def fmt(cents: int | None, always_cents: bool = False) -> str:
    """Display form: 125000000 -> '$1,250,000'; cents shown only when there are some."""
    if cents is None:
        return "—"
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    if part or always_cents:
        return f"{sign}${whole:,}.{part:02d}"
    return f"{sign}${whole:,}"
