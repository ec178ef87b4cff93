"""The three engines (one application, batch, breakpoints) run core.law's one statement of
the caps; these tests hold them to each other and to an independent computation written
straight from RULES.md, under every ruleset and all 16 combinations of readings."""
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from core import readings as R
from core.analysis import Line, _constant_lines, _regime, raw_caps, sweep, SWEEP_FIELDS
from core.application import Application
from core.award import award_amount, evaluate, other_readings
from core.batch import evaluate_parsed, frame_of
from core.law import Step
from core.rulesets import available, load

from tests.strategies import applications

EVERY = R.every()
RULESETS = [load(i) for i in available()]


def independent(app: Application, rs, rd: R.Readings) -> tuple[int, str]:
    """(award in cents, route), computed again from RULES.md without core.law."""
    cost, fed, local, prior = app.eligible_cost, app.federal_grant, app.local_contribution, app.prior_program_funds
    remaining = max(0, cost - fed)
    whole = app.federal_law_contrary or (rd.f_reference == "prior_grant" and prior > 0)
    base = cost if whole else remaining
    limits = [rs.master_plan_cap if app.project_type == "master_plan" else rs.capital_cap]
    if rd.funding_need_cap == "applies":
        limits.append(max(0, remaining - local))
    if prior > 0:
        limits.append(max(0, rs.prior_grant_ceiling - prior))
    if app.requested_amount is not None:
        limits.append(app.requested_amount)
    share = rs.state_share
    standard_limits = limits + [base * share.numerator // share.denominator]
    match_of = cost if rd.local_match_base == "total_cost" else remaining
    ls = rs.local_share
    required = -(-match_of * ls.numerator // ls.denominator)
    if rd.local_match_effect == "condition" and local < required:
        standard_limits.append(0)
    standard = max(0, min(standard_limits))
    if (app.bpw_exception_requested and app.project_type in rs.bpw_eligible_types
            and not app.state_funds_in_property and not app.state_bonded_debt):
        exception = max(0, min(limits + [app.local_property_value]))
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
        flat = _constant_lines(app, rs, "eligible_cost", app.eligible_cost, rd)
        state, award = _regime(flat, Fraction(app.eligible_cost))
        assert math.floor(award) == a.amount
        assert state.route == a.route


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
    assert a.amount == 20_000_000  # prior-grant room 200,000 binds below the 300,000 share of the remainder
    others = {o["reading"]: o for o in other_readings(app)}
    assert set(others) == {"local_match_effect"}
    assert others["local_match_effect"]["award"] == 0
    d = a.to_dict()
    assert d["readings"] == {"f_reference": "board_exception", "local_match_base": "remaining",
                             "local_match_effect": "check", "funding_need_cap": "applies"}
    assert d["other_readings"] == [{"reading": "local_match_effect", "alternative": "condition",
                                    "award": "0.00", "binding": ["local_match"]}]


def test_f_reference_prior_grant_lifts_the_remainder_limit_for_additional_work():
    app = Application.from_dict(dict(project_type="renovation", eligible_cost=1_000_000, federal_grant=600_000,
                                     local_contribution=0, prior_program_funds=10_000))
    assert evaluate(app).amount == 20_000_000             # 50% of the $400,000 remainder
    rd = R.parse(["f_reference=prior_grant"])
    a = evaluate(app, readings=rd)
    assert a.amount == 29_000_000                         # prior-grant room; 50% of $1,000,000 no longer binds
    assert a.binding == ("prior_grant_room",)


def test_readings_parse_rejects_unknown_ids_and_alternatives_by_name():
    with pytest.raises(R.ReadingError, match="unknown reading 'f_ref'"):
        R.parse(["f_ref=prior_grant"])
    with pytest.raises(R.ReadingError, match="f_reference: unknown alternative 'sideways'"):
        R.parse(["f_reference=sideways"])
    assert len(R.every()) == 16 and len(set(R.every())) == 16
    assert R.every()[0] == R.DEFAULT


@pytest.mark.parametrize("command", [
    ["evaluate", "-"], ["batch", "in.csv", "-o", "out.csv"], ["sweep", "eligible_cost", "--from", "0", "--to", "1", "-"],
    ["allocate", "in.csv", "--budget", "1", "-o", "out.csv"], ["report", "-", "-o", "r.html"]])
@pytest.mark.parametrize("bad,message", [("f_ref=prior_grant", "error: unknown reading 'f_ref'; known: "),
                                         ("f_reference=sideways", "error: reading f_reference: unknown alternative "
                                                                  "'sideways'; use one of board_exception, prior_grant")])
def test_every_command_rejects_an_unknown_reading_in_one_line(command, bad, message, tmp_path, capsys, monkeypatch):
    from core.cli import main
    monkeypatch.chdir(tmp_path)
    assert main(command + ["--reading", bad]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(message)


def test_batch_sweep_and_report_take_readings(tmp_path):
    import json as _json
    import subprocess
    import sys
    src = tmp_path / "in.csv"
    src.write_text("project_type,eligible_cost,local_contribution,prior_program_funds\n"
                   "renovation,900000,0,250000\n", encoding="utf-8")
    cond = ["--reading", "local_match_effect=condition"]
    out = tmp_path / "out.csv"
    subprocess.run([sys.executable, "-m", "core", "batch", str(src), "-o", str(out), *cond], check=True)
    assert "0.00,local_match,standard" in out.read_text()
    doc = _json.dumps({"project_type": "renovation", "eligible_cost": 900000, "prior_program_funds": 250000})
    p = subprocess.run([sys.executable, "-m", "core", "sweep", "local_contribution", "--from", "0", "--to", "900000",
                        "-", *cond], input=doc, capture_output=True, text=True, check=True)
    sw = _json.loads(p.stdout)
    assert sw["readings"]["local_match_effect"] == "condition"
    assert [(b["value"], b["award"]) for b in sw["breakpoints"]][0] == ("450000.00", "50000.00")
    html = tmp_path / "r.html"
    subprocess.run([sys.executable, "-m", "core", "report", "-", "-o", str(html), *cond],
                   input=_json.dumps([{"name": "Ex 6", "project_type": "renovation", "eligible_cost": 900000,
                                       "prior_program_funds": 250000}]), text=True, check=True)
    text = html.read_text()
    assert "local_match_effect=condition" in text and "A condition of any award" in text


def test_the_engines_hold_no_copy_of_the_caps():
    """The caps are written once, in core/law.py: the three engines only run it."""
    from pathlib import Path
    core = Path(__file__).resolve().parents[1] / "core"
    for name in ("award.py", "batch.py", "analysis.py"):
        text = (core / name).read_text(encoding="utf-8")
        for formula in ("floor_share(", "ceil_share(", "prior_grant_ceiling -", "master_plan_cap", "state_share *",
                        "* rs.state_share", "local_share.numerator", "bpw_eligible_types and"):
            assert formula not in text, (name, formula)
        assert "from core.law import" in text
