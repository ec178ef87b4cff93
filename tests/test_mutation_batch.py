"""Edges of the batch engine (core/law/batch.py) and of the caps it runs (core/law/caps.py) that
mutation testing found unguarded (issue 18): the cells pandas leaves blank, the slow money
path at zero, each condition of the Board exception, the ruleset and readings a table is
evaluated under, the parsed table's shape (index, types, the "no value" codes), and the
§F reading of the cost share on arrays.

Every award is also checked against the one-application engine (`core.law.award.evaluate`),
so a row's expected figure is the law's, not just what the batch happened to print.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.batch import BatchError, cents_text, evaluate_parsed, evaluate_table, frame_of, parse_frame
from core.law.caps import TYPE_CODES
from core.law.money import plain
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import load

RESULT = ["award", "binding", "route", "local_shortfall", "funding_gap", "error"]


def rows_of(out: pd.DataFrame) -> list[tuple]:
    return [tuple(r) for r in out[RESULT].itertuples(index=False)]


def scalar(record: dict, rs=None, readings: Readings = DEFAULT) -> tuple:
    """The one-application engine's answer for the same record, in the batch's words."""
    a = evaluate(Application.from_dict(record), rs, readings)
    return (plain(a.amount), ";".join(a.binding), a.route, plain(a.local_shortfall), plain(a.funding_gap), "")


# ---------------------------------------------------------------- the table as a whole

def test_missing_column_names_it_and_every_required_column():
    for df, missing in [(pd.DataFrame({"eligible_cost": ["1"]}), "project_type"),
                        (pd.DataFrame({"project_type": ["renovation"]}), "eligible_cost")]:
        with pytest.raises(BatchError) as err:
            parse_frame(df)
        assert str(err.value) == f"missing column {missing!r}; required columns: project_type, eligible_cost"


# ---------------------------------------------------------------- blank cells as pandas writes them

def test_none_and_nan_cells_mean_blank_in_every_kind_of_column():
    """A frame built in Python (not read from CSV) marks a blank cell None or NaN: a yes/no or a
    consideration then takes its default, a missing project type is named as missing, never 'nan'."""
    df = pd.DataFrame({
        "project_type": ["renovation", np.nan, None, "master plan", "renovation"],
        "eligible_cost": ["1000000", "1000000", "1000000", "400000", "1000000"],
        "federal_law_contrary": [np.nan, None, np.nan, None, np.nan],
        "bpw_exception_requested": [None, np.nan, None, np.nan, None],
        "requested_amount": [np.nan, None, None, None, None],
        "previously_funded": [np.nan, True, None, False, np.nan],
        "senior_density": [np.nan, None, 1.5, None, None],
    })
    values, errors = parse_frame(df)
    assert list(errors) == ["", "project_type: is missing; it is required",
                            "project_type: is missing; it is required", "", ""]
    assert list(values["federal_law_contrary"]) == [False] * 5
    assert list(values["bpw_exception_requested"]) == [False] * 5
    assert list(values["previously_funded"]) == [None, True, None, False, None]
    assert list(values["requested_amount_given"]) == [False] * 5
    out = evaluate_table(df)
    assert rows_of(out)[0] == ("500000.00", "cost_share", "standard", "500000.00", "500000.00", "")
    assert rows_of(out)[0] == scalar({"project_type": "renovation", "eligible_cost": "1000000"})
    assert list(out["award"]) == ["500000.00", "", "", "15000.00", "500000.00"]


def test_a_blank_consideration_yes_no_stays_unknown_and_a_given_one_is_kept():
    values, errors = parse_frame(pd.DataFrame({"project_type": ["renovation"] * 4, "eligible_cost": ["1"] * 4,
                                               "previously_funded": ["", "yes", "no", " "]}))
    assert list(values["previously_funded"]) == [None, True, False, None] and list(errors) == [""] * 4


# ---------------------------------------------------------------- the slow money path

@pytest.mark.parametrize("zero", ["$0", "0,000", "-0", "$ 0.00", "0e3"])
def test_zero_written_with_signs_or_separators_is_zero_cents(zero):
    """Texts that are not plain digits go through the scalar validator; its 0 must stay 0 (one
    cent of federal grant would take half a cent off the State share)."""
    df = pd.DataFrame({"project_type": ["renovation"], "eligible_cost": ["$1,000,000"], "federal_grant": [zero],
                       "prior_program_funds": [zero], "local_contribution": ["500,000"]})
    values, errors = parse_frame(df)
    assert (values["federal_grant"][0], values["prior_program_funds"][0], errors[0]) == (0, 0, "")
    out = evaluate_table(df)
    assert rows_of(out) == [("500000.00", "cost_share;funding_need", "standard", "0.00", "0.00", "")]
    assert rows_of(out)[0] == scalar({"project_type": "renovation", "eligible_cost": 1_000_000,
                                      "local_contribution": 500_000})


# ---------------------------------------------------------------- each condition of the Board exception

# eligible cost $1,000,000, local $100,000, property worth $700,000, the exception requested:
# standard route: 50% = $500,000 (cost share); exception route: up to the $600,000 program maximum.
EXCEPTION_ROWS = [
    # (project type, state funds in property, state bonded debt) -> award, binding, route, shortfall
    (("renovation", "no", "no"), ("600000.00", "program_max", "bpw_exception", "0.00")),
    (("renovation", "yes", "no"), ("500000.00", "cost_share", "standard", "400000.00")),
    (("renovation", "no", "yes"), ("500000.00", "cost_share", "standard", "400000.00")),
    (("renovation", "yes", "yes"), ("500000.00", "cost_share", "standard", "400000.00")),
    (("conversion", "no", "no"), ("600000.00", "program_max", "bpw_exception", "0.00")),
    (("construction", "no", "no"), ("600000.00", "program_max", "bpw_exception", "0.00")),
    (("acquisition", "no", "no"), ("500000.00", "cost_share", "standard", "400000.00")),
    (("equipment", "no", "no"), ("500000.00", "cost_share", "standard", "400000.00")),
]


def test_each_condition_of_the_exception_closes_it_in_batch():
    records = [{"project_type": t, "eligible_cost": "1000000", "local_contribution": "100000",
                "bpw_exception_requested": "yes", "local_property_value": "700000",
                "state_funds_in_property": funds, "state_bonded_debt": debt}
               for (t, funds, debt), _ in EXCEPTION_ROWS]
    out = evaluate_table(pd.DataFrame(records))
    funding_gap = {"600000.00": "300000.00", "500000.00": "400000.00"}
    assert rows_of(out) == [(award, binding, route, shortfall, funding_gap[award], "")
                            for _, (award, binding, route, shortfall) in EXCEPTION_ROWS]
    assert rows_of(out) == [scalar(r) for r in records]


# ---------------------------------------------------------------- the ruleset and readings are used

def test_a_table_is_evaluated_under_the_ruleset_and_readings_given():
    df = pd.DataFrame({"project_type": ["renovation", "renovation"], "eligible_cost": ["2000000", "1000000"],
                       "local_contribution": ["1000000", "0"]})
    records = df.to_dict("records")
    cases = [
        (None, DEFAULT, [("600000.00", "program_max", "standard", "0.00", "400000.00", ""),
                         ("500000.00", "cost_share", "standard", "500000.00", "500000.00", "")]),
        (load("cap-800k"), DEFAULT, [("800000.00", "program_max", "standard", "0.00", "200000.00", ""),
                                     ("500000.00", "cost_share", "standard", "500000.00", "500000.00", "")]),
        # A short local match is a condition: no award on the standard route, held by the local match.
        (None, Readings(local_match_effect="condition"),
         [("600000.00", "program_max", "standard", "0.00", "400000.00", ""),
          ("0.00", "local_match", "standard", "500000.00", "1000000.00", "")]),
    ]
    for rs, readings, expected in cases:
        assert rows_of(evaluate_table(df, rs, readings)) == expected
        assert [scalar(r, rs, readings) for r in records] == expected


# ---------------------------------------------------------------- §F read as the top-up (arrays)

def test_whole_cost_share_under_f_reference_prior_grant_in_batch():
    """Reading f_reference=prior_grant: the State share is 50% of the whole cost when federal law
    is to the contrary OR the grantee has prior program funds; of the remainder otherwise."""
    rd = Readings(f_reference="prior_grant")
    records = [
        # federal law contrary, no prior funds: 50% of $1,000,000, not of the $600,000 remainder
        {"project_type": "renovation", "eligible_cost": "1000000", "federal_grant": "400000",
         "federal_law_contrary": "yes"},
        # prior funds of one cent, federal law not contrary: 50% of $500,000 ($250,000) is above the
        # $200,000 still lacking, so the funding need holds it (the remainder's 50% would be $100,000)
        {"project_type": "renovation", "eligible_cost": "500000", "federal_grant": "300000",
         "prior_program_funds": "0.01"},
        # neither: 50% of the remainder
        {"project_type": "renovation", "eligible_cost": "500000", "federal_grant": "300000"},
        # both
        {"project_type": "renovation", "eligible_cost": "500000", "federal_grant": "300000",
         "prior_program_funds": "0.01", "federal_law_contrary": "yes"},
    ]
    # (With federal law contrary the local match and the funding need are of the whole cost too.)
    expected = [("500000.00", "cost_share", "standard", "500000.00", "100000.00", ""),
                ("200000.00", "funding_need", "standard", "100000.00", "0.00", ""),
                ("100000.00", "cost_share", "standard", "100000.00", "100000.00", ""),
                ("250000.00", "cost_share", "standard", "250000.00", "0.00", "")]
    assert rows_of(evaluate_table(pd.DataFrame(records), readings=rd)) == expected
    assert [scalar(r, None, rd) for r in records] == expected
    # Under the default reading prior funds do not lift the remainder limit; federal law still does.
    assert list(evaluate_table(pd.DataFrame(records))["award"]) == ["500000.00", "100000.00", "100000.00",
                                                                     "250000.00"]


# ---------------------------------------------------------------- the parsed table's shape

MIXED = pd.DataFrame({
    "project_type": ["renovation", "castle", "", "master plan"],
    "eligible_cost": ["1000000", "1000000", "1000000", "40000"],
    "federal_law_contrary": ["yes", "maybe", "", "no"],
    "bpw_exception_requested": ["no", "2", "", "1"],
    "state_funds_in_property": ["", "perhaps", "yes", "0"],
    "previously_funded": ["yes", "no", "", "no"],
}, index=[10, 20, 30, 40])


def test_parsed_values_keep_each_row_label_and_a_fixed_type_per_column():
    """Whatever a file holds, the parsed table has the same columns and types (cents int64, the
    applicant's facts bool, project types as int64 codes, a consideration's yes/no as objects
    that may hold None), and rows keep their labels through parse and evaluation."""
    values, errors = parse_frame(MIXED)
    assert list(values.index) == [10, 20, 30, 40]
    assert {c: str(t) for c, t in values.dtypes.items()} == {
        "type_code": "int64", "eligible_cost": "int64", "eligible_cost_given": "bool", "federal_grant": "int64",
        "local_contribution": "int64", "prior_program_funds": "int64", "requested_amount": "int64",
        "requested_amount_given": "bool", "federal_law_contrary": "bool", "bpw_exception_requested": "bool",
        "local_property_value": "int64", "state_funds_in_property": "bool", "state_bonded_debt": "bool",
        "senior_density": "float64", "distance_to_center_miles": "float64", "previously_funded": "object"}
    assert errors.dtype == object
    # The same types when every consideration's yes/no is given (pandas alone would make it bool).
    given, _ = parse_frame(MIXED.assign(previously_funded=["yes", "no", "no", "yes"]))
    assert given.dtypes.equals(values.dtypes) and list(given["previously_funded"]) == [True, False, False, True]
    result = evaluate_parsed(values)
    assert list(result.index) == [10, 20, 30, 40]
    assert list(result["award"]) == [50_000_000, 50_000_000, 50_000_000, 1_500_000]
    assert result["award"].dtype == np.int64


def test_a_cell_that_fails_never_reads_as_yes_or_as_a_project_type():
    """A bad or missing cell is reported; its parsed value is the field's 'no' (False, type code -1),
    so a caller that looks at the values of a rejected row never sees a request or a type."""
    values, errors = parse_frame(MIXED)
    assert list(errors) == [
        "",
        "project_type: 'castle' is not a project type; use one of conversion, acquisition, renovation, "
        "construction, equipment, master_plan; federal_law_contrary: 'maybe' is not yes or no; use true/false, "
        "yes/no or 1/0; bpw_exception_requested: '2' is not yes or no; use true/false, yes/no or 1/0; "
        "state_funds_in_property: 'perhaps' is not yes or no; use true/false, yes/no or 1/0",
        "project_type: is missing; it is required",
        "",
    ]
    assert list(values["type_code"]) == [TYPE_CODES["renovation"], -1, -1, TYPE_CODES["master_plan"]]
    assert list(values["federal_law_contrary"]) == [True, False, False, False]
    assert list(values["bpw_exception_requested"]) == [False, False, False, True]
    assert list(values["state_funds_in_property"]) == [False, False, True, False]
    assert list(values["previously_funded"]) == [True, False, None, False]


def test_every_row_good_still_gives_messages_a_caller_can_extend():
    """The messages are Python strings (an object array) even when every row is good, so a caller
    may write a longer message into a row (a one-character text array would cut it)."""
    values, errors = parse_frame(pd.DataFrame({"project_type": ["renovation"], "eligible_cost": ["1"]}))
    assert errors.dtype == object and list(errors) == [""]
    errors[0] = "name: too long"
    assert errors[0] == "name: too long"


def test_whole_cents_of_any_numeric_type_evaluate_to_int64_cents():
    """evaluate_parsed takes the parsed values in whatever numeric type a caller built them (floats of
    whole cents, Python ints as objects) and answers in exact int64 cents, as for int64 input."""
    apps = [Application.from_dict(r) for r in [
        {"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000},
        {"project_type": "renovation", "eligible_cost": 3_000_000, "federal_grant": 1_000_000,
         "prior_program_funds": 100_000, "requested_amount": 150_000.5},
        {"project_type": "construction", "eligible_cost": 1_000_000, "local_contribution": 100_000,
         "bpw_exception_requested": True, "local_property_value": 550_000.25},
        {"project_type": "master_plan", "eligible_cost": 40_001, "local_contribution": 0.01},
    ]]
    exact = evaluate_parsed(frame_of(apps))
    assert list(exact["award"]) == [50_000_000, 15_000_050, 55_000_025, 1_500_000]
    assert [evaluate(a).amount for a in apps] == list(exact["award"])
    money = ["eligible_cost", "federal_grant", "local_contribution", "prior_program_funds", "requested_amount",
             "local_property_value"]
    for kind in ("float64", object):
        for column in money:
            frame = frame_of(apps)
            frame[column] = frame[column].astype(kind)
            out = evaluate_parsed(frame)
            for c in ("award", "local_shortfall", "funding_gap"):
                assert out[c].dtype == np.int64, (kind, column, c)
                assert list(out[c]) == list(exact[c]), (kind, column, c)
            assert list(out["binding"]) == list(exact["binding"])


@pytest.mark.parametrize("cents,text", [
    ([0, 1, 99, 100, 123456, 10**14], ["0.00", "0.01", "0.99", "1.00", "1234.56", "1000000000000.00"]),
    (np.array([5.0, 150.0, 1234567.0]), ["0.05", "1.50", "12345.67"]),   # whole cents held as floats
])
def test_cents_text_is_exact_dollars_and_cents(cents, text):
    assert list(cents_text(cents)) == text
