"""The pieces a slider's browser evaluates (core.law.pieces.pieces): at any position they give
the award, the route and the binding caps `evaluate` gives, to the cent, and they serialise."""
from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings, strategies as st

from core.law.analysis import SWEEP_FIELDS, sweep
from core.law.pieces import piece_value, pieces
from core.law.award import evaluate
from core.law.readings import Readings, every
from core.law.rulesets import load
from tests.support.builders import application
from tests.support.strategies import applications

RS = load()


def law(app, field, x, readings=None):
    a = evaluate(app.replace(**{field: x}), RS, readings)
    return a.amount, a.route, a.binding


@settings(max_examples=300, deadline=None)
@given(applications(), st.sampled_from(SWEEP_FIELDS), st.sampled_from(every()), st.data())
@example(application("construction", eligible_cost=1_200_000, local_contribution=0), "eligible_cost",
         Readings(), None)
def test_pieces_at_random_positions_equal_the_award(app, field, readings, data):
    hi = 10**9
    p = pieces(app, field, hi, RS, readings)
    assert p is not None   # every input of today's law is affine along any one amount: no fallback
    json.dumps(p)
    xs = [0, 1, 2, hi, 120_000_001, 120_000_000, 119_999_999]
    if data is not None:
        xs += data.draw(st.lists(st.integers(0, hi), min_size=5, max_size=5))
        # and beside each place the award changes regime, where floors tie and conditions switch
        cuts = [b.value for b in sweep(app, field, 0, hi, RS, points=False, readings=readings).breakpoints]
        xs += [c + k for c in cuts for k in (-2, -1, 0, 1, 2) if 0 <= c + k <= hi]
    for x in xs:
        assert piece_value(p, x) == law(app, field, x, readings), (field, x)


def test_the_pieces_of_the_cost_along_a_construction_are_the_three_caps_in_integers():
    """$1.5M cost, $100,000 federal, $500,000 local: on the cost x, the program maximum
    ($600,000), half of what the federal grant leaves, (x − $100,000)/2, and what the project still
    lacks, x − $600,000, over one denominator of 2."""
    a = application("construction", eligible_cost=1_500_000, federal_grant=100_000, local_contribution=500_000)
    p = pieces(a, "eligible_cost", 500_000_000, RS)
    assert p["d"] == 2
    assert p["routes"] == [{"route": "standard", "caps": [
        {"cap": "program_max", "a": 0, "b": 120_000_000, "margin": None},
        {"cap": "cost_share", "a": 1, "b": -10_000_000, "margin": None},
        {"cap": "funding_need", "a": 2, "b": -120_000_000, "margin": None}]}]
    assert p["zero"] == {"award": 0, "route": "standard", "binding": ["cost_share", "funding_need"],
                         "caps": [["program_max", 60_000_000], ["cost_share", 0], ["funding_need", 0]]}
    # the floor of the share: at $1,200,001.01 of cost the share is $550,000.505, floored to $550,000.50
    assert piece_value(p, 120_000_101) == (55_000_050, "standard", ("cost_share",)) \
        == law(a, "eligible_cost", 120_000_101)


def test_the_pieces_are_the_same_wherever_the_moving_amount_stands():
    a = application("construction", eligible_cost=1_500_000, local_contribution=500_000)
    assert pieces(a, "local_contribution", 10**9, RS) == pieces(a.replace(local_contribution=7), "local_contribution",
                                                                   10**9, RS)


def test_a_field_that_is_not_an_amount_is_refused_by_name():
    with pytest.raises(ValueError, match="project_type"):
        pieces(application("construction", eligible_cost=100), "project_type", 100, RS)
