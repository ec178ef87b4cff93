"""Vectorized evaluation of many applications in int64 cents (no Python loop per row).

It gives exactly what `core.law.award.evaluate` gives for each row: the caps are core.law.caps's,
the one statement of each limit, run on int64 arrays; only the settling of the routes (the least
cap, the better route, the caps that bind) is written again for columns, and tests compare it with
the single evaluation on random applications under every ruleset, era and reading
(tests/law/test_batch.py). A table read from a file is text held by Arrow: plain amounts are parsed
in whole columns by Arrow's compute functions into int64 cents, and the results are made as Arrow
text (docs/performance.md, "batch"). Parsing uses the same scalar validators wherever a value is
not plain digits, so a row's error message is the one a single application would get.
"""
from __future__ import annotations

from functools import reduce

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from core.law.application import NUMBER_TEXT, Application, parse_field
from core.law.fields import FIELD, FIELDS, portfolio_columns
from core.law.provisions import CAP_IDS
from core.law.money import MAX_CENTS, ValidationError, not_a_number
from core.law.caps import COMPUTED, OPTIONAL, Inputs, derive, funding_gap, given_or_presumed
from core.law.engines import ARRAYS, TYPE_CODES
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset, load

ABSENT = ARRAYS.ABSENT                 # a cap that does not apply never binds
REQUIRED_COLUMNS = tuple(f.name for f in FIELDS if f.required)
OUTPUT_COLUMNS = ("award", "binding", "route", "standard_award", "local_shortfall", "funding_gap", "error")
MONEY_OUTPUTS = ("award", "standard_award", "local_shortfall", "funding_gap")
# Plain dollars, ASCII digits only (Python's float and Decimal read Arabic-Indic ones too): at most 13
# digits and 2 decimals, so that the cents are far inside int64.
_FAST_MONEY = r"^[0-9]{1,13}(\.[0-9]{1,2})?$"
# Every subset of caps (a bitmask in canonical order) -> "cap;cap" text.
_BINDING_TEXT = np.array([";".join(c for i, c in enumerate(CAP_IDS) if m >> i & 1)
                          for m in range(1 << len(CAP_IDS))], dtype=object)


class BatchError(ValueError):
    """The table as a whole cannot be read (for example a required column is missing)."""


def _blank(col: pd.Series) -> np.ndarray:
    return (col.isna() | (col.astype("str").str.strip() == "")).to_numpy()


# Whitespace Python's str.strip also removes: what the column path trims before it looks for plain
# digits. Anything else (a no-break space, a sign, a separator) is left for the scalar validator.
_ASCII_SPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"


def _text_array(col: pd.Series) -> pa.ChunkedArray | None:
    """The column as Arrow text, when it is text held by Arrow (a table read from a file): then it is
    parsed by Arrow's compute functions in C. A frame built in code (objects, numbers) is read cell by
    cell as before."""
    if isinstance(col.dtype, pd.StringDtype) and col.dtype.storage == "pyarrow":
        return col.array.__arrow_array__()   # a ChunkedArray, not copied
    return None


def _by_unique(name: str, col: pd.Series, errors: list, bad, convert=None, dtype=object) -> np.ndarray:
    """Parse a column with few distinct values (types, yes/no) once per distinct value: each row's
    value, `convert`ed, (`bad` where its cell is refused) as an array of `dtype`."""
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    values = np.empty(len(uniques) + 1, dtype=object)   # the last one is a blank cell's (code -1)
    messages = np.full(len(uniques) + 1, "", dtype=object)
    for i, raw in enumerate([*uniques, None]):
        try:
            # pd.isna, not raw != raw: pd.NA's != cannot be read as a bool (a DataFrame built in code)
            value = parse_field(name, None if _isna(raw) else raw)
            values[i] = value if convert is None else convert(value)
        except ValidationError as err:
            values[i], messages[i] = bad, str(err)
    if (messages != "").any():
        errors.append(messages[codes])
    return values.astype(dtype)[codes]


def _isna(raw) -> bool:
    na = pd.isna(raw)
    return na if isinstance(na, bool) else False   # a cell holding several values (a tuple) is not blank


def _money(name: str, col: pd.Series, errors: list) -> tuple[np.ndarray, np.ndarray]:
    """-> (cents, given). Plain digits are parsed by whole columns into int64 cents; anything else by
    the scalar validator, cell by cell, so that a refused cell gets the one message."""
    text = _text_array(col)
    if text is None:   # a frame built in code: each cell as its text, as before
        text = _text_array(col.astype("str").where(col.notna()))
    nulls = text.is_null().to_numpy(zero_copy_only=False)
    trimmed = pc.utf8_trim(text, _ASCII_SPACE)
    fast = pc.fill_null(pc.match_substring_regex(trimmed, _FAST_MONEY), False).to_numpy(zero_copy_only=False)
    blank = nulls | pc.fill_null(pc.equal(pc.utf8_length(trimmed), 0), True).to_numpy(zero_copy_only=False)
    for i in np.flatnonzero(~fast & ~blank):   # blank by Python's strip (a no-break space), or not
        raw = col.iat[i]
        blank[i] = _isna(raw) or not str(raw).strip()
    cents = np.zeros(len(col), dtype=np.int64)
    if fast.any():
        cents[fast] = _plain_cents(pc.filter(trimmed, pa.array(fast)))
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


def _plain_cents(text: pa.ChunkedArray) -> np.ndarray:
    """Plain dollars (_FAST_MONEY's texts) -> int64 cents, exactly: Arrow reads each as a decimal of two
    places, whose 128-bit integer is the number of cents (Arrow's layout: little-endian two's complement);
    below 10^15, its low 64 bits are that number and its high ones 0. No float holds money on the way."""
    if len(text) == 0:
        return np.zeros(0, dtype=np.int64)
    dec = pc.cast(text, pa.decimal128(15, 2)).combine_chunks()
    words = np.frombuffer(dec.buffers()[1], dtype=np.int64).reshape(-1, 2)[dec.offset:dec.offset + len(dec)]
    if words[:, 1].any():   # cannot happen for 15 digits; never read a half of a number
        raise ValueError("an amount of more than 15 digits reached the column parse")
    return words[:, 0].copy()


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
            out["type_code"] = _by_unique(f.name, col, errors, -1, TYPE_CODES.__getitem__, np.int64)
        elif f.kind == "bool":   # a refused cell: no (or, where it may be left unsaid, NaN as before)
            out[f.name] = (_by_unique(f.name, col, errors, np.nan) if f.default is None
                           else _by_unique(f.name, col, errors, False, dtype=bool))
        elif f.name not in df.columns:   # considerations not given: unknown, nothing to check
            out[f.name] = np.full(n, np.nan)
        else:  # considerations: plain numbers, used for ranking only, read as parse_number reads one
            text = col.astype(str)
            grouped = text.str.fullmatch(NUMBER_TEXT.pattern) & text.str.contains(",", regex=False)
            num = pd.to_numeric(col.where(~grouped, text.str.replace(",", "", regex=False)),
                                errors="coerce").astype("float64")
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
            given = v[f.name].to_numpy(dtype=object)
            return np.where(np.equal(given, None), given_or_presumed(f, None), given).astype(bool)
        return v[f.name].to_numpy(bool)
    return Inputs(**{f.name: column(f) for f in COMPUTED},
                  **{f"{n}_given": v[f"{n}_given"].to_numpy(bool) for n in OPTIONAL})


def _settle(v: pd.DataFrame, rs: Ruleset | None, readings: Readings) -> dict:
    """What core.law.caps derives for every row, on int64 arrays, settled as `evaluate` settles one
    application: each route's least cap (at least 0), the exception where it gives more (a tie keeps
    the standard route), the caps equal to the award on the route taken (a bitmask in CAP_IDS's order)."""
    rs = rs or load()
    n = len(v)
    x = inputs_of_frame(v)
    law = derive(x, rs, readings, ARRAYS)
    std = {c: val for c, val in law.standard.items() if val is not ABSENT}
    exc_caps = {c: val for c, val in law.bpw_exception.items() if val is not ABSENT}
    standard = np.maximum(0, reduce(np.minimum, std.values()))
    exception = np.where(law.board.open, np.maximum(0, reduce(np.minimum, exc_caps.values())), -1)
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
    return {
        "award": award,
        "binding": mask,
        "route": use_exc,
        "standard_award": standard,   # what the row gets without the Board's exception
        "local_shortfall": np.where(use_exc, 0, law.facts.match_short),   # core.law.caps.intermediates
        "funding_gap": funding_gap(x, award, ARRAYS),   # core.law.caps's, as for one application
    }


def evaluate_parsed(v: pd.DataFrame, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> pd.DataFrame:
    """The award of every row, in cents, exactly as `evaluate` computes it one at a time:
    the caps are core.law.caps's, run on int64 arrays."""
    out = _settle(v, rs, readings)
    return pd.DataFrame(out | {"binding": _BINDING_TEXT[out["binding"]],
                               "route": np.where(out["route"], "bpw_exception", "standard")}, index=v.index)


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


def _cents_text(cents) -> pa.Array:
    """int64 cents -> '1234.56' as Arrow text, exactly (integer division, no float on the way)."""
    cents = np.asarray(cents, dtype=np.int64)
    whole = pc.cast(pa.array(cents // 100), pa.string())
    part = pc.utf8_lpad(pc.cast(pa.array(cents % 100), pa.string()), 2, "0")
    return pc.binary_join_element_wise(whole, part, ".")


def cents_text(cents: np.ndarray) -> np.ndarray:
    """int64 cents -> '1234.56' text, exactly (no float on the way)."""
    return np.asarray(_cents_text(cents).to_numpy(zero_copy_only=False), dtype=object)


_TEXT = pd.StringDtype("pyarrow", na_value=np.nan)   # pandas' text columns ("str"), held by Arrow
_ROUTES = pa.array(["standard", "bpw_exception"])


def evaluate_table(df: pd.DataFrame, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> pd.DataFrame:
    """The input columns plus award, binding, route, standard_award, local_shortfall, funding_gap, error
    (all text; a bad row's results empty). The results are made as Arrow text in whole columns, so that
    a table of 200,000 rows is written without a Python string per cell. Columns may be titled by the
    fields' code names or by the template's titles in words (`python -m core template`): read as the
    fields, written back under the file's own titles."""
    titles = [str(t) for t in df.columns]
    names, _ = portfolio_columns(titles)
    if names != titles:
        twice = [n for n in dict.fromkeys(names) if names.count(n) > 1 and n in FIELD]
        if twice:
            raise BatchError(f"two columns are both {FIELD[twice[0]].label!r} ({twice[0]}): "
                             + ", ".join(repr(t[:60]) for t, n in zip(titles, names) if n == twice[0]) + "; keep one")
        values, errors = parse_frame(df.set_axis(names, axis=1))
    else:
        values, errors = parse_frame(df)
    result = _settle(values, rs, readings)
    bad = pa.array(errors != "")
    out = df.copy()
    for col in OUTPUT_COLUMNS[:-1]:
        if col in MONEY_OUTPUTS:
            text = _cents_text(result[col])
        elif col == "binding":
            text = pa.array(_BINDING_TEXT, type=pa.string()).take(pa.array(result[col]))
        else:
            text = _ROUTES.take(pa.array(result[col].astype(np.int64)))
        out[col] = pd.Series(pc.if_else(bad, "", text), dtype=_TEXT, index=df.index)
    out["error"] = pd.Series(pa.array(errors, type=pa.string()), dtype=_TEXT, index=df.index)
    return out


def read_file(source, sheet: str | None = None) -> pd.DataFrame:
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
