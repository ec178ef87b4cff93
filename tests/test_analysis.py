"""Breakpoints: exact on hand-worked cases, and agreeing with dense sampling (hypothesis)."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from core.law.analysis import closing_local, describe, grid, sweep, what_would_change
from core.law.application import Application
from core.law.award import evaluate
from tests.strategies import applications


def app(**kw):
    return Application.from_dict({"project_type": "construction"} | kw)


def values(sw):
    return [(b.value, b.binding_before, b.binding_after) for b in sw.breakpoints]


def test_a_sweep_told_where_to_stop_ends_at_the_first_breakpoint_that_passes():
    """what_would_change names only the first breakpoint above an input: the sweep it asks for
    ends there (the awards beyond are not worked out), and is the full sweep's beginning."""
    a = app(eligible_cost=1_000_000, local_contribution=500_000)
    full = sweep(a, "eligible_cost", 0, 500_000_000, points=False)
    short = sweep(a, "eligible_cost", 0, 500_000_000, points=False, stop=lambda b: b.value > 60_000_000)
    assert short.breakpoints == full.breakpoints[:2]
    assert [b.value for b in short.breakpoints] == [50_000_000, 100_000_000]
    none = sweep(a, "eligible_cost", 0, 500_000_000, points=False, stop=lambda b: False)
    assert none.breakpoints == full.breakpoints
    with pytest.raises(ValueError, match="stop: only a sweep without points may end early"):
        sweep(a, "eligible_cost", 0, 500_000_000, stop=lambda b: True)


def test_issue_example_cost_kinks():
    sw = sweep(app(eligible_cost=1_000_000, local_contribution=500_000), "eligible_cost", 0, 500_000_000)
    assert values(sw) == [(50_000_000, ("funding_need",), ("funding_need",)),
                          (100_000_000, ("funding_need",), ("cost_share",)),
                          (120_000_000, ("cost_share",), ("program_max",))]
    assert [b.award for b in sw.breakpoints] == [0, 50_000_000, 60_000_000]
    assert describe(sw.breakpoints[2], "eligible_cost") == "Program maximum binds from $1,200,000 of total cost of eligible work"


def test_federal_and_local_sweeps():
    a = app(eligible_cost=1_000_000, local_contribution=300_000)
    assert values(sweep(a, "federal_grant", 0, 100_000_000)) == [
        (40_000_000, ("cost_share",), ("funding_need",)), (70_000_000, ("funding_need",), ("funding_need",))]
    assert values(sweep(a, "local_contribution", 0, 120_000_000)) == [
        (50_000_000, ("cost_share",), ("funding_need",)), (100_000_000, ("funding_need",), ("funding_need",))]


def test_prior_funds_jump_and_floor():
    a = app(project_type="renovation", eligible_cost=900_000)
    sw = sweep(a, "prior_program_funds", 0, 50_000_000)
    assert values(sw) == [(1, ("cost_share",), ("prior_grant_room",)),
                          (30_000_000, ("prior_grant_room",), ("prior_grant_room",))]


def test_requested_and_property_value_sweeps():
    a = app(eligible_cost=1_000_000, local_contribution=100_000)
    assert values(sweep(a, "requested_amount", 0, 100_000_000)) == [(50_000_000, ("requested_amount",), ("cost_share",))]
    sw = sweep(a.replace(bpw_exception_requested=True), "local_property_value", 0, 100_000_000)
    assert [(b.value, b.route_after, b.binding_after) for b in sw.breakpoints] == [
        (50_000_000, "bpw_exception", ("property_value",)), (60_000_000, "bpw_exception", ("program_max",))]


def test_odd_share_breakpoint_reported_at_first_cent():
    from core.law.rulesets import load
    rs = load().with_changes("third", "Third", {"state_share": "0.3333"})
    sw = sweep(app(eligible_cost=1_000_000, local_contribution=600_000), "eligible_cost", 0, 500_000_000, rs)
    exact = [b.exact for b in sw.breakpoints]
    assert all(b.value == -(-b.exact.numerator // b.exact.denominator) for b in sw.breakpoints)
    assert any(e.denominator != 1 for e in exact)


def test_what_would_change_sentences():
    lines = what_would_change(app(eligible_cost=1_000_000, local_contribution=500_000))
    assert lines[0] == ("Each extra $1 of total cost of eligible work adds $0.50 of award until $1,200,000, "
                        "where program maximum takes over.")
    lines = what_would_change(app(eligible_cost=3_000_000, local_contribution=100_000, project_type="renovation"))
    assert lines[0] == "Costs above $1,200,000 no longer raise the award (program maximum binds)."


def test_closing_local():
    a = app(eligible_cost=3_000_000, local_contribution=1_500_000)
    assert closing_local(a) == 240_000_000
    assert evaluate(a.replace(local_contribution=240_000_000)).funding_gap == 0
    assert evaluate(a.replace(local_contribution=239_999_999)).funding_gap == 1


@settings(max_examples=settings.default.max_examples * 2 // 5, deadline=None)  # 40 of the usual 100
# Pinned: the route changes along the sweep (both ways), and the top-up cap appearing at one cent.
@example(Application("renovation", 100_000_000, local_contribution=10_000_000, bpw_exception_requested=True,
                     local_property_value=70_000_000), "eligible_cost", 150_000_000)
@example(Application("construction", 100_000_000, bpw_exception_requested=True, local_property_value=30_000_000),
         "federal_grant", 120_000_000)
@example(Application("renovation", 90_000_000), "prior_program_funds", 40_000_000)
@given(applications(), st.sampled_from(["eligible_cost", "federal_grant", "local_contribution",
                                        "prior_program_funds", "requested_amount", "local_property_value"]),
       st.integers(1, 300_000_000))
def test_breakpoints_agree_with_dense_sampling(a, field, hi):
    """Between breakpoints the award is linear; every sampled slope change is a breakpoint."""
    if field == "local_property_value" and not a.bpw_exception_requested:
        a = a.replace(bpw_exception_requested=True)
    sw = sweep(a, field, 0, hi)
    cuts = [0] + [b.value for b in sw.breakpoints] + [hi]
    xs = np.unique(np.linspace(0, hi, 400).round().astype(np.int64))
    award = {int(x): evaluate(a.replace(**{field: int(x)})).amount for x in xs}
    for lo_, hi_ in zip(cuts, cuts[1:]):
        inside = [x for x in award if lo_ + 2 <= x <= hi_ - 2]
        if len(inside) < 3:
            continue
        x0, x1 = inside[0], inside[-1]
        for x in inside:   # linear within a cent of rounding (shares are floored)
            line = Fraction(award[x0]) + Fraction(award[x1] - award[x0], x1 - x0) * (x - x0)
            assert abs(award[x] - line) <= 1, (field, lo_, hi_, x)


def test_grid_equals_scalar():
    a = app(eligible_cost=1_000_000, local_contribution=500_000)
    xs = np.array([0, 50_000_000, 100_000_000, 150_000_000])
    ys = np.array([0, 30_000_000, 90_000_000])
    award, binding = grid(a, "eligible_cost", xs, "local_contribution", ys)
    for i, y in enumerate(ys):
        for j, x in enumerate(xs):
            r = evaluate(a.replace(eligible_cost=int(x), local_contribution=int(y)))
            assert (award[i, j], binding[i, j]) == (r.amount, ";".join(r.binding))
    with pytest.raises(ValueError, match="must differ"):
        grid(a, "eligible_cost", xs, "eligible_cost", ys)


def test_map_figure_outlines_and_labels_regions():
    from core.report.charts import map_figure
    a = app(eligible_cost=1_000_000, local_contribution=500_000)
    xs = np.linspace(0, 500_000_000, 60).round().astype(np.int64)
    ys = np.linspace(0, 300_000_000, 60).round().astype(np.int64)
    award, binding = grid(a, "eligible_cost", xs, "local_contribution", ys)
    fig = map_figure(xs, ys, award, binding, "Cost", "Local", (100_000_000, 50_000_000))
    kinds = [t.type for t in fig.data]
    assert kinds == ["heatmap", "contour", "scatter"]
    labels = {an.text for an in fig.layout.annotations}
    assert {"<b>program maximum</b>", "<b>State share limit</b>", "<b>funding need</b>"} <= labels
    assert fig.layout.title.text == "Which cap binds where" and fig.layout.xaxis.title.text == "Cost ($)"


# ---------------------------------------------------------------- the review's sentence defects (issue 26)

def test_a_zero_award_is_never_said_to_fall_further():
    lines = what_would_change(app(project_type="renovation", eligible_cost="0.01"))
    assert lines[1] == "Raising the federal grant from $0 does not change the $0 award."


def test_no_change_point_less_than_a_dollar_away_and_none_where_the_award_does_not_move():
    """At $1,000,000.01 with $500,000 local the State share and the funding need tie a cent away:
    that is no change worth a sentence, and funding need 'taking over' where it binds already is none."""
    lines = what_would_change(app(project_type="renovation", eligible_cost="1000000.01", local_contribution=500_000))
    assert lines[1:3] == ["Each extra $1 of federal grant takes away $1 of award until $500,000.01, where the award "
                          "reaches $0.",
                          "Each extra $1 of local contribution takes away $1 of award until $1,000,000.01, where the "
                          "award reaches $0."]
    assert not any("$0.01, where" in line or "takes over" in line for line in lines[1:3])


def test_a_change_point_within_a_dollar_is_described_from_where_it_holds():
    lines = what_would_change(app(project_type="renovation", eligible_cost="1199999.50"))
    assert lines[0] == "Costs above $1,200,000 no longer raise the award (program maximum binds)."


def test_the_board_route_is_named_in_what_would_change():
    lines = what_would_change(app(eligible_cost=800_000, federal_grant=200_000,
                                  bpw_exception={"local_property_value": "1000000"}))
    assert lines[1] == ("On the Board's exception route, if the Board approves, each extra $1 of federal grant takes "
                        "away $1 of award until $800,000, where the award reaches $0.")
    assert lines[3] == ("Any prior program funds would close the Board's exception (State funds would then have gone "
                        "into the building) and cut the award to $299,999.99.")
    lower = what_would_change(app(project_type="renovation", eligible_cost=1_000_000, local_contribution=100_000,
                                  bpw_exception={"local_property_value": "450000"}))
    assert lower[-2] == ("Raising the value of property made available locally from $450,000 does not change the "
                         "award until $500,000, where value of local property takes over (the Board's exception route).")


def test_a_jump_up_is_said_as_a_jump():
    from core.law.readings import parse
    lines = what_would_change(app(project_type="renovation", eligible_cost=900_000, prior_program_funds=200_000),
                              None, parse(["prior_grant_limit=below_only"]))
    assert lines[3] == ("Each extra $1 of prior program funds takes away $1 of award until $300,000, where the award "
                        "jumps to $450,000 (State share limit).")
