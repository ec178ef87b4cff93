"""One test per defect found by the independent review of the core (issue 12, item 5).
Each of these failed before its fix."""
import json
import subprocess
import sys

import numpy as np
import pandas as pd
from hypothesis import given, settings, strategies as st

from core.law import readings as R
from tests.strategies import applications

from core.law.analysis import what_would_change
from core.law.application import Application
from core.law.award import evaluate
from core.law.money import MAX_CENTS
from core.law.portfolio import insight, read_sample, run
from core.law.rulesets import load


def app(**kw):
    kw.setdefault("project_type", "conversion")
    return Application.from_dict(kw)


# --- "What would change it" ---------------------------------------------------------

def test_federal_grant_above_cost_is_not_said_to_reach_zero():
    lines = what_would_change(app(eligible_cost=500_000, federal_grant=800_000))
    assert not any("reaches $0" in line for line in lines)
    assert lines[0] == ("Raising the total cost of eligible work from $500,000 does not change the $0 award "
                        "until $800,000, where the award starts to rise from $0.")


def test_prior_funds_at_the_ceiling_are_not_said_to_reach_zero():
    for prior in (300_000, 350_000):
        lines = what_would_change(app(eligible_cost=900_000, prior_program_funds=prior))
        assert not any("reaches $0" in line or "takes over" in line for line in lines), lines
        assert "Raising the federal grant from $0 does not change the $0 award." in lines


def test_zero_award_is_not_said_to_be_cut_by_prior_funds():
    lines = what_would_change(app(eligible_cost=500_000, federal_grant=800_000))
    assert not any("would start to cut" in line for line in lines)
    assert "Prior program funds would not raise the $0 award." in lines


def test_no_change_point_beyond_the_input_limit():
    for a in (app(eligible_cost=10**12 - 1), app(eligible_cost=900_000_000_000, local_contribution=899_999_000_000),
              app(eligible_cost=10**12, federal_grant=10**12 - 100)):
        for line in what_would_change(a):
            for word in line.replace(",", "").split():
                if word.startswith("$"):
                    value = float(word.strip("$.,()"))
                    assert value * 100 <= MAX_CENTS, line


# --- JSON numbers with a fraction of a cent -----------------------------------------

def test_json_number_with_a_fraction_of_a_cent_is_rejected_like_the_string():
    for value in ("0.005", "1000000.005"):
        for raw in (value, f'"{value}"'):
            doc = '{"project_type": "conversion", "eligible_cost": %s}' % raw
            p = subprocess.run([sys.executable, "-m", "core", "evaluate", "-"], input=doc, capture_output=True,
                               text=True)
            assert p.returncode == 2, (raw, p.stdout)
            assert p.stderr.strip() == f"error: eligible_cost: {value if raw == value else repr(value)} has " \
                                       f"fractions of a cent; use at most two decimal places"


# --- Portfolio ----------------------------------------------------------------------

def test_rejected_rows_do_not_move_the_priority_scores():
    df = read_sample()
    clean = run(df, 400_000_000)
    bad = pd.concat([df, pd.DataFrame([{**df.iloc[0].to_dict(), "name": "Rejected row", "eligible_cost": "oops",
                                        "senior_density": "999999"}])], ignore_index=True)
    with_bad = run(bad, 400_000_000)
    assert not with_bad.good[-1]
    assert list(with_bad.table["priority_score"][:-1]) == list(clean.table["priority_score"])
    assert list(with_bad.table["rank"][:-1]) == list(clean.table["rank"])
    np.testing.assert_array_equal(with_bad.allocated[:-1], clean.allocated)


def test_master_plans_are_not_said_to_be_held_by_the_600k_maximum():
    df = pd.DataFrame([{"name": "Plan A", "project_type": "master_plan", "eligible_cost": "40000",
                        "local_contribution": "20000"},
                       {"name": "Centre B", "project_type": "conversion", "eligible_cost": "3000000",
                        "local_contribution": "1500000"}])
    lines = insight(run(df, 100_000_000), load())
    assert "2 of 2 are held by the program maximum: 1 at $600,000, 1 master plan at $15,000." in lines
    lines = insight(run(df.iloc[:1], 100_000_000), load())
    assert "1 of 1 are held by the $15,000 program maximum for a master plan." in lines


def test_no_requested_amount_named_is_not_requested_zero():
    df = pd.DataFrame([{"name": "A", "project_type": "conversion", "eligible_cost": "1000000"}])
    lines = insight(run(df, 100_000_000), load())
    assert lines[0] == "1 applications; no requested amount was named."
    assert not any("requested $0" in line for line in lines)


# --- Board exception ------------------------------------------------------------------

def test_property_value_condition_is_not_failed_on_the_standard_route():
    a = evaluate(app(project_type="renovation", eligible_cost=1_000_000,
                     bpw_exception=dict(local_property_value=100_000)))
    assert a.route == "standard"
    assert a.check("bpw_property_value").status == "pass"   # against the exception route's $100,000
    a = evaluate(app(project_type="acquisition", eligible_cost=1_000_000,
                     bpw_exception=dict(local_property_value=100_000)))
    assert a.check("bpw_property_value").status == "not_applicable"


def test_board_exception_is_the_boards_discretion_never_applies():
    a = evaluate(app(project_type="renovation", eligible_cost=1_000_000, local_contribution=100_000,
                     bpw_exception=dict(local_property_value=700_000)))
    assert a.route == "bpw_exception"
    text = " ".join(s.text for s in a.steps)
    assert "may be available at the Board's discretion" in text
    assert "exception applies" not in text


# --- Citations ------------------------------------------------------------------------

def test_with_a_federal_grant_the_remainder_sentence_is_cited():
    from core.law.provisions import citation
    a = evaluate(app(eligible_cost=1_000_000, federal_grant=400_000, local_contribution=300_000))
    cited = citation("cost_share", a)
    assert cited.paragraph == "E" and any("remaining after the federal grant has been applied" in s
                                          for s in cited.sentences)
    plain_case = citation("cost_share", evaluate(app(eligible_cost=1_000_000, local_contribution=500_000)))
    assert plain_case.paragraph == "C" and not any("remaining after" in s for s in plain_case.sentences)


def test_funding_need_is_not_quoted_as_a_sentence_of_the_regulation():
    from core.law.provisions import PROVISION
    assert PROVISION["funding_need"].text == ""
    assert PROVISION["requested_amount"].text == ""


# --- Wording ----------------------------------------------------------------------------

def test_wording_of_types_and_binding():
    from core.law.award import binding_text
    from core.law.provisions import PROVISION
    assert "conversion, renovation or planning, design and construction" in PROVISION["bpw_exception"].text
    assert binding_text(("cost_share", "funding_need"), {"cost_share": 50_000_000, "funding_need": 50_000_000}) \
        == "State share limit and funding need (both $500,000)"
    a = evaluate(app(project_type="master_plan", eligible_cost=40_000, local_contribution=20_000))
    assert a.steps[1].text == "A grant for a master plan may not exceed $15,000 (program maximum)."


def test_cli_evaluate_json_states_readings(tmp_path):
    doc = json.dumps({"project_type": "conversion", "eligible_cost": 1000000, "local_contribution": 500000})
    p = subprocess.run([sys.executable, "-m", "core", "evaluate", "-"], input=doc, capture_output=True, text=True)
    out = json.loads(p.stdout)
    assert out["readings"]["f_reference"] == "board_exception"
    assert out["other_readings"] == []   # no single switch changes this award


# --- Compare --------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(applications(), applications(), st.sampled_from(R.every()), st.sampled_from(R.every()))
def test_compare_rows_of_different_awards_never_show_identical_inputs(a1, a2, r1, r2):
    from core.report.compare import COLUMNS, table
    x, y = evaluate(a1, readings=r1), evaluate(a2, readings=r2)
    df = table([("one", x), ("two", y)])
    inputs = [c for c in COLUMNS if c not in ("State grant award", "Binding", "Route", "Local match shortfall",
                                              "Funding gap")]
    if x.amount != y.amount:
        assert not df.iloc[0][inputs].equals(df.iloc[1][inputs])


def test_compare_shows_federal_law_and_the_exception_inputs():
    from core.report.compare import table
    one = evaluate(app(eligible_cost=1_000_000, federal_grant=400_000, local_contribution=100_000))
    two = evaluate(app(eligible_cost=1_000_000, federal_grant=400_000, local_contribution=100_000,
                       federal_law_contrary=True))
    assert one.amount != two.amount
    df = table([("one", one), ("two", two)])
    assert list(df["Federal law requires otherwise"]) == ["no", "yes"]
    three = evaluate(app(project_type="renovation", eligible_cost=1_000_000, local_contribution=100_000,
                         bpw_exception=dict(local_property_value=700_000, state_bonded_debt=True)))
    row = table([("three", three)]).iloc[0]
    assert (row["Value of property made available locally"], row["The State carries bonded debt on it"]) == \
        ("$700,000", "yes")
