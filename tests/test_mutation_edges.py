"""Edges a plausible slip would move: each validator on both sides of each limit, and the
award at each equality boundary, through the public entry points only (Application.from_dict,
to_cents, parse_field, evaluate, the batch table, sweep, the scenario name checks).

Batch and scalar are held to the same answer on every row, so a slip in one of the two
engines (the batch's fast money path, its own copy of the caps) shows as a difference.
"""
from __future__ import annotations

import io
from decimal import Decimal

import pandas as pd
import pytest

from core.law.analysis import grid, sweep
from core.law.application import Application, InvalidApplication, parse_field
from core.law.award import evaluate
from core.law.batch import evaluate_table, parse_frame
from core.law.money import ValidationError, fmt, plain, to_cents
from core.store.model import MAX_NAME, MAX_NOTES, check_name, check_notes


def app(**kw) -> Application:
    return Application.from_dict({"project_type": "renovation"} | kw)


def error_of(fn, *args, **kwargs) -> str:
    with pytest.raises(ValidationError) as err:
        fn(*args, **kwargs)
    return str(err.value)


# ---------------------------------------------------------------- money, both sides of each limit

MONEY_OK = [
    ("0", 0), (0, 0), ("0.01", 1), ("0.1", 10), ("1.10", 110), ("-0", 0), ("1e-2", 1), ("1E2", 10_000),
    ("1,000", 100_000), ("1,000,000.5", 100_000_050), ("$1", 100), ("$ 1,234.56", 123_456), (" 7 ", 700),
    ("1000000000000", 100_000_000_000_000), ("1000000000000.00", 100_000_000_000_000),
    (10**12, 100_000_000_000_000), (0.125, 12), (0.135, 14), (1e12, 100_000_000_000_000),
    (Decimal("2.50"), 250), (Decimal("1000000000000"), 100_000_000_000_000),
]
MONEY_BAD = [
    ("-0.01", "'-0.01' is negative; amounts must be $0 or more"),
    (-1, "-1 is negative; amounts must be $0 or more"),
    (-0.5, "-0.5 is negative; amounts must be $0 or more"),
    ("1000000000000.01", "'1000000000000.01' is over $1,000,000,000,000, the largest amount accepted"),
    (10**12 + 1, "1000000000001 is over $1,000,000,000,000, the largest amount accepted"),
    (1000000000000.02, "1000000000000.02 is over $1,000,000,000,000, the largest amount accepted"),
    ("1.001", "'1.001' has fractions of a cent; use at most two decimal places"),
    ("1000000.005", "'1000000.005' has fractions of a cent; use at most two decimal places"),
    ("1,0000", "'1,0000' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    ("$", "'$' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    ("1..2", "'1..2' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    (".", "'.' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    ("Infinity", "'Infinity' is not a number; enter dollars such as 1250000 or 1,250,000.50"),
    (float("-inf"), "-inf is not a finite amount; enter dollars such as 1250000"),
    (False, "False is not an amount; enter dollars such as 1250000 or 1,250,000.50"),
    (None, "is not an amount; enter dollars such as 1250000 or 1,250,000.50"),
    ({"a": 1}, "{'a': 1} is not an amount; enter dollars such as 1250000"),
]


@pytest.mark.parametrize("raw,cents", MONEY_OK)
def test_money_accepted_at_the_edges(raw, cents):
    assert to_cents(raw, "local_contribution") == cents


@pytest.mark.parametrize("raw,message", MONEY_BAD)
def test_money_rejected_at_the_edges(raw, message):
    assert error_of(to_cents, raw, "local_contribution") == f"local_contribution: {message}"


@pytest.mark.parametrize("raw,problem", [
    (Decimal("-0.01"), "is negative; amounts must be $0 or more"),
    (Decimal("0.001"), "has fractions of a cent; use at most two decimal places"),
    (Decimal("1000000000000.01"), "is over $1,000,000,000,000, the largest amount accepted"),
    (Decimal("NaN"), "is not a finite amount; enter dollars such as 1250000"),
    (Decimal("Infinity"), "is not a finite amount; enter dollars such as 1250000"),
])
def test_decimal_money_rejected_at_the_edges(raw, problem):
    message = error_of(to_cents, raw, "local_contribution")
    assert message.startswith("local_contribution: ") and message.endswith(" " + problem)


def test_long_bad_value_is_cut_in_the_message():
    raw = "x" * 61
    assert error_of(to_cents, raw, "eligible_cost") == (
        f"eligible_cost: {raw[:60] + '…'!r} is not a number; enter dollars such as 1250000 or 1,250,000.50")
    raw = "y" * 60
    assert error_of(to_cents, raw, "eligible_cost").startswith(f"eligible_cost: {raw!r} is not")


BATCH_MONEY = ["0", "0.5", "0.05", "1000000.5", "1000000.05", "1000000.005", "1000000.", "1,000,000", "$5",
               "1000000000000", "1000000000000.00", "1000000000000.01", "9999999999999.99", "10000000000000",
               "99999999999999", "-1", "-0.5", "1e3", "abc", "12.345", " 3 "]


def test_batch_money_path_agrees_with_the_scalar_validator():
    """The batch's fast path (plain digits, vectorised) and its slow path give to_cents's answer."""
    df = pd.DataFrame({"project_type": ["renovation"] * len(BATCH_MONEY), "eligible_cost": BATCH_MONEY,
                       "local_contribution": BATCH_MONEY})
    values, errors = parse_frame(df)
    for i, raw in enumerate(BATCH_MONEY):
        try:
            cents = to_cents(raw, "eligible_cost")
        except ValidationError as err:
            other = str(err).replace("eligible_cost:", "local_contribution:", 1)
            assert errors[i] == f"{err}; {other}", raw
        else:
            assert errors[i] == "", raw
            assert values["eligible_cost"][i] == cents and values["local_contribution"][i] == cents, raw


def test_batch_three_decimals_never_awarded():
    out = evaluate_table(pd.DataFrame({"project_type": ["renovation", "renovation"],
                                       "eligible_cost": ["1000000.005", "1000000.01"]}))
    assert list(out["award"]) == ["", "500000.00"]
    assert out["error"][0] == "eligible_cost: '1000000.005' has fractions of a cent; use at most two decimal places"
    assert out["error"][1] == ""


def test_batch_blank_optional_money_means_its_default_and_a_blank_request_means_none():
    out = evaluate_table(pd.DataFrame({"project_type": ["renovation"] * 3, "eligible_cost": ["1000000"] * 3,
                                       "requested_amount": ["", "0", "  "],
                                       "local_contribution": ["", " ", "500000"]}))
    assert list(out["award"]) == ["500000.00", "0.00", "500000.00"]
    assert list(out["binding"]) == ["cost_share", "requested_amount", "cost_share;funding_need"]
    assert list(out["error"]) == ["", "", ""]


def test_batch_missing_required_value_is_named():
    out = evaluate_table(pd.DataFrame({"project_type": ["renovation", ""], "eligible_cost": ["", "5"]}))
    assert list(out["error"]) == ["eligible_cost: is missing; it is required", "project_type: is missing; it is required"]
    assert list(out["award"]) == ["", ""]


# ---------------------------------------------------------------- yes/no, types, considerations

@pytest.mark.parametrize("raw,value", [
    (True, True), (False, False), (1, True), (0, False), ("yes", True), ("Y", True), (" on ", True), ("TRUE", True),
    ("1", True), ("no", False), ("N", False), ("off", False), ("False", False), ("0", False), (None, False), ("", False),
])
def test_yes_no_accepted(raw, value):
    assert parse_field("federal_law_contrary", raw) is value
    assert app(eligible_cost=1, federal_law_contrary=raw).federal_law_contrary is value


@pytest.mark.parametrize("raw", [2, -1, 1.0, 0.0, "2", "-1", "maybe", "ja", "t", [1]])
def test_yes_no_rejected(raw):
    message = f"federal_law_contrary: {raw!r} is not yes or no; use true/false, yes/no or 1/0"
    assert error_of(parse_field, "federal_law_contrary", raw) == message
    assert error_of(app, eligible_cost=1, federal_law_contrary=raw) == message


def test_yes_no_rejected_in_batch_with_the_same_message():
    out = evaluate_table(pd.DataFrame({"project_type": ["renovation"] * 3, "eligible_cost": ["1"] * 3,
                                       "federal_law_contrary": ["2", "yes", "-1"]}))
    assert list(out["error"]) == ["federal_law_contrary: '2' is not yes or no; use true/false, yes/no or 1/0", "",
                                  "federal_law_contrary: '-1' is not yes or no; use true/false, yes/no or 1/0"]


@pytest.mark.parametrize("raw,key", [
    ("conversion", "conversion"), (" Renovation ", "renovation"), ("MASTER PLAN", "master_plan"),
    ("master_plan", "master_plan"), ("Planning, design, and construction", "construction"),
    ("capital equipment", "equipment"), ("Capital equipment", "equipment"), ("acquisition", "acquisition"),
])
def test_project_type_accepted(raw, key):
    assert parse_field("project_type", raw) == key


@pytest.mark.parametrize("raw", ["castle", "master-plan", 3, True, ["renovation"]])
def test_project_type_rejected(raw):
    assert error_of(parse_field, "project_type", raw) == (
        f"project_type: {raw!r} is not a project type; use one of conversion, acquisition, renovation, "
        "construction, equipment, master_plan")


@pytest.mark.parametrize("raw,value", [
    ("0", 0.0), (0, 0.0), ("0.0", 0.0), (0.5, 0.5), ("512.5", 512.5), ("1,200", 1200.0), (" 3 ", 3.0),
    (10**9, 1e9), ("1000000000", 1e9), (None, None), ("", None),
])
def test_consideration_accepted(raw, value):
    assert parse_field("senior_density", raw) == value
    assert app(eligible_cost=1, distance_to_center_miles=raw).distance_to_center_miles == value


@pytest.mark.parametrize("raw,problem", [
    (-1, "-1 is negative; it must be 0 or more"), ("-1", "'-1' is negative; it must be 0 or more"),
    (-0.5, "-0.5 is negative; it must be 0 or more"), ("-0.5", "'-0.5' is negative; it must be 0 or more"),
    (-2, "-2 is negative; it must be 0 or more"),
    (10**9 + 1, "1000000001 is implausibly large (over 1,000,000,000)"),
    (1000000000.5, "1000000000.5 is implausibly large (over 1,000,000,000)"),
    ("nan", "'nan' is not a finite number"), (float("inf"), "inf is not a finite number"),
    ("abc", "'abc' is not a number"), (True, "True is not a number"), ([1], "[1] is not a number"),
])
def test_consideration_rejected(raw, problem):
    assert error_of(parse_field, "senior_density", raw) == f"senior_density: {problem}"
    assert error_of(app, eligible_cost=1, senior_density=raw) == f"senior_density: {problem}"


def test_considerations_in_batch_on_both_sides():
    raws = ["0", "-1", "-0.5", "1000000000", "1000000001", "abc", "", "2.5"]
    out = evaluate_table(pd.DataFrame({"project_type": ["renovation"] * len(raws), "eligible_cost": ["1"] * len(raws),
                                       "senior_density": raws}))
    bad = {"-1", "-0.5", "1000000001", "abc"}
    assert list(out["error"]) == [f"senior_density: {r!r} is not a number of 0 or more" if r in bad else ""
                                  for r in raws]


# ---------------------------------------------------------------- the application's shape

def test_exception_table_may_not_carry_other_fields():
    for key, value in [("eligible_cost", 5), ("bpw_exception_requested", True), ("project_type", "renovation")]:
        message = error_of(app, eligible_cost=1_000_000, bpw_exception={key: value})
        assert message == (f"bpw_exception.{key}: {value!r} is not a field of the exception; use "
                           "local_property_value, state_funds_in_property, state_bonded_debt")
    a = app(eligible_cost=1_000_000, bpw_exception={"local_property_value": 1, "state_funds_in_property": "yes",
                                                    "state_bonded_debt": 1})
    assert (a.eligible_cost, a.local_property_value, a.state_funds_in_property, a.state_bonded_debt) == (
        100_000_000, 100, True, True)


@pytest.mark.parametrize("value,requested", [(None, False), (False, False), (True, True), ({}, True)])
def test_exception_forms(value, requested):
    assert app(eligible_cost=1, bpw_exception=value).bpw_exception_requested is requested


@pytest.mark.parametrize("value", ["yes", 1, 0, [], "null"])
def test_exception_other_forms_rejected(value):
    assert error_of(app, eligible_cost=1, bpw_exception=value) == (
        f"bpw_exception: {value!r} must be null or a table of the exception's fields")


def test_record_keys_accepted_unknown_ones_named():
    a = app(eligible_cost=1, name="n", notes="x", locality="L", id=3, ruleset="regulation")
    assert a.eligible_cost == 100
    assert error_of(app, eligible_cost=1, colour="red") == (
        "colour: 'red' is not a known field; known fields: project_type, eligible_cost, federal_grant, "
        "local_contribution, prior_program_funds, requested_amount, federal_law_contrary, bpw_exception_requested, "
        "local_property_value, state_funds_in_property, state_bonded_debt, senior_density, "
        "distance_to_center_miles, previously_funded")
    assert Application.from_dict({"project_type": "renovation", "eligible_cost": 1, "colour": "red"},
                                 unknown="ignore").eligible_cost == 100
    assert error_of(Application.from_dict, ["renovation"]) == "application: ['renovation'] must be a JSON object of fields"


def test_every_bad_field_reported_in_order():
    with pytest.raises(InvalidApplication) as err:
        Application.from_dict({"eligible_cost": "-1", "federal_grant": "x", "state_bonded_debt": 2,
                               "bpw_exception_requested": True, "senior_density": -1})
    assert [e.field for e in err.value.errors] == ["project_type", "eligible_cost", "federal_grant",
                                                   "state_bonded_debt", "senior_density"]
    assert str(err.value) == ("project_type: is missing; it is required; eligible_cost: '-1' is negative; amounts "
                              "must be $0 or more; federal_grant: 'x' is not a number; enter dollars such as 1250000 "
                              "or 1,250,000.50; state_bonded_debt: 2 is not yes or no; use true/false, yes/no or 1/0; "
                              "senior_density: -1 is negative; it must be 0 or more")
    assert (err.value.field, err.value.value) == ("project_type", None)


def test_round_trips_keep_every_field():
    a = app(eligible_cost="1000.5", federal_grant=2, local_contribution=3, prior_program_funds=4, requested_amount=5,
            federal_law_contrary=True, bpw_exception={"local_property_value": 6, "state_funds_in_property": True,
                                                      "state_bonded_debt": False},
            senior_density=7, distance_to_center_miles=8, previously_funded=True)
    assert a.to_dict() == {
        "project_type": "renovation", "eligible_cost": "1000.50", "federal_grant": "2.00", "local_contribution": "3.00",
        "prior_program_funds": "4.00", "requested_amount": "5.00", "federal_law_contrary": True,
        "senior_density": 7.0, "distance_to_center_miles": 8.0, "previously_funded": True,
        "bpw_exception": {"local_property_value": "6.00", "state_funds_in_property": True, "state_bonded_debt": False}}
    assert a.to_flat() == {
        "project_type": "renovation", "eligible_cost": "1000.50", "federal_grant": "2.00", "local_contribution": "3.00",
        "prior_program_funds": "4.00", "requested_amount": "5.00", "federal_law_contrary": True,
        "bpw_exception_requested": True, "local_property_value": "6.00", "state_funds_in_property": True,
        "state_bonded_debt": False, "senior_density": 7.0, "distance_to_center_miles": 8.0, "previously_funded": True}
    assert Application.from_dict(a.to_dict()) == a == Application.from_dict(a.to_flat())
    b = app(eligible_cost=1)
    assert b.to_dict()["bpw_exception"] is None and b.to_dict()["requested_amount"] is None
    assert b.to_flat()["requested_amount"] is None
    assert a.replace(bpw_exception_requested=False).local_property_value == 0


# ---------------------------------------------------------------- scenario names and notes

def test_scenario_name_at_the_maximum_length():
    assert MAX_NAME == 120 and MAX_NOTES == 5_000
    assert check_name("n" * MAX_NAME) == "n" * MAX_NAME
    assert check_name("  " + "n" * MAX_NAME + "  ") == "n" * MAX_NAME
    assert "is 121 characters long; at most 120 are allowed" in error_of(check_name, "n" * (MAX_NAME + 1))
    assert check_notes("x" * MAX_NOTES) == "x" * MAX_NOTES
    assert "is 5,001 characters long; at most 5,000 are allowed" in error_of(check_notes, "x" * (MAX_NOTES + 1))
    assert check_notes(None) == ""


# ---------------------------------------------------------------- the award at each equality boundary

# (name, inputs, award, binding, route, local_shortfall, funding_gap, statuses of checks that matter)
BOUNDARIES = [
    # The Board exception: a tie keeps the standard route; one cent more takes the exception.
    ("exception-tie", dict(eligible_cost=1_000_000, bpw_exception=dict(local_property_value=500_000)),
     "500000.00", ("cost_share",), "standard", "500000.00", "500000.00", {"bpw_property_value": "pass"}),
    ("exception-cent-more", dict(eligible_cost=1_000_000, bpw_exception=dict(local_property_value="500000.01")),
     "500000.01", ("property_value",), "bpw_exception", "0.00", "499999.99",
     {"bpw_property_value": "pass", "local_match": "waived"}),
    ("exception-cent-less", dict(eligible_cost=1_000_000, bpw_exception=dict(local_property_value="499999.99")),
     "500000.00", ("cost_share",), "standard", "500000.00", "500000.00", {"local_match": "fail"}),
    # The value of property equal to the award passes (>=), on either route.
    ("exception-value-equals-award", dict(eligible_cost=1_000_000, local_contribution=100_000,
                                          bpw_exception=dict(local_property_value=600_000)),
     "600000.00", ("program_max", "property_value"), "bpw_exception", "0.00", "300000.00",
     {"bpw_property_value": "pass", "local_match": "waived"}),
    # The exception waives the local match: the batch must not report the standard route's shortfall.
    ("exception-waives-match", dict(eligible_cost=1_000_000, local_contribution=100_000,
                                    bpw_exception=dict(local_property_value=700_000)),
     "600000.00", ("program_max",), "bpw_exception", "0.00", "300000.00", {"local_match": "waived"}),
    ("exception-with-state-money", dict(eligible_cost=1_000_000, local_contribution=100_000,
                                        bpw_exception=dict(local_property_value=700_000, state_bonded_debt=True)),
     "500000.00", ("cost_share",), "standard", "400000.00", "400000.00",
     {"local_match": "fail", "bpw_no_state_debt": "fail", "bpw_no_state_funds": "pass"}),
    # The local match: exactly the required share passes; a cent less fails by a cent; rounded up.
    ("match-exact", dict(eligible_cost=1_000_000, local_contribution=500_000), "500000.00",
     ("cost_share", "funding_need"), "standard", "0.00", "0.00", {"local_match": "pass", "fully_funded": "pass"}),
    ("match-cent-short", dict(eligible_cost=1_000_000, local_contribution="499999.99"), "500000.00",
     ("cost_share",), "standard", "0.01", "0.01", {"local_match": "fail", "fully_funded": "fail"}),
    ("match-rounded-up", dict(eligible_cost="0.03", local_contribution="0.01"), "0.01", ("cost_share",),
     "standard", "0.01", "0.01", {"local_match": "fail"}),
    ("match-rounded-up-met", dict(eligible_cost="0.03", local_contribution="0.02"), "0.01",
     ("cost_share", "funding_need"), "standard", "0.00", "0.00", {"local_match": "pass"}),
    # Funding need: local equal to the remaining cost leaves nothing; more never goes below zero.
    ("need-zero", dict(eligible_cost=1_000_000, local_contribution=1_000_000), "0.00", ("funding_need",),
     "standard", "0.00", "0.00", {"fully_funded": "pass"}),
    ("need-below-zero", dict(eligible_cost=1_000_000, local_contribution=1_000_001), "0.00", ("funding_need",),
     "standard", "0.00", "0.00", {"fully_funded": "pass"}),
    # Program maximum: equal to the share (tie), a cent above.
    ("program-max-tie", dict(eligible_cost=1_200_000, local_contribution=600_000), "600000.00",
     ("program_max", "cost_share", "funding_need"), "standard", "0.00", "0.00", {}),
    ("program-max-cent-above", dict(eligible_cost="1200000.02", local_contribution=0), "600000.00",
     ("program_max",), "standard", "600000.01", "600000.02", {}),
    ("master-plan-max", dict(project_type="master_plan", eligible_cost=30_000, local_contribution=15_000),
     "15000.00", ("program_max", "cost_share", "funding_need"), "standard", "0.00", "0.00", {}),
    # Prior funds: none means no cap; a cent opens the cap; at the ceiling nothing is left.
    ("prior-none", dict(eligible_cost=100_000), "50000.00", ("cost_share",), "standard", "50000.00",
     "50000.00", {}),
    ("prior-one-cent", dict(eligible_cost=1_000_000, prior_program_funds="0.01"), "299999.99",
     ("prior_grant_room",), "standard", "500000.00", "700000.01", {"prior_grant_room": "pass"}),
    ("prior-cent-below-ceiling", dict(eligible_cost=1_000_000, prior_program_funds="299999.99"), "0.01",
     ("prior_grant_room",), "standard", "500000.00", "999999.99", {"prior_grant_room": "pass"}),
    ("prior-at-ceiling", dict(eligible_cost=1_000_000, prior_program_funds=300_000), "0.00",
     ("prior_grant_room",), "standard", "500000.00", "1000000.00", {"prior_grant_room": "fail"}),
    ("prior-above-ceiling", dict(eligible_cost=1_000_000, prior_program_funds=300_001), "0.00",
     ("prior_grant_room",), "standard", "500000.00", "1000000.00", {"prior_grant_room": "fail"}),
    # A request of 0 is a request (the award is 0); equal to another cap is a tie.
    ("request-zero", dict(eligible_cost=1_000_000, requested_amount=0), "0.00", ("requested_amount",),
     "standard", "500000.00", "1000000.00", {}),
    ("request-tie", dict(eligible_cost=1_000_000, requested_amount=500_000), "500000.00",
     ("cost_share", "requested_amount"), "standard", "500000.00", "500000.00", {}),
    # The federal grant: equal to the cost covers it (warning); a cent less does not; above, nothing remains.
    ("federal-equals-cost", dict(eligible_cost=1_000_000, federal_grant=1_000_000), "0.00",
     ("cost_share", "funding_need"), "standard", "0.00", "0.00", {"federal_exceeds_cost": "warning"}),
    ("federal-cent-below-cost", dict(eligible_cost=1_000_000, federal_grant="999999.99"), "0.00",
     ("cost_share",), "standard", "0.01", "0.01", {"federal_exceeds_cost": "pass", "fully_funded": "fail"}),
    ("federal-above-cost", dict(eligible_cost=1_000_000, federal_grant=1_000_001), "0.00",
     ("cost_share", "funding_need"), "standard", "0.00", "0.00", {"federal_exceeds_cost": "warning"}),
    ("federal-zero-cost-zero", dict(eligible_cost=0), "0.00", ("cost_share", "funding_need"), "standard",
     "0.00", "0.00", {"federal_exceeds_cost": "pass", "fully_funded": "pass", "local_match": "pass"}),
    # Federal law contrary: the State grant comes first, so the local match and the funding need are
    # measured on the whole cost, like the State share (RULES.md, step 1).
    ("federal-contrary", dict(eligible_cost=1_000_000, federal_grant=200_000, federal_law_contrary=True),
     "500000.00", ("cost_share",), "standard", "500000.00", "300000.00", {}),
    ("federal-contrary-above-cost", dict(eligible_cost=1_000_000, federal_grant=1_200_000, federal_law_contrary=True),
     "500000.00", ("cost_share",), "standard", "500000.00", "0.00", {"federal_exceeds_cost": "warning"}),
    # Rounding of the State share: down to the cent.
    ("share-rounded-down", dict(eligible_cost="0.03"), "0.01", ("cost_share",), "standard", "0.02", "0.02", {}),
    ("share-rounded-down-2", dict(eligible_cost="999999.99"), "499999.99", ("cost_share",), "standard",
     "500000.00", "500000.00", {}),
]


def batch_row(inputs: dict) -> dict:
    flat = Application.from_dict({"project_type": "renovation"} | inputs).to_flat()
    return {k: ("" if v is None else str(v)) for k, v in flat.items()}


@pytest.mark.parametrize("name,inputs,award,binding,route,shortfall,gap,statuses", BOUNDARIES,
                         ids=[b[0] for b in BOUNDARIES])
def test_boundary(name, inputs, award, binding, route, shortfall, gap, statuses):
    a = evaluate(app(**inputs))
    assert (plain(a.amount), a.binding, a.route) == (award, binding, route)
    assert (plain(a.local_shortfall), plain(a.funding_gap)) == (shortfall, gap)
    assert {k: a.check(k).status for k in statuses} == statuses
    assert a.funding == {"federal": a.application.federal_grant, "state": a.amount,
                         "local": a.application.local_contribution, "gap": a.funding_gap}


def test_boundaries_in_batch_equal_scalar():
    """The batch engine, given the same rows as text, gives the same award, caps, route, shortfall and gap."""
    out = evaluate_table(pd.DataFrame([batch_row(b[1]) for b in BOUNDARIES]))
    for i, (name, _inputs, award, binding, route, shortfall, gap, _s) in enumerate(BOUNDARIES):
        assert out["error"][i] == "", name
        assert (out["award"][i], out["binding"][i], out["route"][i], out["local_shortfall"][i],
                out["funding_gap"][i]) == (award, ";".join(binding), route, shortfall, gap), name


def test_boundaries_on_a_map_equal_scalar():
    """The map of the Sensitivity page (batch engine over a grid) at the boundary values."""
    base = app(eligible_cost=1_000_000, bpw_exception={"local_property_value": 0})
    xs = [49_999_999, 50_000_000, 50_000_001, 60_000_000]
    ys = [0, 29_999_999, 30_000_000, 30_000_001]
    award, binding = grid(base, "local_property_value", xs, "prior_program_funds", ys)
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            a = evaluate(base.replace(local_property_value=x, prior_program_funds=y))
            assert (award[j, i], binding[j, i]) == (a.amount, ";".join(a.binding)), (x, y)


# ---------------------------------------------------------------- sentences of the checks at their edges

def test_check_sentences_at_the_edges():
    a = evaluate(app(eligible_cost="0.03", local_contribution="0.01"))
    assert a.check("local_match").message == "Local contributions are $0.01 short of the 50% match of $0.02."
    a = evaluate(app(eligible_cost=1_000_000, federal_grant=1_000_000))
    assert a.check("federal_exceeds_cost").message == (
        "The $1,000,000 federal grant alone covers the $1,000,000 cost of eligible work; no State grant is needed.")
    a = evaluate(app(eligible_cost=1_000_000, prior_program_funds=300_001))
    assert a.check("prior_grant_room").message == (
        "Prior funds of $300,001 reach the $300,000 ceiling; under the reading “Every earlier grantee, up to "
        "$300,000 in all” no additional grant is available.")
    assert a.check("prior_grant_room").amount == 0
    a = evaluate(app(eligible_cost=1_000_000, prior_program_funds="299999.99"))
    assert a.check("prior_grant_room").message == "$0.01 of room remains below the $300,000 ceiling."
    assert evaluate(app(eligible_cost=1)).check("prior_grant_room") is None
    assert [c.id for c in evaluate(app(eligible_cost=1)).checks] == ["local_match", "fully_funded",
                                                                      "federal_exceeds_cost"]
    assert fmt(None) == "—" and fmt(5, always_cents=True) == "$0.05" and fmt(-150) == "-$1.50"
    assert plain(-5) == "-0.05" and plain(0) == "0.00"


def test_binding_text_of_three_caps():
    a = evaluate(app(eligible_cost=1_200_000, local_contribution=600_000))
    assert a.binding_text == "program maximum, State share limit and funding need (all $600,000)"
    assert a.to_dict()["binding_text"] == a.binding_text


# ---------------------------------------------------------------- analysis arguments at their edges

def test_sweep_refuses_bad_ranges_and_fields():
    a = app(eligible_cost=1_000_000)
    with pytest.raises(ValueError) as err:
        sweep(a, "eligible_cost", 5, 5)
    assert str(err.value) == "range: from 0.05 to 0.05 is empty; 'from' must be below 'to'"
    with pytest.raises(ValueError) as err:
        sweep(a, "federal_law_contrary", 0, 5)
    # every amount of the field table, in its order
    assert str(err.value) == ("field: 'federal_law_contrary' cannot be swept; use one of eligible_cost, "
                              "federal_grant, local_contribution, prior_program_funds, requested_amount, "
                              "local_property_value")
    assert sweep(a, "eligible_cost", 0, 1).lo == 0
    with pytest.raises(ValueError) as err:
        grid(a, "eligible_cost", [1], "eligible_cost", [1])
    assert str(err.value) == "the two inputs of a map must differ"
    with pytest.raises(ValueError) as err:
        grid(a, "eligible_cost", [1], "senior_density", [1])
    assert str(err.value).startswith("field: 'senior_density' cannot be mapped; use one of eligible_cost, ")


# ---------------------------------------------------------------- rulesets: files out and back, variants, errors

def test_rulesets_written_as_toml_read_back_the_same():
    from core.law.rulesets import available, load, load_text, to_toml
    for rid in available():
        rs = load(rid)
        text = to_toml(rs)
        back = load_text(text)
        assert (back.id, back.version, back.kind, back.title, back.based_on) == (rs.id, rs.version, rs.kind, rs.title,
                                                                                rs.based_on)
        assert back.to_data() == rs.to_data()
        assert text.startswith(f'id = "{rs.id}"\ntitle = ')
        assert f'\n[parameters.capital_cap]\nvalue = "{rs.parameters["capital_cap"].raw}"\nunit = "USD"\n' in text
        assert '\nvalue = ["conversion", "renovation", "construction"]\n' in text
        assert text.endswith('"\n') and "\n\n[parameters.state_share]\n" in text


def test_a_variant_names_what_it_changed_and_where_it_came_from():
    from core.law.rulesets import load, to_toml, load_text
    rs = load()
    v = rs.with_changes("cap-1m", "Cap at $1,000,000", {"capital_cap": "1000000", "state_share": "0.6"},
                        note="What if the cap were $1,000,000?")
    assert (v.id, v.title, v.kind, v.based_on, v.description) == (
        "cap-1m", "Cap at $1,000,000", "variant", "regulation", "What if the cap were $1,000,000?")
    assert v.label == "Cap at $1,000,000 (variant, not the regulation in force)"
    assert v.parameters["capital_cap"].citation == (
        "Variant value (was '600000.00' under regulation): " + rs.parameters["capital_cap"].citation)
    assert v.parameters["state_share"].citation == (
        "Variant value (was '0.50' under regulation): " + rs.parameters["state_share"].citation)
    assert v.parameters["master_plan_cap"].citation == rs.parameters["master_plan_cap"].citation
    assert (v.capital_cap, str(v.state_share)) == (100_000_000, "3/5")
    assert v.to_data()["based_on"] == "regulation" and "based_on" not in rs.to_data()
    assert load_text(to_toml(v)).version == v.version
    same = rs.with_changes("copy", "Copy", {})
    assert same.description == rs.description and same.version != rs.version
    from core.law.rulesets import RulesetError
    with pytest.raises(RulesetError) as err:
        rs.with_changes("bad", "Bad", {"nope": 1})
    assert str(err.value) == ("parameters.nope: unknown parameter; known: capital_cap, master_plan_cap, state_share, "
                              "local_share, prior_grant_ceiling, bpw_eligible_types")


def test_ruleset_errors_name_the_file():
    from core.law.rulesets import RulesetError, load_file, load_text
    with pytest.raises(RulesetError) as err:
        load_text("id = 'x'\nid = 'y'\n")
    assert str(err.value).startswith("ruleset: Cannot overwrite a value")
    with pytest.raises(RulesetError) as err:
        load_text("id = ", "mine.toml")
    assert str(err.value).startswith("mine.toml: ")
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "broken.toml"
        path.write_text("id = [", encoding="utf-8")
        with pytest.raises(RulesetError) as err:
            load_file(path)
        assert str(err.value).startswith(f"{path}: ")


@pytest.mark.parametrize("change,message", [
    ({"id": "Bad Id"}, "id: 'Bad Id' must be lower-case letters, digits, '-' or '_'"),
    ({"id": "x" * 65}, f"id: {'x' * 65!r} must be lower-case letters, digits, '-' or '_'"),
    ({"kind": "variant", "id": "regulation"}, "id: a variant may not be called 'regulation'"),
    ({"title": 5}, "title: must be text, not 5"),
    ({"parameters": []}, "parameters: must be a table"),
])
def test_ruleset_shape_errors(change, message):
    from core.law.rulesets import RulesetError, from_data, load
    data = load().to_data() | change
    with pytest.raises(RulesetError) as err:
        from_data(data)
    assert str(err.value) == message


def test_ruleset_id_at_its_longest_and_parameter_edges():
    from core.law.rulesets import RulesetError, from_data, load
    data = load().to_data()
    assert from_data(data | {"id": "a" * 64}).id == "a" * 64
    for value, message in [("0.12345", "parameters.state_share.value: '0.12345' has more than four decimal places"),
                           (1.5, "parameters.state_share.value: a share is a string such as \"0.50\", not 1.5"),
                           (True, "parameters.state_share.value: a share is a string such as \"0.50\", not True"),
                           ("x", "parameters.state_share.value: 'x' is not a number"),
                           ("NaN", "parameters.state_share.value: 'NaN' is outside 0..1")]:
        bad = load().to_data()
        bad["parameters"]["state_share"]["value"] = value
        with pytest.raises(RulesetError) as err:
            from_data(bad)
        assert str(err.value) == message
    for value, expect in [("0.1234", "617/5000"), ("0", "0"), ("1", "1"), (1, "1")]:
        ok = load().to_data()
        ok["parameters"]["state_share"]["value"] = value
        assert str(from_data(ok).state_share) == expect
    for value, message in [("renovation", "parameters.bpw_eligible_types.value: a list of project types, not 'renovation'"),
                           (["renovation", "renovation"], "parameters.bpw_eligible_types.value: a project type is listed twice")]:
        bad = load().to_data()
        bad["parameters"]["bpw_eligible_types"]["value"] = value
        with pytest.raises(RulesetError) as err:
            from_data(bad)
        assert str(err.value) == message


def test_a_variant_with_integer_money_written_out_and_read_back():
    from core.law.rulesets import load, load_text, to_toml
    v = load().with_changes("cap-int", "Integer cap", {"capital_cap": 700000, "master_plan_cap": "20000"})
    text = to_toml(v)
    assert "\n[parameters.capital_cap]\nvalue = 700000\n" in text
    back = load_text(text)
    assert (back.capital_cap, back.master_plan_cap, back.version) == (70_000_000, 2_000_000, v.version)


def test_csv_cells_are_read_as_text():
    """Leading zeros, three decimals and 'NA' reach the validators as written, never as numbers or blanks."""
    from core.law.batch import read_csv
    text = ("name,project_type,eligible_cost,local_contribution,senior_density\n"
            "007,renovation,1000000.005,0,1\n"
            "NA,renovation,0001000000,500000.10,\n")
    df = read_csv(io.StringIO(text))
    assert list(df["name"]) == ["007", "NA"] and list(df["senior_density"]) == ["1", ""]
    out = evaluate_table(df)
    assert list(out["name"]) == ["007", "NA"]
    assert out["error"][0] == "eligible_cost: '1000000.005' has fractions of a cent; use at most two decimal places"
    assert (out["award"][1], out["binding"][1], out["error"][1]) == ("499999.90", "funding_need", "")


def test_a_variant_file_holds_only_what_it_changes():
    """A variant based on another ruleset inherits every parameter and key it does not give."""
    from core.law.rulesets import RulesetError, load, load_text
    text = ('id = "cap-700k"\ntitle = "Cap at $700,000"\nkind = "variant"\nbased_on = "regulation"\n'
            '[parameters.capital_cap]\nvalue = "700000.00"\n')
    v = load_text(text)
    assert (v.capital_cap, v.master_plan_cap, v.based_on) == (70_000_000, 1_500_000, "regulation")
    assert v.parameters["capital_cap"].citation == load().parameters["capital_cap"].citation
    for based_on, message in [("nope", "based_on: unknown ruleset 'nope'; available: regulation, cap-800k"),
                              ("cap-700k", "based_on: a ruleset cannot be based on itself ('cap-700k')")]:
        with pytest.raises(RulesetError) as err:
            load_text(text.replace('based_on = "regulation"', f'based_on = "{based_on}"'))
        assert str(err.value) == message
    with pytest.raises(RulesetError) as err:
        load_text(text.replace('kind = "variant"', "kind = 5"))
    assert str(err.value) == "kind: must be text, not 5"


def test_the_first_error_of_an_application_is_its_field_value_and_problem():
    with pytest.raises(InvalidApplication) as err:
        Application.from_dict({"project_type": "renovation", "eligible_cost": "-1", "federal_grant": "x"})
    assert (err.value.field, err.value.value, err.value.problem) == (
        "eligible_cost", "-1", "is negative; amounts must be $0 or more")


def test_a_sweep_without_points_keeps_its_range():
    s = sweep(app(eligible_cost=1_000_000), "eligible_cost", 5, 500_000_000, points=False)
    assert (s.field, s.lo, s.hi, s.points) == ("eligible_cost", 5, 500_000_000, ())


def test_what_would_change_under_a_variant_ruleset():
    from core.law.analysis import what_would_change
    from core.law.rulesets import load
    a = app(eligible_cost=1_000_000, local_contribution=500_000)
    assert what_would_change(a, load("cap-800k"))[0] == (
        "Each extra $1 of total cost of eligible work adds $0.50 of award until $1,600,000, where program maximum "
        "takes over.")


def test_batch_rows_keep_their_index_when_an_optional_column_is_absent():
    df = pd.DataFrame({"project_type": ["renovation", "renovation"], "eligible_cost": ["1000000", "300000"]},
                      index=[10, 20])
    out = evaluate_table(df)
    assert list(out.index) == [10, 20]
    assert list(out["award"]) == ["500000.00", "150000.00"] and list(out["error"]) == ["", ""]


def test_ruleset_texts_must_be_text_and_unknown_ids_are_listed():
    from core.law.rulesets import RulesetError, from_data, load
    bad = load().to_data()
    bad["parameters"]["capital_cap"]["unit"] = 5
    with pytest.raises(RulesetError) as err:
        from_data(bad)
    assert str(err.value) == "parameters.capital_cap.unit: must be text"
    with pytest.raises(RulesetError) as err:
        load("nope")
    assert str(err.value) == "ruleset: unknown id 'nope'; available: regulation, cap-800k"
