"""Invariants of the award, checked on many random applications (hypothesis)."""
import json

from hypothesis import example, given, settings, strategies as st

from core.law.application import Application
from core.law.award import evaluate
from core.law.batch import evaluate_parsed, frame_of
from core.law.money import ValidationError, to_cents

from tests.strategies import applications, cents

# Boundaries random runs have found or could miss, pinned so that no run passes by luck
# (hypothesis runs every @example on every run, before the random ones).
R = dict(project_type="renovation")
EXCEPTION_WAIVES_MATCH = Application(**R, eligible_cost=100_000_000, local_contribution=10_000_000,
                                     bpw_exception_requested=True, local_property_value=70_000_000)
EXCEPTION_TIE = Application(**R, eligible_cost=100_000_000, bpw_exception_requested=True,
                            local_property_value=50_000_000)
EXCEPTION_CENT_MORE = EXCEPTION_TIE.replace(local_property_value=50_000_001)
VALUE_EQUALS_AWARD = Application(**R, eligible_cost=100_000_000, local_contribution=10_000_000,
                                 bpw_exception_requested=True, local_property_value=60_000_000)
PRIOR_AT_CEILING = Application(**R, eligible_cost=100_000_000, prior_program_funds=30_000_000)
PRIOR_ONE_CENT = Application(**R, eligible_cost=100_000_000, prior_program_funds=1)
FEDERAL_EQUALS_COST = Application(**R, eligible_cost=100_000_000, federal_grant=100_000_000)
CONTRARY_ABOVE_COST = Application(**R, eligible_cost=100_000_000, federal_grant=120_000_000, federal_law_contrary=True)
ODD_CENT = Application(**R, eligible_cost=3, local_contribution=1)
REQUEST_ZERO = Application(**R, eligible_cost=100_000_000, requested_amount=0)
MASTER_PLAN_TIE = Application(project_type="master_plan", eligible_cost=3_000_000, local_contribution=1_500_000)
PINNED = [EXCEPTION_WAIVES_MATCH, EXCEPTION_TIE, EXCEPTION_CENT_MORE, VALUE_EQUALS_AWARD, PRIOR_AT_CEILING,
          PRIOR_ONE_CENT, FEDERAL_EQUALS_COST, CONTRARY_ABOVE_COST, ODD_CENT, REQUEST_ZERO, MASTER_PLAN_TIE]


def pin(*apps):
    """@example for each application (the first argument of the test)."""
    def wrap(test):
        for a in reversed(apps):
            test = example(a)(test)
        return test
    return wrap


@pin(*PINNED)
@given(applications())
def test_award_within_every_cap_and_never_negative(app):
    a = evaluate(app)
    assert a.amount >= 0
    for route in a.routes.values():
        assert all(route.award <= v for v in route.caps.values()) or route.award == 0
    assert all(a.amount <= v for v in a.caps.values())
    assert a.binding and all(a.caps[c] == a.amount for c in a.binding)
    assert set(a.binding) == {c for c, v in a.caps.items() if v == a.amount}


@example(EXCEPTION_TIE, 1)
@example(PRIOR_ONE_CENT, 1)
@example(FEDERAL_EQUALS_COST, 1)
@given(applications(), cents)
def test_award_never_decreases_when_cost_rises(app, more):
    assert evaluate(app.replace(eligible_cost=app.eligible_cost + more)).amount >= evaluate(app).amount


@example(EXCEPTION_CENT_MORE, 1, "local_contribution")
@example(PRIOR_ONE_CENT, 1, "prior_program_funds")
@example(VALUE_EQUALS_AWARD, 1, "federal_grant")
@given(applications(), cents, st.sampled_from(["federal_grant", "local_contribution", "prior_program_funds"]))
def test_award_never_increases_when_other_money_rises(app, more, field):
    # Prior funds of 0 mean "no earlier grant": the top-up cap appears above 0, so start above it.
    if field == "prior_program_funds" and app.prior_program_funds == 0:
        app = app.replace(prior_program_funds=1)
    bigger = app.replace(**{field: getattr(app, field) + more})
    assert evaluate(bigger).amount <= evaluate(app).amount


@pin(EXCEPTION_TIE, EXCEPTION_CENT_MORE, VALUE_EQUALS_AWARD, EXCEPTION_WAIVES_MATCH)
@given(applications(bpw_exception_requested=True))
def test_exception_route_only_when_it_pays_strictly_more(app):
    a = evaluate(app)
    if a.route == "bpw_exception":
        assert a.routes["bpw_exception"].award > a.routes["standard"].award
    elif "bpw_exception" in a.routes:
        assert a.routes["bpw_exception"].award <= a.routes["standard"].award


@settings(max_examples=settings.default.max_examples * 3 // 5)  # 60 of the usual 100
@example(PINNED)
@given(st.lists(applications(), min_size=1, max_size=40))
def test_batch_equals_scalar(apps):
    batch = evaluate_parsed(frame_of(apps))
    for i, app in enumerate(apps):
        a = evaluate(app)
        row = batch.iloc[i]
        assert (int(row.award), row.binding, row.route) == (a.amount, ";".join(a.binding), a.route)
        assert int(row.local_shortfall) == a.local_shortfall
        assert int(row.funding_gap) == a.funding_gap


@pin(EXCEPTION_CENT_MORE, REQUEST_ZERO, CONTRARY_ABOVE_COST)
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


@example("1000000.005")
@example("1000000000000.01")
@example("1000000000000")
@example(-0.5)
@example(True)
@given(junk)
def test_to_cents_accepts_or_names_the_field(value):
    try:
        c = to_cents(value, "eligible_cost")
    except ValidationError as err:
        assert str(err).startswith("eligible_cost:")
    else:
        assert isinstance(c, int) and 0 <= c <= 10**14


@example(0)
@example(1)
@example(10**14)
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

    from core.report.charts import headroom_figure, waterfall_figure
    award = evaluate(app)
    for figure in (headroom_figure, waterfall_figure):
        checked = json.loads(pio.to_json(figure(award), validate=False))
        unchecked = json.loads(pio.to_json(figure(award, validate=False), validate=False))
        assert unchecked == checked
