"""What it takes to reach an award: the values of one input at which the award is at least a target.

The inverse of the calculator (a spreadsheet's Goal Seek), computed, not searched. Along one money
input core.law.analysis gives the exact breakpoints of the award; between two of them the award
before rounding is one line, and on whole cents it is that line rounded down (each cap is a share
rounded down or a whole number of cents, so the least of them is the least line rounded down).
So on each stretch the cents where the award is at least the target are one end of it, found by
solving the line for the target, and the answer is the union over the stretches: not always one
range, as the award is not monotone in every input (what the project still lacks falls as local
money rises). tests/law/test_solve.py checks each range's ends, and one cent outside them, with
core.law.award.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from core.law.analysis import SWEEP_FIELDS, caps_words, first_up, in_sentence, not_read, sweep
from core.law.application import Application
from core.law.award import _routes
from core.law.fields import FIELD
from core.law.lines import lines_along, regime
from core.law.money import MAX_CENTS, fmt, plain
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset, load

BOARD = "bpw_exception"
LISTED = 3   # ranges named in the sentence; the JSON has every one


@dataclass(frozen=True)
class Reach:
    """Where along the input the award reaches one amount: `value`, the award there, its route and limits."""
    value: int
    award: int
    route: str
    binding: tuple

    def to_dict(self) -> dict:
        return {"value": plain(self.value), "award": plain(self.award), "route": self.route,
                "if_board_approves": self.route == BOARD, "binding": list(self.binding)}


@dataclass(frozen=True)
class Solution:
    field: str
    target: int
    lo: int
    hi: int
    own: int | None             # the application's own value of the field
    current: int                # the application's award
    intervals: tuple            # (from, to) in cents, both included, ascending, apart
    nearest: Reach | None       # the value in `intervals` closest to `own`
    max_award: Reach            # the most reachable by moving the field alone, nearest `own`
    sentence: str
    standard: "Solution | None" = None   # the standard route's answer, when this one needs the Board
    counts: bool = True         # False: the field counts only on the exception route, not requested
    unread: str = ""            # why the law does not read the field at all (analysis.not_read), "" where it does

    def to_dict(self) -> dict:
        return {"field": self.field, "target": plain(self.target), "from": plain(self.lo), "to": plain(self.hi),
                "value": None if self.own is None else plain(self.own), "award": plain(self.current),
                "intervals": [{"from": plain(a), "to": plain(b)} for a, b in self.intervals],
                "nearest": None if self.nearest is None else self.nearest.to_dict(),
                "max_award": self.max_award.to_dict(), "sentence": self.sentence,
                "without_board_approval": None if self.standard is None else self.standard.to_dict()}


class _Points:
    """What the law derives at each value of the field asked about, worked out once per value for one
    answer (core.law.award's routes, whose `law` holds core.law.caps's intermediates): the stretches'
    ends, the crossings checked, the nearest and the most, the current award and the local match all
    read it. Equal (and hashed) by the question, so that the stretches are remembered across answers."""

    def __init__(self, app: Application, rs: Ruleset, field: str, readings: Readings):
        self.app, self.rs, self.field, self.readings = app, rs, field, readings
        self.seen: dict = {}

    def _key(self) -> tuple:
        return self.app, self.rs, self.field, self.readings

    def __eq__(self, other) -> bool:
        return isinstance(other, _Points) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def at(self, x: int | None) -> tuple:
        """(law, routes, chosen route) with the field at `x` (None: the application's own, not given)."""
        if x not in self.seen:
            self.seen[x] = _routes(self.app.replace(**{self.field: x}), self.rs, self.readings)
        return self.seen[x]

    def award(self, x: int | None) -> int:
        return self.at(x)[2].award

    def reach(self, x: int) -> Reach:
        chosen = self.at(x)[2]
        return Reach(x, chosen.award, chosen.id, chosen.binding)

    def short(self, x: int) -> bool:
        """Whether at `x` the award is on the standard route with the local match short."""
        law, _, chosen = self.at(x)
        return chosen.id == "standard" and chosen.award > 0 and law.facts.match_short > 0

    def margin(self, x: int) -> int:
        """The local match less the local funds at `x` (core.law.caps.intermediates): short while > 0."""
        facts = self.at(x)[0].facts
        return facts.match_required - facts.local_funds


@lru_cache(maxsize=64)
def _stretches(points: _Points, lo: int, hi: int) -> tuple:
    """(s, e, award at s, award at e) for each [s, e] (cents, both included) on which the award on
    whole cents is one line rounded down; 0 alone (at 0 some caps and routes are not there yet; the
    lines are measured from 1 cent). Whatever the target: remembered, for a reach asked again of the
    same inputs (the Calculator's box on every run, a table of targets)."""
    app, rs, field, readings = points._key()
    if FIELD[field].group == "exception" and not app.bpw_exception_requested:
        edges = [lo]   # the field counts only on the exception route, which is not asked for: flat
    else:
        edges = {lo} | {b.value for b in sweep(app, field, lo, hi, rs, points=False, readings=readings,
                                                 award_at=points.award).breakpoints
                        if lo < b.value <= hi}
        if lo == 0 and hi > 0:
            edges.add(1)
        edges = sorted(edges)
    out = []
    for s, e in zip(edges, edges[1:] + [hi + 1]):
        a_s = points.award(s)
        out.append((s, e - 1, a_s, a_s if e - 1 == s else points.award(e - 1)))
    return tuple(out)


def _where(points: _Points, stretch: tuple, target: int) -> tuple[int, int] | None:
    """The cents of the stretch (s, e, award at s, award at e) at which the award is at least
    `target`: one end of the stretch, or none."""
    app, rs, field, readings = points._key()
    s, e, a_s, a_e = stretch
    if s == e or (a_s >= target) == (a_e >= target):
        return (s, e) if a_s >= target else None
    if FIELD[field].group == "exception" and not app.bpw_exception_requested:
        return (s, e) if a_s >= target else None
    # The line through the exact awards (before rounding) at both ends; rounded down it is at
    # least the whole-cent target exactly where the line is.
    lines = lines_along(app, rs, field, readings)
    v_s, v_e = regime(lines, Fraction(s))[1], regime(lines, Fraction(e))[1]
    slope = (v_e - v_s) / (e - s)
    if slope:
        cross = s + (target - v_s) / slope
        first = max(s, math.ceil(cross)) if slope > 0 else min(e, math.floor(cross)) + 1
        if s < first <= e and (points.award(first) >= target) == (slope > 0) \
                and (points.award(first - 1) >= target) == (slope < 0):
            return (first, e) if slope > 0 else (s, first - 1)
    # The lines do not describe the stretch (a condition switching inside it that no breakpoint marks):
    # never a wrong answer or a division by zero, but the award itself, halved to the cent where the
    # target is first met or last kept (the stretch is one line rounded down: it crosses the target once).
    rising = a_e >= target
    first = _first_change(lambda x: points.award(x) >= target, s, e, rising)
    return (first, e) if rising else (s, first - 1)


def _first_change(test, a: int, b: int, at_b, guess: int | None = None) -> int:
    """The first cent in (a, b] where `test` gives `at_b` (it gives the other at `a`), halving the
    range; `guess`, where the change is expected, is tried first with the cent below it (2 tests
    when it is right)."""
    lo_, hi_ = a, b
    probes = [] if guess is None or not a < guess <= b else [guess - 1, guess] if guess - 1 > a else [guess]
    while hi_ - lo_ > 1:
        mid = probes.pop(0) if probes else (lo_ + hi_) // 2
        if not lo_ < mid < hi_:
            continue
        if test(mid) == at_b:
            hi_ = mid
        else:
            lo_ = mid
    return hi_


def _merge(parts: list) -> tuple:
    out = []
    for a, b in parts:
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def _closest(intervals: tuple, own: int) -> int | None:
    """The value in the ranges closest to `own` (the lower one on a tie)."""
    best = None
    for a, b in intervals:
        v = min(max(own, a), b)
        if best is None or abs(v - own) < abs(best - own):
            best = v
    return best


def solve(app: Application, field: str, target: int, lo: int = 0, hi: int = MAX_CENTS, rs: Ruleset | None = None,
          readings: Readings = DEFAULT, _standard: bool = True) -> Solution:
    """Every range of `field` in [lo, hi] (cents) where the award is at least `target` (cents), the
    value in them nearest the application's own, the most the award reaches by moving the field alone,
    and a sentence. An answer on the Board's exception route carries the standard route's as `standard`."""
    rs = rs or load()
    readings = readings or DEFAULT
    _check_question(field, target, lo, hi)
    points = _Points(app, rs, field, readings)
    own = getattr(app, field)
    at_own = 0 if own is None else own   # a request not made: the least request that reaches the target
    stretches = _stretches(points, lo, hi)
    intervals = _merge([w for st in stretches if (w := _where(points, st, target))])
    near = _closest(intervals, at_own)
    nearest = None if near is None else points.reach(near)
    top = max(a for _, _, a_s, a_e in stretches for a in (a_s, a_e))
    best = points.reach(_closest(_merge([w for st in stretches if (w := _where(points, st, top))]), at_own))
    unread = not_read(field, rs).removeprefix(f"{field}: ")   # the law reads it on no route (one reason, as the CLI's)
    counts = not unread and not (FIELD[field].group == "exception" and not app.bpw_exception_requested)
    sol = Solution(field, target, lo, hi, own, points.award(own), intervals, nearest, best, "", counts=counts,
                   unread=unread)
    standard = None
    needs_board = (nearest or best).route == BOARD
    if _standard and needs_board:
        standard = solve(app.replace(bpw_exception_requested=False), field, target, lo, hi, rs, readings, False)
    text = _sentence(sol) + _match_words(points, sol)
    if needs_board:
        text = "If the Board approves, " + text[:1].lower() + text[1:]
        if FIELD[field].group == "exception":   # an amount only the Board's route reads: the standard route's award stands
            text += f" Without that approval the award is {fmt(standard.current)} (the standard route), whatever the " \
                    f"{in_sentence(field)}."
        elif standard is not None:
            text += " Without that approval (the standard route), " + standard.sentence[:1].lower() + standard.sentence[1:]
    return replace(sol, sentence=text, standard=standard)


def _check_question(field: str, target: int, lo: int, hi: int) -> None:
    if field not in SWEEP_FIELDS:
        raise ValueError(f"FIELD: {field!r} cannot be solved for; use one of {', '.join(SWEEP_FIELDS)}")
    if not 0 <= lo < hi <= MAX_CENTS:
        raise ValueError(f"range: from {fmt(lo)} to {fmt(hi)} is empty; 'from' must be below 'to'")
    if target < 0:
        raise ValueError("target: must be $0 or more")


# --- the words ----------------------------------------------------------------------------

def _match_words(points: _Points, s: Solution) -> str:
    """Where, in the ranges the sentence names, the local match ("at least 50 percent ... shall be
    provided from local contributions") is not met: the award said holds there only once it is. Along
    one input the match's shortfall only grows or only shrinks, so in each range it fails on one end;
    the cent where it changes is first looked for where the match less the local funds (a line along
    the input, rounded up to the cent) crosses zero."""
    if s.nearest is None or not s.counts:
        return ""
    failing = []
    for a, b in s.intervals[:LISTED]:
        at_a, at_b = points.short(a), points.short(b)
        if at_a and at_b:
            failing.append((a, b))
        elif at_a or at_b:
            m_a, m_b = points.margin(a), points.margin(b)
            guess = None if m_a == m_b or b == a else a + math.ceil(Fraction(m_a * (b - a), m_a - m_b))
            first = _first_change(points.short, a, b, at_b, guess)   # short at one end, met at the other
            failing.append((a, first - 1) if at_a else (first, b))
    if not failing:
        return ""
    return (f" The local match is not met at any {in_sentence(s.field)} {_ranges(tuple(failing))}: there the "
            f"award holds only once local contributions reach the match.")


def _noun(field: str, value: int) -> str:
    """'a local contribution of $500,000', 'prior program funds of $100,000'."""
    label = in_sentence(field)
    return f"{'' if label.endswith('funds') else 'a '}{label} of {fmt(value)}"


def _amount_of(label: str) -> str:
    """'local contribution'; 'amount of prior program funds' (a plural takes no 'No ... reaches')."""
    return f"amount of {label}" if label.endswith("funds") else label


def _range(a: int, b: int) -> str:
    return f"of {fmt(a)} or more" if b == MAX_CENTS else f"of {fmt(a)}" if a == b else f"from {fmt(a)} to {fmt(b)}"


def _ranges(intervals: tuple) -> str:
    shown = [_range(a, b) for a, b in intervals[:LISTED]]
    more = len(intervals) - LISTED
    words = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    return words + (f" (and {more} more {'range' if more == 1 else 'ranges'})" if more > 0 else "")


def _limits(r: Reach) -> str:
    """'the program maximum holds the award at $600,000'."""
    if not r.binding:
        return f"the award is at most {fmt(r.award)}"
    return f"{caps_words(r.binding)} {'holds' if len(r.binding) == 1 else 'hold'} the award at {fmt(r.award)}"


def _sentence(s: Solution) -> str:
    label = in_sentence(s.field)
    within = "" if (s.lo, s.hi) == (0, MAX_CENTS) else f" from {fmt(s.lo)} to {fmt(s.hi)}"
    if not s.counts:
        why = s.unread or f"the {label} counts only on the Board's exception route, which is not requested"
        if s.current >= s.target:
            return first_up(f"the award is {fmt(s.current)}, at least {fmt(s.target)}, whatever the {label} ({why}).")
        return f"No {_amount_of(label)}{within} reaches {fmt(s.target)}: {why}, and {_limits(s.max_award)}."
    if s.nearest is None:
        return f"No {_amount_of(label)}{within} reaches {fmt(s.target)}: {_limits(s.max_award)}."
    n = s.nearest
    ranges = ("" if s.intervals == ((n.value, n.value),) else f", whatever the {label}{within}"
              if s.intervals == ((s.lo, s.hi),) else f", as it is at any {label} {_ranges(s.intervals)}")
    if label.endswith("funds"):   # "at any prior program funds from ..." is not English: "with"
        ranges = ranges.replace(f", as it is at any {label}", f", as it is with {label}")
    if s.own is not None and n.value == s.own:
        return (f"The award is already {fmt(s.current)}, at least {fmt(s.target)}, with the {label} at "
                f"{fmt(s.own)}{ranges}.")
    there = f" ({fmt(n.award)} there: {caps_words(n.binding)})" if n.award != s.target and n.binding else \
        f" ({fmt(n.award)} there)" if n.award != s.target else ""
    if label.endswith("funds"):   # a plural: "prior program funds of $0 reaches" was neither English nor clear
        amount = f"no {label}" if n.value == 0 else _noun(s.field, n.value)
        ranges = ranges.replace(", as it is with", ", as it does with")
        return f"With {amount} the award reaches {fmt(s.target)}{there}{ranges}."
    ranges = ranges.replace(", as it is at", ", as does")
    return first_up(f"{_noun(s.field, n.value)} reaches an award of {fmt(s.target)}{there}{ranges}.")
