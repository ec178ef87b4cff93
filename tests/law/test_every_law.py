"""Every law held to the regulation's standard (issue 47): the property tests that hold `evaluate`,
`sweep`, `solve` and "what would change it" to the exact award run under every shipped ruleset
(regulation, cap-800k) and the statute as of each day one of its values took effect (each era, each
Board test: none, the four conditions, the residual-value test), their ids naming the law. Then the
issue's cases, each said exactly and checked a cent either side."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from core.law.analysis import SWEEP_FIELDS, not_read, sweep
from core.law.application import Application
from core.law.award import award_and_route, evaluate
from core.law.changes import change, what_would_change
from core.law.explain import maximum_words
from core.law.fields import RESIDUAL_SUM
from core.law.money import MAX_CENTS
from core.law.readings import DEFAULT, READING as READING_OF, READING_IDS, Readings
from core.law.rulesets import load
from core.law.solve import solve
from tests.law.test_changes import _random_applications, check_all
from tests.law.test_solve import check
from tests.law.test_statute import run
from tests.support.strategies import applications
from tests.support import step

READINGS = [DEFAULT] + [DEFAULT.switched(r) for r in READING_IDS]


def _laws() -> list:
    """Every shipped ruleset, and the statute as of each day one of its values took effect."""
    statute = load("statute")
    days = sorted({v.start for p in (statute.dated or statute.parameters).values() for v in p.history if v.start})
    return ([pytest.param(load("regulation"), id="regulation"), pytest.param(load("cap-800k"), id="cap-800k")]
            + [pytest.param(statute.as_of(d), id=f"statute-as-of-{d.isoformat()}") for d in days])


LAWS = _laws()
STATUTE = load("statute").as_of("2025-01-01")


def test_the_laws_cover_every_board_test_and_era():
    tests = {p.values[0].number("bpw_test") for p in LAWS}
    assert tests == {"unknown", "state_funds", "residual_value"}
    assert [p.id for p in LAWS] == ["regulation", "cap-800k", "statute-as-of-1984-07-01", "statute-as-of-1986-07-01",
                                    "statute-as-of-1987-07-01", "statute-as-of-1988-07-01", "statute-as-of-2007-10-01",
                                    "statute-as-of-2025-01-01"]


@st.composite
def law_applications(draw):
    """Applications as tests/support/strategies.py draws them, the residual value often within a cent
    or two of the sum the statute's test compares it with (where the Board's route opens or closes)."""
    app = draw(applications())
    if app.bpw_exception_requested and draw(st.booleans()):
        total = sum(getattr(app, n) for n in RESIDUAL_SUM)
        app = app.replace(residual_value=min(MAX_CENTS, max(0, total + draw(st.sampled_from([-1, 0, 1, 2, 100])))))
    return app


def _readable(rs):
    return st.sampled_from([f for f in SWEEP_FIELDS if not not_read(f, rs)])


# --- solve ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rs", LAWS)
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_every_range_of_solve_holds_at_its_ends_under_every_law(rs, data):
    app = data.draw(law_applications())
    field = data.draw(_readable(rs))
    rd = data.draw(st.sampled_from(READINGS))
    check(app, field, data.draw(st.integers(0, 80_000_000)), rd, rs=rs)


@pytest.mark.parametrize("rs", LAWS)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_solve_at_the_award_and_a_cent_either_side_under_every_law(rs, data):
    app = data.draw(law_applications())
    field = data.draw(_readable(rs))
    now = award_and_route(app, rs, DEFAULT)[0]
    for target in (max(0, now - 1), now, now + 1):
        check(app, field, target, DEFAULT, rs=rs)


# --- what would change it ---------------------------------------------------------------------

@pytest.mark.parametrize("rs", LAWS)
@settings(max_examples=6, deadline=None)
@given(app=law_applications(), rd=st.sampled_from(READINGS))
# one cent of prior funds takes the share of the whole cost (read so) where no limit for earlier
# grantees marks that cent (the statute before 1987): the sweep missed it
@example(app=Application("conversion", eligible_cost=2, federal_grant=1, bpw_exception_requested=True,
                         state_bonded_debt=True), rd=Readings(f_reference="prior_grant"))
# a residual value of one cent: the first cent of any amount the test counts closes the route, a change
# at the sweep's very start that it missed
@example(app=Application("renovation", eligible_cost=144_123_300, federal_grant=73_574_080,
                         local_contribution=189_344_700, bpw_exception_requested=True, local_property_value=140_825_921,
                         prior_funds_for_property=False, residual_value=1), rd=Readings(funding_need_cap="none"))
# found under statute-as-of-2007-10-01 (an @example cannot name the parametrized law: it runs under each):
# a residual value of two cents still exceeds one cent of prior program funds, the second cent closes the
# route; the sweep put the route's closing at the first cent, where the first prior funds' limit appears
@example(app=Application("conversion", eligible_cost=1, bpw_exception_requested=True, local_property_value=1,
                         residual_value=2), rd=Readings(f_reference="board_exception"))
def test_every_sentence_holds_along_its_input_under_every_law(rs, app, rd):
    check_all(app, rd, rs=rs)


@pytest.mark.slow
@pytest.mark.parametrize("rs", LAWS)
def test_every_sentence_and_range_of_two_hundred_applications_under_every_law(rs):
    """200 applications a law, with the statute's residual-value amounts around the sum, under each
    reading in turn: every sentence along its input and solve at the award and a cent either side."""
    rng = np.random.default_rng(47)
    for i, app in enumerate(_random_applications(200, seed=470)):
        if app.bpw_exception_requested:
            others = {n: int(rng.integers(0, 3)) * 5_000_000 for n in RESIDUAL_SUM if n != "prior_program_funds"}
            total = sum(others.values()) + app.prior_program_funds
            app = app.replace(**others, residual_value=max(0, total + int(rng.choice([-1, 0, 1, 10_000_000]))))
        rd = READINGS[i % len(READINGS)]
        check_all(app, rd, seed=i, rs=rs)
        readable = [f for f in SWEEP_FIELDS if not not_read(f, rs)]
        field = readable[i % len(readable)]
        now = award_and_route(app, rs, rd)[0]
        for target in (max(0, now - 1), now + 1):
            check(app, field, target, rd, rs=rs)


# --- sweep ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rs", LAWS)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_breakpoints_are_exact_and_nothing_changes_between_them_under_every_law(rs, data):
    """Each breakpoint's award is the award at its cent; between two, the award is one line (within a
    cent: shares are rounded down) on one route, sampled densely and a cent inside each end."""
    a = data.draw(law_applications())
    field = data.draw(_readable(rs))
    hi = data.draw(st.integers(1, 300_000_000))
    if field == "local_property_value" and not a.bpw_exception_requested:
        a = a.replace(bpw_exception_requested=True)
    sw = sweep(a, field, 0, hi, rs, points=False)
    at = {}

    def award(x):
        if x not in at:
            at[x] = award_and_route(a.replace(**{field: x}), rs, DEFAULT)
        return at[x]

    for b in sw.breakpoints:
        assert award(b.value)[0] == b.award, (field, b)
    cuts = [0] + [b.value for b in sw.breakpoints] + [hi + 1]
    xs = {int(x) for x in np.linspace(0, hi, 200).round()}
    for lo_, hi_ in zip(cuts, cuts[1:]):
        inside = sorted({x for x in xs if lo_ + 1 <= x <= hi_ - 2} | {v for v in (lo_ + 1, hi_ - 2) if lo_ + 1 <= v <= hi})
        if len(inside) < 3:
            continue
        x0, x1 = inside[0], inside[-1]
        for x in inside:
            line = Fraction(award(x0)[0]) + Fraction(award(x1)[0] - award(x0)[0], x1 - x0) * (x - x0)
            assert abs(award(x)[0] - line) <= 1, (field, lo_, hi_, x)
            # the route too (where both give the same, a tie keeps the standard route: the amount decides)
            assert award(x)[1] == award(x0)[1] or award(x)[0] == 0, (field, lo_, hi_, x)


# --- the issue's cases ------------------------------------------------------------------------

def _app(**values):
    return Application.from_dict(values)


# Renovation $1,000,000, no local money, the Board asked, property $2,000,000, residual value $200,000,
# prior matching funds $200,000: the route is closed (200,000 does not exceed 200,000).
CLOSED = _app(project_type="renovation", eligible_cost=1_000_000,
              bpw_exception={"local_property_value": 2_000_000, "residual_value": 200_000, "prior_matching_funds": 200_000})
# Renovation $400,000, prior program funds $10,000, the Board asked, property $350,000, residual $60,000.
SMALL = _app(project_type="renovation", eligible_cost=400_000, prior_program_funds=10_000,
             bpw_exception={"local_property_value": 350_000, "residual_value": 60_000})
# Open: residual value $100,000, nothing counted against it.
OPEN = _app(project_type="renovation", eligible_cost=1_000_000,
            bpw_exception={"local_property_value": 2_000_000, "residual_value": 100_000})


def _award(app, rs=STATUTE, **values):
    return award_and_route(app.replace(**values), rs, DEFAULT)


def test_the_residual_value_test_is_a_breakpoint_of_the_sweep():
    s = sweep(CLOSED, "residual_value", 0, 100_000_000, STATUTE)
    assert [(b.value, b.exact, b.award, b.route_before, b.route_after) for b in s.breakpoints] == [
        (20_000_001, Fraction(20_000_001), 80_000_000, "standard", "bpw_exception")]
    assert _award(CLOSED, residual_value=20_000_000) == (50_000_000, "standard")
    assert _award(CLOSED, residual_value=20_000_001) == (80_000_000, "bpw_exception")
    for field in ("prior_matching_funds", "outstanding_state_debt", "other_state_investment"):
        s = sweep(OPEN, field, 0, 100_000_000, STATUTE)
        assert [(b.value, b.award, b.route_after) for b in s.breakpoints] == [(10_000_000, 50_000_000, "standard")]
        assert _award(OPEN, **{field: 9_999_999}) == (80_000_000, "bpw_exception")
        assert _award(OPEN, **{field: 10_000_000}) == (50_000_000, "standard")


def test_the_route_closing_is_a_breakpoint_along_prior_program_funds():
    s = sweep(SMALL, "prior_program_funds", 0, 20_000_000, STATUTE)
    assert [(b.value, b.award, b.route_after) for b in s.breakpoints][:2] == [
        (1, 29_999_999, "bpw_exception"), (6_000_000, 20_000_000, "standard")]
    assert _award(SMALL, prior_program_funds=5_999_999) == (24_000_001, "bpw_exception")
    assert _award(SMALL, prior_program_funds=6_000_000) == (20_000_000, "standard")


def test_solve_on_every_field_of_the_residual_value_test_answers_exactly():
    s = check(CLOSED, "residual_value", 80_000_000, DEFAULT, rs=STATUTE)
    assert s.intervals == ((20_000_001, MAX_CENTS),) and s.nearest.value == 20_000_001
    assert s.sentence.startswith("If the Board approves, a residual value of that property and its improvements of "
                                 "$200,000.01 reaches an award of $800,000")
    for field in ("prior_matching_funds", "outstanding_state_debt", "other_state_investment"):
        s = check(OPEN, field, 80_000_000, DEFAULT, rs=STATUTE)
        assert s.intervals == ((0, 9_999_999),)
    s = check(SMALL, "prior_program_funds", 22_000_000, DEFAULT, rs=STATUTE)
    assert s.intervals == ((0, 5_999_999),)
    assert "as it is with prior program funds from $0 to $59,999.99" in s.sentence


@pytest.mark.slow   # three runs of the command line
def test_the_command_line_solves_the_residual_value_and_refuses_a_field_the_law_does_not_read():
    code, out, err = run(["solve", "residual_value", "--target", "800000", "--ruleset", "statute", "--as-of",
                          "2025-01-01", "-"], json.dumps(CLOSED.to_dict()))
    assert (code, err) == (0, "") and json.loads(out)["intervals"] == [{"from": "200000.01", "to": "1000000000000.00"}]
    code, out, err = run(["solve", "residual_value", "--target", "800000", "-"], json.dumps(CLOSED.to_dict()))
    assert (code, out) == (2, "")
    assert err == ("error: residual_value: the regulation in force does not read the residual value of that property "
                   "and its improvements (it is a condition of the Board's exception only under the statute's "
                   "residual-value test), so no value of it changes the award\n")
    # --to alone: the range is from $0 to it, and the sentence says so
    code, out, err = run(["solve", "local_contribution", "--target", "700000", "--to", "1000000", "-"],
                         json.dumps({"project_type": "renovation", "eligible_cost": 2000000,
                                     "local_contribution": 200000}))
    assert code == 0 and json.loads(out)["sentence"] == (
        "No local contribution from $0 to $1,000,000 reaches $700,000: the program maximum holds the award at $600,000.")


def test_the_statute_applies_the_federal_grant_first_whatever_federal_law_says():
    app = _app(project_type="construction", eligible_cost=1_000_000, federal_grant=400_000,
               local_contribution=500_000, federal_law_contrary=True)
    assert evaluate(app, STATUTE).amount == 10_000_000
    assert evaluate(app, STATUTE, Readings(funding_need_cap="none")).amount == 30_000_000
    assert evaluate(app, STATUTE).amount == evaluate(app.replace(federal_law_contrary=False), STATUTE).amount
    assert evaluate(app).amount == 50_000_000   # the regulation's §D: "unless federal law is to the contrary"
    assert step(evaluate(app, STATUTE).steps, "federal_first").text == (
        "The $400,000 federal grant is applied first, leaving $600,000 of the $1,000,000 cost of eligible work: "
        "this law has no exception where federal law requires otherwise.")
    # a cent either side of the cost left after it: the funding need is $100,000 less a cent, plus a cent
    assert evaluate(app.replace(local_contribution=50_000_001), STATUTE).amount == 9_999_999
    assert evaluate(app.replace(local_contribution=49_999_999), STATUTE).amount == 10_000_001


# --- the sentences that were false ----------------------------------------------------------------

def test_raising_the_residual_value_says_where_the_route_opens():
    assert change(CLOSED, "residual_value", STATUTE).text == (
        "Raising the residual value of that property and its improvements from $200,000 does not change the award "
        "until $200,000.01, where the award jumps to $800,000 (the program maximum), on the Board's exception route "
        "if the Board approves.")


@pytest.mark.parametrize("field,label", [("prior_matching_funds", "prior amounts used as matching funds"),
                                         ("outstanding_state_debt", "outstanding State debt on it from another program"),
                                         ("other_state_investment", "other tangible State investment in it")])
def test_raising_an_amount_the_test_counts_says_where_the_route_closes(field, label):
    assert change(OPEN, field, STATUTE).text == (
        f"If the Board approves, raising the {label} from $0 does not change the award until $100,000, where the "
        f"award drops to $500,000 (the State's share of the cost), on the standard route. Without that approval the "
        f"award would be $500,000 (the standard route), whatever the {label}.")


@pytest.mark.parametrize("day,prior", [("2025-01-01", 2_000_000), ("1990-01-01", 1_000_000)])
def test_prior_funds_at_the_residual_value_close_the_route_a_cent_later(day, prior):
    rs = load("statute").as_of(day)
    app = SMALL.replace(prior_program_funds=prior, residual_value=prior + 1)
    dollars = f"${prior // 100:,}"
    assert change(app, "prior_program_funds", rs).text.startswith(
        f"If the Board approves, raising the prior program funds from {dollars} does not change the award until "
        f"{dollars}.01, where the award drops to $200,000 (the State's share of the cost), on the standard route.")
    assert _award(app, rs, prior_program_funds=prior + 1) == (20_000_000, "standard")
    assert _award(app, rs)[1] == "bpw_exception"


def test_prior_funds_taking_away_the_award_end_where_the_route_closes():
    text = change(SMALL, "prior_program_funds", STATUTE).text
    assert text.startswith("If the Board approves, each extra $1 of prior program funds takes away $1 of award until "
                           "$60,000, where the award drops to $200,000 (the State's share of the cost), on the "
                           "standard route.")
    assert _award(SMALL, prior_program_funds=5_999_999) == (24_000_001, "bpw_exception")


def test_no_presumption_that_prior_funds_close_the_route_under_the_statutes_test():
    line = change(OPEN, "prior_program_funds", STATUTE).text
    assert "presumed" not in line and "close" not in line
    assert line.startswith("Any prior program funds would cut the award to $299,999.99 (the limit for earlier "
                           "grantees), which the standard route gives without the Board's approval;")
    assert "bpw_exception" in evaluate(OPEN.replace(prior_program_funds=1), STATUTE).routes
    # where one cent does close it, the statute's test says why, by its amounts
    edge = OPEN.replace(residual_value=1)
    assert change(edge, "prior_program_funds", STATUTE).text.startswith(
        "Any prior program funds would close the Board's exception route (the residual value of the property would "
        "no longer exceed the sum of the amounts the statute's test counts) and make the award $299,999.99 (the "
        "limit for earlier grantees)")
    # the regulation's third condition presumes it, and still says so
    reg = _app(project_type="construction", eligible_cost=800_000, federal_grant=200_000,
               bpw_exception={"local_property_value": "1000000"})
    assert "(program funds already received are presumed to have gone into the building)" in \
        change(reg, "prior_program_funds").text


def test_the_funding_need_limit_is_said_as_the_departments_reading_with_the_other_number():
    app = _app(project_type="construction", eligible_cost=1_000_000, local_contribution=600_000)
    a = evaluate(app)
    assert a.binding == ("funding_need",) and a.amount == 40_000_000
    assert maximum_words(a) == (
        "The most the State may give under the regulation as the Department reads it: no more than the project still "
        "lacks, which no sentence of the regulation says; read without that limit, the most would be $500,000. The "
        "Department sets the amount within it.")
    held = evaluate(app.replace(local_contribution=500_000))   # the State's share and the need tie: the law's own
    assert maximum_words(held) == "The most the State may give under the regulation; the Department sets the amount within it."
    assert "under the statute as the Department reads it" in maximum_words(evaluate(app, STATUTE))


def test_a_range_that_includes_a_failed_local_match_says_where_it_fails():
    app = _app(project_type="renovation", eligible_cost=1_200_000, local_contribution=100_000)
    s = solve(app, "local_contribution", 500_000)
    assert s.sentence == (
        "The award is already $600,000, at least $5,000, with the local contribution at $100,000, as it is at any "
        "local contribution from $0 to $1,195,000. The local match is not met at any local contribution from $0 to "
        "$599,999.99: there the award holds only once local contributions reach the match.")
    assert evaluate(app.replace(local_contribution=59_999_999)).local_shortfall == 1
    assert evaluate(app.replace(local_contribution=60_000_000)).local_shortfall == 0
    met = solve(app.replace(local_contribution=60_000_000), "local_contribution", 500_000, 60_000_000, 100_000_000)
    assert "local match" not in met.sentence


# --- solve: shares, ties, routes (issue 48's list) ------------------------------------------------

@pytest.mark.parametrize("share,intervals,nearest", [
    ("0.40", ((95_000_000, MAX_CENTS),), 100_000_000),
    # 33.33% of $1,050,105.02 is $350,000.00 rounded down; a cent less is $349,999.99
    ("0.3333", ((105_010_502, MAX_CENTS),), 105_010_502)])
def test_solve_under_a_state_share_other_than_half(share, intervals, nearest):
    rs = load().with_changes("v", "V", {"state_share": share})
    app = _app(project_type="renovation", eligible_cost=1_000_000, local_contribution=600_000)
    s = check(app, "eligible_cost", 35_000_000, DEFAULT, rs=rs)
    assert (s.intervals, s.nearest.value) == (intervals, nearest)


@pytest.mark.parametrize("share", ["0.40", "0.3333"])
@settings(max_examples=10, deadline=None)
@given(app=applications(), field=st.sampled_from(SWEEP_FIELDS[:6]), target=st.integers(0, 80_000_000))
def test_every_range_holds_at_its_ends_under_other_shares(share, app, field, target):
    check(app, field, target, DEFAULT, rs=load().with_changes("v", "V", {"state_share": share}))


def test_a_tie_for_the_nearest_value_takes_the_lower():
    """Prior funds of $150,000, read as limiting only grantees below $300,000: $400,000 is reached at
    $0 and from $300,000 on, each $150,000 away; the lower is named."""
    app = _app(project_type="renovation", eligible_cost=900_000, prior_program_funds=150_000)
    s = check(app, "prior_program_funds", 40_000_000, Readings(prior_grant_limit="below_only"))
    assert s.intervals == ((0, 0), (30_000_000, MAX_CENTS)) and s.nearest.value == 0


def test_the_nearest_value_and_the_most_reachable_on_different_routes():
    app = _app(project_type="renovation", eligible_cost=1_000_000, bpw_exception={"local_property_value": 100_000})
    s = check(app, "local_property_value", 50_000_000, DEFAULT)
    assert (s.nearest.value, s.nearest.route) == (10_000_000, "standard")
    assert (s.max_award.value, s.max_award.award, s.max_award.route) == (60_000_000, 60_000_000, "bpw_exception")
    assert s.sentence.startswith("The award is already $500,000, at least $500,000, with the value of property made "
                                 "available locally at $100,000, whatever the value of property made available locally.")


@example(app=CLOSED, field="residual_value")
@example(app=SMALL, field="prior_program_funds")
@settings(max_examples=5, deadline=None)
@given(app=law_applications(), field=_readable(STATUTE))
def test_what_would_change_names_the_statutes_fields_and_holds(app, field):
    assert what_would_change(app, STATUTE) is not None
    check_all(app, DEFAULT, rs=STATUTE)


def test_a_route_that_one_cent_closes_is_a_breakpoint_at_that_cent():
    app = OPEN.replace(residual_value=1)
    s = sweep(app, "prior_matching_funds", 0, 1_000, STATUTE, points=False)
    assert [(b.value, b.award, b.route_before, b.route_after) for b in s.breakpoints] == [
        (1, 50_000_000, "bpw_exception", "standard")]
    assert _award(app, prior_matching_funds=0) == (80_000_000, "bpw_exception")
    assert change(app, "prior_matching_funds", STATUTE).text.startswith(
        "Any prior amounts used as matching funds would close the Board's exception route (the residual value of the "
        "property would no longer exceed the sum of the amounts the statute's test counts) and make the award "
        "$500,000 (the State's share of the cost)")


def test_a_route_that_the_second_cent_closes_is_a_breakpoint_at_the_second_cent():
    """Prior program funds bring the limit for earlier grantees at their first cent; a residual value of
    two cents still exceeds one cent of them, so the Board's route closes only at the second cent. The
    sweep put that closing at the first cent (with the limit's appearing), and the sentence then spoke of
    the standard route from one cent, where the award is the Board's."""
    rs = load("statute").as_of("2007-10-01")
    rd = Readings(f_reference="board_exception")
    app = Application("conversion", eligible_cost=1, bpw_exception_requested=True, local_property_value=1,
                      residual_value=2)
    at = [award_and_route(app.replace(prior_program_funds=v), rs, rd) for v in (0, 1, 2, 3)]
    assert at == [(1, "bpw_exception"), (1, "bpw_exception"), (0, "standard"), (0, "standard")]
    s = sweep(app, "prior_program_funds", 0, 1_000, rs, points=False, readings=rd)
    assert [(b.value, b.exact, b.award, b.route_before, b.route_after) for b in s.breakpoints] == [
        (2, Fraction(1), 0, "bpw_exception", "standard")]
    ch = change(app, "prior_program_funds", rs, rd)
    assert ch.text == "Raising the prior program funds from $0 moves the award by less than $1."
    (c,) = ch.courses
    assert (c.start, c.award, c.route, c.until) == (2, 0, "standard", None)
    check_all(app, rd, rs=rs)
    # from one cent of prior funds: the closing a cent above starts the course again there
    one = change(app.replace(prior_program_funds=1), "prior_program_funds", rs, rd)
    assert one.text == "Raising the prior program funds from $0.01 moves the award by less than $1."
    assert [(c.start, c.award, c.route, c.until) for c in one.courses] == [(2, 0, "standard", None)]
    check_all(app.replace(prior_program_funds=1), rd, rs=rs)


def test_a_field_the_law_does_not_read_is_named_with_the_reason():
    assert not_read("residual_value", load()) == (
        "residual_value: the regulation in force does not read the residual value of that property and its "
        "improvements (it is a condition of the Board's exception only under the statute's residual-value test), so "
        "no value of it changes the award")
    assert not_read("residual_value", STATUTE) == "" and not_read("eligible_cost", load()) == ""
    assert not_read("local_property_value", load()) == ""
    early = load("statute").as_of("1985-01-01")
    if early.number("bpw_test") == "none":   # the history as this tool reads it (the 1984 act's conditions are not known)
        assert not_read("local_property_value", early).startswith(
            "local_property_value: the statute (Md. Code, Human Services § 10-504) as of 1985-01-01 has no Board of "
            "Public Works exception")


def test_a_variant_is_not_called_the_regulation_in_the_maximum_words():
    """Under cap-800k the award is the most under that what-if, not 'under the regulation'."""
    app = Application("renovation", eligible_cost=300_000_000, local_contribution=150_000_000)
    words = maximum_words(evaluate(app, load("cap-800k")))
    assert words == ("The most the State may give under this variant (a what-if, not the law in force); the "
                     "Department sets the amount within it.")


# --- a reading the law's text has no sentence for ---------------------------------------------------

# (law, day, application, the award under the statute with either alternative, the binding caps, the
# regulation's award under f_reference=prior_grant): the statute's 50% limit has no "except as provided
# in §F", so reading "§F" as the top-up changes nothing there (the law audit of 2026-12-06 found it did).
NO_F = [
    ("1985-01-01", dict(project_type="renovation", eligible_cost=300_000_00, federal_grant=200_000_00,
                        prior_program_funds=100_000_00), 50_000_00, ("cost_share",), 100_000_00),
    ("2026-01-01", dict(project_type="renovation", eligible_cost=1_000_000_00, federal_grant=600_000_00,
                        prior_program_funds=50_000_00), 200_000_00, ("cost_share",), 250_000_00),
    ("2026-01-01", dict(project_type="construction", eligible_cost=800_000_00, federal_grant=200_000_00,
                        surplus_certified=True, bpw_exception_requested=True, local_property_value=1_000_000_00,
                        residual_value=1), 600_000_00, ("full_cost", "funding_need"), 300_000_00),
]


@pytest.mark.parametrize("day,values,award,binding,regulation", NO_F)
def test_the_statute_has_no_f_reference_reading_either_alternative_gives_its_award(day, values, award, binding,
                                                                                 regulation):
    app, rs = Application(**values), load("statute").as_of(day)
    read_so = Readings(f_reference="prior_grant")
    for rd in (DEFAULT, read_so):
        a = evaluate(app, rs, rd)
        assert (a.amount, a.binding, a.readings) == (award, binding, DEFAULT)
        assert "f_reference" not in {o["reading"] for o in a.other_readings()}
        assert "§F" not in " ".join(s.text for s in a.steps)
        assert sweep(app, "federal_grant", 0, 1_000_000_00, rs, points=False, readings=rd) == sweep(
            app, "federal_grant", 0, 1_000_000_00, rs, points=False)
    # the regulation (whose §E has the words) still reads them either way
    assert evaluate(app, load("regulation"), read_so).amount == regulation
    assert award_and_route(app, load("regulation"))[0] != regulation


def test_a_variant_of_the_statute_has_its_readings_and_one_of_the_regulation_the_regulations():
    from core.law.readings import READING, law_text, not_read
    statute_variant = load("statute").as_of("2026-01-01").with_changes("s-var", "Statute what-if", {"capital_cap": "900000"})
    assert law_text(statute_variant) == "statute" and law_text(load("cap-800k")) == "regulation"
    assert not READING["f_reference"].applies(statute_variant) and READING["f_reference"].applies(load("cap-800k"))
    read_so = Readings(f_reference="prior_grant", funding_need_cap="none")
    assert read_so.under(statute_variant) == Readings(funding_need_cap="none")
    assert read_so.under(load("cap-800k")) == read_so
    assert not_read(load("statute"), read_so) == {"f_reference": READING["f_reference"].why_not(load("statute"))}
    assert READING["f_reference"].why_not(load("statute")).startswith(
        "The statute (Md. Code, Human Services § 10-504(a)(2)) limits the grant to 50% of the cost remaining unpaid")
    assert not_read(load("regulation"), read_so) == {}


@pytest.mark.parametrize("rs", LAWS)
@settings(max_examples=15, deadline=None)
@given(app=law_applications(), rd=st.sampled_from(READINGS + [Readings(f_reference="prior_grant", funding_need_cap="none")]))
def test_every_law_works_under_the_readings_it_has(rs, app, rd):
    """A reading the law's text has no sentence for changes no award, route or cap there, and is never
    offered as a switch that would."""
    a, plain = evaluate(app, rs, rd), evaluate(app, rs, rd.under(rs))
    assert (a.amount, a.route, a.caps, a.readings) == (plain.amount, plain.route, plain.caps, plain.readings)
    offered = {o["reading"] for o in a.other_readings()}
    assert all(READING_OF[r].applies(rs) for r in offered)


def test_the_command_line_refuses_a_reading_the_law_does_not_have():
    app = json.dumps(dict(project_type="renovation", eligible_cost="300000", federal_grant="200000",
                          prior_program_funds="100000"))
    for command in (["evaluate"], ["solve", "federal_grant", "--target", "1000"], ["sweep", "federal_grant", "--from", "0", "--to", "1000"]):
        code, out, err = run([*command, "--ruleset", "statute", "--as-of", "1985-01-01",
                              "--reading", "f_reference=prior_grant", "-"], app)
        assert (code, out) == (2, "")
        assert err.startswith("error: --reading f_reference: the statute (Md. Code, Human Services § 10-504) has no "
                              "such reading. The statute (Md. Code, Human Services § 10-504(a)(2)) limits")
    code, out, _ = run(["evaluate", "--reading", "f_reference=prior_grant", "-"], app)
    assert code == 0 and json.loads(out)["award"] == "100000.00"


def test_a_route_closing_that_was_not_taken_is_no_breakpoint():
    """Law audit, 2026-12-06: at one cent of prior funds the Board's route ties the standard route (the standard
    is taken); at two cents the residual-value test closes it. Nothing seen changes there, and the sweep listed
    a breakpoint with the same limit, route and slope on both sides."""
    from fractions import Fraction
    rs = load("statute").as_of("2026-01-01")
    app = Application("renovation", eligible_cost=1_000_000_00, bpw_exception_requested=True,
                      local_property_value=2_000_000_00, residual_value=2)
    assert [award_and_route(app.replace(prior_program_funds=v), rs) for v in (0, 1, 2, 3)] == [
        (800_000_00, "bpw_exception"), (299_999_99, "standard"), (299_999_98, "standard"), (299_999_97, "standard")]
    s = sweep(app, "prior_program_funds", 0, 400_000_00, rs, points=False)
    assert [(b.value, b.award, b.binding_before, b.binding_after, b.route_before, b.route_after, b.slope_before,
             b.slope_after) for b in s.breakpoints] == [
        (1, 299_999_99, ("program_max",), ("prior_grant_room",), "bpw_exception", "standard", Fraction(0), Fraction(-1)),
        (300_000_00, 0, ("prior_grant_room",), ("prior_grant_room",), "standard", "standard", Fraction(-1), Fraction(0))]
