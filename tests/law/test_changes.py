"""Every sentence of "What would change it" checked against the award along its input, on the
route it speaks of (issue 35): the course it states holds from the input to the next change
point, the change point is the first one, the award there is as said, and every amount the
sentence names is one the check verified. A course on the Board's exception route says "If the
Board approves" and is followed by the standard route's course, checked the same way."""
import re

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from core.law import readings as R
from core.law.analysis import sweep
from core.law.application import Application
from core.law.award import award_and_route, funding_gap
from core.law.changes import BOARD, Course, change, closing_local, what_would_change, what_would_change_all
from core.law.fields import FIELD, FIELDS, PROJECT_TYPES
from core.law.money import MAX_CENTS, to_cents
from core.law.rulesets import load
from tests.support.strategies import applications

RS = load()
EVERY = R.every()
AMOUNT = re.compile(r"\$[0-9]{1,3}(?:,[0-9]{3})*(?:\.[0-9]{2})?")


def _at(app, field, value, rd, standard=False, rs=RS):
    a = app.replace(**{field: value})
    return award_and_route(a.replace(bpw_exception_requested=False) if standard else a, rs, rd)


def _points(c: Course, rng) -> list[int]:
    end = c.until.value if c.until else min(MAX_CENTS, c.start + 10**9)
    inside = {c.start, c.start + 1, c.start + 99, (c.start + end) // 2, end - 1, end - 2}
    inside |= {int(v) for v in rng.integers(c.start, max(c.start + 1, end), 4)}
    return sorted(p for p in inside if c.start <= p < end)


def check_course(app, c: Course, rd, rng, standard=False, rs=RS) -> None:
    """The course as stated holds along its input (to the cent: a share is rounded down to the
    cent), on the route it names, up to its change point and not beyond it."""
    field = c.field
    assert _at(app, field, c.x, rd, standard, rs)[0] == c.current
    for p in _points(c, rng):
        award, route = _at(app, field, p, rd, standard, rs)
        # less than a cent off: the award is its line rounded down to the cent (from the cent it starts at)
        assert abs(award - (c.award + c.slope * (p - c.start))) < 1, (field, p, award)
        # A course said without "If the Board approves" never rests on the Board's route (one said
        # with it may run onto the standard route where both give the same: it is then true either way).
        assert route == c.route or c.route == BOARD or award == 0, (field, p, route)
    # Between the input and the course's start (under a dollar), and back to where a flat stretch began.
    for p in range(c.x, c.start):
        assert abs(_at(app, field, p, rd, standard, rs)[0] - c.current) < 100
    if c.since is not None:   # flat from there (on to the course's end, checked above), rising just below
        for p in (c.since, c.since + 1, (c.since + max(c.x, c.since)) // 2, max(c.x, c.since)):
            assert _at(app, field, p, rd, standard, rs)[0] == c.award
        assert _at(app, field, c.since - 1, rd, standard, rs)[0] < c.award   # it was still rising just below
    b = c.until
    if b is None:
        return
    # The change point: the award there, and the course after it (up to the next breakpoint of any kind).
    award, route = _at(app, field, b.value, rd, standard, rs)
    assert award == b.award
    later = sweep(app.replace(bpw_exception_requested=False) if standard else app, field, b.value, MAX_CENTS, rs,
                  points=False, readings=rd).breakpoints
    nxt = next((x.value for x in later if x.value > b.value), MAX_CENTS)
    d = min(100, (nxt - b.value) // 2)
    if d > 1:
        after = _at(app, field, b.value + d, rd, standard, rs)[0]
        assert abs(after - max(0, b.award + b.slope_after * d)) < 1 + abs(b.slope_after), (field, b)
    # and it is a change of course: the award there is off the line the course states, or it turns, or changes route
    jumped = abs(b.award - (c.award + c.slope * (b.value - c.start))) >= 1
    assert jumped or b.slope_after != c.slope or b.route_after != b.route_before


def _numbers(c: Course) -> set[int]:
    out = {c.x, c.current, c.start, c.award, int(abs(c.slope) * 100), 0, 100}
    if c.since is not None:
        out.add(c.since)
    if c.until is not None:
        out |= {c.until.value, c.until.award}
    return out


def check_change(app, ch, rd, rng, rs=RS) -> None:
    for c in ch.courses:
        check_course(app, c, rd, rng, rs=rs)
    for c in ch.standard:
        check_course(app, c, rd, rng, standard=True, rs=rs)
    on_board = ch.courses[0].on_board_route and not (ch.courses[0].x == 0 and ch.courses[0].until
                                                     and ch.courses[0].until.value == 1)
    assert ch.text.startswith("If the Board approves") is on_board, ch.text
    assert ("Without that approval" in ch.text) is on_board, ch.text
    allowed = set().union(*(_numbers(c) for c in ch.courses + ch.standard))
    named = {to_cents(m.lstrip("$"), "amount") for m in AMOUNT.findall(ch.text)}
    assert named <= allowed, (ch.text, named - allowed)


def check_closing(app, line, rd, rs=RS) -> None:
    """'Another $X of local funds closes the $Y funding gap': exactly that much, no less."""
    gap = funding_gap(app, award_and_route(app, rs, rd)[0])
    need = closing_local(app, rs, rd)
    assert need is not None and gap > 0
    at = app.replace(local_contribution=need)
    assert funding_gap(at, award_and_route(at, rs, rd)[0]) == 0
    if need > app.local_contribution:
        short = app.replace(local_contribution=need - 1)
        assert funding_gap(short, award_and_route(short, rs, rd)[0]) > 0
    board = award_and_route(at, rs, rd)[1] == BOARD
    assert line.startswith("If the Board approves") is board
    named = [to_cents(m.lstrip("$"), "amount") for m in AMOUNT.findall(line)]
    assert named[:2] == [need - app.local_contribution, gap]


def check_all(app, rd, seed=0, rs=RS) -> None:
    rng = np.random.default_rng(seed)
    lines = what_would_change(app, rs, rd)
    all_changes = what_would_change_all(app, rs, rd)
    assert [ch.text for ch in all_changes] == lines[:len(all_changes)]
    for ch in all_changes:
        check_change(app, ch, rd, rng, rs)
    for line in lines[len(all_changes):]:
        check_closing(app, line, rd, rs)


def _random_applications(n: int, seed: int):
    """Realistic applications with ties, zeros, exceptions and prior funds: fictional numbers."""
    rng = np.random.default_rng(seed)
    money = lambda hi: int(rng.integers(0, hi)) * 100 if rng.random() < 0.8 else int(rng.integers(0, hi * 100))  # noqa: E731
    for _ in range(n):
        exc = rng.random() < 0.4
        values = {"project_type": str(rng.choice(list(PROJECT_TYPES))), "eligible_cost": money(3_000_000),
                  "federal_grant": money(1_500_000) if rng.random() < 0.4 else 0,
                  "local_contribution": money(2_000_000) if rng.random() < 0.7 else 0,
                  "prior_program_funds": money(400_000) if rng.random() < 0.25 else 0,
                  "requested_amount": money(900_000) if rng.random() < 0.25 else None,
                  "federal_law_contrary": bool(rng.random() < 0.05), "bpw_exception_requested": exc}
        if exc:
            values |= {"local_property_value": money(1_500_000), "state_funds_in_property": bool(rng.random() < 0.1),
                       "state_bonded_debt": bool(rng.random() < 0.1),
                       "prior_funds_for_property": [None, True, False][int(rng.integers(0, 3))]}
        yield Application(**values)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_every_sentence_of_two_thousand_applications_holds_along_its_input(part):
    """2,000 applications (500 a part), each under one of the 32 combinations of the readings in turn."""
    for i, app in enumerate(_random_applications(500, seed=35 + part)):
        check_all(app, EVERY[(i + part) % len(EVERY)], seed=i)


@settings(max_examples=150, deadline=None)
@given(applications(), st.sampled_from(EVERY))
# a jump at the first cent where two cuts share a cent: the course must see them merged
@example(app=Application("conversion", eligible_cost=0, federal_grant=99, local_contribution=0,
                         bpw_exception_requested=True, local_property_value=1, state_funds_in_property=False,
                         state_bonded_debt=False),
         rd=R.Readings(local_match_effect="condition"))
def test_every_sentence_holds_along_its_input(app, rd):
    check_all(app, rd)


# --- the cases, said exactly ------------------------------------------------------

def _app(**values):
    return Application.from_dict(values)


def test_a_board_route_held_by_the_property_value_says_where_the_standard_route_overtakes():
    """$550,000.01 of property on a $1,000,000 renovation, no local money: 'Costs above $550,000.01 no
    longer raise the award' was false; from $1,100,000.02 the standard route overtakes."""
    a = _app(project_type="renovation", eligible_cost=1_000_000, bpw_exception={"local_property_value": "550000.01"})
    assert change(a, "eligible_cost").text == (
        "If the Board approves, costs above $550,000.01 do not raise the award until $1,100,000.02, from where the "
        "standard route gives more (the State's share of the cost holds the award down). Without that approval the "
        "award would be $500,000 (the standard route), and each extra $1 of total cost of eligible work adds $0.50 of "
        "it until $1,200,000, where the program maximum takes over.")


def test_a_flat_stretch_names_the_rise_beyond_it():
    """'Costs above $700,000 no longer raise the award' was said where the standard route overtakes at
    $1,100,000 and rises to $600,000 at $1,500,000."""
    a = _app(project_type="renovation", eligible_cost=900_000, federal_grant=300_000,
             bpw_exception={"local_property_value": 400_000})
    assert change(a, "eligible_cost").text == (
        "If the Board approves, costs above $700,000 do not raise the award until $1,100,000, from where the standard "
        "route gives more (the State's share of the cost holds the award down). Without that approval the award would "
        "be $300,000 (the standard route), and each extra $1 of total cost of eligible work adds $0.50 of it until "
        "$1,500,000, where the program maximum takes over.")
    check_all(a, R.DEFAULT)


def test_a_route_that_ends_in_a_tie_says_the_standard_route_gives_as_much():
    a = _app(project_type="renovation", eligible_cost=900_000, bpw_exception={"local_property_value": 700_000})
    assert change(a, "eligible_cost").text.startswith(
        "If the Board approves, costs above $600,000 do not raise the award until $1,200,000, from where the standard "
        "route gives as much without the Board's approval (the program maximum holds the award down).")
    check_all(a, R.DEFAULT)


def test_a_sentence_on_the_board_route_says_what_the_standard_route_does():
    a = _app(project_type="construction", eligible_cost=800_000, federal_grant=200_000,
             bpw_exception={"local_property_value": 1_000_000})
    assert change(a, "federal_grant").text == (
        "If the Board approves, each extra $1 of federal grant takes away $1 of award until $800,000, where the award "
        "reaches $0. Without that approval the award would be $300,000 (the standard route), and each extra $1 of "
        "federal grant takes away $0.50 of it until $800,000, where the award reaches $0.")


def test_the_closing_funds_on_the_board_route_say_what_they_are_without_it():
    a = _app(project_type="renovation", eligible_cost=1_000_000, bpw_exception={"local_property_value": "550000.01"})
    assert what_would_change(a)[-1] == (
        "If the Board approves, another $449,999.99 of local funds closes the $449,999.99 funding gap. Without that "
        "approval the gap is $500,000, and another $500,000 of local funds closes it.")


def test_every_field_of_the_table_is_an_input_of_some_sentence():
    """A new money input is in 'what would change it' (and so in the checks above) at once."""
    a = _app(project_type="renovation", eligible_cost=1_000_000, requested_amount=400_000,
             bpw_exception={"local_property_value": 900_000})
    money = [f.name for f in FIELDS if f.kind == "money" and f.group != "considerations"]
    # the regulation's Board test: the statute's residual-value amounts are not its inputs
    assert [ch.field for ch in what_would_change_all(a)] == [m for m in money if FIELD[m].board_test != "residual_value"]
    statute = load("statute").as_of("2025-01-01")
    assert [ch.field for ch in what_would_change_all(a, statute)] == money
    check_all(a, R.DEFAULT)


@settings(max_examples=60, deadline=None)
@given(applications(), st.sampled_from(EVERY))
def test_every_breakpoint_sentence_of_the_sensitivity_page_holds_at_its_point(app, rd):
    """The Sensitivity page's 'X holds the award down from $Y of ...' (core.law.analysis.describe):
    from that cent the limits named hold the award, on the route it names (the Board's said as
    'if the Board approves'), and a trend said is the award's."""
    from core.law.analysis import SWEEP_FIELDS, describe
    from core.law.award import evaluate
    for field in SWEEP_FIELDS:
        if getattr(app, field) is None:
            continue
        for b in sweep(app, field, 0, 10 * max(1, getattr(app, field) or 0) + 10**8, RS, points=False,
                       readings=rd).breakpoints:
            text = describe(b, field)
            at = evaluate((app if field != "local_property_value" or app.bpw_exception_requested
                           else app.replace(bpw_exception_requested=True)).replace(**{field: b.value}), RS, rd)
            assert ("if the Board approves" in text) is (b.route_after == BOARD and b.route_before != BOARD), text
            if b.binding_before == b.binding_after and b.route_before == b.route_after:
                assert ("rise" in text) is (b.slope_after > 0 or (b.slope_after == 0 and b.slope_before > 0)), text
            elif at.amount >= 100:   # under $1 the exact lines may part from the whole cents the award is rounded to
                assert at.route == b.route_after and set(b.binding_after) <= set(at.binding), text
