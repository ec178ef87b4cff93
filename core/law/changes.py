"""What would change the award, in words that hold along the input they speak of.

For each input, a `Course`: from the input's own value up, what an extra dollar of it does to
the award, until the first point where the award's course changes, and what happens there.
Courses are computed, not sampled, from core.law.analysis's exact breakpoints, and each says
which route it is on: a course on the Board of Public Works' exception route holds only if the
Board approves, so it is said so, followed by the course of the standard route, which is what
the award is without that approval. The words are made from a course and name no number the
course does not carry, so a test can check every sentence against the award along its input
(tests/law/test_changes.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from core.law.analysis import NEAR, SWEEP_FIELDS, Breakpoint, binds, caps_words, first_up, in_sentence, sweep
from core.law.application import Application
from core.law.award import _routes, award_amount, award_and_route, funding_gap
from core.law.fields import FIELD, asked
from core.law.lines import State, lines_along, regime
from core.law.money import MAX_CENTS, fmt
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset, load

BOARD = "bpw_exception"


@dataclass(frozen=True)
class Course:
    """The award along `field` from `start` (the input's value, or a bend less than $1 above
    it): `award` there, moving by `slope` per cent, on `route`, held by `binding`, until `until`
    (the first cent of a new course; None: none up to the largest accepted amount). `x` and
    `current` are the input's value and the award there. `since`: where a flat stretch that
    holds at `x` began (for 'costs above ...'), else None."""
    field: str
    x: int
    current: int
    start: int
    award: int
    route: str
    binding: tuple
    slope: Fraction
    until: Breakpoint | None
    since: int | None = None

    @property
    def on_board_route(self) -> bool:
        return self.route == BOARD


class _Walk:
    """The course along the breakpoints as the sweep finds them (core.law.analysis.sweep's `stop`):
    a breakpoint is judged once the next one is known (the award must keep to the course to the
    end of its stretch), and the sweep stops at the first that ends the course."""

    def __init__(self, x: int, current: int, at, here: State):
        self.x, self.at, self.here = x, at, here
        self.start, self.award, self.until = x, current, None
        self.pending, self.below = None, False   # the breakpoint awaiting its end; one seen at or below x

    def line(self, v: int) -> Fraction:
        return self.award + self.here.slope * (v - self.start)

    def reached(self, b: Breakpoint) -> bool:
        if b.value <= self.x:   # at or just below the input: what holds after it holds at x
            self.here, self.below = State(b.route_after, b.binding_after, b.slope_after), True
            return False
        if self.pending is None:   # the first above x: what holds before it holds at x
            if not self.below:
                self.here = State(b.route_before, b.binding_before, b.slope_before)
            self.pending = b
            return False
        ended = self.judge(self.pending, b.value - 1)
        self.pending = b
        return ended

    def last(self) -> None:
        """The last breakpoint found, whose stretch runs to the largest amount (if none ended the course)."""
        if self.until is None and self.pending is not None:
            self.judge(self.pending, MAX_CENTS)

    def judge(self, b: Breakpoint, end: int) -> bool:
        """Whether `b` ends the course (its stretch runs to `end`); a bend within a dollar restarts it."""
        if b.route_after == self.here.route and abs(b.award - self.line(b.value)) < 1 \
                and abs(self.at(end) - self.line(end)) < 1:
            return False   # the award keeps to the course (rounded down to the cent, it is never a cent off it)
        if b.value < self.x + NEAR and abs(b.award - self.line(b.value)) <= NEAR:   # a bend within a dollar
            self.here, self.start, self.award = State(b.route_after, b.binding_after, b.slope_after), b.value, b.award
            return False
        self.until = b
        return True


def course(app: Application, field: str, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> Course:
    """The award's course along one input, from the input's value up (exact: core.law.analysis).

    Between two breakpoints the award before rounding is one line; on whole cents it is that line
    rounded down. The course goes on through a breakpoint where the award stays within a cent of
    its line to the next one, on the same route (the exact lines may bend for less than a cent
    where the award, in whole cents, does not); the first breakpoint where it does not is where
    the course ends. A bend less than $1 above the input starts the course again from there,
    unless the award jumps there by more than $1."""
    rs = rs or load()
    readings = readings or DEFAULT
    x = getattr(app, field) or 0
    current = award_amount(app, rs, readings)

    def at(value: int) -> int:
        return award_amount(app.replace(**{field: value}), rs, readings)

    walk = _Walk(x, current, at, regime(lines_along(app, rs, field, readings), Fraction(x) + Fraction(1, 2))[0])
    # Sweeping from x - 1 finds the same breakpoints above x (the regime is the same anywhere
    # between two adjacent candidates); the sweep ends one breakpoint past the course's end.
    if x < MAX_CENTS:
        sweep(app, field, max(0, x - 1), MAX_CENTS, rs, points=False, readings=readings, stop=walk.reached)
        walk.last()
    here, start, award, until = walk.here, walk.start, walk.award, walk.until
    if award == 0 and here.slope < 0:   # nothing below $0 to take away
        here = State(here.route, here.binding, Fraction(0))
    if until is not None and until.value == start + 1:   # a course of one cent: its start's (the input's own value,
        # or a bend less than $1 above it, where the route may not be the input's)
        here = State(award_and_route(app.replace(**{field: start}), rs, readings)[1], here.binding, Fraction(0))
    since = None
    if field == "eligible_cost" and here.slope == 0 and award > 0:   # 'costs above $X no longer raise the award'
        since = (_flat_since(at, sweep(app, field, 0, x + 1, rs, points=False, readings=readings).breakpoints,
                             x, here, award) if start == x else start if award > at(start - 1) else None)
    return Course(field, x, current, start, award, here.route, here.binding, here.slope, until, since)


def _flat_since(at, below: list, x: int, here: State, award: int) -> int | None:
    """Where the flat stretch the input is on began, if the award rose into it there and has
    kept its amount since: 'costs above $1,200,000 no longer raise the award'."""
    for b in reversed(below):
        if b.value > x:
            continue
        if at(b.value) != award or b.route_after != here.route:
            return None
        if b.slope_before > 0 and at(b.value - 1) < award:
            return b.value
        if b.slope_before != 0:
            return None
    return None


# --- the words ----------------------------------------------------------------------------

def _trend(slope) -> str:
    return "starts to rise" if slope > 0 else "stops changing" if slope == 0 else "starts to fall"


def _route_note(b: Breakpoint) -> str:
    if b.route_after == b.route_before:
        return ""
    return ", on the Board's exception route if the Board approves" if b.route_after == BOARD else \
        ", on the standard route"


def _until(c: Course) -> str:
    """Where the course ends and what the award does there ('.' when it never does)."""
    b = c.until
    if b is None:
        return "."
    at = f" until {fmt(b.value)}"
    if c.award == 0 and c.slope == 0 and b.award == 0:
        return f"{at}, where the award starts to rise from $0{_route_note(b)}."
    if c.award == 0 and c.slope == 0:
        return f"{at}, where it becomes {fmt(b.award)} ({caps_words(b.binding_after)}){_route_note(b)}."
    if b.award == 0:
        return f"{at}, where the award reaches $0."
    expected = c.award + c.slope * (b.value - c.start)
    if b.award < expected - NEAR:
        return f"{at}, where the award drops to {fmt(b.award)} ({caps_words(b.binding_after)}){_route_note(b)}."
    if b.award > expected + NEAR:
        return f"{at}, where the award jumps to {fmt(b.award)} ({caps_words(b.binding_after)}){_route_note(b)}."
    if b.route_after != b.route_before:
        gives = ("the Board's exception route, if the Board approves, gives more" if b.route_after == BOARD
                 else "the standard route gives more" if b.slope_after > c.slope
                 else "the standard route gives as much without the Board's approval")
        return f"{at}, from where {gives} ({caps_words(b.binding_after)} {binds(b.binding_after)})."
    new = [cap for cap in b.binding_after if cap not in b.binding_before]
    if not new:
        return f"{at}, where the award {_trend(b.slope_after)} ({caps_words(b.binding_after)})."
    return f"{at}, where {caps_words(new)} {'take' if len(new) > 1 else 'takes'} over."


def _body(c: Course, label: str, it: str = "award") -> str:
    """What an extra dollar of the input does, from the input's value (no final stop)."""
    if c.slope:
        verb = "adds" if c.slope > 0 else "takes away"
        return f"each extra $1 of {label} {verb} {fmt(int(abs(c.slope) * 100))} of {it}"
    if c.since is not None:
        return f"costs above {fmt(c.since)} {'do not raise' if c.until else 'no longer raise'} {'it' if it == 'it' else 'the ' + it}"
    what = "it" if it == "it" else f"the {'$0 ' if c.current == 0 else ''}{it}"
    raising = "more of them" if label == "them" else f"raising the {label} from {fmt(c.x)}"
    if c.current != c.award:   # it moves by cents within the first dollar, then holds: not "the $0 award"
        return f"{raising} {'move' if label == 'them' else 'moves'} {'it' if it == 'it' else 'the ' + it} by less than $1"
    return f"{raising} {'do' if label == 'them' else 'does'} not change {what}"


def _held(c: Course) -> str:
    """'(the program maximum holds the award down)' for a stretch with nothing ahead."""
    return f" ({caps_words(c.binding)} {binds(c.binding)})" if c.since is not None and c.until is None else ""


def _first_cent(c: Course, label: str) -> bool:
    """An input at $0 whose first cent changes the award at once (prior program funds, say)."""
    return c.x == 0 and c.until is not None and c.until.value == 1


def _jump_words(c: Course, label: str, closed: str | None = None) -> str:
    """`closed`: why the Board's route is closed at the first cent ('' for no reason said); None where it
    is still open there (the standard route then gives as much, so the award moves onto it)."""
    b = c.until
    verb = "raise" if b.award > c.current else "cut"
    if b.route_before == BOARD and b.route_after != BOARD:
        if closed is None:   # open, and the standard route gives as much: a tie keeps the standard route
            return (f"Any {label} would {verb} the award to {fmt(b.award)} ({caps_words(b.binding_after)}), which the "
                    f"standard route gives without the Board's approval")
        return (f"Any {label} would close the Board's exception route{closed} and make the award {fmt(b.award)} "
                f"({caps_words(b.binding_after)})")
    return f"Any {label} would {verb} the award to {fmt(b.award)} ({caps_words(b.binding_after)}){_route_note(b)}"


def _closed_at_first_cent(app: Application, field: str, rs: Ruleset, readings: Readings) -> str | None:
    """Whether one cent of `field` closes the Board's route, and why in words (None: it stays open).
    The regulation's third condition presumes prior program funds went into the building unless the
    applicant says not; the statute's residual-value test presumes nothing, it compares amounts."""
    at = app.replace(**{field: 1})
    if "bpw_exception" in _routes(at, rs, readings)[1]:
        return None
    if rs.number("bpw_test") == "residual_value":
        return " (the residual value of the property would no longer exceed the sum of the amounts the statute's test counts)"
    if field == "prior_program_funds" and not app.state_funds_in_property:
        return (" (program funds already received are presumed to have gone into the building)"
                if app.prior_funds_for_property is None else " (they went into the property or building)")
    return ""


def words(c: Course, then: Course | None = None, closed: str | None = None) -> str:
    """The sentence of a course; `then`, the course that follows a change at the first cent; `closed`,
    why the Board's route closes at that cent (core.law.changes._closed_at_first_cent)."""
    label = in_sentence(c.field)
    if _first_cent(c, label):
        first = _jump_words(c, label, closed)
        if then is None:
            return first + "."
        rest = _body(then, "them") + _until(then)
        return f"{first}; from there, {'if the Board approves, ' if then.on_board_route else ''}{rest}"
    lead = "If the Board approves, " if c.on_board_route else ""
    return first_up(lead + _body(c, label)) + (_held(c) + "." if _held(c) else _until(c))


def _without_board(c: Course, standard: Course) -> str:
    """The standard route's course, for a course that holds only if the Board approves."""
    label = in_sentence(c.field)
    head = f"Without that approval the award would be {fmt(standard.current)} (the standard route)"
    if FIELD[c.field].group == "exception":
        return f"{head}, whatever the {label}."
    return f"{head}, and {_body(standard, label, 'it')}{_until(standard)}"


@dataclass(frozen=True)
class Change:
    """One sentence of 'What would change it', with the courses it states."""
    field: str
    courses: tuple      # the award's course (and the one after a change at the first cent)
    standard: tuple     # the standard route's, when the award's is the Board's exception route's
    text: str


def _courses(app: Application, field: str, rs: Ruleset, readings: Readings) -> tuple:
    first = course(app, field, rs, readings)
    if first.until is not None and first.x == 0 and first.until.value == 1:
        return first, course(app.replace(**{field: 1}), field, rs, readings)
    return (first,)


def change(app: Application, field: str, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> Change:
    rs = rs or load()
    readings = readings or DEFAULT
    courses = _courses(app, field, rs, readings)
    closed = _closed_at_first_cent(app, field, rs, readings) if _first_cent(courses[0], "") else None
    text = words(*courses, closed=closed)
    standard = ()
    if any(c.on_board_route for c in courses[:1]) and not _first_cent(courses[0], ""):
        plain = app.replace(bpw_exception_requested=False)
        standard = (course(plain, field, rs, readings),) if FIELD[field].group != "exception" else \
            (Course(field, courses[0].x, award_amount(plain, rs, readings), courses[0].x,
                    award_amount(plain, rs, readings), "standard", (), Fraction(0), None),)
        text += " " + _without_board(courses[0], standard[0])
    return Change(field, courses, standard, text)


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


def _closing_words(app: Application, rs: Ruleset, readings: Readings) -> str | None:
    """'Another $X of local funds closes the $Y funding gap.', on the route that closes it."""
    gap = funding_gap(app, award_amount(app, rs, readings))
    need = closing_local(app, rs, readings) if gap else None
    if need is None:
        return None
    more = fmt(need - app.local_contribution)
    if award_and_route(app.replace(local_contribution=need), rs, readings)[1] != BOARD:
        return f"Another {more} of local funds closes the {fmt(gap)} funding gap."
    text = f"If the Board approves, another {more} of local funds closes the {fmt(gap)} funding gap."
    plain = app.replace(bpw_exception_requested=False)
    gap_plain = funding_gap(plain, award_amount(plain, rs, readings))
    need_plain = closing_local(plain, rs, readings) if gap_plain else None
    if need_plain is not None:
        text += (f" Without that approval the gap is {fmt(gap_plain)}, and another "
                 f"{fmt(need_plain - app.local_contribution)} of local funds closes it.")
    return text


def what_would_change_all(app: Application, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> list[Change]:
    """Every input's Change: every amount given, the exception's only when it is asked for."""
    rs = rs or load()
    readings = readings or DEFAULT
    fields = [f for f in SWEEP_FIELDS if getattr(app, f) is not None
              and (FIELD[f].group != "exception" or app.bpw_exception_requested)
              and asked(FIELD[f], app, rs.number("bpw_test"))]   # the Board test of this law
    return [change(app, f, rs, readings) for f in fields]


def what_would_change(app: Application, rs: Ruleset | None = None, readings: Readings = DEFAULT) -> list[str]:
    """For each input, the nearest point where the award's course changes, in words, and what
    local funds would close a funding gap. Only points within the accepted inputs (up to $10^12)
    are named."""
    rs = rs or load()
    readings = readings or DEFAULT
    closing = _closing_words(app, rs, readings)
    return [c.text for c in what_would_change_all(app, rs, readings)] + ([closing] if closing else [])


@lru_cache(maxsize=1024)
def changes(app: Application, rs: Ruleset, readings: Readings = DEFAULT) -> tuple[str, ...]:
    """what_would_change, remembered for the process: the calculator redraws it on every
    slider move of every session, and users revisit the same inputs."""
    return tuple(what_would_change(app, rs, readings))
