"""Mutants of core/law/award.py, core/law/money.py, core/law/application.py and core/law/readings.py that
survived `python tools/mutation.py --modules award,money,application,readings` (issue 18),
each killed here through the public entry points with exact values and whole sentences.
The ones no input can tell apart are explained in tools/survivors-award.md.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

import core.law.award
from core.law.application import Application, parse_field, parse_number, parse_project_type
from core.law.award import binding_text, evaluate, exception_conditions, other_readings, types_words
from core.law.money import ValidationError, to_cents
from core.law.readings import DEFAULT, READING, ReadingError, parse
from core.law.rulesets import load


def app(**kw) -> Application:
    return Application.from_dict({"project_type": "renovation"} | kw)


def error_of(fn, *args) -> str:
    with pytest.raises(ValidationError) as err:
        fn(*args)
    return str(err.value)


# ---------------------------------------------------------------- other readings

# $2,000,000 of work with $1,300,000 local: the project lacks $700,000. Under the regulation the
# $600,000 program maximum binds, so no switch of a reading changes the award; under the
# cap-800k variant the funding need binds ($700,000) and dropping it gives the $800,000 cap.
NEED_BINDS_UNDER_VARIANT = dict(eligible_cost=2_000_000, local_contribution=1_300_000)
NO_NEED_CAP = {"reading": "funding_need_cap", "alternative": "none", "award": 80_000_000,
               "binding": ("program_max",), "route": "standard"}


def test_other_readings_use_the_ruleset_given():
    a = app(**NEED_BINDS_UNDER_VARIANT)
    variant = load("cap-800k")
    assert evaluate(a).amount == 60_000_000 and evaluate(a, variant).amount == 70_000_000
    assert other_readings(a) == []
    assert other_readings(a, variant) == [NO_NEED_CAP]
    assert other_readings(a, variant, DEFAULT, evaluate(a, variant)) == [NO_NEED_CAP]
    assert evaluate(a, variant).other_readings() == [NO_NEED_CAP]
    assert evaluate(a, variant).to_dict()["other_readings"] == [
        {"reading": "funding_need_cap", "alternative": "none", "award": "800000.00", "binding": ["program_max"]}]


def test_award_carries_its_ruleset_and_edition():
    variant = load("cap-800k")
    a = evaluate(app(**NEED_BINDS_UNDER_VARIANT), variant)
    assert a.ruleset is variant and (a.ruleset_id, a.is_variant) == ("cap-800k", True)
    assert a.ruleset_edition == variant.edition and variant.edition.startswith("edition ")
    assert evaluate(app(**NEED_BINDS_UNDER_VARIANT)).ruleset_edition == load().edition


def test_other_readings_measure_against_the_award_under_the_readings_given():
    """Without `current`, the award compared with is the one under the readings given, not the default's."""
    a = app(**NEED_BINDS_UNDER_VARIANT)
    variant = load("cap-800k")
    none = parse(["funding_need_cap=none"])
    assert evaluate(a, variant, none).amount == 80_000_000
    assert other_readings(a, variant, none) == [
        {"reading": "funding_need_cap", "alternative": "applies", "award": 70_000_000,
         "binding": ("funding_need",), "route": "standard"}]


def test_award_other_readings_reuse_the_award_itself(monkeypatch):
    """An Award's other readings ask the amount under only the four switches, and work out in
    full only the switch that changes it: the award itself is not recomputed."""
    a = evaluate(app(**NEED_BINDS_UNDER_VARIANT), load("cap-800k"))
    amounts, full = [], []
    real_amount, real = core.law.award.award_amount, core.law.award.evaluate
    monkeypatch.setattr(core.law.award, "award_amount", lambda *args: amounts.append(args[2]) or real_amount(*args))
    monkeypatch.setattr(core.law.award, "evaluate", lambda *args: full.append(args[2]) or real(*args))
    assert a.other_readings() == [NO_NEED_CAP]
    assert amounts == [DEFAULT.switched(rid) for rid in READING]
    assert full == [DEFAULT.switched("funding_need_cap")]


# ---------------------------------------------------------------- the State share step at its edges

@pytest.mark.parametrize("fields,cost_share", [
    # A federal grant of one cent is a federal grant: the share is of the remainder.
    (dict(eligible_cost=1_000_000, federal_grant="0.01", local_contribution=500_000),
     "The State share may not exceed 50% of the $999,999.99 of the cost of eligible work remaining after the "
     "federal grant: $499,999.99 (State share limit, rounded down to the cent)."),
    # Nothing to share: a federal grant on a $0 cost leaves nothing "remaining after" it.
    (dict(eligible_cost=0, federal_grant=100),
     "The State share may not exceed 50% of the $0 cost of eligible work: $0 (State share limit, rounded down "
     "to the cent)."),
], ids=["one-cent-federal-grant", "zero-cost"])
def test_cost_share_step_at_the_edges_of_the_federal_grant(fields, cost_share):
    steps = [s for s in evaluate(app(**fields)).steps if s.provision == "cost_share"]
    assert [s.text for s in steps] == [cost_share]


WHOLE = ("The State share may not exceed 50% of the whole $1,000,000 cost of eligible work (under the reading "
         "“§F is the top-up for earlier grantees”, for additional eligible work “§F” lifts the limit on the "
         "remainder after the federal grant): $500,000 (State share limit, rounded down to the cent).")
PLAIN_ZERO = ("The State share may not exceed 50% of the $0 cost of eligible work: $0 (State share limit, "
              "rounded down to the cent).")


@pytest.mark.parametrize("fields,reading,cost_share", [
    (dict(eligible_cost=1_000_000, federal_grant=600_000, prior_program_funds=10_000), "prior_grant", WHOLE),
    # one cent of federal grant and one cent of prior funds are enough for §F
    (dict(eligible_cost=1_000_000, federal_grant="0.01", prior_program_funds="0.01"), "prior_grant", WHOLE),
    # federal law to the contrary: the whole cost, but not because of §F
    (dict(eligible_cost=1_000_000, federal_grant=600_000, prior_program_funds=10_000, federal_law_contrary=True),
     "prior_grant", "The State share may not exceed 50% of the whole $1,000,000 cost of eligible work (the "
                    "federal grant is not applied first): $500,000 (State share limit, rounded down to the cent)."),
    # no prior funds, or the default reading: §F does not apply, even where the share's base is the whole cost
    (dict(eligible_cost=0, federal_grant=100), "prior_grant", PLAIN_ZERO),
    (dict(eligible_cost=0, federal_grant=100, prior_program_funds=100), "board_exception", PLAIN_ZERO),
], ids=["prior-funds", "one-cent-each", "federal-law-contrary", "no-prior-funds", "default-reading"])
def test_cost_share_step_under_f_reference(fields, reading, cost_share):
    a = evaluate(app(**fields), readings=parse([f"f_reference={reading}"]))
    assert [s.text for s in a.steps if s.provision == "cost_share"] == [cost_share]


def test_federal_grant_of_one_cent_covering_a_cost_of_one_cent():
    c = evaluate(app(eligible_cost="0.01", federal_grant="0.01")).check("federal_exceeds_cost")
    assert (c.status, c.amount, c.message) == (
        "warning", 1, "The $0.01 federal grant alone covers the $0.01 cost of eligible work; no State grant is needed.")


def test_binding_text_of_no_cap():
    assert binding_text((), {}) == "none"
    assert binding_text(("program_max",), {"program_max": 60_000_000}) == "program maximum ($600,000)"


# ---------------------------------------------------------------- the Board exception's conditions

def test_property_value_condition_on_both_sides_of_the_grant():
    """exception_conditions measures the value against the grant it is given: equal passes, a cent more fails.
    (evaluate gives it the exception route's grant, which that route caps at the value, so through evaluate
    the condition always passes; the function's own contract is held here.)"""
    a = app(eligible_cost=1_000_000, local_contribution=100_000, bpw_exception={"local_property_value": 700_000})
    at = exception_conditions(a, load(), 70_000_000)[1]
    over = exception_conditions(a, load(), 70_000_001)[1]
    assert (at.id, at.status, at.amount) == ("bpw_property_value", "pass", 70_000_000)
    assert at.message == ("Property and improvements made available locally are worth $700,000, at least the "
                          "$700,000 grant of the exception route; on that route the grant may not exceed that value.")
    assert (over.id, over.status, over.amount) == ("bpw_property_value", "fail", 70_000_000)
    assert over.message == ("Property and improvements made available locally are worth $700,000, less than the "
                            "$700,000.01 grant of the exception route; on that route the grant may not exceed "
                            "that value.")


@pytest.mark.parametrize("types,words", [
    ([], "none"),
    (["renovation"], "renovation"),
    (["renovation", "conversion"], "renovation or conversion"),
    (["conversion", "renovation", "construction"], "conversion, renovation or planning, design and construction"),
])
def test_types_the_exception_covers_in_words(types, words):
    assert types_words(types) == words
    variant = load().with_changes("types", "Exception types changed", {"bpw_eligible_types": types})
    a = app(project_type="acquisition", eligible_cost=1_000_000, bpw_exception={"local_property_value": 700_000})
    assert evaluate(a, variant).check("bpw_project_type").message == (
        f"Acquisition is not one of the types the exception covers ({words}).")


# ---------------------------------------------------------------- money: what an error shows of the value

@pytest.mark.parametrize("raw,shown", [
    (10**5000, "a number of more than 4,300 digits"),
    (["a" * 76], repr(["a" * 76])),                                   # repr of 80 characters: whole
    (["a" * 77], repr(["a" * 77])[:60] + "… (81 characters)"),        # 81: cut after 60
    (["a" * 996], repr(["a" * 996])[:60] + "… (1,000 characters)"),
], ids=["5001-digits", "repr-80", "repr-81", "repr-1000"])
def test_error_shows_a_long_value_cut(raw, shown):
    problem = ("is over $1,000,000,000,000, the largest amount accepted" if isinstance(raw, int) else
               "is not an amount; enter dollars such as 1250000")
    assert error_of(to_cents, raw, "eligible_cost") == f"eligible_cost: {shown} {problem}"


@pytest.mark.parametrize("digits,shown", [
    (59, "-" + "1" * 59),                            # str of 60 characters: shown as written
    (60, "Decimal('-" + "1" * 60 + "')"),            # 61: its repr
])
def test_error_shows_a_decimal_as_written_up_to_sixty_characters(digits, shown):
    assert error_of(to_cents, Decimal("-" + "1" * digits), "local_contribution") == (
        f"local_contribution: {shown} is negative; amounts must be $0 or more")


# ---------------------------------------------------------------- money: texts at the edges of the reader

@pytest.mark.parametrize("raw,message", [
    # The pattern admits an exponent with no digits before it; Decimal does not: its own message.
    ("e5", "'e5' is not a number; enter dollars such as 1250000"),
    (".e5", "'.e5' is not a number; enter dollars such as 1250000"),
    ("+e5", "'+e5' is not a number; enter dollars such as 1250000"),
    # Longer than 40 characters is not an amount; the length is said with a thousands comma.
    ("0" * 41, "'" + "0" * 41 + "' is 41 characters long; not an amount"),
    ("0" * 1000, "'" + "0" * 60 + "…' is 1,000 characters long; not an amount"),
], ids=["e5", ".e5", "+e5", "41-characters", "1000-characters"])
def test_money_text_rejected_whole(raw, message):
    with pytest.raises(ValidationError) as err:
        to_cents(raw, "eligible_cost")
    assert str(err.value) == f"eligible_cost: {message}"
    assert (err.value.field, err.value.value) == ("eligible_cost", raw)


@pytest.mark.parametrize("raw,cents", [
    ("0" * 40, 0),                      # 40 characters: still read
    ("0" * 37 + ".01", 1),
    ("1 000 000", 100_000_000),         # spaces inside are dropped, like the ones around
    ("$ 1 000.50", 100_050),
])
def test_money_text_accepted_at_the_edges(raw, cents):
    assert to_cents(raw, "eligible_cost") == cents


@pytest.mark.parametrize("raw,message", [
    # 39 characters, 38 significant digits in cents: the product must not be rounded to 100 cents.
    ("1." + "0" * 36 + "1", "'1." + "0" * 36 + "1' has fractions of a cent; use at most two decimal places"),
    ("1e-99999999", "'1e-99999999' has fractions of a cent; use at most two decimal places"),
    (Decimal("0.001"), "0.001 has fractions of a cent; use at most two decimal places"),
    (Decimal("0.0001"), "0.0001 has fractions of a cent; use at most two decimal places"),
    (Decimal("NaN"), "NaN is not a finite amount; enter dollars such as 1250000"),
    (Decimal("-Infinity"), "-Infinity is not a finite amount; enter dollars such as 1250000"),
], ids=["39-characters", "1e-99999999", "0.001", "0.0001", "NaN", "-Infinity"])
def test_money_rejected_whole_with_its_value(raw, message):
    with pytest.raises(ValidationError) as err:
        to_cents(raw, "local_contribution")
    assert str(err.value) == f"local_contribution: {message}"
    assert err.value.value is raw


# ---------------------------------------------------------------- application: fields at their edges

def test_missing_required_field_keeps_the_blank_it_was_given():
    with pytest.raises(ValidationError) as err:
        parse_field("eligible_cost", "   ")
    assert str(err.value) == "eligible_cost: is missing; it is required"
    assert (err.value.field, err.value.value, err.value.problem) == ("eligible_cost", "   ", "is missing; it is required")


def test_project_type_error_names_the_field_by_default():
    with pytest.raises(ValidationError) as err:
        parse_project_type("boat")
    assert str(err.value) == ("project_type: 'boat' is not a project type; use one of conversion, acquisition, "
                              "renovation, construction, equipment, master_plan")
    assert err.value.field == "project_type"
    assert parse_project_type(" Master Plan ") == "master_plan"


@pytest.mark.parametrize("raw,value", [
    (Decimal("2.5"), 2.5), (Decimal("1000000000"), 1e9), (7, 7.0), (0.1, 0.1), ("1,000", 1000.0),
])
def test_numbers_accepted_in_each_form(raw, value):
    assert parse_field("senior_density", raw) == value
    assert parse_number(raw, "senior_density") == value


# ---------------------------------------------------------------- readings: messages whole

def test_unknown_reading_and_alternative_messages_whole():
    with pytest.raises(ReadingError) as err:
        DEFAULT.replace(colour="red")
    assert str(err.value) == ("unknown reading 'colour'; known: f_reference, local_match_base, "
                              "local_match_effect, funding_need_cap, prior_grant_limit")
    with pytest.raises(ReadingError) as err:
        parse(["f_reference=prior_grant=x"])
    assert str(err.value) == ("reading f_reference: unknown alternative 'prior_grant=x'; use one of "
                              "board_exception, prior_grant")
