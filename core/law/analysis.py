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
from core.law.award import award_amount, evaluate, funding_gap
from core.law.fields import FIELD
from core.law.provisions import CAP, CAP_IDS
from core.law.explain import EXCEPTION_ROUTE, EXCEPTION_ROUTE_CAP, reading_words
from core.law.money import MAX_CENTS, fmt, plain
from core.law.caps import COMPUTED, EXACT, OPTIONAL, Step, caps, inputs_of
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
    law = caps(x, rs, readings, EXACT)
    routes = {"standard": {c: val for c, val in law.standard.items() if val is not None}}
    if law.exception_open:
        routes["bpw_exception"] = {c: val for c, val in law.bpw_exception.items() if val is not None}
    return routes


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


@lru_cache(maxsize=256)
def _lines(app: Application, rs: Ruleset, field: str, readings: Readings = DEFAULT) -> Lines:
    """Every cap of every route as a line along the field, for x > 0 (each cap is exactly
    affine before the clamp). Measured at 1 and 2 cents: at 0 some caps and routes do not
    exist yet (the top-up cap and the closed exception route at 0 of prior funds). Remembered: what_would_change asks twice per field (the sweep,
    then the stretch the input is on); callers must not change what it returns."""
    at1 = raw_caps(_values(app, field, 1), app, rs, readings)
    at2 = raw_caps(_values(app, field, 2), app, rs, readings)
    return Lines({r: {c: _fit(v1, at2[r][c]) for c, v1 in caps.items()} for r, caps in at1.items()})


def _shape(app: Application, rs: Ruleset, field: str, x: int, readings: Readings) -> tuple:
    """Which routes and caps exist at one value of the field."""
    at = raw_caps(_values(app, field, x), app, rs, readings)
    return tuple((r, tuple(caps)) for r, caps in at.items())


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
    breakpoints = []
    if start != lo:  # a cap or route appears (or goes) at one cent
        before, after = _regime(_constant_lines(app, rs, field, 0, readings), Fraction(0))[0], regimes[0]
        if (before.binding, before.route) != (after.binding, after.route):
            breakpoints.append(_breakpoint(app, rs, field, Fraction(1), before, after, readings))

    def steps_on(x: Fraction) -> tuple:
        return tuple(_present(m, x.numerator, x.denominator) for m in margins)

    for cut, left, before, after in zip(cuts, edges, regimes, regimes[1:]):
        if before != after:
            first = cut
            if cut in jumps and cut.denominator == 1 and steps_on(cut) == steps_on((left + cut) / 2):
                first = cut + 1  # the condition still holds (or still fails) at the cut itself
            breakpoints.append(_breakpoint(app, rs, field, first, before, after, readings, exact=cut))
            if stop is not None and stop(breakpoints[-1]):
                break
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
    if lo == 0 and _shape(app, rs, field, 0, readings) != _shape(app, rs, field, 1, readings):
        start = 1  # at 0 some cap or route is not there yet (no earlier grant, no federal grant applied)
    breakpoints, jumps = _breakpoints(app, rs, field, lo, start, hi, readings, stop)
    if not points:
        return Sweep(field, lo, hi, breakpoints, ())
    return Sweep(field, lo, hi, breakpoints, *_drawn(app, rs, field, lo, hi, breakpoints, jumps, readings))


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


def first_up(text: str) -> str:
    """A sentence's first letter in capitals, the rest as written (str.capitalize() would make
    "the State's share" into "The state's share")."""
    return text[:1].upper() + text[1:]


def describe(bp: Breakpoint, field: str) -> str:
    """'The program maximum holds the award down from $1,200,000 of total cost of eligible work', in
    words a board member can read aloud."""
    label = FIELD[field].label.lower()
    route = "" if bp.route_before == bp.route_after else (
        " (the Board exception route takes over)" if bp.route_after == "bpw_exception" else " (back to the standard route)")
    if bp.binding_before == bp.binding_after and bp.route_before == bp.route_after:
        trend = "starts to rise" if bp.slope_after > 0 else "stops falling" if bp.slope_after == 0 else "starts to fall"
        return f"The award {trend} at {fmt(bp.value)} of {label} ({caps_words(bp.binding_after)})"
    return f"{first_up(caps_words(bp.binding_after))} {binds(bp.binding_after)} from {fmt(bp.value)} of {label}{route}"


NEAR = 100   # cents: a change point less than $1 from the input is not worth a sentence


def _jump(app: Application, rs: Ruleset, field: str, b: Breakpoint, readings: Readings) -> int:
    """How far the award jumps at the breakpoint (cents; 0 where it only bends)."""
    before = award_amount(app.replace(**{field: b.value - 1}), rs, readings)
    return abs(b.award - before - int(b.slope_before))


def _moves(app: Application, rs: Ruleset, field: str, b: Breakpoint, readings: Readings) -> bool:
    """Whether the award's course changes at the breakpoint: its slope, or a jump."""
    return b.slope_before != b.slope_after or _jump(app, rs, field, b, readings) > 1


def _until(current: int, here: State, x: int, nxt: Breakpoint | None) -> str:
    """The end of a change sentence: where the next change point is and what happens there."""
    if nxt is None:
        return "."
    if current == 0 and here.slope == 0:
        return (f" until {fmt(nxt.value)}, where the award starts to rise from $0." if nxt.award == 0 else
                f" until {fmt(nxt.value)}, where it becomes {fmt(nxt.award)}.")
    if nxt.award == 0:
        return f" until {fmt(nxt.value)}, where the award reaches $0."
    expected = current + here.slope * (nxt.value - x)
    if nxt.award < expected - 100:
        return f" until {fmt(nxt.value)}, where the award drops to {fmt(nxt.award)} ({caps_words(nxt.binding_after)})."
    if nxt.award > expected + 100:
        return f" until {fmt(nxt.value)}, where the award jumps to {fmt(nxt.award)} ({caps_words(nxt.binding_after)})."
    new = [c for c in nxt.binding_after if c not in nxt.binding_before]
    route = f" {EXCEPTION_ROUTE}" if nxt.route_after == "bpw_exception" != here.route else ""
    if nxt.route_after != nxt.route_before:
        route = f" ({'the Board' + chr(39) + 's exception route' if route else 'back to the standard route'})"
    if not new:
        trend = "starts to rise" if nxt.slope_after > 0 else "stops changing" if nxt.slope_after == 0 else "starts to fall"
        return f" until {fmt(nxt.value)}, where the award {trend} ({caps_words(nxt.binding_after)}){route}."
    return f" until {fmt(nxt.value)}, where {caps_words(new)} {'take' if len(new) > 1 else 'takes'} over{route}."


def _along(app: Application, rs: Ruleset, readings: Readings, current: int, field: str) -> str:
    """The sentence for one input: what an extra dollar of it does, up to the next change point
    at least $1 away where the award's course changes (a change of binding caps alone, with the
    award moving as before, is not one)."""
    x = getattr(app, field)
    label = FIELD[field].label.lower()
    hi = min(MAX_CENTS, max(4 * x, x + 4 * rs.capital_cap, 100))

    def named(b: Breakpoint) -> bool:
        """A change worth a sentence: the award's course changes there (and from $0 it rises),
        at least $1 away, or nearer but jumping by more than $1."""
        if b.value <= x or not (current > 0 or b.award > 0 or b.slope_after > 0):
            return False
        if b.value < x + NEAR:
            return _jump(app, rs, field, b, readings) > NEAR
        return _moves(app, rs, field, b, readings)
    # Sweeping from x - 1 finds the same breakpoints above x (the regime is the same anywhere
    # between two adjacent candidates), and the sweep ends at the first one named.
    s = sweep(app, field, max(0, x - 1), hi, rs, points=False, readings=readings, stop=named) if x < hi else None
    here = _regime(_lines(app, rs, field, readings), Fraction(x) + Fraction(1, 2))[0]
    nxt, award = None, current
    for b in s.breakpoints if s else ():
        if named(b):
            nxt = b
            break
        if x < b.value < x + NEAR:   # a bend within a dollar: say what holds from there on
            here, current = State(b.route_after, b.binding_after, b.slope_after), b.award
    if current == 0 and here.slope < 0:   # nothing below $0 to take away
        here = State(here.route, here.binding, Fraction(0))
    until = _until(current, here, x, nxt)
    if here.slope:
        verb = "adds" if here.slope > 0 else "takes away"
        each = "Each" if here.route == "standard" else f"{EXCEPTION_ROUTE_CAP}, if the Board approves, each"
        return f"{each} extra $1 of {label} {verb} {fmt(int(abs(here.slope) * 100))} of award{until}"
    if field == "eligible_cost" and s and current > 0 and not (nxt and nxt.value < x + NEAR):
        full = sweep(app, field, 0, hi, rs, points=False, readings=readings)
        prev = next((b for b in reversed(full.breakpoints) if b.value < x + NEAR and b.slope_before > 0), None)
        if prev:
            return f"Costs above {fmt(prev.value)} no longer raise the award ({caps_words(here.binding)} {binds(here.binding)})."
    if current != award:   # it moves by cents within the first dollar, then holds: not "the $0 award"
        return f"Raising the {label} from {fmt(x)} moves the award by less than $1{until}"
    return f"Raising the {label} from {fmt(x)} does not change the {'$0 ' if current == 0 else ''}award{until}"


def _first_prior(app: Application, rs: Ruleset, readings: Readings, current: int) -> str:
    """Prior program funds where there are none: what the first cent of them would do, then
    where the award would start to fall as they grow."""
    first = award_amount(app.replace(prior_program_funds=1), rs, readings)
    ceiling = fmt(rs.prior_grant_ceiling)
    if first > current:
        under = "" if readings.is_default else " (under " + " and ".join(
            reading_words(readings, r) for r in readings.changed()) + ")"
        return (f"Any prior program funds would raise the award to {fmt(first)} at one cent of them{under}, within "
                f"the limit for earlier grantees of {ceiling} less those funds.")
    if first < current and award_amount(app.replace(bpw_exception_requested=False), rs, readings) < current:
        return (f"Any prior program funds would close the Board's exception (State funds would then have gone into "
                f"the building) and cut the award to {fmt(first)}.")
    if first < current:
        return f"Any prior program funds would limit the award to {ceiling} less those funds (the limit for earlier grantees)."
    if current == 0:
        return "Prior program funds would not raise the $0 award."
    at_once = _regime(_lines(app, rs, "prior_program_funds", readings), Fraction(3, 2))[0]
    if at_once.slope < 0:   # falling from the first cent on
        return f"Prior program funds above $0.01 would start to cut the award ({caps_words(at_once.binding)})."
    s = sweep(app, "prior_program_funds", 1, max(2, 4 * rs.prior_grant_ceiling), rs, points=False,
              readings=readings, stop=lambda b: b.slope_after < 0 or b.award < first)
    fall = next((b for b in s.breakpoints if b.slope_after < 0 or b.award < first), None)
    if fall is None:
        return "Prior program funds would not change the award."
    return f"Prior program funds above {fmt(fall.value)} would start to cut the award ({caps_words(fall.binding_after)})."


def what_would_change(app: Application, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> list[str]:
    """For each input, the nearest point where the award's course changes, in words.
    Only points within the accepted inputs (up to $10^12) are named."""
    rs = rs or load()
    readings = readings or DEFAULT
    current = award_amount(app, rs, readings)
    # every amount given, the exception's only when it is asked for (the field table's order)
    fields = [f for f in SWEEP_FIELDS if getattr(app, f) is not None
              and (FIELD[f].group != "exception" or app.bpw_exception_requested)]
    lines = [_first_prior(app, rs, readings, current) if f == "prior_program_funds" and app.prior_program_funds == 0
             else _along(app, rs, readings, current, f) for f in fields]
    gap = funding_gap(app, current)
    if gap:
        need = closing_local(app, rs, readings)
        if need is not None:
            lines.append(f"Another {fmt(need - app.local_contribution)} of local funds closes the "
                         f"{fmt(gap)} funding gap.")
    return lines


@lru_cache(maxsize=1024)
def changes(app: Application, rs: Ruleset, readings: Readings = DEFAULT) -> tuple[str, ...]:
    """what_would_change, remembered for the process: the calculator redraws it on every
    slider move of every session, and users revisit the same inputs."""
    return tuple(what_would_change(app, rs, readings))


def closing_local(app: Application, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> int | None:
    """The least local contribution (cents) at which the funding gap is zero."""
    rs = rs or load()

    def gap(loc: int) -> int:   # Award.funding_gap at this local contribution, without the words
        at = app.replace(local_contribution=loc)
        return funding_gap(at, award_amount(at, rs, readings))

    lo = app.local_contribution
    hi = max(lo, app.eligible_cost)
    if gap(hi):
        return None
    # The gap never grows as local funds rise, and is piecewise linear: walk its breakpoints.
    # Along local funds every cap but the funding need is constant, so wherever the gap is
    # above zero the award is flat and the gap falls one cent per cent of local funds; at a
    # breakpoint it may also drop to zero at once (local_match_effect=condition: the match is
    # met there and the standard route's award appears). So on the first stretch [a, b] whose
    # end has no gap, the gap closes at a + gap(a), or at b where it drops.
    s = sweep(app, "local_contribution", lo, hi + 1, rs, points=False, readings=readings)
    xs = [lo] + [b.value for b in s.breakpoints] + [hi]
    return next(min(b, a + gap(a)) for a, b in zip(xs, xs[1:]) if gap(b) == 0)   # gap(hi) is 0


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
