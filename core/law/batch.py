"""Vectorized evaluation of many applications in int64 cents (no Python loop per row).

It gives exactly what `core.law.award.evaluate` gives for each row (a test compares them on
random applications). Parsing uses the same scalar validators wherever a value is not
plain digits, so a row's error message is the one a single application would get.
"""
from __future__ import annotations

from functools import reduce

import numpy as np
import pandas as pd

from core.law.application import Application, parse_field
from core.law.fields import FIELD, FIELDS
from core.law.provisions import CAP_IDS
from core.law.money import MAX_CENTS, ValidationError, not_a_number
from core.law.caps import ARRAYS, COMPUTED, OPTIONAL, TYPE_CODES, Inputs, caps, funding_gap, given_or_presumed
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset, load

ABSENT = ARRAYS.ABSENT                 # a cap that does not apply never binds
REQUIRED_COLUMNS = tuple(f.name for f in FIELDS if f.required)
OUTPUT_COLUMNS = ("award", "binding", "route", "standard_award", "local_shortfall", "funding_gap", "error")
MONEY_OUTPUTS = ("award", "standard_award", "local_shortfall", "funding_gap")
_FAST_MONEY = r"[0-9]{1,13}(\.[0-9]{1,2})?"   # ASCII digits: float() reads Arabic-Indic ones too
# Every subset of caps (a bitmask in canonical order) -> "cap;cap" text.
_BINDING_TEXT = np.array([";".join(c for i, c in enumerate(CAP_IDS) if m >> i & 1)
                          for m in range(1 << len(CAP_IDS))], dtype=object)


class BatchError(ValueError):
    """The table as a whole cannot be read (for example a required column is missing)."""


def _blank(col: pd.Series) -> np.ndarray:
    return (col.isna() | (col.astype("str").str.strip() == "")).to_numpy()


def _by_unique(name: str, col: pd.Series, errors: list):
    """Parse a column with few distinct values (types, yes/no) once per distinct value."""
    mapping, bad = {}, {}
    for raw in pd.unique(col):
        try:
            # pd.isna, not raw != raw: pd.NA's != cannot be read as a bool (a DataFrame built in code)
            mapping[raw] = parse_field(name, None if pd.isna(raw) else raw)
        except ValidationError as err:
            bad[raw] = str(err)
    if bad:
        errors.append(col.map(bad).fillna("").to_numpy(dtype=object))
    return col.map(mapping)


def _money(name: str, col: pd.Series, errors: list) -> tuple[np.ndarray, np.ndarray]:
    """-> (cents, given). Plain digits are parsed vectorized; anything else by the scalar validator."""
    text = col.astype("str").str.strip()
    blank = _blank(col)
    fast = text.str.fullmatch(_FAST_MONEY).fillna(False).to_numpy(dtype=bool)
    cents = np.zeros(len(col), dtype=np.int64)
    if fast.any():
        # <= 13 integer digits and 2 decimals: float64 holds x*100 within far less than half a cent.
        cents[fast] = np.rint(text[fast].astype("float64").to_numpy() * 100).astype(np.int64)
    default = FIELD[name].default
    if not FIELD[name].required:
        cents[blank] = default or 0
    # The rest (signs, separators, junk, too large, a missing required value) gets the scalar message.
    slow = np.flatnonzero((~fast & ~(blank & ~FIELD[name].required)) | (cents > MAX_CENTS))
    message = np.full(len(col), "", dtype=object)
    for i in slow:
        try:
            cents[i] = parse_field(name, col.iat[i]) or 0
        except ValidationError as err:
            message[i] = str(err)
    if slow.size:
        errors.append(message)
    return cents, ~blank


def parse_frame(df: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray]:
    """Validate a table whose columns are fields of docs/rules.md (text or numbers).

    Returns the parsed values (cents as int64, flags as bool, types as codes) and one
    error message per row ('' for a good row). Bad rows keep their place."""
    missing = [c for c in REQUIRED_COLUMNS if c not in df.columns]
    if missing:
        raise BatchError(f"missing column {missing[0]!r}; required columns: {', '.join(REQUIRED_COLUMNS)}")
    n = len(df)
    errors: list[np.ndarray] = []
    out = {}
    for f in FIELDS:
        col = df[f.name] if f.name in df.columns else pd.Series([None] * n, index=df.index, dtype=object)
        if f.kind == "money":
            cents, given = _money(f.name, col, errors)
            out[f.name] = cents
            if f.default is None:
                out[f"{f.name}_given"] = given
        elif f.kind == "choice":
            out["type_code"] = _by_unique(f.name, col, errors).map(TYPE_CODES).fillna(-1).astype(np.int64).to_numpy()
        elif f.kind == "bool":
            flags = _by_unique(f.name, col, errors)
            out[f.name] = flags.to_numpy(dtype=object) if f.default is None else flags.fillna(False).astype(bool).to_numpy()
        else:  # considerations: plain numbers, used for ranking only
            num = pd.to_numeric(col, errors="coerce").astype("float64")
            bad = ~_blank(col) & ~(np.isfinite(num) & (num >= 0) & (num <= 1e9)).to_numpy()
            if bad.any():
                errors.append(np.where(bad, [f"{f.name}: {v!r} {not_a_number(v) or 'is not a number of 0 or more'}"
                                             for v in col.astype(str)], ""))
            out[f.name] = num.to_numpy()
    message = np.full(n, "", dtype=object)
    for e in errors:
        message = np.where(e == "", message, np.where(message == "", e, message + "; " + e))
    return pd.DataFrame(out, index=df.index), message


def inputs_of_frame(v: pd.DataFrame) -> Inputs:
    """The inputs of every parsed row (parse_frame's columns) as arrays, one element per row."""
    def column(f):
        if f.kind == "money":
            return v[f.name].to_numpy(np.int64)
        if f.kind == "choice":
            return v["type_code"].to_numpy()
        if f.presumed is not None:   # not given: what the field table presumes (core.law.caps.given_or_presumed)
            return v[f.name].map(lambda value: given_or_presumed(f, value)).to_numpy(bool)
        return v[f.name].to_numpy(bool)
    return Inputs(**{f.name: column(f) for f in COMPUTED},
                  **{f"{n}_given": v[f"{n}_given"].to_numpy(bool) for n in OPTIONAL})


def evaluate_parsed(v: pd.DataFrame, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> pd.DataFrame:
    """The award of every row, in cents, exactly as `evaluate` computes it one at a time:
    the caps are core.law.caps's, run on int64 arrays."""
    rs = rs or load()
    n = len(v)
    x = inputs_of_frame(v)
    law = caps(x, rs, readings, ARRAYS)
    std = {c: val for c, val in law.standard.items() if val is not ABSENT}
    exc_caps = {c: val for c, val in law.bpw_exception.items() if val is not ABSENT}
    standard = np.maximum(0, reduce(np.minimum, std.values()))
    exception = np.where(law.exception_open, np.maximum(0, reduce(np.minimum, exc_caps.values())), -1)
    use_exc = exception > standard
    award = np.where(use_exc, exception, standard)
    mask = np.zeros(n, dtype=np.int64)
    for bit, cap in enumerate(CAP_IDS):
        on_std, on_exc = std.get(cap), exc_caps.get(cap)
        if on_std is None and on_exc is None:
            continue
        hit = np.zeros(n, dtype=bool)
        if on_std is not None:
            hit |= (on_std == award) & ~use_exc
        if on_exc is not None:
            hit |= (on_exc == award) & use_exc
        mask |= hit.astype(np.int64) << bit
    local = x.local_contribution
    return pd.DataFrame({
        "award": award,
        "binding": _BINDING_TEXT[mask],
        "route": np.where(use_exc, "bpw_exception", "standard"),
        "standard_award": standard,   # what the row gets without the Board's exception
        "local_shortfall": np.where(use_exc, 0, np.maximum(0, law.match_required - local)),
        "funding_gap": funding_gap(x, award, ARRAYS),   # core.law.caps's, as for one application
    }, index=v.index)


def frame_of(apps: list[Application]) -> pd.DataFrame:
    """Parsed values of validated applications (the batch engine's input form)."""
    rows = []
    for a in apps:
        row = {"type_code": TYPE_CODES[a.project_type]}
        for f in FIELDS:
            value = getattr(a, f.name)
            if f.kind == "money":
                row[f.name] = value or 0
                if f.default is None:
                    row[f"{f.name}_given"] = value is not None
            elif f.kind == "bool":
                row[f.name] = value
        rows.append(row)
    return pd.DataFrame(rows)


def cents_text(cents: np.ndarray) -> np.ndarray:
    """int64 cents -> '1234.56' text, exactly (no float on the way)."""
    cents = np.asarray(cents, dtype=np.int64)
    whole = pd.Series(cents // 100).astype("str")
    part = pd.Series(cents % 100).astype("str").str.zfill(2)
    return (whole + "." + part).to_numpy(dtype=object)


def evaluate_table(df: pd.DataFrame, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> pd.DataFrame:
    """The input columns plus award, binding, route, standard_award, local_shortfall, funding_gap, error."""
    values, errors = parse_frame(df)
    result = evaluate_parsed(values, rs, readings)
    bad = errors != ""
    out = df.copy()
    for col in OUTPUT_COLUMNS[:-1]:
        values = result[col].to_numpy()
        out[col] = np.where(bad, "", cents_text(values) if col in MONEY_OUTPUTS else values)
    out["error"] = errors
    return out


def read_csv(source, sheet: str | None = None) -> pd.DataFrame:
    """A CSV file or an Excel workbook (a path or a file object), every cell as text, empty
    cells as '' (an empty cell means the field's default), blank rows skipped. Reading is
    core/law/tables.py's, whose TableError says what is wrong with a file."""
    from core.law.tables import read
    if hasattr(source, "read"):
        data, name = source.read(), str(getattr(source, "name", "file"))
    else:
        from pathlib import Path
        data, name = Path(source).read_bytes(), str(source)
    return read(data, name, sheet).frame
