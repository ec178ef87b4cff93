""""What would change it" with the input ON a change point, a cent below and a cent above it
(issue 48: the random applications of tests/law/test_changes.py almost never land on one, and a
slip in how the walk treats a change point at the input itself went unnoticed). Each sentence is
checked along its input by test_changes.check_all."""
import pytest

from core.law import readings as R
from core.law.analysis import sweep
from core.law.application import Application
from core.law.changes import change
from core.law.money import MAX_CENTS
from core.law.rulesets import load
from tests.law.test_changes import check_all

BASES = {
    "renovation": Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000,
                                         "local_contribution": 500_000}),
    "prior funds": Application.from_dict({"project_type": "renovation", "eligible_cost": 2_000_000,
                                          "local_contribution": 1_000_000, "prior_program_funds": 100_000}),
    "Board's route": Application.from_dict({"project_type": "renovation", "eligible_cost": 900_000,
                                            "federal_grant": 300_000,
                                            "bpw_exception": {"local_property_value": 400_000}}),
}
FIELDS = ("eligible_cost", "federal_grant", "local_contribution", "prior_program_funds")


def on_and_beside_change_points(app, field, most=4):
    points = [b.value for b in sweep(app, field, 0, MAX_CENTS, points=False).breakpoints if 1 < b.value < MAX_CENTS]
    return sorted({v for p in points[:most] for v in (p - 1, p, p + 1)})


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("base", list(BASES))
def test_every_sentence_holds_with_the_input_on_and_beside_each_change_point(base, field):
    app = BASES[base]
    for value in on_and_beside_change_points(app, field):
        check_all(app.replace(**{field: value}), R.DEFAULT, seed=value % 1000)


def test_at_the_cost_where_the_program_maximum_takes_over_the_cost_no_longer_raises_it():
    """On the change point itself what holds after it holds: flat, not "adds $0.50 ... until" it."""
    app = BASES["renovation"].replace(eligible_cost=120_000_000, local_contribution=60_000_000)
    assert change(app, "eligible_cost").text == (
        "Costs above $1,200,000 no longer raise the award (the program maximum holds the award down).")
    below = app.replace(eligible_cost=119_900_000)   # (within $1 of it, the course starts there: said as flat)
    assert change(below, "eligible_cost").text == (
        "Each extra $1 of total cost of eligible work adds $1 of award until $1,200,000, where the program "
        "maximum takes over.")


def test_an_input_exactly_a_dollar_below_a_change_point_keeps_its_own_course():
    """A bend less than $1 above the input starts the course there; one exactly $1 above does not
    (a slip of `<` for `<=` said the course after the bend from $1 below it)."""
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": 499_999, "local_contribution": 500_000})
    assert change(app, "eligible_cost").text == (
        "Raising the total cost of eligible work from $499,999 does not change the $0 award until $500,000, where the "
        "award starts to rise from $0.")


def test_a_course_of_one_cent_is_said_as_the_inputs_own_value():
    """Under "the match is a condition", at $1,000,000 of cost and $500,000 of local funds the match
    fails at the next cent: the course is the input's own value, not a rise of $1 a dollar."""
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})
    assert change(app, "eligible_cost", readings=R.Readings(local_match_effect="condition")).text == (
        "Raising the total cost of eligible work from $1,000,000 does not change the award until $1,000,000.01, where "
        "the award reaches $0.")


def test_under_a_share_of_a_third_a_cent_of_rounding_is_not_called_a_drop():
    """Under the regulation's 50% share the award rounded down never falls below its line; under a
    third it falls below it by part of a cent, which is not a drop (a slip comparing without the
    dollar's margin said "the award drops to $349,947.50")."""
    third = load().with_changes("third", "Third", {"state_share": "0.3333", "local_share": "0.6667"})
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": "699999.99", "local_contribution": 700_000})
    assert change(app, "eligible_cost", third).text == (
        "Each extra $1 of total cost of eligible work adds $1 of award until $1,049,947.51, where the State's share "
        "of the cost takes over.")
    check_all_under(third, app)


def check_all_under(rs, app):
    """Each sentence's course holds along its input under `rs` (test_changes.check_all is the regulation's)."""
    for field in FIELDS:
        c = change(app, field, rs).courses[0]
        if c.until is not None:
            from core.law.award import award_amount
            assert award_amount(app.replace(**{field: c.until.value}), rs) == c.until.award


def test_a_zero_award_that_becomes_a_sum_at_once_says_the_sum_not_a_rise():
    """Under "the match is a condition" a $0 award becomes $500,000 at the match: not "starts to rise"."""
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000})
    assert change(app, "local_contribution", readings=R.Readings(local_match_effect="condition")).text == (
        "Raising the local contribution from $0 does not change the $0 award until $500,000, where it becomes "
        "$500,000 (what the project still lacks).")


def test_an_input_of_the_exception_alone_says_the_standard_route_holds_whatever_it_is():
    app = BASES["Board's route"]
    assert change(app, "local_property_value").text == (
        "If the Board approves, each extra $1 of value of property made available locally adds $1 of award until "
        "$600,000, where the program maximum, the cost of the eligible work and what the project still lacks take "
        "over. Without that approval the award would be $300,000 (the standard route), whatever the value of "
        "property made available locally.")
