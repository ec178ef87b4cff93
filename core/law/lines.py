"""The caps as exact lines along one input: what the breakpoints (core.law.analysis), solve and
the slider's pieces (core.law.pieces) are computed from.

Along one money input x, every cap of core.law.caps, run on exact fractions before rounding and
before the clamp at zero (the EXACT engine), is a line a·x + b; a cap that holds only while a
condition fails (the local match under local_match_effect=condition) is a line present on one side
of another line's zero. `lines_along` measures them; `regime` says, at a point, which route and
caps hold and the award there before rounding.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from core.law.application import Application
from core.law.caps import COMPUTED, OPTIONAL, derive, inputs_of
from core.law.engines import EXACT, Step
from core.law.provisions import CAP_IDS
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset

# Every amount of the computation can be swept (the field table's order).
SWEEP_FIELDS = tuple(f.name for f in COMPUTED if f.kind == "money")


def raw_caps(v: dict, app: Application, rs: Ruleset, readings: Readings = DEFAULT) -> dict[str, dict]:
    """Each route's caps before rounding and the clamp at zero, for money values `v`
    (cents, may be fractions): core.law.caps's caps on exact fractions. A cap that holds only
    while a condition fails (the local match under local_match_effect=condition) is a
    `Step` with the condition's margin."""
    x = replace(inputs_of(app, Fraction), **{k: Fraction(v[k] or 0) for k in SWEEP_FIELDS},
                **{f"{k}_given": v[k] is not None for k in OPTIONAL})
    law = derive(x, rs, readings, EXACT)
    routes = {"standard": {c: val for c, val in law.standard.items() if val is not None}}
    if law.board.open:
        routes["bpw_exception"] = {c: val for c, val in law.bpw_exception.items() if val is not None}
        if law.board.margin is not None:
            # The statute's residual-value test along the input: while it fails the route gives $0, a
            # step like the local match's, so a tie keeps the standard route and the route's opening
            # and closing are where the award changes (never a limit that is named: not a cap id).
            routes["bpw_exception"][CLOSED] = Step(law.board.margin, Fraction(0))
    return routes


# The pseudo-cap of a Board route whose test fails along the input (raw_caps): never in a binding.
CLOSED = "bpw_closed"


@dataclass(frozen=True)
class State:
    """The award's regime on an open stretch of the input."""
    route: str
    binding: tuple
    slope: Fraction     # change of the award per unit of the input


def values_at(app: Application, field: str, x) -> dict:
    v = {k: getattr(app, k) for k in SWEEP_FIELDS}
    v[field] = x
    return v


@dataclass(frozen=True)
class Line:
    """A cap along the input: a·x + b, present where `margin` (another line, or None for
    always) is below zero."""
    a: Fraction
    b: Fraction
    margin: tuple | None = None


class Lines:
    """Every cap of every route as a line along one input (`routes`: route -> cap -> Line),
    and the same lines as integers over one common denominator (`scaled`). Comparing caps at a
    point x = p/q then needs integers only: a·x + b times that denominator and q is A·p + B·q,
    and scaling every value by the same positive number keeps which is least, which tie and
    which are below zero. Fractions made the award's regime the bulk of what_would_change,
    which the calculator works out on every slider move."""

    def __init__(self, routes: dict[str, dict[str, Line]]):
        self.routes = routes
        self.d = d = math.lcm(*(f.denominator for caps in routes.values() for ln in caps.values()
                       for f in (ln.a, ln.b, *(ln.margin or ()))))
        self.scaled = tuple((route, tuple((c, int(ln.a * d), int(ln.b * d),
                                           None if ln.margin is None else (int(ln.margin[0] * d), int(ln.margin[1] * d)))
                                          for c, ln in caps.items()))
                            for route, caps in routes.items())


def _fit(v1, v2) -> Line:
    """The line through the values at 1 and 2 cents (a Step: its value's line, present
    while its margin's line is below zero)."""
    if isinstance(v1, Step):
        return Line(v2.value - v1.value, 2 * v1.value - v2.value, (v2.margin - v1.margin, 2 * v1.margin - v2.margin))
    return Line(v2 - v1, 2 * v1 - v2)


def lines_along(app: Application, rs: Ruleset, field: str, readings: Readings = DEFAULT) -> Lines:
    """Every cap of every route as a line along the field, for x > 0 (each cap is exactly
    affine before the clamp). Measured at 1 and 2 cents: at 0 some caps and routes do not
    exist yet (the top-up cap and the closed exception route at 0 of prior funds). Remembered by
    everything but the field's own value, which the lines do not depend on: what_would_change asks
    twice per field (the sweep, then the stretch the input is on), and the calculator's slider
    pieces ask for the same lines on the same run; callers must not change what it returns."""
    return _lines_from_zero(app if getattr(app, field) == 0 else app.replace(**{field: 0}), rs, field, readings)


@lru_cache(maxsize=256)
def _lines_from_zero(app: Application, rs: Ruleset, field: str, readings: Readings) -> Lines:
    at1 = raw_caps_at(app, rs, field, 1, readings)
    at2 = raw_caps_at(app, rs, field, 2, readings)
    return Lines({r: {c: _fit(v1, at2[r][c]) for c, v1 in caps.items()} for r, caps in at1.items()})


def raw_caps_at(app: Application, rs: Ruleset, field: str, x: int, readings: Readings) -> dict[str, dict]:
    """raw_caps with the field at `x` (the others as in `app`), remembered by everything but the field's
    own value, which it does not read: the sweep, the lines and the test at 0 ask for the same few values
    (callers must not change what it returns)."""
    return _raw_caps_at(app if getattr(app, field) == 0 else app.replace(**{field: 0}), rs, field, x, readings)


@lru_cache(maxsize=512)
def _raw_caps_at(app: Application, rs: Ruleset, field: str, x: int, readings: Readings) -> dict[str, dict]:
    return raw_caps(values_at(app, field, x), app, rs, readings)


def shape(app: Application, rs: Ruleset, field: str, x: int, readings: Readings) -> tuple:
    """Which routes and caps exist at one value of the field."""
    at = raw_caps_at(app, rs, field, x, readings)
    return tuple((r, tuple(caps)) for r, caps in at.items())


def on_lines(app: Application, rs: Ruleset, field: str, readings: Readings) -> bool:
    """Whether every cap at 0 of the field is where its line (measured at 1 and 2 cents) puts it, and
    every condition holds (or fails) at 0 as just above it."""
    at0 = raw_caps_at(app, rs, field, 0, readings)
    lines = lines_along(app, rs, field, readings).routes
    for route, route_caps in at0.items():
        for c, v in route_caps.items():
            ln = lines[route][c]
            if isinstance(v, Step):
                if ln.margin is None or (v.value, v.margin) != (ln.b, ln.margin[1]):
                    return False
                if (v.margin < 0) != (ln.margin[0] / 2 + ln.margin[1] < 0):
                    return False   # its condition switches at 0 itself (the Board's route closes at one cent)
            elif v != ln.b:
                return False
    return True


def constant_lines(app: Application, rs: Ruleset, field: str, x: int, readings: Readings) -> Lines:
    """The caps at one value of the field, as flat lines (the regime at exactly x)."""
    at = raw_caps_at(app, rs, field, x, readings)
    return Lines({r: {c: (Line(Fraction(0), v.value, (Fraction(0), v.margin)) if isinstance(v, Step) else
                          Line(Fraction(0), Fraction(v)))
                      for c, v in caps.items()} for r, caps in at.items()})


def present(margin: tuple | None, p: int, q: int) -> bool:
    """Whether a scaled line with this scaled margin is present at x = p/q."""
    return margin is None or margin[0] * p + margin[1] * q < 0


def regime(lines: Lines, x: Fraction) -> tuple[State, Fraction]:
    """Route, binding caps and slope on the stretch around x (x strictly inside it), and the
    award there before rounding."""
    p, q = x.numerator, x.denominator
    best = None
    for route, route_caps in lines.scaled:
        values = {c: a * p + b * q for c, a, b, margin in route_caps if present(margin, p, q)}
        award = max(0, min(values.values()))
        if best is None or award > best[2]:
            best = (route, values, award)
    route, values, award = best
    binding = tuple(c for c in CAP_IDS if c in values and max(0, values[c]) == award)
    slope = Fraction(0) if award == 0 else lines.routes[route][binding[0]].a
    return State(route, binding, slope), Fraction(award, lines.d * q)
