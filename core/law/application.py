"""One application, validated once at the edge (dict, CSV row, widget values, URL)."""
from __future__ import annotations

import re
from dataclasses import field as dc_field, make_dataclass
from decimal import Decimal, InvalidOperation

from core.law.fields import FIELD, FIELDS, PROJECT_TYPES, EXCEPTION_FIELDS
from core.law.money import ValidationError, plain, to_cents

# Keys that describe a record but are not inputs of the computation; accepted and ignored.
META_KEYS = frozenset({"name", "notes", "locality", "id", "ruleset"})

_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}
_TYPE_ALIASES = {k: k for k in PROJECT_TYPES} | {v.lower(): k for k, v in PROJECT_TYPES.items()} | {
    "master plan": "master_plan", "planning, design, and construction": "construction",
    "capital equipment": "equipment"}


class InvalidApplication(ValidationError):
    """One or more fields are bad; `errors` lists each, the message joins them."""

    def __init__(self, errors: list[ValidationError]):
        self.errors = errors
        first = errors[0]
        super().__init__(first.field, first.value, first.problem)
        self.args = ("; ".join(str(e) for e in errors),)

    def __str__(self):
        return self.args[0]


def _is_blank(raw) -> bool:
    return raw is None or (isinstance(raw, str) and not raw.strip())


def parse_bool(raw, field: str) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    raise ValidationError(field, raw, "is not yes or no; use true/false, yes/no or 1/0")


def parse_project_type(raw, field: str = "project_type") -> str:
    if isinstance(raw, str):
        key = _TYPE_ALIASES.get(raw.strip().lower())
        if key:
            return key
    raise ValidationError(field, raw, f"is not a project type; use one of {', '.join(PROJECT_TYPES)}")


# A number that is not money, as text: ASCII digits, commas only between groups of three ("1,500", never
# "1,5", a decimal comma read ten times larger), the batch's reading (core.law.batch) the same.
NUMBER_TEXT = re.compile(r"\s*[-+]?([0-9]{1,3}(,[0-9]{3})+|[0-9]*)(\.[0-9]*)?([eE][-+]?[0-9]+)?\s*")


def parse_number(raw, field: str) -> float:
    """A non-negative finite number that is not money (density, miles)."""
    if isinstance(raw, bool):
        raise ValidationError(field, raw, "is not a number")
    if isinstance(raw, str) and not (NUMBER_TEXT.fullmatch(raw) and any(c.isdigit() for c in raw)):
        raise ValidationError(field, raw, "is not a number (digits 0-9, a point for decimals, commas only "
                                          "between thousands)")
    try:
        dec = Decimal(raw.strip().replace(",", "")) if isinstance(raw, str) else Decimal(repr(raw) if isinstance(raw, float) else raw)
    except (InvalidOperation, TypeError, ValueError):
        raise ValidationError(field, raw, "is not a number") from None
    if not dec.is_finite():
        raise ValidationError(field, raw, "is not a finite number")
    if dec < 0:
        raise ValidationError(field, raw, "is negative; it must be 0 or more")
    if dec > 10**9:
        raise ValidationError(field, raw, "is implausibly large (over 1,000,000,000)")
    return float(dec)  # a ranking factor, never money


_PARSERS = {"money": to_cents, "bool": parse_bool, "choice": parse_project_type, "number": parse_number}


def parse_field(name: str, raw):
    """Parse one raw value (number, string, bool, blank) for the named field."""
    f = FIELD[name]
    if _is_blank(raw):
        if f.required:
            raise ValidationError(name, raw, "is missing; it is required")
        return f.default
    return _PARSERS[f.kind](raw, name)


class _Record:
    """What every application can do; its fields are the field table's (core/law/fields.py), so a
    new input is a new row there, not a new line here."""

    def __post_init__(self):
        # The exception's details mean something only with a request: keep the record canonical.
        if not self.bpw_exception_requested:
            for name in EXCEPTION_FIELDS:
                object.__setattr__(self, name, FIELD[name].default)

    @classmethod
    def from_dict(cls, data: dict, unknown: str = "reject") -> "Application":
        """Validate a flat dict (CSV/URL form) or the nested docs/rules.md form, where
        `bpw_exception` is null/false or a table of the exception's fields."""
        if not isinstance(data, dict):
            raise ValidationError("application", data, "must be a JSON object of fields")
        flat = dict(data)
        exc = flat.pop("bpw_exception", None)
        if isinstance(exc, dict):
            flat["bpw_exception_requested"] = True
            for key, value in exc.items():
                if key not in EXCEPTION_FIELDS:
                    raise ValidationError(f"bpw_exception.{key}", value,
                                          f"is not a field of the exception; use {', '.join(EXCEPTION_FIELDS)}")
                flat[key] = value
        elif exc is True:
            flat["bpw_exception_requested"] = True
        elif exc is not None and exc is not False:
            raise ValidationError("bpw_exception", exc, "must be null or a table of the exception's fields")
        if unknown == "reject":
            extra = [k for k in flat if k not in FIELD and k not in META_KEYS]
            if extra:
                raise ValidationError(str(extra[0]), flat[extra[0]],
                                      f"is not a known field; known fields: {', '.join(FIELD)}")
        values, errors = {}, []
        for f in FIELDS:
            try:
                values[f.name] = parse_field(f.name, flat.get(f.name))
            except ValidationError as err:
                errors.append(err)
        if errors:
            raise InvalidApplication(errors)
        return cls(**values)

    def to_dict(self) -> dict:
        """JSON-safe, nested docs/rules.md form; money as strings with two decimals."""
        out = {}
        for f in FIELDS:
            if f.group == "exception":
                continue
            value = getattr(self, f.name)
            if f.sparse and value == f.default:
                continue
            if f.kind == "money" and value is not None:
                value = plain(value)
            out[f.name] = value
        out["bpw_exception"] = ({k: (plain(getattr(self, k)) if FIELD[k].kind == "money" else getattr(self, k))
                                 for k in EXCEPTION_FIELDS
                                 if not (FIELD[k].sparse and getattr(self, k) == FIELD[k].default)}
                                if self.bpw_exception_requested else None)
        return out

    def to_flat(self) -> dict:
        """Flat form: one entry per field (CSV columns, URL parameters), money as strings."""
        out = {}
        for f in FIELDS:
            value = getattr(self, f.name)
            out[f.name] = plain(value) if f.kind == "money" and value is not None else value
        return out

    def replace(self, **changes) -> "Application":
        # The instance's own dict is its fields (no slots, nothing else kept on it): the award's
        # analysis replaces one amount thousands of times per run.
        return Application(**{**self.__dict__, **changes})


_TYPES = {"money": int, "bool": bool, "choice": str, "number": float}   # money in cents


def _slot(f):
    kind = _TYPES[f.kind] if f.required or f.default is not None else _TYPES[f.kind] | None
    return (f.name, kind) if f.required else (f.name, kind, dc_field(default=f.default))


# One validated application: a frozen record of every field, in the field table's order.
Application = make_dataclass("Application", [_slot(f) for f in FIELDS], bases=(_Record,), frozen=True,
                             namespace={"__module__": __name__})
