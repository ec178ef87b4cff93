import pytest

from core.law.application import Application, InvalidApplication
from core.law.money import ValidationError, fmt, to_cents


@pytest.mark.parametrize("raw,cents", [
    (1_000_000, 100_000_000), ("1000000", 100_000_000), ("1,234,567.89", 123_456_789), ("$1,234,567", 123_456_700),
    (" 42.5 ", 4_250), ("0", 0), (0.1, 10), (1234.56, 123_456), ("1e6", 100_000_000), (".5", 50),
])
def test_money_parsing(raw, cents):
    assert to_cents(raw, "eligible_cost") == cents


@pytest.mark.parametrize("raw,problem", [
    (-1, "-1 is negative"), ("-5", "'-5' is negative"), ("abc", "'abc' is not a number"),
    (float("nan"), "nan is not a finite amount"), (float("inf"), "inf is not a finite amount"),
    ("NaN", "'NaN' is not a number"), ("1000000000000.01", "is over $1,000,000,000,000"),
    ("1.005", "has fractions of a cent"), (True, "True is not an amount"), ("1,00", "'1,00' is not a number"),
    ([1], "[1] is not an amount"),
])
def test_money_rejections_name_field_and_value(raw, problem):
    with pytest.raises(ValidationError) as err:
        to_cents(raw, "federal_grant")
    assert str(err.value).startswith("federal_grant: ")
    assert problem in str(err.value)


def test_format():
    assert fmt(125_000_000) == "$1,250,000"
    assert fmt(125_000_050) == "$1,250,000.50"
    assert fmt(0) == "$0"


def test_all_errors_reported_together():
    with pytest.raises(InvalidApplication) as err:
        Application.from_dict({"project_type": "castle", "eligible_cost": "-1", "federal_law_contrary": "maybe"})
    fields = [e.field for e in err.value.errors]
    assert fields == ["project_type", "eligible_cost", "federal_law_contrary"]
    assert "project_type: 'castle' is not a project type" in str(err.value)


def test_missing_required_and_unknown_field():
    with pytest.raises(ValidationError, match="eligible_cost: is missing; it is required"):
        Application.from_dict({"project_type": "renovation"})
    with pytest.raises(ValidationError, match="eligble_cost: 5 is not a known field"):
        Application.from_dict({"project_type": "renovation", "eligible_cost": 1, "eligble_cost": 5})


def test_labels_and_aliases_accepted_for_type():
    assert Application.from_dict({"project_type": "Master plan", "eligible_cost": 1}).project_type == "master_plan"
    assert Application.from_dict({"project_type": "Planning, design and construction", "eligible_cost": 1}).project_type == "construction"


def test_nested_and_flat_exception_forms_agree():
    nested = Application.from_dict({"project_type": "renovation", "eligible_cost": 1,
                                    "bpw_exception": {"local_property_value": "700000", "state_bonded_debt": "no"}})
    flat = Application.from_dict({"project_type": "renovation", "eligible_cost": 1, "bpw_exception_requested": "yes",
                                  "local_property_value": 700000})
    assert nested == flat and nested.local_property_value == 70_000_000
    with pytest.raises(ValidationError, match="bpw_exception.colour"):
        Application.from_dict({"project_type": "renovation", "eligible_cost": 1, "bpw_exception": {"colour": 1}})


def test_exception_details_dropped_without_request():
    a = Application.from_dict({"project_type": "renovation", "eligible_cost": 1, "local_property_value": 5})
    assert a.local_property_value == 0


def test_considerations_validated():
    a = Application.from_dict({"project_type": "renovation", "eligible_cost": 1, "senior_density": "512.5",
                               "distance_to_center_miles": 3, "previously_funded": "no"})
    assert (a.senior_density, a.distance_to_center_miles, a.previously_funded) == (512.5, 3.0, False)
    with pytest.raises(ValidationError, match="senior_density: '-2' is negative"):
        Application.from_dict({"project_type": "renovation", "eligible_cost": 1, "senior_density": "-2"})
