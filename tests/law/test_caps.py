"""The caps stated once (core/law/caps.py): the three engines (one application, batch,
breakpoints) held to each other and to an independent computation written straight from the
rules, under every ruleset and all 32 combinations of readings; the legal review's defects."""
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from core.law import readings as R
from core.law.analysis import sweep, SWEEP_FIELDS
from core.law.lines import CLOSED, constant_lines, raw_caps, regime
from core.law.application import Application
from core.law.fields import FUNDS
from core.law.award import award_amount, evaluate, other_readings
from core.law.batch import evaluate_parsed, frame_of
from core.law.engines import Step
from core.law.rulesets import available, load
from tests.law.test_every_law import LAWS
from tests.support.strategies import applications
from tests.support import ROOT


EVERY = R.every()


# every shipped ruleset, and the statute as of each day one of its values took effect (every Board test)
RULESETS = [load(i) for i in available()] + [p.values[0] for p in LAWS if p.id.startswith("statute-")]


def independent(app: Application, rs, rd: R.Readings) -> tuple[int, str]:
    """(award in cents, route), computed again from docs/rules.md without core.law."""
    cost, fed, prior = app.eligible_cost, app.federal_grant, app.prior_program_funds
    # the local funds: the money besides the federal grant (the field table's sources of funds: a new one
    # counts here, toward the local match and what the project still lacks)
    local = sum(getattr(app, f.name) for f in FUNDS if f.name != "federal_grant")
    # the statute (federal_first "always") has no "unless federal law is to the contrary"
    contrary = app.federal_law_contrary and rs.number("federal_first") != "always"
    remaining = cost if contrary else max(0, cost - fed)
    # "§F" read as the top-up: only where the text has "except as provided in §F" (not the statute's)
    f_is_top_up = rd.f_reference == "prior_grant" and rs.id != "statute"
    base = cost if (f_is_top_up and prior > 0) else remaining
    share = rs.number("state_share")

    def half(amount):
        return amount * share.numerator // share.denominator

    # the most a grant of its type may be (Ruleset.largest_award, from the parameters): a maximum
    # added for one type (docs/architecture.md's recipe) is counted here with no second statement
    limits = [rs.largest_award(app.project_type)]
    if rd.funding_need_cap == "applies":
        limits.append(max(0, remaining - local))
    if prior > 0 and rs.number("prior_grant_ceiling") is not None and (   # the statute before 1987: no top-up sentence
            rd.prior_grant_limit == "ceiling" or prior < rs.number("prior_grant_ceiling")):
        limits.append(max(0, rs.number("prior_grant_ceiling") - prior))
    if app.requested_amount is not None:
        limits.append(app.requested_amount)
    # the statute's surplus-building certification (ch. 125, (6)(i)): answered no, no State funds for those types
    if app.project_type in rs.number("surplus_certification") and app.surplus_certified is False:
        limits.append(0)
    standard_limits = limits + [half(base)]
    if rd.funding_need_cap == "none" and base == cost:   # federal money applied first: never more than what remains
        standard_limits.append(remaining)
    match_of = cost if rd.local_match_base == "total_cost" else remaining
    ls = rs.number("local_share")
    required = -(-match_of * ls.numerator // ls.denominator)
    if rd.local_match_effect == "condition" and local < required:
        standard_limits.append(0)
    standard = max(0, min(standard_limits))
    prior_in_property = prior > 0 and app.prior_funds_for_property is not False   # presumed, unless stated not
    test = rs.number("bpw_test")
    if test == "residual_value":   # the statute's (b): the residual value above the State's earlier investment
        conditions = app.residual_value > (app.prior_matching_funds + app.outstanding_state_debt + prior
                                           + app.other_state_investment)
    else:
        conditions = test == "state_funds" and not (prior_in_property or app.state_funds_in_property
                                                     or app.state_bonded_debt)
    if app.bpw_exception_requested and app.project_type in rs.number("bpw_eligible_types") and conditions:
        exception_limits = limits + [app.local_property_value, remaining]
        if f_is_top_up and fed > 0 and not contrary and prior == 0:
            exception_limits.append(half(remaining))
        exception = max(0, min(exception_limits))
        if exception > standard:
            return exception, "bpw_exception"
    return standard, "standard"


def _exact_routes(app, rs, rd):
    v = {k: getattr(app, k) for k in SWEEP_FIELDS}
    return raw_caps(v, app, rs, rd)


def _floored(routes):
    """Exact caps -> the cents the one-application engine shows (clamped, rounded down)."""
    out = {}
    for r, caps in routes.items():
        closed = caps.get(CLOSED)   # the statute's residual-value test as a step: the route exists where it holds
        if closed is not None and closed.margin < 0:
            continue
        caps = {c: v for c, v in caps.items() if c != CLOSED}
        out[r] = {}
        for c, v in caps.items():
            if isinstance(v, Step):
                if v.margin < 0:
                    out[r][c] = max(0, math.floor(v.value))
            else:
                out[r][c] = max(0, math.floor(v))
    return out


@settings(max_examples=40, deadline=None)
@given(st.lists(applications(), min_size=1, max_size=12), st.sampled_from(EVERY), st.sampled_from(RULESETS))
def test_three_engines_and_an_independent_computation_agree(apps, rd, rs):
    batch = evaluate_parsed(frame_of(apps), rs, rd)
    for i, app in enumerate(apps):
        a = evaluate(app, rs, rd)
        # one application == the independent computation
        assert (a.amount, a.route) == independent(app, rs, rd)
        # the award without the words (what the breakpoint engine asks at each point) == the award
        assert award_amount(app, rs, rd) == a.amount
        # batch == one application
        row = batch.iloc[i]
        assert (int(row.award), row.binding, row.route) == (a.amount, ";".join(a.binding), a.route)
        assert int(row.local_shortfall) == a.local_shortfall
        assert int(row.funding_gap) == a.funding_gap
        # breakpoint engine (exact fractions): the same caps once rounded, the same award and route
        exact = _exact_routes(app, rs, rd)
        assert _floored(exact) == {r: dict(route.caps) for r, route in a.routes.items()}
        flat = constant_lines(app, rs, "eligible_cost", app.eligible_cost, rd)
        state, award = regime(flat, Fraction(app.eligible_cost))
        assert math.floor(award) == a.amount
        assert state.route == a.route


@settings(max_examples=60, deadline=None)
@given(st.lists(applications(), min_size=1, max_size=8), st.sampled_from(RULESETS))
def test_no_award_exceeds_the_cost_left_after_the_federal_grant_under_any_reading(apps, rs):
    """The federal grant is applied to the costs first (§D), so under all 32 combinations of the
    readings, on either route, by either engine, the award is at most the cost it leaves."""
    for rd in EVERY:
        batch = evaluate_parsed(frame_of(apps), rs, rd)
        for i, app in enumerate(apps):
            left = app.eligible_cost if app.federal_law_contrary else max(0, app.eligible_cost - app.federal_grant)
            a = evaluate(app, rs, rd)
            assert a.amount <= left and int(batch.iloc[i].award) <= left
            assert all(r.award <= left for r in a.routes.values())
            if a.amount == left and left < min(v for c, v in a.caps.items() if c != "full_cost"):
                assert "full_cost" in a.binding   # the cost it leaves is what holds it, and is named


@pytest.mark.parametrize("federal, award", [(40_000_000, 0), (30_000_000, 10_000_000)])
def test_a_share_of_the_whole_cost_is_held_to_the_cost_the_federal_grant_leaves(federal, award):
    """Issue 35: under f_reference=prior_grant with no funding-need limit, 50% of the whole $400,000
    cost was granted where the federal grant left $0 (or $100,000); on evaluate, batch and sweep."""
    rd = R.parse(["f_reference=prior_grant", "funding_need_cap=none"])
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": 400_000, "federal_grant": federal // 100,
                                 "prior_program_funds": 100_000})
    rs = load()
    a = evaluate(app, rs, rd)
    assert (a.amount, a.binding, a.route) == (award, ("full_cost",), "standard")
    row = evaluate_parsed(frame_of([app]), rs, rd).iloc[0]
    assert (int(row.award), row.binding) == (award, "full_cost")
    s = sweep(app, "federal_grant", 0, 50_000_000, rs, readings=rd)
    assert s.points and all(amount <= max(0, 40_000_000 - x) for x, amount, _ in s.points)


@pytest.mark.parametrize("rd", EVERY, ids=lambda r: r.describe())
def test_worked_example_3_under_every_reading_matches_the_independent_computation(rd):
    app = Application.from_dict(dict(project_type="renovation", eligible_cost=1_000_000, federal_grant=400_000,
                                     local_contribution=200_000, prior_program_funds=100_000))
    for rs in RULESETS:
        assert evaluate(app, rs, rd).amount == independent(app, rs, rd)[0]


def _regime_of(app, rs, rd, field, x):
    """(route, award) at one cent value, independently."""
    return independent(app.replace(**{field: x}), rs, rd)


@settings(max_examples=25, deadline=None)
@given(applications(), st.sampled_from(EVERY), st.sampled_from(["eligible_cost", "federal_grant",
                                                                 "local_contribution", "prior_program_funds"]))
def test_sweeps_under_every_reading_find_every_change_exactly(app, rd, field):
    """Scaled to small amounts, every cent of the range is checked against the independent
    computation: between breakpoints the award follows the reported slope (within the
    cent of rounding down), and at each breakpoint it is the award `evaluate` gives."""
    rs = load()
    small = {k: getattr(app, k) % 40_000 for k in ("eligible_cost", "federal_grant", "local_contribution",
                                                    "prior_program_funds", "local_property_value")}
    small["requested_amount"] = None if app.requested_amount is None else app.requested_amount % 40_000
    app = app.replace(**small)
    rs = rs.with_changes("small", "Small caps for a dense check", {"capital_cap": "150.00", "master_plan_cap": "40.00",
                                                                   "prior_grant_ceiling": "90.00"})
    s = sweep(app, field, 0, 40_000, rs, points=False, readings=rd)
    edges = [0] + [b.value for b in s.breakpoints] + [40_000]
    slopes = [None] + [b.slope_after for b in s.breakpoints]
    for b in s.breakpoints:
        assert b.award == _regime_of(app, rs, rd, field, b.value)[0]
    for k, (lo, hi) in enumerate(zip(edges, edges[1:])):
        if hi - lo < 3:
            continue
        start = lo + 1 if (field == "prior_program_funds" and lo == 0) else lo
        a0 = _regime_of(app, rs, rd, field, start)[0]
        slope = slopes[k] if slopes[k] is not None else (
            Fraction(_regime_of(app, rs, rd, field, hi - 1)[0] - a0, max(1, hi - 1 - start)))
        if slopes[k] is None:
            continue  # the first stretch: its slope is checked by the breakpoint that ends it
        for x in range(start, hi, max(1, (hi - start) // 200)):
            got = _regime_of(app, rs, rd, field, x)[0]
            assert abs(got - (a0 + slope * (x - start))) <= 1, (field, x, got, a0, slope, s.breakpoints)


def test_local_match_condition_makes_an_exact_jump():
    """local_match_effect=condition: the award drops to $0 at the first cent of shortfall."""
    rd = R.parse(["local_match_effect=condition"])
    app = Application.from_dict(dict(project_type="conversion", eligible_cost=1_000_000, local_contribution=500_000))
    s = sweep(app, "eligible_cost", 0, 200_000_000, readings=rd)
    jump = next(b for b in s.breakpoints if b.binding_after == ("local_match",))
    # local 500,000 meets 50% of a cost up to exactly $1,000,000; one cent more falls short
    assert jump.value == 100_000_001
    assert jump.award == 0
    assert evaluate(app.replace(eligible_cost=100_000_000), readings=rd).amount == 50_000_000
    # the drawing does not slope across the jump: one stretch ends a cent before it
    assert any(x1 == 100_000_000 and a1 == 50_000_000 for _, _, x1, a1, _ in s.segments)
    # along the local contribution the jump is the other way: the award appears at the match
    s = sweep(app.replace(local_contribution=0), "local_contribution", 0, 100_000_000, readings=rd)
    up = next(b for b in s.breakpoints if b.binding_before == ("local_match",))
    assert (up.value, up.award) == (50_000_000, 50_000_000)


def test_other_readings_name_each_switch_that_changes_the_award():
    app = Application.from_dict(dict(project_type="renovation", eligible_cost=1_000_000, federal_grant=400_000,
                                     local_contribution=100_000, prior_program_funds=100_000))
    a = evaluate(app)
    assert a.amount == 20_000_000  # the limit for earlier grantees 200,000 binds below the 300,000 share of the remainder
    others = {o["reading"]: o for o in other_readings(app)}
    assert set(others) == {"local_match_effect"}
    assert others["local_match_effect"]["award"] == 0
    d = a.to_dict()
    assert d["readings"] == {"f_reference": "board_exception", "local_match_base": "remaining",
                             "local_match_effect": "check", "funding_need_cap": "applies",
                             "prior_grant_limit": "ceiling"}
    assert d["other_readings"] == [{"reading": "local_match_effect", "alternative": "condition",
                                    "award": "0.00", "binding": ["local_match"], "route": "standard",
                                    "if_board_approves": False}]


def test_f_reference_prior_grant_lifts_the_remainder_limit_for_additional_work():
    app = Application.from_dict(dict(project_type="renovation", eligible_cost=1_000_000, federal_grant=600_000,
                                     local_contribution=0, prior_program_funds=10_000))
    assert evaluate(app).amount == 20_000_000             # 50% of the $400,000 remainder
    rd = R.parse(["f_reference=prior_grant"])
    a = evaluate(app, readings=rd)
    assert a.amount == 29_000_000                         # the limit for earlier grantees; 50% of $1,000,000 no longer binds
    assert a.binding == ("prior_grant_room",)


def test_the_engines_hold_no_copy_of_the_caps():
    """The caps are written once, in core/law/caps.py: the three engines only run it."""
    core = ROOT / "core" / "law"
    for name in ("award.py", "batch.py", "lines.py"):
        text = (core / name).read_text(encoding="utf-8")
        for formula in ("floor_share(", "ceil_share(", "prior_grant_ceiling -", "master_plan_cap", "state_share *",
                        "* rs.state_share", "* rs.number(\"state_share\")", "local_share.numerator", "bpw_eligible_types and"):
            assert formula not in text, (name, formula)
        assert "from core.law.caps import" in text


def _award(data: dict, *readings: str):
    return evaluate(Application.from_dict(data), None, R.parse(list(readings)))


@pytest.mark.parametrize("data", [
    {"project_type": "conversion", "eligible_cost": "0", "bpw_exception": {"local_property_value": "1000000"}},
    {"project_type": "conversion", "eligible_cost": "100000", "federal_grant": "100000",
     "bpw_exception": {"local_property_value": "1000000"}},
], ids=["cost-0", "all-federal"])
def test_defect_1_a_board_exception_grant_is_never_larger_than_the_cost(data):
    a = _award(data, "funding_need_cap=none")
    assert (a.amount, a.binding, a.route) == (0, ("cost_share",), "standard")
    assert a.routes["bpw_exception"].caps["full_cost"] == 0
    assert a.routes["bpw_exception"].binding == ("full_cost",)
    batch = evaluate_parsed(frame_of([a.application]), load(), R.parse(["funding_need_cap=none"]))
    assert (int(batch.award[0]), batch.binding[0], batch.route[0]) == (0, "cost_share", "standard")


def test_defect_1_the_cost_binds_on_the_exception_route():
    a = _award({"project_type": "renovation", "eligible_cost": "500000",
                "bpw_exception": {"local_property_value": "1000000"}}, "funding_need_cap=none")
    assert (a.amount, a.binding, a.route) == (50_000_000, ("full_cost",), "bpw_exception")
    assert a.binding_text == "the cost of the eligible work ($500,000)"


def test_defect_2_federal_law_contrary_measures_the_need_and_the_match_on_the_whole_cost():
    a = _award({"project_type": "conversion", "eligible_cost": "1000000", "federal_grant": "500000",
                "federal_law_contrary": True, "local_contribution": "500000"})
    assert (a.amount, a.binding) == (50_000_000, ("cost_share", "funding_need"))
    assert a.remaining == a.base == 100_000_000
    assert a.check("local_match").message == ("Local contributions of $500,000 meet the 50% match of $500,000 of the "
                                              "whole cost of eligible work (the federal grant is not applied first).")
    texts = {s.provision: s.text for s in a.steps}
    assert texts["federal_first"].startswith("Federal law requires otherwise, so the $500,000 federal grant is not "
                                             "applied first: the State grant comes before it")
    assert texts["funding_need"] == ("Before the federal grant, with $500,000 of local contributions, the project "
                                     "still lacks $500,000; the State does not pay more than what the project still lacks.")


def test_defect_3_prior_program_funds_close_the_exception_in_words_that_say_why():
    a = _award({"project_type": "renovation", "eligible_cost": "300000", "prior_program_funds": "100000",
                "bpw_exception": {"local_property_value": "1000000"}})
    assert (a.amount, a.binding, a.route) == (15_000_000, ("cost_share",), "standard")
    assert "bpw_exception" not in a.routes
    check = a.check("bpw_no_state_funds")
    assert (check.status, check.message) == (
        "fail", "This grantee already received $100,000 under this program for this project. Not told otherwise, we "
                "presume those State funds went into the property or building, so the exception is not available; if "
                "they did not (an earlier planning grant for a new building, say), answer no to “Prior program funds "
                "went into this property or building”.")
    assert a.check("bpw_property_value").status == "not_applicable"
    assert "No State funds were used" not in " ".join(c.message for c in a.checks)


# Issue 35: prior program funds are evidence, not proof; the applicant may say where they went.
PLANNING_GRANT = {"project_type": "construction", "eligible_cost": "500000", "prior_program_funds": "15000",
                  "bpw_exception": {"local_property_value": "2000000"}}


@pytest.mark.parametrize("stated, amount, route, status, words", [
    (None, 25_000_000, "standard", "fail", "Not told otherwise, we presume those State funds went into the property"),
    (True, 25_000_000, "standard", "fail", "as stated, those State funds went into the property or building"),
    (False, 28_500_000, "bpw_exception", "pass", "As stated, the $15,000 this grantee already received under this "
                                                 "program did not go into the property or building"),
])
def test_prior_funds_close_the_board_route_only_where_they_went_into_the_property(stated, amount, route, status, words):
    data = {**PLANNING_GRANT, "bpw_exception": {**PLANNING_GRANT["bpw_exception"], "prior_funds_for_property": stated}}
    a = _award(data)
    assert (a.amount, a.route) == (amount, route)
    if route == "bpw_exception":
        assert a.binding == ("prior_grant_room",)   # $300,000 less the $15,000 already received
    check = a.check("bpw_no_state_funds")
    assert check.status == status and words in check.message
    assert a.application.to_dict()["bpw_exception"]["prior_funds_for_property"] is stated


def test_state_funds_in_the_property_close_the_route_whatever_is_said_of_the_prior_funds():
    data = {**PLANNING_GRANT, "bpw_exception": {**PLANNING_GRANT["bpw_exception"], "prior_funds_for_property": False,
                                                "state_funds_in_property": True}}
    a = _award(data)
    assert (a.amount, a.route, a.check("bpw_no_state_funds").status) == (25_000_000, "standard", "fail")


def test_defect_4_f_reference_prior_grant_keeps_the_remainder_limit_on_the_exception_route():
    data = {"project_type": "construction", "eligible_cost": "800000", "federal_grant": "200000",
            "bpw_exception": {"local_property_value": "1000000"}}
    a = _award(data, "f_reference=prior_grant")
    assert (a.amount, a.binding, a.route) == (30_000_000, ("cost_share",), "standard")
    assert a.routes["bpw_exception"].caps["cost_share"] == 30_000_000
    default = _award(data)
    assert (default.amount, default.route) == (60_000_000, "bpw_exception")
    assert [(o["reading"], o["alternative"], o["award"]) for o in default.other_readings()] == \
        [("f_reference", "prior_grant", 30_000_000)]


def test_under_f_reference_prior_grant_no_federal_grant_leaves_the_exception_route_as_it_was():
    a = _award({"project_type": "construction", "eligible_cost": "800000",
                "bpw_exception": {"local_property_value": "1000000"}}, "f_reference=prior_grant")
    assert (a.amount, a.route) == (60_000_000, "bpw_exception") and "cost_share" not in a.caps


def test_prior_grant_limit_below_only_leaves_a_grantee_at_or_above_300000_to_the_other_limits():
    data = {"project_type": "renovation", "eligible_cost": "900000", "prior_program_funds": "350000"}
    ceiling, below = _award(data), _award(data, "prior_grant_limit=below_only")
    assert (ceiling.amount, ceiling.binding) == (0, ("prior_grant_room",))
    assert (below.amount, below.binding) == (45_000_000, ("cost_share",))
    assert "prior_grant_room" not in below.caps
    assert below.check("prior_grant_room").status == "not_applicable"
    assert [(o["reading"], o["award"]) for o in ceiling.other_readings()] == [("prior_grant_limit", 45_000_000)]
    assert [(o["reading"], o["award"]) for o in below.other_readings()] == [
        ("local_match_effect", 0), ("prior_grant_limit", 0)]
    assert "under the reading “Every earlier grantee, up to $300,000 in all” no additional grant is available" in \
        ceiling.check("prior_grant_room").message


def test_prior_grant_limit_jumps_exactly_at_300000_in_the_sweep():
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": "900000"})
    s = sweep(app, "prior_program_funds", 0, 40_000_000, readings=R.parse(["prior_grant_limit=below_only"]))
    assert [(b.value, b.award, b.binding_after) for b in s.breakpoints] == [
        (1, 29_999_999, ("prior_grant_room",)), (30_000_000, 45_000_000, ("cost_share",))]
    assert evaluate(app.replace(prior_program_funds=29_999_999), None,
                    R.parse(["prior_grant_limit=below_only"])).amount == 1
