"""core.law.solve against the award itself: each range's ends reach the target, one cent outside
them does not (tests/law/test_changes.py's random applications, every money field, the default
readings and each one reading switched)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from core.law.analysis import SWEEP_FIELDS
from core.law.application import Application
from core.law.award import award_amount, award_and_route
from core.law.money import MAX_CENTS
from core.law.readings import DEFAULT, READING_IDS
from core.law.rulesets import load
from core.law.solve import solve
from tests.law.test_changes import _random_applications
from tests.support.strategies import applications

RS = load()
READINGS = [DEFAULT] + [DEFAULT.switched(r) for r in READING_IDS]


def check(app, field, target, rd, lo=0, hi=MAX_CENTS, rs=RS):
    s = solve(app, field, target, lo, hi, rs, rd)

    seen = {}

    def at(x):   # each amount evaluated once: the ends are asked for again below
        if x not in seen:
            seen[x] = award_amount(app.replace(**{field: x}), rs, rd)
        return seen[x]

    previous = None
    for a, b in s.intervals:
        assert lo <= a <= b <= hi
        assert previous is None or a > previous + 1, "ranges overlap or touch"
        assert at(a) >= target and at(b) >= target, (field, target, a, b)
        assert a == lo or at(a - 1) < target, (field, target, "below", a)
        assert b == hi or at(b + 1) < target, (field, target, "above", b)
        previous = b
    if s.intervals:
        own = getattr(app, field) or 0
        n = s.nearest.value
        assert any(a <= n <= b for a, b in s.intervals)
        assert all(abs(n - own) <= abs(min(max(own, a), b) - own) for a, b in s.intervals)
        assert (s.nearest.award, s.nearest.route) == award_and_route(app.replace(**{field: n}), rs, rd)
    else:
        assert s.nearest is None and s.max_award.award < target
        assert "reaches" in s.sentence and s.sentence.startswith(("No ", "If the Board approves, no "))
    # the most reachable is reached where it says, and no range's end or cent outside gives more
    assert at(s.max_award.value) == s.max_award.award
    ends = [x for a, b in s.intervals for x in (a, b, a - 1, b + 1) if lo <= x <= hi] + [lo, hi]
    assert all(at(x) <= s.max_award.award for x in ends)
    return s


def _targets(app, field, rd, rng):
    """The award itself, a cent either side, the most reachable and a random amount."""
    now = award_amount(app, RS, rd)
    top = solve(app, field, 0, rs=RS, readings=rd).max_award.award
    return sorted({max(0, now - 1), now, now + 1, top, top + 1, int(rng.integers(0, 70_000_000)), 1})


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_every_range_of_two_thousand_applications_holds_at_its_ends(part):
    """2,000 applications (500 a part) × every money field, under the default readings and each one switched."""
    rng = np.random.default_rng(38 + part)
    for i, app in enumerate(_random_applications(500, seed=380 + part)):
        rd = READINGS[(i + part) % len(READINGS)]
        for field in SWEEP_FIELDS:
            for target in _targets(app, field, rd, rng):
                check(app, field, target, rd)


@settings(max_examples=150, deadline=None)
@given(applications(), st.sampled_from(SWEEP_FIELDS), st.sampled_from(READINGS), st.integers(0, 80_000_000))
def test_every_range_holds_at_its_ends(app, field, rd, target):
    check(app, field, target, rd)


@settings(max_examples=60, deadline=None)
@given(applications(), st.sampled_from(SWEEP_FIELDS), st.integers(0, 80_000_000),
       st.integers(0, 300_000_000), st.integers(1, 300_000_000))
def test_a_range_of_the_input_is_kept_to(app, field, target, lo, width):
    check(app, field, target, DEFAULT, lo, lo + width)


# --- the sentences ------------------------------------------------------------------------

def _app(**values):
    return Application(**{"project_type": "renovation"} | values)


def test_an_unreachable_target_names_the_limit_that_stops_it():
    app = _app(eligible_cost=200_000_000, local_contribution=20_000_000)
    s = check(app, "local_contribution", 70_000_000, DEFAULT)
    assert s.sentence == "No local contribution reaches $700,000: the program maximum holds the award at $600,000."
    assert (s.max_award.award, s.max_award.binding) == (60_000_000, ("program_max",))


def test_a_target_reached_elsewhere_names_the_nearest_value_and_every_range():
    app = _app(eligible_cost=100_000_000, local_contribution=10_000_000)   # $500,000: the State's share
    s = check(app, "eligible_cost", 55_000_000, DEFAULT)
    assert s.intervals == ((110_000_000, MAX_CENTS),) and s.nearest.value == 110_000_000
    assert s.sentence == ("A total cost of eligible work of $1,100,000 reaches an award of $550,000, as does any total "
                          "cost of eligible work of $1,100,000 or more. The local match is not met at any total cost "
                          "of eligible work of $1,100,000 or more: there the award holds only once local contributions "
                          "reach the match.")   # $100,000 of local money is short of half of any such cost
    s = check(app, "requested_amount", 30_000_000, DEFAULT)   # not asked for: the least request that reaches it
    assert s.nearest.value == 30_000_000 and s.sentence.startswith("A requested amount of $300,000 reaches")


def test_on_the_board_route_the_sentence_says_so_and_what_the_standard_route_gives():
    app = _app(eligible_cost=100_000_000, local_contribution=10_000_000, bpw_exception_requested=True,
               local_property_value=90_000_000)
    s = check(app, "local_contribution", 55_000_000, DEFAULT)
    assert s.intervals == ((0, 45_000_000),) and s.nearest.route == "bpw_exception"
    assert s.sentence == (
        "If the Board approves, the award is already $600,000, at least $550,000, with the local contribution at "
        "$100,000, as it is at any local contribution from $0 to $450,000. Without that approval (the standard route), no local contribution "
        "reaches $550,000: the State's share of the cost holds the award at $500,000.")
    assert s.standard.intervals == () and s.to_dict()["without_board_approval"]["max_award"]["award"] == "500000.00"


def test_the_property_value_without_the_exception_asked_for_moves_nothing():
    s = check(_app(eligible_cost=100_000_000), "local_property_value", 55_000_000, DEFAULT)
    assert s.intervals == () and "counts only on the Board's exception route, which is not requested" in s.sentence


def test_a_field_that_is_not_an_amount_is_refused_by_name():
    with pytest.raises(ValueError, match="FIELD: 'project_type' cannot be solved for"):
        solve(_app(eligible_cost=1), "project_type", 1)
