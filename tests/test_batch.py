import io

import pandas as pd
import pytest

from core.application import Application
from core.award import evaluate
from core.batch import BatchError, evaluate_table, read_csv
from core.money import ValidationError, plain

CSV = """name,project_type,eligible_cost,federal_grant,local_contribution,prior_program_funds,requested_amount,federal_law_contrary,bpw_exception_requested,local_property_value,state_funds_in_property,state_bonded_debt
ex1,renovation,1000000,,500000,,,,,,,
ex2,renovation,"$3,000,000",0,1500000,0,,no,,,,
ex3,renovation,1000000,400000,300000,,,,,,,
bad,castle,-5,abc,,,,,,,,
ex7,renovation,1000000,,100000,,,,yes,700000,false,0
ex5,Master plan,40000,,20000,,,,,,,
odd,renovation,100000.01,,,,,TRUE,,,,
ex6,renovation,900000,,0,250000,,,,,,
req,conversion,1000000,,500000,,123456.78,,,,,
empty,,,,,,,,,,,
"""


@pytest.fixture
def table():
    return evaluate_table(read_csv(io.StringIO(CSV)))


def test_rows_match_scalar_and_keep_their_place(table):
    assert list(table["name"]) == ["ex1", "ex2", "ex3", "bad", "ex7", "ex5", "odd", "ex6", "req", "empty"]
    assert list(table["award"]) == ["500000.00", "600000.00", "300000.00", "", "600000.00", "15000.00",
                                    "50000.00", "50000.00", "123456.78", ""]
    assert list(table["binding"]) == ["cost_share;funding_need", "program_max", "cost_share;funding_need", "",
                                      "program_max", "program_max", "cost_share", "prior_grant_room",
                                      "requested_amount", ""]
    assert list(table["route"])[4] == "bpw_exception"
    assert table["funding_gap"][1] == "900000.00" and table["local_shortfall"][6] == "50000.01"


def test_bad_rows_carry_the_scalar_message(table):
    row = read_csv(io.StringIO(CSV)).iloc[3].to_dict()
    with pytest.raises(ValidationError) as err:
        Application.from_dict(row, unknown="ignore")
    assert table["error"][3] == str(err.value)
    assert table["error"][3].startswith("project_type: 'castle' is not a project type")
    assert "eligible_cost: '-5' is negative" in table["error"][3] and "federal_grant: 'abc'" in table["error"][3]
    assert table["error"][9] == "project_type: is missing; it is required; eligible_cost: is missing; it is required"
    assert (table["error"][[0, 1, 2, 4, 5, 6, 7, 8]] == "").all()


def test_every_good_row_equals_scalar(table):
    src = read_csv(io.StringIO(CSV))
    for i in range(len(src)):
        if table["error"][i]:
            continue
        a = evaluate(Application.from_dict(src.iloc[i].to_dict(), unknown="ignore"))
        assert table["award"][i] == plain(a.amount)
        assert table["binding"][i] == ";".join(a.binding)
        assert table["route"][i] == a.route


def test_missing_required_column():
    with pytest.raises(BatchError, match="missing column 'eligible_cost'"):
        evaluate_table(pd.DataFrame({"project_type": ["renovation"]}))


def test_only_required_columns_and_extra_columns_pass_through():
    out = evaluate_table(pd.DataFrame({"project_type": ["renovation"], "eligible_cost": ["1000000"], "note": ["=x"]}))
    assert out["award"][0] == "500000.00" and out["note"][0] == "=x"


def test_large_and_slow_path_values():
    out = evaluate_table(pd.DataFrame({"project_type": ["renovation"] * 3,
                                       "eligible_cost": ["1000000000000.00", "9999999999999", " 1,000,000.50 "]}))
    assert out["award"][0] == "600000.00"
    assert out["error"][1].startswith("eligible_cost: '9999999999999' is over")
    assert out["award"][2] == "500000.25"


def test_pandas_na_in_a_yes_no_or_type_column_is_a_blank_cell_not_a_crash():
    """A DataFrame built in code (not read from CSV) may hold pd.NA, whose `!=` cannot be read
    as a bool: it is a blank cell, and its row's error never hides the good rows."""
    df = pd.DataFrame({"project_type": ["renovation", pd.NA, "renovation"],
                       "eligible_cost": ["1000000", "500000", "800000"],
                       "local_contribution": ["500000", "0", "400000"],
                       "federal_law_contrary": [pd.NA, "no", True]})
    out = evaluate_table(df)
    assert out["award"].tolist() == ["500000.00", "", "400000.00"]
    assert out["error"].tolist() == ["", "project_type: is missing; it is required", ""]


def test_a_cell_holding_several_values_is_refused_not_taken_as_blank():
    """A DataFrame cell may hold a tuple (several values): it is not a blank cell, and its
    field's parser names what is wrong."""
    df = pd.DataFrame({"project_type": ["renovation", "renovation"], "eligible_cost": ["1000000", "800000"],
                       "local_contribution": ["500000", "400000"], "federal_law_contrary": [("yes", "no"), "no"]})
    out = evaluate_table(df)
    assert out["award"].tolist() == ["", "400000.00"]
    assert out["error"].tolist() == [
        "federal_law_contrary: ('yes', 'no') is not yes or no; use true/false, yes/no or 1/0", ""]


# -- issue 30: two survivors of the mutants ------------------------------------------------------

def test_csv_amounts_are_read_to_the_nearest_cent():
    """Amounts as text, as a CSV gives them: 19.99 is 1999 cents (float64 holds 1998.9999...;
    flooring it read a cent low). The batch comparisons fed cents, never text."""
    texts = ["19.99", "0.29", "1.15", "4.35", "1000000.07", "999999999999.99", "0.01", "8.2"]
    df = pd.DataFrame({"project_type": ["renovation"] * len(texts), "eligible_cost": texts,
                       "local_contribution": texts, "requested_amount": texts})
    from core.batch import parse_frame
    from core.money import to_cents
    values, errors = parse_frame(df)
    assert list(errors) == [""] * len(texts)
    assert values["eligible_cost"].tolist() == [to_cents(t, "x") for t in texts]
    assert values["eligible_cost"].tolist()[:5] == [1999, 29, 115, 435, 100_000_007]
    out = evaluate_table(df)
    for text, award in zip(texts, out["award"]):
        app = Application.from_dict({"project_type": "renovation", "eligible_cost": text,
                                     "local_contribution": text, "requested_amount": text})
        assert award == plain(evaluate(app).amount)


def test_binding_caps_agree_with_the_calculator_under_every_reading():
    """On the Board's exception route only that route's caps bind: under local_match_effect=condition
    the standard route's State share can equal the exception's award, and was reported as binding
    too (batch and calculator disagreed; no test compared them under every reading)."""
    from core.batch import evaluate_parsed, frame_of
    from core.readings import every
    apps = [Application.from_dict(a) for a in (
        {"project_type": "renovation", "eligible_cost": 1_000_000,
         "bpw_exception": {"local_property_value": 500_000}},                         # exception 500k = cost share
        {"project_type": "renovation", "eligible_cost": 1_200_000, "local_contribution": 100_000,
         "bpw_exception": {"local_property_value": 600_000}},
        {"project_type": "conversion", "eligible_cost": 2_000_000, "federal_grant": 800_000,
         "bpw_exception": {"local_property_value": 600_000}},
        {"project_type": "renovation", "eligible_cost": 1_000_000, "prior_program_funds": 250_000,
         "local_contribution": 200_000, "bpw_exception": {"local_property_value": 400_000}},
        {"project_type": "construction", "eligible_cost": 900_000, "local_contribution": 450_000,
         "requested_amount": 450_000, "bpw_exception": {"local_property_value": 450_000}},
        {"project_type": "acquisition", "eligible_cost": 1_000_000},
        {"project_type": "master_plan", "eligible_cost": 40_000, "local_contribution": 20_000},
    )]
    frame = frame_of(apps)
    from core.fields import CAP_IDS
    for rd in every():
        batch = evaluate_parsed(frame, readings=rd)
        for i, app in enumerate(apps):
            one = evaluate(app, readings=rd)
            assert batch["binding"][i] == ";".join(c for c in CAP_IDS if c in one.binding), (rd, i)
            assert (batch["route"][i], int(batch["award"][i])) == (one.route, one.amount), (rd, i)
    condition = next(rd for rd in every() if rd.local_match_effect == "condition" and rd.replace(
        local_match_effect="check").is_default)
    first = evaluate_parsed(frame, readings=condition)
    assert (first["route"][0], first["binding"][0]) == ("bpw_exception", "property_value")


def test_arabic_indic_and_other_digits_are_not_amounts():
    """Finding 11: Python's float and Decimal read '١٢٣' as 123; an amount is written in 0-9."""
    df = pd.DataFrame({"project_type": ["renovation"] * 3, "eligible_cost": ["١٠٠٠٠٠٠", "１０００", "1000000"]})
    out = evaluate_table(df)
    assert out["error"][0].startswith("eligible_cost: '١٠٠٠٠٠٠' is not a number") and out["award"][0] == ""
    assert out["error"][1].startswith("eligible_cost: '１０００' is not a number") and out["error"][2] == ""
    with pytest.raises(ValidationError, match="is not a number"):
        Application.from_dict({"project_type": "renovation", "eligible_cost": "٥٠٠"})
