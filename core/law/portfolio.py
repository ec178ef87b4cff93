"""A year's applications against one appropriation: maximum awards from the batch engine,
a priority score from the Department's considerations, and allocation of a budget.

The score is decision support: it orders applications and never changes an award.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from core.law.batch import TYPE_CODES, evaluate_parsed, parse_frame
from core.law.fields import FIELDS, PORTFOLIO_FIELDS, portfolio_columns
from core.law.provisions import CAP, CAP_IDS
from core.law.money import fmt
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset, load
from core.law.tables import MAX_CELL, MAX_COLUMNS, Table, TableError, read  # noqa: F401 - the portfolio's limits

MAX_ROWS = 20_000
FIELD_OR_RECORD = {f.name: f for f in PORTFOLIO_FIELDS}
MAX_NAME = 120        # characters in an application's name (as for a saved scenario)
MODES = {"priority": "In priority order, the last award partly funded",
         "whole": "In priority order, skipping awards that do not fit whole",
         "pro-rata": "Pro rata: every award scaled by the same share"}
# Whether an amount that exists only on the Board of Public Works' exception route is counted.
EXCEPTIONS = {"assumed": "Count the Board's exception where it would help (the default)",
              "excluded": "Count the Board's exception only if approved: allocate the standard route's awards"}
# The Department's considerations (§H): the column each is read from and its words, in the
# direction the Department's default setting scores higher. The regulation sets no weights, no
# scale and no direction (not even which way proximity counts): all are settings, shown and changeable.
FACTORS = {"density": ("senior_density", "denser senior population"),
           "proximity": ("distance_to_center_miles", "farther from an existing senior center"),
           "new_locality": ("previously_funded", "a locality not funded before")}
# Which way a consideration counts: each direction's words, the default first (a locality never
# funded before always scores higher: the sentence names such localities).
DIRECTIONS = {"density": {"higher": "a denser senior population", "lower": "a sparser senior population"},
              "proximity": {"farther": "a project farther from an existing senior center",
                            "nearer": "a project nearer to an existing senior center"},
              "new_locality": {"new": "a locality not funded before"}}
DEFAULT_DIRECTIONS = {k: next(iter(d)) for k, d in DIRECTIONS.items()}
SETTING_NOTE = ("The regulation names these considerations but sets no weights, no scale and no direction (not even "
                "which way proximity to an existing center counts): the weights and directions used here are the "
                "Department's settings, shown and changeable.")
SAMPLE = __import__("pathlib").Path(__file__).parent / "samples" / "portfolio_illustrative.csv"


# The file as a whole cannot be used; the message says why (core/law/tables.py reads the file).
PortfolioError = TableError
MAX_UNPACKED = 100 * 1024 * 1024   # an uploaded workbook's XML: ample for 20,000 rows of 500 columns' worth of CSV


def read_portfolio(data: bytes | str, name: str = "file", sheet: str | None = None) -> Table:
    """A CSV file's text or an Excel workbook's bytes (its first sheet, or `sheet`) as a Table of
    text cells with each row's number in the file; at most MAX_ROWS applications.

    The columns are named by the field table's code names whatever the file's titles: the titles
    in words (the template's: "Total cost of eligible work") or the code names (eligible_cost),
    case and spacing aside. A title that is no field's is kept as it is (it passes through to the
    results) and listed in Table.unknown; where a required column is then missing, the error names
    the titles not read."""
    table = read(data, name, sheet, MAX_ROWS, MAX_UNPACKED)
    titles = [str(t) for t in table.frame.columns]
    names, unknown = portfolio_columns(titles)
    seen: dict[str, str] = {}
    for title, column in zip(titles, names):
        if column in seen:
            raise TableError(f"{name}: the columns {seen[column][:60]!r} and {title[:60]!r} are both "
                             f"{FIELD_OR_RECORD[column].label!r} ({column}); keep one of them")
        seen[column] = title
    missing = [f for f in FIELDS if f.required and f.name not in seen]
    if missing and unknown:
        listed = ", ".join(repr(t[:60]) for t in unknown[:5]) + (f" and {len(unknown) - 5:,} more" if len(unknown) > 5 else "")
        raise TableError(f"{name}: no column {missing[0].label!r} ({missing[0].name}), and the column"
                         f"{'s' if len(unknown) > 1 else ''} {listed} {'are' if len(unknown) > 1 else 'is'} not "
                         "one the portfolio reads; use the template's column titles (or their code names)"
                         + (f"; the sheet read is {table.sheet!r}, one of {len(table.sheets)}: pick the one with the "
                            "applications" if table.sheet and len(table.sheets) > 1 else ""))
    return replace(table, frame=table.frame.set_axis(names, axis=1), unknown=tuple(unknown))


def read_table(data: bytes | str, name: str = "file", sheet: str | None = None) -> pd.DataFrame:
    """read_portfolio's cells only (rows numbered as they come: the file's numbers are lost)."""
    return read_portfolio(data, name, sheet).frame


def parse_weights(text: str) -> dict[str, float]:
    """'density=1,proximity=2,new_locality=0' -> weights (missing ones are 1)."""
    weights, given = {k: 1.0 for k in FACTORS}, set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if key not in FACTORS:
            raise ValueError(f"--weights: unknown factor {key!r}; use {', '.join(FACTORS)}")
        if key in given:   # two weights for one factor: the command says two things
            raise ValueError(f"--weights: {key} is given twice; give each factor once")
        if not re.fullmatch(r"[0-9]*\.?[0-9]*([eE][-+]?[0-9]+)?", value) or not any(c.isdigit() for c in value):
            raise ValueError(f"--weights: {key}={value!r} is not a number (digits 0-9 and a point, 0 or more)")
        if not float(value) <= 1e6:
            raise ValueError(f"--weights: {key}={value!r} is too large; a weight is at most 1,000,000")
        given.add(key)
        weights[key] = float(value)
    return weights


def parse_directions(text: str) -> dict[str, str]:
    """'proximity=nearer,density=lower' -> directions (missing ones are the default)."""
    directions = dict(DEFAULT_DIRECTIONS)
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = (x.strip() for x in part.partition("="))
        if key not in DIRECTIONS:
            raise ValueError(f"--directions: unknown factor {key!r}; use {', '.join(DIRECTIONS)}")
        if value not in DIRECTIONS[key]:
            raise ValueError(f"--directions: {key}={value!r}; use {key}={' or '.join(DIRECTIONS[key])}")
        directions[key] = value
    return directions


def _normalise(values: np.ndarray, lower_first: bool = False) -> np.ndarray:
    """Min-max to 0..1 across the portfolio (1 - that when lower values score higher); all equal
    -> all 1; a missing value stays missing (NaN)."""
    out = np.full(len(values), np.nan)
    known = ~np.isnan(values)
    if known.any():
        lo, hi = values[known].min(), values[known].max()
        out[known] = 1.0 if hi == lo else (values[known] - lo) / (hi - lo)
        if lower_first and hi != lo:
            out[known] = 1.0 - out[known]
    return out


def scores(values: pd.DataFrame, weights: dict[str, float], directions: dict[str, str] | None = None) -> np.ndarray:
    """Weighted mean of the normalised factors, 0..1. A factor whose value is not known for an
    application is left out of that application's mean (the others' weights share it): an unknown
    is unknown, neither high nor low. 0 where no weighted factor is known (or every weight is 0)."""
    directions = DEFAULT_DIRECTIONS | (directions or {})
    funded = values["previously_funded"].to_numpy(dtype=object)
    parts = {"density": _normalise(values["senior_density"].to_numpy(dtype=float), directions["density"] == "lower"),
             "proximity": _normalise(values["distance_to_center_miles"].to_numpy(dtype=float),
                                     directions["proximity"] == "nearer"),
             "new_locality": np.array([np.nan if f is None or f != f else (0.0 if f else 1.0) for f in funded])}
    total = sum(weights[k] * ~np.isnan(parts[k]) for k in FACTORS)
    weighted = sum(weights[k] * np.nan_to_num(parts[k]) for k in FACTORS)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.round(np.where(total > 0, weighted / np.where(total > 0, total, 1), 0.0), 9)


def formula_words(weights: dict[str, float], directions: dict[str, str] | None = None) -> str:
    directions = DEFAULT_DIRECTIONS | (directions or {})
    total = sum(weights.values())
    if total == 0:
        return "All weights are 0: every application scores 0 and the order falls back to name."
    used = [k for k in FACTORS if weights[k]]
    said = [f"({DIRECTIONS[k][directions[k]]} scores higher)" for k in used]
    if len(used) > 1 and len({weights[k] for k in used}) == 1:   # "33% + 33% + 33%" added up to 99%
        formula = "the average of " + ", ".join(said[:-1]) + " and " + said[-1]
    else:   # whole percentages that add up to 100% (the largest remainders rounded up)
        exact = [100 * weights[k] / total for k in used]
        shares = [int(e) for e in exact]
        for i in sorted(range(len(used)), key=lambda i: exact[i] - shares[i], reverse=True)[:100 - sum(shares)]:
            shares[i] += 1
        formula = " + ".join(f"{p}% × {t}" for p, t in zip(shares, said))
    return ("The Department's setting: priority score = " + formula + ". Density and distance are "
            "scaled across this portfolio from 0 to 1; a locality never funded before scores 1, one funded before "
            "0; a value not known for an application is left out of its score (the other weights share it), "
            "never counted as low or high. Ties are broken by name, then by row order.")


def allocate(awards: np.ndarray, order: np.ndarray, budget: int, mode: str) -> np.ndarray:
    """Cents allocated to each application (indexed like `awards`), never above its award,
    never more than the budget in total. `order`: indices in priority order."""
    if mode not in MODES:
        raise ValueError(f"mode: {mode!r}; use one of {', '.join(MODES)}")
    if budget < 0:
        raise ValueError("budget: must be $0 or more")
    awards = np.asarray(awards, dtype=np.int64)
    out = np.zeros(len(awards), dtype=np.int64)
    ranked = awards[order]
    if mode == "priority":
        before = np.cumsum(ranked) - ranked
        out[order] = np.clip(budget - before, 0, ranked)
    elif mode == "whole":
        left = budget
        for i in order:  # greedy: each award that still fits whole, in priority order
            if awards[i] <= left:
                out[i] = awards[i]
                left -= awards[i]
    else:
        total = int(awards.sum())
        if total <= budget:
            out[:] = awards
        elif total > 0:
            out[:] = [int(a) * budget // total for a in awards]  # exact, rounded down
    return out


@dataclass
class Result:
    table: pd.DataFrame        # input columns + award, binding, route, standard_award, priority_score, rank,
                               # allocated, error
    good: np.ndarray           # mask of rows that validated
    awards: np.ndarray         # cents: the awards counted (the standard route's under exceptions="excluded")
    allocated: np.ndarray      # cents
    binding: np.ndarray        # text
    budget: int
    values: pd.DataFrame       # the parsed applications (the batch engine's input)
    readings: Readings = DEFAULT
    route: np.ndarray = None   # "standard" or "bpw_exception" per row ("" for a bad row)
    standard: np.ndarray = None   # cents: what each row gets without the Board's exception
    best: np.ndarray = None    # cents: each row's maximum award with the Board's exception where it helps
    exceptions: str = "assumed"
    rows: np.ndarray = None    # each row's number in the file (int64)
    shortfall: np.ndarray = None   # cents: how far each row's local contributions fall short of the match (0: met)
    directions: dict = None    # which way each consideration counts (DIRECTIONS), the Department's setting

    @property
    def unmet(self) -> np.ndarray:
        """Rows that do not yet meet a requirement (the local match): their award holds only once they do."""
        return self.good & (self.shortfall > 0)

    @property
    def on_exception(self) -> np.ndarray:
        """Rows whose maximum award needs the Board's exception (counted or not)."""
        return self.good & (self.best > self.standard)


def run(df: pd.DataFrame, budget: int, mode: str = "priority", weights: dict | None = None,
        rs: Ruleset | None = None, readings: Readings = DEFAULT, exceptions: str = "assumed",
        rows=None, directions: dict | None = None) -> Result:
    """Rank and allocate. exceptions="excluded" allocates as if no Board exception were granted:
    every row's counted award is its standard route's. `rows`: each row's number in the file
    (read_portfolio's Table.rows); without them, rows are numbered from 2 under a header."""
    if exceptions not in EXCEPTIONS:
        raise ValueError(f"exceptions: {exceptions!r}; use one of {', '.join(EXCEPTIONS)}")
    if rows is not None and len(rows) != len(df):
        raise ValueError(f"rows: {len(rows)} row numbers for {len(df)} rows")
    rs = rs or load()
    readings = readings.under(rs)   # the readings this law has: those the result says it used
    weights = weights or {k: 1.0 for k in FACTORS}
    values, errors = parse_frame(df)
    errors = _label_errors(df, errors)
    good = errors == ""
    with_exception = evaluate_parsed(values, rs, readings)
    ev = with_exception if exceptions == "assumed" else evaluate_parsed(
        values.assign(bpw_exception_requested=False), rs, readings)
    awards = np.where(good, ev["award"].to_numpy(), 0)
    # Scaled across the valid rows only: a rejected row must not move anyone's score.
    score = np.full(len(df), np.nan)
    score[good] = scores(values[good], weights, directions)
    order, rank = _ranked(df, good, score)
    allocated = allocate(awards, order, budget, mode)
    from core.law.batch import cents_text
    out = df.copy()
    out["award"] = np.where(good, cents_text(awards), "")
    out["binding"] = np.where(good, ev["binding"].to_numpy(), "")
    out["route"] = np.where(good, ev["route"].to_numpy(), "")
    standard = np.where(good, with_exception["standard_award"].to_numpy(), 0)
    out["standard_award"] = np.where(good, cents_text(standard), "")
    out["priority_score"] = np.where(good, [f"{s:.4f}" if s == s else "" for s in score], "")
    out["rank"] = np.where(good, rank.astype(str), "")
    out["allocated"] = np.where(good, cents_text(allocated), "")
    shortfall = np.where(good, ev["local_shortfall"].to_numpy(), 0)
    out["local_shortfall"] = np.where(good, cents_text(shortfall), "")
    out["unmet_requirements"] = [unmet_words(int(c)) for c in shortfall]
    out["error"] = errors
    return Result(out, good, awards, allocated, np.where(good, ev["binding"].to_numpy(), ""), budget, values,
                  readings, np.where(good, ev["route"].to_numpy(), ""), standard,
                  np.where(good, with_exception["award"].to_numpy(), 0), exceptions,
                  np.arange(2, len(df) + 2, dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64),
                  shortfall, DEFAULT_DIRECTIONS | (directions or {}))


def _label_errors(df: pd.DataFrame, errors: np.ndarray) -> np.ndarray:
    """Each row's errors with its name's and locality's (labels on charts, in tables and files: capped,
    no hidden characters)."""
    for column in ("name", "locality"):
        if column in df.columns:
            problems = {v: _name_problem(v, column) for v in pd.unique(df[column])}   # each distinct value once
            errors = np.array([_join(e, problems[n] if n in problems else _name_problem(n, column))   # NaN != NaN
                               for e, n in zip(errors, df[column])], dtype=object)
    return errors


def _ranked(df: pd.DataFrame, good: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The valid rows in funding order (score descending, then name, then row) and each row's rank (0: none)."""
    names = df["name"].astype(str).to_numpy() if "name" in df.columns else np.array([""] * len(df))
    idx = np.flatnonzero(good)
    order = idx[np.lexsort((idx, names[idx], -score[idx]))]
    rank = np.zeros(len(df), dtype=np.int64)
    rank[order] = np.arange(1, len(order) + 1)
    return order, rank


def unmet_words(shortfall: int) -> str:
    """A row's requirements not yet met, in words ("" when it meets them)."""
    return f"Local match: {fmt(shortfall)} short" if shortfall > 0 else ""


def insight(result: Result, rs: Ruleset, variant: Ruleset | None = None) -> list[str]:
    """Totals and plain-English findings for a board."""
    g = result.good
    n = int(g.sum())
    values = result.values
    named = g & values["requested_amount_given"].to_numpy()
    requested = int(values["requested_amount"].to_numpy()[named].sum())
    total_max, total_alloc = int(result.awards[g].sum()), int(result.allocated[g].sum())
    lines = [f"{n:,} applications; no requested amount was named." if not named.any() else
             f"{n:,} applications; requested {fmt(requested)} in total (by the {int(named.sum()):,} that named an amount).",
             f"Maximum awards under {rs.in_sentence}: {fmt(total_max)}. Allocated: {fmt(total_alloc)} of the "
             f"{fmt(result.budget)} budget. Unfunded: {fmt(total_max - total_alloc)}."]
    lines += _board_discretion(result) + _not_yet_met(result)
    plan = values["type_code"].to_numpy() == TYPE_CODES["master_plan"]
    counted = 0
    for cap in CAP_IDS:
        held_rows = np.array([cap in b.split(";") for b in result.binding], dtype=bool) & g
        held = int(held_rows.sum())
        counted += held
        if not held:
            continue
        if cap == "program_max":
            plans, capital = int((held_rows & plan).sum()), int((held_rows & ~plan).sum())
            if not plans:
                lines.append(f"{held:,} of {n:,} are held down by the {fmt(rs.number('capital_cap'))} program maximum.")
            elif not capital:
                lines.append(f"{held:,} of {n:,} are held down by the {fmt(rs.number('master_plan_cap'))} program maximum for a "
                             f"master plan.")
            else:
                lines.append(f"{held:,} of {n:,} are held down by the program maximum: {capital:,} at {fmt(rs.number('capital_cap'))}, "
                             f"{plans:,} master plan{'s' if plans > 1 else ''} at {fmt(rs.number('master_plan_cap'))}.")
        else:
            lines.append(f"{held:,} of {n:,} are held down by {CAP[cap].label}.")
    if counted > n:   # the counts add to more than the applications: say why
        tied = int((np.array([b.count(";") > 0 for b in result.binding], dtype=bool) & g).sum())
        lines.append(f"{tied:,} of {n:,} {'is' if tied == 1 else 'are'} held down by two or more limits at once "
                     f"(a tie) and counted under each, so these counts add to {counted:,}.")
    if variant is not None:
        other = evaluate_parsed(values, variant, result.readings)["award"].to_numpy()
        diff = int(other[g].sum()) - total_max
        lines.append(f"Under {variant.in_sentence}, the maximum awards would total {fmt(int(other[g].sum()))}: "
                     f"{fmt(abs(diff))} {'more' if diff >= 0 else 'less'}.")
    return lines


def _not_yet_met(result: Result) -> list[str]:
    """How much is allocated to applications whose award holds only once they meet the local match."""
    unmet = result.unmet
    n = int(unmet.sum())
    if not n:
        return []
    short, allocated = int(result.shortfall[unmet].sum()), int(result.allocated[unmet].sum())
    who = "1 application does" if n == 1 else f"{n:,} applications do"
    return [f"{who} not yet meet the local match ({fmt(short)} short in all); {fmt(allocated)} of the allocation "
            f"goes to {'it' if n == 1 else 'them'}, payable only once the match is met."]


def _board_discretion(result: Result) -> list[str]:
    """How much of the totals exists only if the Board of Public Works grants its exception."""
    on = result.on_exception
    n = int(on.sum())
    if not n:
        return []
    extra = int((result.best[on] - result.standard[on]).sum())
    rows = f"{n:,} application{'s' if n > 1 else ''}"
    if result.exceptions == "excluded":
        return [f"The Board of Public Works exception is not counted: {rows} would get {fmt(extra)} more in "
                f"all if the Board approves it."]
    above = int(np.maximum(0, result.allocated[on] - result.standard[on]).sum())
    total, allocated = int(result.awards[result.good].sum()), int(result.allocated[result.good].sum())
    return [f"{fmt(extra)} of the {fmt(total)} in maximum awards exists only at the Board of Public Works' "
            f"discretion: {rows} {'is' if n == 1 else 'are'} on the Board's exception route, and without the "
            f"Board's approval {'it' if n == 1 else 'they'} would get {fmt(int(result.standard[on].sum()))}"
            f"{'' if n == 1 else ' in all'}. Of the {fmt(allocated)} allocated, {fmt(above)} depends on the "
            f"Board's approval."]


def _name_problem(raw, column: str = "name") -> str:
    from core.law.money import ValidationError
    from core.law.names import check_text
    try:
        check_text("" if raw is None or raw != raw else str(raw), column, MAX_NAME, required=False)
    except ValidationError as err:
        return str(err)
    return ""


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b else a or b


def sample() -> Table:
    """The illustrative sample, with its rows' numbers in the file."""
    return read_portfolio(SAMPLE.read_bytes(), SAMPLE.name)


def read_sample() -> pd.DataFrame:
    return sample().frame


