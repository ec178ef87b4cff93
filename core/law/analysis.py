"""Exact breakpoints of the award along one input.

Along one money input x, every cap of core.law.caps, run on exact fractions before rounding
and before the clamp at zero, is a line a·x + b; a cap that holds only while a condition
fails (the local match under local_match_effect=condition) is a line present on one side
of another line's zero, where the award jumps. Each route's award is the least of its caps
and the result the better route, so the award is piecewise linear, and its kinks and jumps
lie only where two cap lines cross, a line crosses zero, or a condition switches. We
compute those candidates exactly (fractions of a cent), keep the ones where the slope, the
binding caps or the route change, and report each at the first cent on its far side with
the award `evaluate` gives there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from fractions import Fraction

from core.law.application import Application
from core.law.award import _routes, award_amount, evaluate
from core.law.fields import FIELD
from core.law.provisions import CAP, CAP_IDS
from core.law.money import fmt, plain
from core.law.caps import COMPUTED, OPTIONAL, derive, inputs_of
from core.law.engines import EXACT, Step
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset, load

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


@dataclass(frozen=True)
class Breakpoint:
    value: int            # cents: the first cent at which the new regime holds
    exact: Fraction       # where the lines cross, in cents
    award: int            # cents, from `evaluate` at `value`
    binding_before: tuple
    binding_after: tuple
    route_before: str
    route_after: str
    slope_before: Fraction
    slope_after: Fraction

    def to_dict(self) -> dict:
        return {"value": plain(self.value), "award": plain(self.award),
                "binding_before": list(self.binding_before), "binding_after": list(self.binding_after),
                "route_before": self.route_before, "route_after": self.route_after,
                "slope_before": str(self.slope_before), "slope_after": str(self.slope_after)}


@dataclass(frozen=True)
class Sweep:
    field: str
    lo: int
    hi: int
    breakpoints: tuple
    points: tuple         # (value, award, binding) in cents, for drawing
    segments: tuple = ()  # (x0, award0, x1, award1, binding in between): one per linear stretch

    def to_dict(self) -> dict:
        return {"field": self.field, "from": plain(self.lo), "to": plain(self.hi),
                "breakpoints": [b.to_dict() for b in self.breakpoints],
                "points": [{"value": plain(x), "award": plain(a), "binding": list(b)} for x, a, b in self.points]}


def _values(app: Application, field: str, x) -> dict:
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


def _lines(app: Application, rs: Ruleset, field: str, readings: Readings = DEFAULT) -> Lines:
    """Every cap of every route as a line along the field, for x > 0 (each cap is exactly
    affine before the clamp). Measured at 1 and 2 cents: at 0 some caps and routes do not
    exist yet (the top-up cap and the closed exception route at 0 of prior funds). Remembered by
    everything but the field's own value, which the lines do not depend on: what_would_change asks
    twice per field (the sweep, then the stretch the input is on), and the calculator's slider
    pieces ask for the same lines on the same run; callers must not change what it returns."""
    return _lines_along(app if getattr(app, field) == 0 else app.replace(**{field: 0}), rs, field, readings)


@lru_cache(maxsize=256)
def _lines_along(app: Application, rs: Ruleset, field: str, readings: Readings) -> Lines:
    at1 = raw_caps(_values(app, field, 1), app, rs, readings)
    at2 = raw_caps(_values(app, field, 2), app, rs, readings)
    return Lines({r: {c: _fit(v1, at2[r][c]) for c, v1 in caps.items()} for r, caps in at1.items()})


def _shape(app: Application, rs: Ruleset, field: str, x: int, readings: Readings) -> tuple:
    """Which routes and caps exist at one value of the field."""
    at = raw_caps(_values(app, field, x), app, rs, readings)
    return tuple((r, tuple(caps)) for r, caps in at.items())


def _on_lines(app: Application, rs: Ruleset, field: str, readings: Readings) -> bool:
    """Whether every cap at 0 of the field is where its line (measured at 1 and 2 cents) puts it, and
    every condition holds (or fails) at 0 as just above it."""
    at0 = raw_caps(_values(app, field, 0), app, rs, readings)
    lines = _lines(app, rs, field, readings).routes
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


def _constant_lines(app: Application, rs: Ruleset, field: str, x: int, readings: Readings) -> Lines:
    """The caps at one value of the field, as flat lines (the regime at exactly x)."""
    at = raw_caps(_values(app, field, x), app, rs, readings)
    return Lines({r: {c: (Line(Fraction(0), v.value, (Fraction(0), v.margin)) if isinstance(v, Step) else
                          Line(Fraction(0), Fraction(v)))
                      for c, v in caps.items()} for r, caps in at.items()})


def _present(margin: tuple | None, p: int, q: int) -> bool:
    """Whether a scaled line with this scaled margin is present at x = p/q."""
    return margin is None or margin[0] * p + margin[1] * q < 0


def _regime(lines: Lines, x: Fraction) -> tuple[State, Fraction]:
    """Route, binding caps and slope on the stretch around x (x strictly inside it), and the
    award there before rounding."""
    p, q = x.numerator, x.denominator
    best = None
    for route, route_caps in lines.scaled:
        values = {c: a * p + b * q for c, a, b, margin in route_caps if _present(margin, p, q)}
        award = max(0, min(values.values()))
        if best is None or award > best[2]:
            best = (route, values, award)
    route, values, award = best
    binding = tuple(c for c in CAP_IDS if c in values and max(0, values[c]) == award)
    slope = Fraction(0) if award == 0 else lines.routes[route][binding[0]].a
    return State(route, binding, slope), Fraction(award, lines.d * q)


def _candidates(by_route: Lines, start: int, hi: int) -> tuple[list[Fraction], set[Fraction], list]:
    """Where the award's regime may change, strictly between start and hi: where two cap lines
    cross or one crosses zero, and where a condition starts or stops holding (`jumps`). Also the
    conditions' margins (scaled lines), to tell at a cut which side it belongs to."""
    # Where lines cross is the same for the scaled lines (integers: one fraction made per point).
    lines = [(a, b) for _, caps in by_route.scaled for _, a, b, _ in caps]
    candidates = set()

    def candidate(num: int, den: int) -> None:
        """num/den, kept only if strictly between start and hi (checked before a fraction is made)."""
        if den < 0:
            num, den = -num, -den
        if start * den < num < hi * den:
            candidates.add(Fraction(num, den))

    for i, (a1, b1) in enumerate(lines):
        if a1:
            candidate(-b1, a1)                # the line crosses zero
        for a2, b2 in lines[i + 1:]:
            if a1 != a2:
                candidate(b2 - b1, a1 - a2)   # two lines cross
    margins = [m for _, caps in by_route.scaled for *_, m in caps if m is not None]
    jumps = {Fraction(-m[1], m[0]) for m in margins if m[0]}  # a condition starts or stops holding
    return sorted(c for c in candidates | jumps if start < c < hi), jumps, margins


def _breakpoints(app, rs, field, lo: int, start: int, hi: int, readings: Readings, stop) -> tuple[tuple, set]:
    """The breakpoints in [lo, hi] (ending at the first that passes `stop`), and the jumps."""
    by_route = _lines(app, rs, field, readings)
    cuts, jumps, margins = _candidates(by_route, start, hi)
    edges = [Fraction(start)] + cuts + [Fraction(hi)]
    regimes = [_regime(by_route, (a + b) / 2)[0] for a, b in zip(edges, edges[1:])]
    breakpoints, offered = [], 0   # breakpoints[:offered] have been shown to `stop`

    def steps_on(x: Fraction) -> tuple:
        return tuple(_present(m, x.numerator, x.denominator) for m in margins)

    if start != lo:  # a cap or route appears (or goes) at one cent
        before, after = _regime(_constant_lines(app, rs, field, 0, readings), Fraction(0))[0], regimes[0]
        # The first cent itself may still be on the far side of a condition that switches there (the
        # statute's residual-value test holding at one cent with its margin at 0, failing just above;
        # a tie of the routes' lines at one cent, which keeps the standard route): the regime just above
        # one cent then starts only at two, as a jump at a cut inside the range does (below).
        at_first = _regime(by_route, Fraction(start))[0]
        held = start + 1 <= hi and (at_first.route != after.route
                                    or steps_on(Fraction(start)) != steps_on((edges[0] + edges[1]) / 2))
        if held:
            after = at_first
        jumps_at_first_cent = abs(award_amount(app.replace(**{field: 1}), rs, readings)
                                  - award_amount(app.replace(**{field: 0}), rs, readings) - after.slope) >= 1
        if (before.binding, before.route) != (after.binding, after.route) or jumps_at_first_cent:
            breakpoints.append(_breakpoint(app, rs, field, Fraction(1), before, after, readings))
        if held:
            if breakpoints and stop is not None:   # the one at one cent: no later cut can merge into it
                offered = 1
                if stop(breakpoints[0]):
                    return tuple(breakpoints), jumps
            breakpoints.append(_breakpoint(app, rs, field, Fraction(start + 1), at_first, regimes[0], readings,
                                           exact=Fraction(start)))

    for cut, left, before, after in zip(cuts, edges, regimes, regimes[1:]):
        if before != after:
            first = cut
            if cut in jumps and cut.denominator == 1 and steps_on(cut) == steps_on((left + cut) / 2):
                first = cut + 1  # the condition still holds (or still fails) at the cut itself
            if cut.denominator == 1 and cut not in jumps and after.route == "bpw_exception" != before.route:
                first = cut + 1  # the routes' lines cross at the cut: a tie there, which keeps the standard route
            b = _breakpoint(app, rs, field, first, before, after, readings, exact=cut)
            if breakpoints and breakpoints[-1].value == b.value:
                # Two cuts within one cent (a stretch of less than a cent between them, which no
                # amount of whole cents lands on): one breakpoint, from the first regime to the last.
                b = replace(b, exact=breakpoints[-1].exact, binding_before=breakpoints[-1].binding_before,
                            route_before=breakpoints[-1].route_before, slope_before=breakpoints[-1].slope_before)
                breakpoints.pop()
            if (b.binding_before, b.route_before, b.slope_before) == (b.binding_after, b.route_after, b.slope_after):
                continue   # the two cuts undo each other
            # `stop` sees a breakpoint only once no later cut can merge into it (one in the same cent)
            if len(breakpoints) > offered and stop is not None:
                offered = len(breakpoints)
                if stop(breakpoints[-1]):
                    return tuple(breakpoints), jumps
            breakpoints.append(b)
    if len(breakpoints) > offered and stop is not None:
        stop(breakpoints[-1])
    return tuple(breakpoints), jumps


def _drawn(app, rs, field, lo: int, hi: int, breakpoints: tuple, jumps: set, readings: Readings) -> tuple:
    """For drawing: the award at each edge and midpoint, and one segment per linear stretch
    (a jump's segment ends a cent before it)."""
    edges = sorted({lo, hi, *(b.value for b in breakpoints if b.value <= hi)})
    jump_at = {b.value for b in breakpoints if b.exact in jumps}
    wanted = set(edges) | {(a + b) // 2 for a, b in zip(edges, edges[1:])} | {v - 1 for v in jump_at if v - 1 >= lo}
    at = {x: evaluate(app.replace(**{field: x}), rs, readings) for x in sorted(wanted)}
    drawn = tuple((x, r.amount, r.binding) for x, r in at.items())
    segments = tuple((a, at[a].amount, b if b not in jump_at else b - 1,
                      at[b].amount if b not in jump_at else at[b - 1].amount, at[(a + b) // 2].binding)
                     for a, b in zip(edges, edges[1:]) if not (b in jump_at and b - 1 <= a))
    return drawn, segments


def sweep(app: Application, field: str, lo: int, hi: int, rs: Ruleset | None = None,
          points: bool = True, readings: Readings = DEFAULT, stop=None) -> Sweep:
    """Every point in [lo, hi] (cents) where the award's slope or binding caps change;
    with points, also the award at each edge and midpoint, for drawing. Where a
    condition switches a cap on or off (the local match under local_match_effect=condition)
    the award jumps; the breakpoint is the first cent on the far side. With `stop` (a test
    of a Breakpoint; points=False only), the breakpoints end at the first that passes it."""
    if stop is not None and points:
        raise ValueError("stop: only a sweep without points may end early")
    rs = rs or load()
    readings = readings or DEFAULT
    if field not in SWEEP_FIELDS:
        raise ValueError(f"field: {field!r} cannot be swept; use one of {', '.join(SWEEP_FIELDS)}")
    if not 0 <= lo < hi:
        raise ValueError(f"range: from {plain(lo)} to {plain(hi)} is empty; 'from' must be below 'to'")
    if field == "local_property_value" and not app.bpw_exception_requested:
        app = app.replace(bpw_exception_requested=True, local_property_value=0)
    start = lo
    if lo == 0 and (_shape(app, rs, field, 0, readings) != _shape(app, rs, field, 1, readings)
                    or not _on_lines(app, rs, field, readings)):
        start = 1  # at 0 some cap or route is not there yet (no earlier grant, no federal grant applied),
        # or a cap is not on its line (the share of the whole cost from one cent of prior funds, read so,
        # under a law with no limit for earlier grantees to mark that cent)
    breakpoints, jumps = _breakpoints(app, rs, field, lo, start, hi, readings, stop)
    if not points:
        return Sweep(field, lo, hi, breakpoints, ())
    return Sweep(field, lo, hi, breakpoints, *_drawn(app, rs, field, lo, hi, breakpoints, jumps, readings))


def not_read(field: str, rs: Ruleset) -> str:
    """Why no value of `field` can move the award under `rs`, in one line naming it ('' where one can):
    an amount of the Board's exception that this law's test does not read, or any under a law with no
    exception. The command line refuses to sweep or solve for such a field (exit status 2)."""
    f = FIELD.get(field)
    if f is None or f.group != "exception":
        return ""
    law = rs.in_sentence + (f" as of {rs.as_of_date.isoformat()}" if rs.as_of_date else "")
    if rs.bpw_test == "none":
        return f"{field}: {law} has no Board of Public Works exception, so the {in_sentence(field)} never changes the award"
    if rs.bpw_test == "unknown" and f.board_test:
        return (f"{field}: the conditions of the Board's exception in {law} are not known (cut off in the copies "
                f"found), so the tool does not read the {in_sentence(field)}")
    if f.board_test and f.board_test != rs.bpw_test:
        test = "the statute's residual-value test" if f.board_test == "residual_value" else "the regulation's four conditions"
        return (f"{field}: {law} does not read the {in_sentence(field)} (it is a condition of the Board's exception only "
                f"under {test}), so no value of it changes the award")
    return ""


def _breakpoint(app, rs, field, cut: Fraction, before: State, after: State, readings: Readings = DEFAULT,
                exact: Fraction | None = None) -> Breakpoint:
    value = math.ceil(cut)
    amount = award_amount(app.replace(**{field: value}), rs, readings)
    return Breakpoint(value, cut if exact is None else exact, amount, before.binding, after.binding,
                      before.route, after.route, before.slope, after.slope)


def binds(binding) -> str:
    """What a limit does to the award, for one limit or several ("the State's share of the cost
    and what the project still lacks hold the award down")."""
    return "holds the award down" if len(binding) == 1 else "hold the award down"


def caps_words(binding) -> str:
    """The limits in a sentence: 'the program maximum', 'the State's share of the cost and what
    the project still lacks'."""
    names = [CAP[c].label for c in binding]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def in_sentence(field: str) -> str:
    """A field's label inside a sentence: its first letter small, the rest as written ("outstanding
    State debt on it", where str.lower() made it "outstanding state debt")."""
    label = FIELD[field].label
    return label[:1].lower() + label[1:]


def first_up(text: str) -> str:
    """A sentence's first letter in capitals, the rest as written (str.capitalize() would make
    "the State's share" into "The state's share")."""
    return text[:1].upper() + text[1:]


def describe(bp: Breakpoint, field: str) -> str:
    """'The program maximum holds the award down from $1,200,000 of total cost of eligible work', in
    words a board member can read aloud."""
    label = in_sentence(field)
    route = "" if bp.route_before == bp.route_after else (
        " (on the Board's exception route, if the Board approves)" if bp.route_after == "bpw_exception"
        else " (back to the standard route)")
    if bp.binding_before == bp.binding_after and bp.route_before == bp.route_after:
        trend = ("starts to rise" if bp.slope_after > 0 else "starts to fall" if bp.slope_after < 0
                 else "stops rising" if bp.slope_before > 0 else "stops falling")
        return f"The award {trend} at {fmt(bp.value)} of {label} ({caps_words(bp.binding_after)})"
    return f"{first_up(caps_words(bp.binding_after))} {binds(bp.binding_after)} from {fmt(bp.value)} of {label}{route}"


NEAR = 100   # cents: a change point less than $1 from the input is not worth a sentence


def grid(app: Application, fx: str, xs, fy: str, ys, rs: Ruleset | None = None, readings: Readings = DEFAULT):
    """Award and binding caps over a grid of two inputs, by the batch engine.

    xs, ys: sequences of cents. Returns (award cents [len(ys), len(xs)], binding text
    [len(ys), len(xs)]) with rows along y."""
    import numpy as np

    from core.law.batch import evaluate_parsed, frame_of

    for f in (fx, fy):
        if f not in SWEEP_FIELDS:
            raise ValueError(f"field: {f!r} cannot be mapped; use one of {', '.join(SWEEP_FIELDS)}")
    if fx == fy:
        raise ValueError("the two inputs of a map must differ")
    if "local_property_value" in (fx, fy) and not app.bpw_exception_requested:
        app = app.replace(bpw_exception_requested=True)
    base = frame_of([app])
    gx, gy = np.meshgrid(np.asarray(xs, dtype=np.int64), np.asarray(ys, dtype=np.int64))
    frame = base.loc[np.zeros(gx.size, dtype=int)].reset_index(drop=True)
    for f, values in ((fx, gx.ravel()), (fy, gy.ravel())):
        frame[f] = values
        if f == "requested_amount":
            frame["requested_amount_given"] = True
    out = evaluate_parsed(frame, rs, readings)
    shape = gx.shape
    return out["award"].to_numpy().reshape(shape), out["binding"].to_numpy().reshape(shape)


# --- the pieces a browser evaluates while a slider moves ------------------------------

@lru_cache(maxsize=512)
def _pieces(app: Application, rs: Ruleset, field: str, hi: int, readings: Readings) -> dict | None:
    at_zero = _routes(app, rs, readings)[2]   # app has the field at 0 (pieces)
    lines = _lines(app, rs, field, readings)
    out = {"field": field, "to": hi, "d": lines.d,
           "zero": {"award": at_zero.award, "route": at_zero.id, "binding": list(at_zero.binding),
                    "caps": [[c, v] for c, v in at_zero.caps.items()]},
           "routes": [{"route": route, "caps": [{"cap": c, "a": a, "b": b, "margin": None if m is None else list(m)}
                                                for c, a, b, m in caps]}
                      for route, caps in lines.scaled]}
    # The lines are the caps' own (core.law.caps run on fractions), and the law's rounding is a
    # floor on each: checked against `evaluate` at the ends, so that an input or cap the lines do
    # not describe (a future rule that is not affine along this input) falls back to a rerun.
    # (At 1 cent the rounding and the choice of route; at the top, that nothing bends in between.)
    for x in {1, max(1, hi)}:
        chosen = _routes(app.replace(**{field: x}), rs, readings)[2]
        if piece_value(out, x) != (chosen.award, chosen.id, chosen.binding):
            return None
    return out


def pieces(app: Application, field: str, hi: int, rs: Ruleset | None = None,
           readings: Readings = DEFAULT) -> dict | None:
    """Along `field` from 0 to `hi` cents, the others as in `app`: every cap of every open route
    as exact integers, for a browser to evaluate at each position of a slider without asking the
    server (ui/components/live_award.js). Serialisable (ints, strings, lists):

    - `d`: one common denominator; `routes`: [{route, caps: [{cap, a, b, margin}]}] in the
      route's order (the regulation's, core.law.caps), where at x cents (x >= 1) the cap is
      max(0, floor((a·x + b) / d)), present while `margin` is null or (m0·x + m1) / d < 0
      (a condition on the moving amount, such as the local match under the condition reading);
    - each route's award is the least of its present caps, binding the caps equal to it in
      that order; the award is the larger route's, a tie keeping the standard route (as
      core.law.award settles it);
    - `zero`: the award, route, binding and the chosen route's caps ([cap, cents]) at 0, where
      some caps or routes do not exist yet.

    None where the pieces do not hold (checked against `evaluate`): the page reruns instead."""
    rs = rs or load()
    readings = readings or DEFAULT
    if field not in SWEEP_FIELDS:
        raise ValueError(f"field: {field!r} cannot be swept; use one of {', '.join(SWEEP_FIELDS)}")
    if hi < 0:
        raise ValueError(f"range: to {plain(hi)} is below zero")
    # Remembered by everything but the moving amount: moving it again finds the same pieces.
    return _pieces(app.replace(**{field: 0}), rs, field, hi, readings)


def piece_value(p: dict, x: int) -> tuple[int, str, tuple]:
    """(award, route, binding) at x cents from `pieces`' output alone: what the browser computes
    (ui/components/live_award.js does the same arithmetic in BigInt), for the tests to compare
    with `evaluate`."""
    if x == 0:
        z = p["zero"]
        return z["award"], z["route"], tuple(z["binding"])
    d = p["d"]
    best = None
    for r in p["routes"]:
        values = {}
        for c in r["caps"]:
            m = c["margin"]
            if m is None or m[0] * x + m[1] < 0:
                values[c["cap"]] = max(0, (c["a"] * x + c["b"]) // d)   # floor, as the law rounds a share
        award = min(values.values())
        if best is None or award > best[0]:
            best = (award, r["route"], tuple(k for k, v in values.items() if v == award))
    return best
