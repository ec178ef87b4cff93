"""Exact breakpoints of the award along one input.

Along one money input x, every cap of core.law.caps, run on exact fractions before rounding
and before the clamp at zero, is a line a·x + b (core.law.lines); a cap that holds only while a condition
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
from fractions import Fraction

from core.law.application import Application
from core.law.award import award_amount, evaluate
from core.law.fields import FIELD
from core.law.lines import SWEEP_FIELDS, Lines, State, constant_lines, lines_along, on_lines, present, regime, shape
from core.law.provisions import CAP
from core.law.money import fmt, plain
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset, load


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


class _Found:
    """The breakpoints found so far; `stop` sees each only once no later cut can merge into it (one in
    the same cent). `steps_on(x)`: which conditions (the lines' margins) hold at x."""

    def __init__(self, stop, margins: list):
        self.points, self.offered, self.stop, self.margins = [], 0, stop, margins

    def offer(self) -> bool:
        """Show `stop` the last breakpoint, if it has not seen it: True when the sweep ends there."""
        if len(self.points) > self.offered and self.stop is not None:
            self.offered = len(self.points)
            return bool(self.stop(self.points[-1]))
        return False

    def steps_on(self, x: Fraction) -> tuple:
        return tuple(present(m, x.numerator, x.denominator) for m in self.margins)


def _breakpoints(app, rs, field, lo: int, start: int, hi: int, readings: Readings, stop,
                 award_at) -> tuple[tuple, set]:
    """The breakpoints in [lo, hi] (ending at the first that passes `stop`), and the jumps."""
    by_route = lines_along(app, rs, field, readings)
    cuts, jumps, margins = _candidates(by_route, start, hi)
    edges = [Fraction(start)] + cuts + [Fraction(hi)]
    regimes = [regime(by_route, (a + b) / 2)[0] for a, b in zip(edges, edges[1:])]
    found = _Found(stop, margins)
    if start != lo and _at_first_cent(found, (app, rs, field, readings), by_route, edges, regimes, hi, award_at):
        return tuple(found.points), jumps
    for cut, left, before, after in zip(cuts, edges, regimes, regimes[1:]):
        if before == after:
            continue
        first = cut
        if cut in jumps and cut.denominator == 1 and found.steps_on(cut) == found.steps_on((left + cut) / 2):
            first = cut + 1  # the condition still holds (or still fails) at the cut itself
        if cut.denominator == 1 and cut not in jumps and after.route == "bpw_exception" != before.route:
            first = cut + 1  # the routes' lines cross at the cut: a tie there, which keeps the standard route
        b = _breakpoint(award_at, first, before, after, exact=cut)
        if found.points and found.points[-1].value == b.value:
            # Two cuts within one cent (a stretch of less than a cent between them, which no
            # amount of whole cents lands on): one breakpoint, from the first regime to the last.
            last = found.points.pop()
            b = replace(b, exact=last.exact, binding_before=last.binding_before, route_before=last.route_before,
                        slope_before=last.slope_before)
        if (b.binding_before, b.route_before, b.slope_before) == (b.binding_after, b.route_after, b.slope_after):
            continue   # the two cuts undo each other
        if found.offer():
            return tuple(found.points), jumps
        found.points.append(b)
    found.offer()
    return tuple(found.points), jumps


def _at_first_cent(found: _Found, question: tuple, by_route, edges: list, regimes: list, hi: int, award_at) -> bool:
    """A cap or route appears (or goes) at one cent: the breakpoints there, into `found`. True when
    `stop` ends the sweep at them."""
    start = int(edges[0])
    before, after = regime(constant_lines(*question[:3], 0, question[3]), Fraction(0))[0], regimes[0]
    # The first cent itself may still be on the far side of a condition that switches there (the
    # statute's residual-value test holding at one cent with its margin at 0, failing just above;
    # a tie of the routes' lines at one cent, which keeps the standard route): the regime just above
    # one cent then starts only at two, as a jump at a cut inside the range does.
    at_first = regime(by_route, Fraction(start))[0]
    held = start + 1 <= hi and (at_first.route != after.route
                                or found.steps_on(Fraction(start)) != found.steps_on((edges[0] + edges[1]) / 2))
    if held:
        after = at_first
    jumps_at_first_cent = abs(award_at(1) - award_at(0) - after.slope) >= 1
    if (before.binding, before.route) != (after.binding, after.route) or jumps_at_first_cent:
        found.points.append(_breakpoint(award_at, Fraction(1), before, after))
    if held:
        if found.points and found.offer():   # the one at one cent: no later cut can merge into it
            return True
        # the condition switching at the second cent is a breakpoint only where it changes what is seen (a
        # Board route closing that was not the one taken, tied at one cent, changes nothing there)
        seen = (at_first.binding, at_first.route, at_first.slope) != (regimes[0].binding, regimes[0].route,
                                                                       regimes[0].slope)
        if seen or abs(award_at(start + 1) - award_at(start) - at_first.slope) >= 1:
            found.points.append(_breakpoint(award_at, Fraction(start + 1), at_first, regimes[0], exact=Fraction(start)))
    return False


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
          points: bool = True, readings: Readings = DEFAULT, stop=None, award_at=None) -> Sweep:
    """Every point in [lo, hi] (cents) where the award's slope or binding caps change;
    with points, also the award at each edge and midpoint, for drawing. Where a
    condition switches a cap on or off (the local match under local_match_effect=condition)
    the award jumps; the breakpoint is the first cent on the far side. With `stop` (a test
    of a Breakpoint; points=False only), the breakpoints end at the first that passes it. `award_at`:
    the award with the field at a value, where the caller has it at hand (core.law.solve: each value's
    law derived once per answer); by default worked out here."""
    if stop is not None and points:
        raise ValueError("stop: only a sweep without points may end early")
    rs = rs or load()
    readings = readings or DEFAULT
    if field not in SWEEP_FIELDS:
        raise ValueError(f"field: {field!r} cannot be swept; use one of {', '.join(SWEEP_FIELDS)}")
    if not 0 <= lo < hi:
        raise ValueError(f"range: from {plain(lo)} to {plain(hi)} is empty; 'from' must be below 'to'")
    if field == "local_property_value" and not app.bpw_exception_requested:
        app, award_at = app.replace(bpw_exception_requested=True, local_property_value=0), None
    if award_at is None:
        def award_at(x: int) -> int:
            return award_amount(app.replace(**{field: x}), rs, readings)
    start = lo
    if lo == 0 and (shape(app, rs, field, 0, readings) != shape(app, rs, field, 1, readings)
                    or not on_lines(app, rs, field, readings)):
        start = 1  # at 0 some cap or route is not there yet (no earlier grant, no federal grant applied),
        # or a cap is not on its line (the share of the whole cost from one cent of prior funds, read so,
        # under a law with no limit for earlier grantees to mark that cent)
    breakpoints, jumps = _breakpoints(app, rs, field, lo, start, hi, readings, stop, award_at)
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
    if rs.number("bpw_test") == "none":
        return f"{field}: {law} has no Board of Public Works exception, so the {in_sentence(field)} never changes the award"
    if rs.number("bpw_test") == "unknown":   # none of its amounts is read, the property's value neither (core.law.caps)
        return (f"{field}: the conditions of the Board's exception in {law} are not known (cut off in the copies "
                f"found), so the tool does not read the {in_sentence(field)}")
    if f.board_test and f.board_test != rs.number("bpw_test"):
        test = "the statute's residual-value test" if f.board_test == "residual_value" else "the regulation's four conditions"
        return (f"{field}: {law} does not read the {in_sentence(field)} (it is a condition of the Board's exception only "
                f"under {test}), so no value of it changes the award")
    return ""


def _breakpoint(award_at, cut: Fraction, before: State, after: State, exact: Fraction | None = None) -> Breakpoint:
    value = math.ceil(cut)
    return Breakpoint(value, cut if exact is None else exact, award_at(value), before.binding, after.binding,
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


