"""Invariants of the award, checked on many random applications (hypothesis)."""
import json

from hypothesis import given, settings, strategies as st

from core.application import Application
from core.award import evaluate
from core.batch import evaluate_parsed, frame_of
from core.money import ValidationError, to_cents

from tests.strategies import applications, cents


@given(applications())
def test_award_within_every_cap_and_never_negative(app):
    a = evaluate(app)
    assert a.amount >= 0
    for route in a.routes.values():
        assert all(route.award <= v for v in route.caps.values()) or route.award == 0
    assert all(a.amount <= v for v in a.caps.values())
    assert a.binding and all(a.caps[c] == a.amount for c in a.binding)
    assert set(a.binding) == {c for c, v in a.caps.items() if v == a.amount}


@given(applications(), cents)
def test_award_never_decreases_when_cost_rises(app, more):
    assert evaluate(app.replace(eligible_cost=app.eligible_cost + more)).amount >= evaluate(app).amount


@given(applications(), cents, st.sampled_from(["federal_grant", "local_contribution", "prior_program_funds"]))
def test_award_never_increases_when_other_money_rises(app, more, field):
    # Prior funds of 0 mean "no earlier grant": the top-up cap appears above 0, so start above it.
    if field == "prior_program_funds" and app.prior_program_funds == 0:
        app = app.replace(prior_program_funds=1)
    bigger = app.replace(**{field: getattr(app, field) + more})
    assert evaluate(bigger).amount <= evaluate(app).amount


@given(applications(bpw_exception_requested=True))
def test_exception_route_only_when_it_pays_strictly_more(app):
    a = evaluate(app)
    if a.route == "bpw_exception":
        assert a.routes["bpw_exception"].award > a.routes["standard"].award
    elif "bpw_exception" in a.routes:
        assert a.routes["bpw_exception"].award <= a.routes["standard"].award


@settings(max_examples=60)
@given(st.lists(applications(), min_size=1, max_size=40))
def test_batch_equals_scalar(apps):
    batch = evaluate_parsed(frame_of(apps))
    for i, app in enumerate(apps):
        a = evaluate(app)
        row = batch.iloc[i]
        assert (int(row.award), row.binding, row.route) == (a.amount, ";".join(a.binding), a.route)
        assert int(row.local_shortfall) == a.local_shortfall
        assert int(row.funding_gap) == a.funding_gap


@given(applications())
def test_to_dict_from_dict_round_trip(app):
    data = json.loads(json.dumps(app.to_dict()))
    assert Application.from_dict(data) == app
    assert Application.from_dict(json.loads(json.dumps(evaluate(app).to_dict()["application"]))) == app


junk = st.one_of(st.text(max_size=30), st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**15, 10**15),
                 st.none(), st.booleans(), st.decimals(allow_nan=True), st.lists(st.integers(), max_size=2))


@given(st.dictionaries(st.sampled_from(["project_type", "eligible_cost", "federal_grant", "local_contribution",
                                        "prior_program_funds", "requested_amount", "federal_law_contrary",
                                        "bpw_exception", "senior_density", "previously_funded"]), junk))
def test_bad_values_raise_only_validation_errors(data):
    try:
        app = Application.from_dict(data)
    except ValidationError as err:
        assert err.field and str(err)
    else:
        evaluate(app)


@given(junk)
def test_to_cents_accepts_or_names_the_field(value):
    try:
        c = to_cents(value, "eligible_cost")
    except ValidationError as err:
        assert str(err).startswith("eligible_cost:")
    else:
        assert isinstance(c, int) and 0 <= c <= 10**14


@given(st.integers(0, 10**14))
def test_to_cents_exact_for_every_two_decimal_string(c):
    text = f"{c // 100}.{c % 100:02d}"
    assert to_cents(text, "x") == c
    assert to_cents(f"${c // 100:,}.{c % 100:02d}", "x") == c


@settings(max_examples=60, deadline=None)
@given(applications())
def test_calculator_charts_unchecked_are_the_checked_figures(app):
    """The calculator skips Plotly's validation on every slider move: what it sends must be
    exactly what the validated figure would be."""
    import plotly.io as pio

    from core.charts import headroom_figure, waterfall_figure
    award = evaluate(app)
    for figure in (headroom_figure, waterfall_figure):
        checked = json.loads(pio.to_json(figure(award), validate=False))
        unchecked = json.loads(pio.to_json(figure(award, validate=False), validate=False))
        assert unchecked == checked
