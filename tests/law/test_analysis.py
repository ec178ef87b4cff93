"""Breakpoints and what would change it (core/law/analysis.py): exact on hand-worked cases,
agreeing with dense sampling, whole sentences at their edges."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from core.law.analysis import describe, grid, sweep, Breakpoint
from core.law.changes import closing_local, what_would_change
from core.law.application import Application
from core.law.award import evaluate
from core.law.money import MAX_CENTS
from core.law.readings import Readings, every
from core.law.rulesets import load
from core.law.fields import FIELDS
from tests.support import about, in_order, same_sentences
from tests.support.builders import application, application as app
from tests.support.strategies import applications


def construction(**fields):  # the breakpoints' cases are of this type
    """An application: a construction unless told otherwise."""
    return application(**({"project_type": "construction"} | fields))


def values(sw):
    return [(b.value, b.binding_before, b.binding_after) for b in sw.breakpoints]


def test_a_sweep_told_where_to_stop_ends_at_the_first_breakpoint_that_passes():
    """what_would_change names only the first breakpoint above an input: the sweep it asks for
    ends there (the awards beyond are not worked out), and is the full sweep's beginning."""
    a = construction(eligible_cost=1_000_000, local_contribution=500_000)
    full = sweep(a, "eligible_cost", 0, 500_000_000, points=False)
    short = sweep(a, "eligible_cost", 0, 500_000_000, points=False, stop=lambda b: b.value > 60_000_000)
    assert short.breakpoints == full.breakpoints[:2]
    assert [b.value for b in short.breakpoints] == [50_000_000, 100_000_000]
    none = sweep(a, "eligible_cost", 0, 500_000_000, points=False, stop=lambda b: False)
    assert none.breakpoints == full.breakpoints
    with pytest.raises(ValueError, match="stop: only a sweep without points may end early"):
        sweep(a, "eligible_cost", 0, 500_000_000, stop=lambda b: True)


def test_issue_example_cost_kinks():
    sw = sweep(construction(eligible_cost=1_000_000, local_contribution=500_000), "eligible_cost", 0, 500_000_000)
    assert values(sw) == [(50_000_000, ("funding_need",), ("funding_need",)),
                          (100_000_000, ("funding_need",), ("cost_share",)),
                          (120_000_000, ("cost_share",), ("program_max",))]
    assert [b.award for b in sw.breakpoints] == [0, 50_000_000, 60_000_000]
    assert describe(sw.breakpoints[2], "eligible_cost") == "The program maximum holds the award down from $1,200,000 of total cost of eligible work"


def test_federal_and_local_sweeps():
    a = construction(eligible_cost=1_000_000, local_contribution=300_000)
    assert values(sweep(a, "federal_grant", 0, 100_000_000)) == [
        (40_000_000, ("cost_share",), ("funding_need",)), (70_000_000, ("funding_need",), ("funding_need",))]
    assert values(sweep(a, "local_contribution", 0, 120_000_000)) == [
        (50_000_000, ("cost_share",), ("funding_need",)), (100_000_000, ("funding_need",), ("funding_need",))]


def test_prior_funds_jump_and_floor():
    a = construction(project_type="renovation", eligible_cost=900_000)
    sw = sweep(a, "prior_program_funds", 0, 50_000_000)
    assert values(sw) == [(1, ("cost_share",), ("prior_grant_room",)),
                          (30_000_000, ("prior_grant_room",), ("prior_grant_room",))]


def test_requested_and_property_value_sweeps():
    a = construction(eligible_cost=1_000_000, local_contribution=100_000)
    assert values(sweep(a, "requested_amount", 0, 100_000_000)) == [(50_000_000, ("requested_amount",), ("cost_share",))]
    sw = sweep(a.replace(bpw_exception_requested=True), "local_property_value", 0, 100_000_000)
    assert [(b.value, b.route_after, b.binding_after) for b in sw.breakpoints] == [
        # at $500,000 both routes give $500,000 and a tie keeps the standard route: the Board's from the next cent
        (50_000_001, "bpw_exception", ("property_value",)), (60_000_000, "bpw_exception", ("program_max",))]


def test_odd_share_breakpoint_reported_at_first_cent():
    from core.law.rulesets import load
    rs = load().with_changes("third", "Third", {"state_share": "0.3333"})
    sw = sweep(construction(eligible_cost=1_000_000, local_contribution=600_000), "eligible_cost", 0, 500_000_000, rs)
    exact = [b.exact for b in sw.breakpoints]
    assert all(b.value == -(-b.exact.numerator // b.exact.denominator) for b in sw.breakpoints)
    assert any(e.denominator != 1 for e in exact)


def test_what_would_change_sentences():
    lines = what_would_change(construction(eligible_cost=1_000_000, local_contribution=500_000))
    assert about(lines, "total cost of eligible work") == ("Each extra $1 of total cost of eligible work adds $0.50 of award until $1,200,000, "
                        "where the program maximum takes over.")
    lines = what_would_change(construction(eligible_cost=3_000_000, local_contribution=100_000, project_type="renovation"))
    assert about(lines, "Costs above") == "Costs above $1,200,000 no longer raise the award (the program maximum holds the award down)."


def test_closing_local():
    a = construction(eligible_cost=3_000_000, local_contribution=1_500_000)
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
    a = construction(eligible_cost=1_000_000, local_contribution=500_000)
    xs = np.array([0, 50_000_000, 100_000_000, 150_000_000])
    ys = np.array([0, 30_000_000, 90_000_000])
    award, binding = grid(a, "eligible_cost", xs, "local_contribution", ys)
    for i, y in enumerate(ys):
        for j, x in enumerate(xs):
            r = evaluate(a.replace(eligible_cost=int(x), local_contribution=int(y)))
            assert (award[i, j], binding[i, j]) == (r.amount, ";".join(r.binding))
    with pytest.raises(ValueError, match="must differ"):
        grid(a, "eligible_cost", xs, "eligible_cost", ys)


@pytest.mark.slow   # a subprocess, or drawing: not in each mutant's run
def test_map_figure_outlines_and_labels_regions():
    from core.report.charts.sensitivity import map_figure
    a = construction(eligible_cost=1_000_000, local_contribution=500_000)
    xs = np.linspace(0, 500_000_000, 60).round().astype(np.int64)
    ys = np.linspace(0, 300_000_000, 60).round().astype(np.int64)
    award, binding = grid(a, "eligible_cost", xs, "local_contribution", ys)
    fig = map_figure(xs, ys, award, binding, "Cost", "Local", (100_000_000, 50_000_000))
    kinds = [t.type for t in fig.data]
    assert kinds == ["heatmap", "contour", "scatter"]
    labels = {an.text for an in fig.layout.annotations}
    assert {"<b>the program maximum</b>", "<b>the State's share of the cost</b>", "<b>what the project still lacks</b>"} <= labels
    assert fig.layout.title.text == "Which limit holds the award down where" and fig.layout.xaxis.title.text == "Cost ($)"


def test_a_zero_award_is_never_said_to_fall_further():
    lines = what_would_change(construction(project_type="renovation", eligible_cost="0.01"))
    assert about(lines, "federal grant") == "Raising the federal grant from $0 does not change the $0 award."


def test_an_award_of_cents_that_a_cent_of_federal_grant_ends_is_not_called_the_0_award():
    """Cost $0.03: the award is $0.01, and $0.02 of federal grant takes it to $0.00 (a change less than
    $1 away, so no change point); the award is not $0 to begin with."""
    app = construction(project_type="renovation", eligible_cost="0.03")
    assert evaluate(app).amount == 1
    assert about(what_would_change(app), "federal grant") == "Raising the federal grant from $0 moves the award by less than $1."


def test_no_change_point_less_than_a_dollar_away_and_none_where_the_award_does_not_move():
    """At $1,000,000.01 with $500,000 local the State share and what the project still lacks tie a cent away:
    that is no change worth a sentence, and what the project still lacks 'taking over' where it binds already is none."""
    lines = what_would_change(construction(project_type="renovation", eligible_cost="1000000.01", local_contribution=500_000))
    assert [about(lines, "federal grant"), about(lines, "local contribution")] == ["Each extra $1 of federal grant takes away $1 of award until $500,000.01, where the award "
                          "reaches $0.",
                          "Each extra $1 of local contribution takes away $1 of award until $1,000,000.01, where the "
                          "award reaches $0."]
    assert not any("$0.01, where" in line or "takes over" in line
                   for line in (about(lines, "federal grant"), about(lines, "local contribution")))


def test_a_change_point_within_a_dollar_is_described_from_where_it_holds():
    lines = what_would_change(construction(project_type="renovation", eligible_cost="1199999.50"))
    assert about(lines, "Costs above") == "Costs above $1,200,000 no longer raise the award (the program maximum holds the award down)."


def test_the_board_route_is_named_in_what_would_change():
    lines = what_would_change(construction(eligible_cost=800_000, federal_grant=200_000,
                                  bpw_exception={"local_property_value": "1000000"}))
    assert about(lines, "of federal grant") == ("If the Board approves, each extra $1 of federal grant takes away $1 of award until $800,000, "
                        "where the award reaches $0. Without that approval the award would be $300,000 (the standard "
                        "route), and each extra $1 of federal grant takes away $0.50 of it until $800,000, where the "
                        "award reaches $0.")
    assert about(lines, "Any prior program funds") == ("Any prior program funds would close the Board's exception route (program funds already "
                        "received are presumed to have gone into the building) and make the award $299,999.99 (the "
                        "limit for earlier grantees); from there, each extra $1 of them takes away $1 of award until "
                        "$300,000, where the award reaches $0.")
    lower = what_would_change(construction(project_type="renovation", eligible_cost=1_000_000, local_contribution=100_000,
                                  bpw_exception={"local_property_value": "450000"}))
    assert about(lower, "Raising the value of property") == ("Raising the value of property made available locally from $450,000 does not change the "
                         "award until $500,000.01, from where the Board's exception route, if the Board approves, gives "
                         "more (the value of the property made available locally holds the award down).")


def test_a_jump_up_is_said_as_a_jump():
    from core.law.readings import parse
    lines = what_would_change(construction(project_type="renovation", eligible_cost=900_000, prior_program_funds=200_000),
                              None, parse(["prior_grant_limit=below_only"]))
    assert about(lines, "of prior program funds") == ("Each extra $1 of prior program funds takes away $1 of award until $300,000, where the award "
                        "jumps to $450,000 (the State's share of the cost).")


# Variants whose figures differ from the regulation's wherever the changed parameter matters.
THIRD = load().with_changes("third", "Third", {"state_share": "0.3333"})       # State share 33.33%


LOW_CEILING = load().with_changes("low", "Low ceiling", {"prior_grant_ceiling": "200000"})


SIXTY_LOCAL = load().with_changes("sixty", "Sixty", {"local_share": "0.6"})  # local match 60%


TINY_CAP = load().with_changes("tiny", "Tiny cap", {"capital_cap": "0.10"})    # the program maximum 10 cents


# Local match of the whole cost, as a condition of any standard award.
CONDITION = Readings(local_match_base="total_cost", local_match_effect="condition")


PRIOR_GRANT = Readings(f_reference="prior_grant")


SENTENCES = [
    # 1. A variant ruleset: the State share of $400,000 is $133,320, so the limit for earlier grantees of
    #    $300,000 starts to cut above $166,680, and $66,680 more local funds close the gap.
    ("third ruleset", app(eligible_cost=400_000, local_contribution=200_000), THIRD, None, [
        "Each extra $1 of total cost of eligible work adds $0.33 of award until $1,800,180.02, where "
        "the program maximum takes over.",
        "Each extra $1 of federal grant takes away $0.33 of award until $100,015, where what the "
        "project still lacks takes over.",
        "Raising the local contribution from $200,000 does not change the award until $266,680, where"
        " what the project still lacks takes over.",
        "Raising the prior program funds from $0 does not change the award until $166,680, where the "
        "limit for earlier grantees takes over.",
        "Another $66,680 of local funds closes the $66,680 funding gap."]),
    # 2. Reading f_reference=prior_grant: one cent of prior funds lifts the 50%-of-remainder limit
    #    ($200,000) to 50% of the whole cost; the room of $300,000 less one cent then holds the award down.
    ("one cent of prior funds", app(eligible_cost=1_000_000, federal_grant=600_000), None, PRIOR_GRANT, [
        "Each extra $1 of total cost of eligible work adds $0.50 of award until $1,800,000, where the"
        " program maximum takes over.",
        "Each extra $1 of federal grant takes away $0.50 of award until $1,000,000, where the award "
        "reaches $0.",
        "Raising the local contribution from $0 does not change the award until $200,000, where what "
        "the project still lacks takes over.",
        "Any prior program funds would raise the award to $299,999.99 (the limit for earlier "
        "grantees); from there, each extra $1 of them takes away $1 of award until $300,000, where "
        "the award reaches $0.",
        "Another $200,000 of local funds closes the $200,000 funding gap."]),
    # 3. The local match of the whole cost ($500,000) as a condition: $0 until it is met, then
    #    the State share of the $600,000 remainder less... what the project still lacks of $100,000.
    ("match as a condition", app(eligible_cost=1_000_000, federal_grant=400_000), None, CONDITION, [
        "Raising the total cost of eligible work from $1,000,000 does not change the $0 award.",
        "Raising the federal grant from $400,000 does not change the $0 award.",
        "Raising the local contribution from $0 does not change the $0 award until $500,000, where it"
        " becomes $100,000 (what the project still lacks).",
        "Raising the prior program funds from $0 does not change the $0 award.",
        "Another $500,000 of local funds closes the $600,000 funding gap."]),
    # 4. Each input is followed over every accepted amount: the award starts to rise where the cost
    #    passes the $8,000,000 federal grant.
    ("range four times the input", app(eligible_cost=4_000_000, federal_grant=8_000_000), None, None, [
        "Raising the total cost of eligible work from $4,000,000 does not change the $0 award until "
        "$8,000,000, where the award starts to rise from $0.",
        "Raising the federal grant from $8,000,000 does not change the $0 award.",
        "Raising the local contribution from $0 does not change the $0 award.",
        "Raising the prior program funds from $0 does not change the $0 award."]),
    # 5. ... however far above the cost the federal grant is (the range once ended at 4 x the input).
    ("range ends at four times", app(eligible_cost=4_000_000, federal_grant=17_000_000), None, None, [
        "Raising the total cost of eligible work from $4,000,000 does not change the $0 award until "
        "$17,000,000, where the award starts to rise from $0.",
        "Raising the federal grant from $17,000,000 does not change the $0 award.",
        "Raising the local contribution from $0 does not change the $0 award.",
        "Raising the prior program funds from $0 does not change the $0 award."]),
    # 6. ... and however far above 4 x the program maximum.
    ("range ends at four program maximums", app(eligible_cost=500_000, federal_grant=3_200_000), None, None, [
        "Raising the total cost of eligible work from $500,000 does not change the $0 award until "
        "$3,200,000, where the award starts to rise from $0.",
        "Raising the federal grant from $3,200,000 does not change the $0 award.",
        "Raising the local contribution from $0 does not change the $0 award.",
        "Raising the prior program funds from $0 does not change the $0 award."]),
    # 7. The range starts at $0: the award starts to rise at the first cent of cost above the
    #    one-cent federal grant, less than $1 away: no change point of its own (issue 26), the
    #    sentence says what holds from there on.
    ("a change at one cent", app(eligible_cost=0, federal_grant="0.01"), None, None, [
        "Each extra $1 of total cost of eligible work adds $0.50 of award until $1,200,000.01, where "
        "the program maximum takes over.",
        "Raising the federal grant from $0.01 does not change the $0 award.",
        "Raising the local contribution from $0 does not change the $0 award.",
        "Raising the prior program funds from $0 does not change the $0 award."]),
    # 8. The largest accepted cost: no range above it, and costs stopped raising the award long before it;
    #    the federal grant and the local contribution reach what the project still lacks far above the input.
    ("cost at the largest amount", app(eligible_cost=10**12, local_contribution=10**11), None, None, [
        "Costs above $100,000,600,000 no longer raise the award (the program maximum holds the award down).",
        "Raising the federal grant from $0 does not change the award until $899,999,400,000, where "
        "what the project still lacks takes over.",
        "Raising the local contribution from $100,000,000,000 does not change the award until "
        "$999,999,400,000, where what the project still lacks takes over.",
        "Any prior program funds would cut the award to $299,999.99 (the limit for earlier grantees);"
        " from there, each extra $1 of them takes away $1 of award until $300,000, where the award "
        "reaches $0.",
        "Another $899,999,400,000 of local funds closes the $899,999,400,000 funding gap."]),
    # 9. A program maximum of 10 cents: the range is at least $1 (100 cents), so the federal grant
    #    of 50 cents is in it...
    #    (both the rise at $0.50 and the cap at $0.70 are less than $1 from the input: what holds
    #    beyond them is said).
    ("range of at least $1", app(eligible_cost=0, federal_grant="0.50"), TINY_CAP, None, [
        "Costs above $0.70 no longer raise the award (the program maximum holds the award down).",
        "Raising the federal grant from $0.50 does not change the $0 award.",
        "Raising the local contribution from $0 does not change the $0 award.",
        "Raising the prior program funds from $0 does not change the $0 award."]),
    # 10. ... and a change at exactly $1 is at the range's end, not in it.
    ("range of exactly $1", app(eligible_cost=0, federal_grant=1), TINY_CAP, None, [
        "Raising the total cost of eligible work from $0 does not change the $0 award until $1, where"
        " the award starts to rise from $0.",
        "Raising the federal grant from $1 does not change the $0 award.",
        "Raising the local contribution from $0 does not change the $0 award.",
        "Raising the prior program funds from $0 does not change the $0 award."]),
    # 11. From a $0 award, a change worth naming lifts it: here to one cent (the amount requested),
    #     flat after.
    #     flat after, both within a dollar of the input.
    ("lifted to one cent", app(eligible_cost=0, requested_amount="0.01"), None, None, [
        "Costs above $0.02 no longer raise the award (the amount requested holds the award down).",
        "Raising the federal grant from $0 does not change the $0 award.",
        "Raising the local contribution from $0 does not change the $0 award.",
        "Raising the prior program funds from $0 does not change the $0 award.",
        "Raising the requested amount from $0.01 does not change the $0 award."]),
    # 12. An award of one cent is an award: costs above $0.02 no longer raise it.
    ("an award of one cent", app(eligible_cost=1_000_000, requested_amount="0.01"), None, None, [
        "Costs above $0.02 no longer raise the award (the amount requested holds the award down).",
        "Raising the federal grant from $0 does not change the award until $999,999.98, where the "
        "State's share of the cost takes over.",
        "Raising the local contribution from $0 does not change the award until $1,000,000, where the"
        " award reaches $0.",
        "Raising the prior program funds from $0 does not change the award until $300,000, where the "
        "award reaches $0.",
        "Each extra $1 of requested amount adds $1 of award until $500,000, where the State's share "
        "of the cost takes over.",
        "Another $999,999.99 of local funds closes the $999,999.99 funding gap."]),
    # 13. Two caps take over together: the program maximum and a request of the same $600,000.
    ("two caps take over", app(eligible_cost=1_000_000, requested_amount=600_000), None, None, [
        "Each extra $1 of total cost of eligible work adds $0.50 of award until $1,200,000, where the"
        " program maximum and the amount requested take over.",
        "Each extra $1 of federal grant takes away $0.50 of award until $1,000,000, where the award "
        "reaches $0.",
        "Raising the local contribution from $0 does not change the award until $500,000, where what "
        "the project still lacks takes over.",
        "Any prior program funds would cut the award to $299,999.99 (the limit for earlier grantees);"
        " from there, each extra $1 of them takes away $1 of award until $300,000, where the award "
        "reaches $0.",
        "Raising the requested amount from $600,000 does not change the award.",
        "Another $500,000 of local funds closes the $500,000 funding gap."]),
    # 14. The cost is exactly where the program maximum takes over ($1,200,000): that is the
    #     point costs stop raising the award (not the $1,000,000 where the State share took over).
    ("cost at the kink", app(eligible_cost=1_200_000, local_contribution=500_000), None, None, [
        "Costs above $1,200,000 no longer raise the award (the program maximum holds the award down).",
        "Each extra $1 of federal grant takes away $0.50 of award until $200,000, where what the "
        "project still lacks takes over.",
        "Raising the local contribution from $500,000 does not change the award until $600,000, where"
        " what the project still lacks takes over.",
        "Any prior program funds would cut the award to $299,999.99 (the limit for earlier grantees);"
        " from there, each extra $1 of them takes away $1 of award until $300,000, where the award "
        "reaches $0.",
        "Another $100,000 of local funds closes the $100,000 funding gap."]),
    # 15. Match as a condition with the Board exception: above $1,400,000 of cost the $700,000 of
    #     local funds miss the match and the exception's $100,000 property value holds the award (it
    #     drops there from $600,000: "costs above $1,300,000 no longer raise the award" was said, and false,
    #     issue 35); on the Board's route each sentence says so and what the standard route gives.
    ("costs stop raising at the last rise", app(eligible_cost=2_000_000, local_contribution=700_000,
                                                bpw_exception={"local_property_value": 100_000}),
     None, Readings(local_match_effect="condition"), [
        "If the Board approves, raising the total cost of eligible work from $2,000,000 does not "
        "change the award. Without that approval the award would be $0 (the standard route), and "
        "raising the total cost of eligible work from $2,000,000 does not change it.",
        "If the Board approves, raising the federal grant from $0 does not change the award until "
        "$600,000, where the award jumps to $600,000 (the program maximum), on the standard route. "
        "Without that approval the award would be $0 (the standard route), and raising the federal "
        "grant from $0 does not change it until $600,000, where it becomes $600,000 (the program "
        "maximum).",
        "If the Board approves, raising the local contribution from $700,000 does not change the "
        "award until $1,000,000, where the award jumps to $600,000 (the program maximum), on the "
        "standard route. Without that approval the award would be $0 (the standard route), and "
        "raising the local contribution from $700,000 does not change it until $1,000,000, where it "
        "becomes $600,000 (the program maximum).",
        "Any prior program funds would close the Board's exception route (program funds already "
        "received are presumed to have gone into the building) and make the award $0 (the local match"
        " requirement); from there, more of them do not change the $0 award.",
        "If the Board approves, each extra $1 of value of property made available locally adds $1 of "
        "award until $600,000, where the program maximum takes over. Without that approval the award "
        "would be $0 (the standard route), whatever the value of property made available locally.",
        "Another $700,000 of local funds closes the $1,200,000 funding gap."]),
]


# 16. A kink inside the next cent: with a 33.33% share what the project still lacks ($300,000.01 less
#     $200,010.01) meets the State share 0.49993 cents above the cost, so from the next cent on
#     the share binds and each whole extra dollar adds $0.33 (not what the project still lacks' $1); that
#     kink is less than $1 away, so the sentence says what holds from it on, up to the next one.
SENTENCES.append(("kink inside the next cent", Application("renovation", 30_000_001, local_contribution=20_001_001),
                  THIRD, None, [
        "Each extra $1 of total cost of eligible work adds $0.33 of award until $1,800,180.02, where "
        "the program maximum takes over.",
        "Each extra $1 of federal grant takes away $1 of award until $99,990, where the award reaches"
        " $0.",
        "Each extra $1 of local contribution takes away $1 of award until $300,000.01, where the "
        "award reaches $0.",
        "Raising the prior program funds from $0 does not change the award until $200,010, where the "
        "limit for earlier grantees takes over."]))


def drop_case(property_value: str) -> Application:
    """Match as a condition: $150,000 of local funds meet the match up to $300,000 of cost; at
    $300,000.01 the standard award ($150,000 there) is gone and the exception's property value
    holds it. From $299,999.50 what the project still lacks would reach $150,000.01 at that cent, so a
    property value $1 below that ($149,999.01) is no drop, one cent less ($149,999) is."""
    return app(eligible_cost="299999.50", local_contribution=150_000,
               bpw_exception={"local_property_value": property_value})


DROP_REST = [
    "Each extra $1 of federal grant takes away $1 of award until $149,999.50, where the award reaches"
    " $0.",
    "Each extra $1 of local contribution takes away $1 of award until $299,999.50, where the award "
    "reaches $0.",
    "Raising the prior program funds from $0 does not change the award until $150,000.50, where the "
    "limit for earlier grantees takes over.",
]


SENTENCES += [
    # a fall of $1 within a dollar of the input is no change point: what holds from it on is said
    ("a fall of exactly $1 is no drop", drop_case("149999.01"), None, Readings(local_match_effect="condition"), [
        "If the Board approves, raising the total cost of eligible work from $299,999.50 moves the "
        "award by less than $1. Without that approval the award would be $149,999.50 (the standard "
        "route), and each extra $1 of total cost of eligible work adds $1 of it until $300,000.01, "
        "where the award reaches $0.",
        *DROP_REST,
        "Raising the value of property made available locally from $149,999.01 does not change the "
        "award."]),
    ("a fall of $1.01 is a drop", drop_case("149999.00"), None, Readings(local_match_effect="condition"), [
        "Each extra $1 of total cost of eligible work adds $1 of award until $300,000.01, where the "
        "award drops to $149,999 (the value of the property made available locally), on the Board's "
        "exception route if the Board approves.",
        *DROP_REST,
        "Raising the value of property made available locally from $149,999 does not change the "
        "award."]),
]


@pytest.mark.parametrize("name,application,rs,readings,want", SENTENCES, ids=[c[0] for c in SENTENCES])
def test_what_would_change_whole_sentences(name, application, rs, readings, want):
    assert same_sentences(what_would_change(application, rs, readings), want)


@pytest.mark.parametrize("amount,sentence", [
    # The award equals the $300,000 ceiling: any prior funds limit it.
    (60_000_000, "Each extra $1 of prior program funds takes away $1 of award until $300,000, where the award reaches $0."),
    # One cent below the ceiling: prior funds above one cent cut it (a bend within a dollar: said from there).
    (59_999_998, "Each extra $1 of prior program funds takes away $1 of award until $300,000, where the award reaches $0."),
])
def test_prior_funds_sentence_at_the_ceiling(amount, sentence):
    # Renovation, cost `amount` cents, half of it local: the award is the other half.
    a = Application("renovation", amount, local_contribution=amount // 2)
    assert about(what_would_change(a), "prior program funds") == sentence


@pytest.mark.parametrize("slope,words", [(Fraction(1, 2), "starts to rise"), (Fraction(0), "stops falling"),
                                         (Fraction(-1), "starts to fall")])
def test_describe_each_trend_of_one_cap(slope, words):
    # sweep() reports a change of trend under one cap only where the award leaves or reaches $0
    # (rise, stop); "starts to fall" is describe's answer for a breakpoint built by hand.
    bp = Breakpoint(120_000_000, Fraction(120_000_000), 60_000_000, ("program_max",), ("program_max",),
                    "standard", "standard", Fraction(0), slope)
    assert describe(bp, "eligible_cost") == f"The award {words} at $1,200,000 of total cost of eligible work " \
                                            f"(the program maximum)"


def test_prior_funds_sweep_under_a_variant_ceiling():
    # A $200,000 ceiling: at one cent of prior funds the room ($199,999.99) binds at once.
    s = sweep(app(eligible_cost=900_000), "prior_program_funds", 0, 50_000_000, LOW_CEILING)
    assert [(b.value, b.exact, b.award, b.binding_before, b.binding_after) for b in s.breakpoints] == [
        (1, Fraction(1), 19_999_999, ("cost_share",), ("prior_grant_room",)),
        (20_000_000, Fraction(20_000_000), 0, ("prior_grant_room",), ("prior_grant_room",))]


def test_prior_funds_sweep_under_a_reading():
    # f_reference=prior_grant: at one cent the State share is of the whole $1,000,000 cost, and
    # the room of $299,999.99 binds (under the default reading it would be $200,000).
    s = sweep(app(eligible_cost=1_000_000, federal_grant=600_000), "prior_program_funds", 0, 50_000_000,
              readings=PRIOR_GRANT)
    assert [(b.value, b.exact, b.award) for b in s.breakpoints] == [
        (1, Fraction(1), 29_999_999), (30_000_000, Fraction(30_000_000), 0)]
    assert s.points[:3] == ((0, 20_000_000, ("cost_share",)), (1, 29_999_999, ("prior_grant_room",)),
                            (15_000_000, 15_000_000, ("prior_grant_room",)))
    # A stretch of one cent (0 to 1) is drawn like any other; only a jump's own cent is not.
    assert s.segments == ((0, 20_000_000, 1, 29_999_999, ("cost_share",)),
                          (1, 29_999_999, 30_000_000, 0, ("prior_grant_room",)),
                          (30_000_000, 0, 50_000_000, 0, ("prior_grant_room",)))


def test_prior_funds_sweep_points_under_a_variant_share():
    # 33.33% of $900,000 is $299,970: the room takes over at $30 of prior funds.
    s = sweep(app(eligible_cost=900_000), "prior_program_funds", 0, 50_000_000, THIRD)
    assert [(b.value, b.award, b.binding_after) for b in s.breakpoints] == [
        (3000, 29_997_000, ("prior_grant_room",)), (30_000_000, 0, ("prior_grant_room",))]
    assert s.points == ((0, 29_997_000, ("cost_share",)), (1500, 29_997_000, ("cost_share",)),
                        (3000, 29_997_000, ("cost_share", "prior_grant_room")),
                        (15_001_500, 14_998_500, ("prior_grant_room",)), (30_000_000, 0, ("prior_grant_room",)),
                        (40_000_000, 0, ("prior_grant_room",)), (50_000_000, 0, ("prior_grant_room",)))
    assert s.segments == ((0, 29_997_000, 3000, 29_997_000, ("cost_share",)),
                          (3000, 29_997_000, 30_000_000, 0, ("prior_grant_room",)),
                          (30_000_000, 0, 50_000_000, 0, ("prior_grant_room",)))


@pytest.mark.parametrize("lo,points,segments", [
    # From one cent below the match: the stretch before the jump is that single cent, drawn as
    # a point only (its segment would end where it starts).
    (49_999_999, ((49_999_999, 0, ("local_match",)), (50_000_000, 50_000_000, ("cost_share", "funding_need")),
                  (55_000_000, 45_000_000, ("funding_need",)), (60_000_000, 40_000_000, ("funding_need",))),
     ((50_000_000, 50_000_000, 60_000_000, 40_000_000, ("funding_need",)),)),
    # From two cents below: a segment of one cent at $0 ends the cent before the jump.
    (49_999_998, ((49_999_998, 0, ("local_match",)), (49_999_999, 0, ("local_match",)),
                  (50_000_000, 50_000_000, ("cost_share", "funding_need")),
                  (55_000_000, 45_000_000, ("funding_need",)), (60_000_000, 40_000_000, ("funding_need",))),
     ((49_999_998, 0, 49_999_999, 0, ("local_match",)),
      (50_000_000, 50_000_000, 60_000_000, 40_000_000, ("funding_need",)))),
])
def test_drawing_of_a_jump_next_to_the_range_start(lo, points, segments):
    # Match as a condition: $500,000 of local funds meet it on a $1,000,000 cost; the award
    # jumps from $0 to $500,000 there.
    s = sweep(app(eligible_cost=1_000_000), "local_contribution", lo, 60_000_000,
              readings=Readings(local_match_effect="condition"))
    assert [(b.value, b.exact, b.award, b.binding_after) for b in s.breakpoints] == [
        (50_000_000, Fraction(50_000_000), 50_000_000, ("funding_need",))]
    assert (s.points, s.segments) == (points, segments)


def test_room_takes_over_at_two_cents_of_prior_funds():
    # Half of $599,999.96 is $299,999.98: the room is larger at one cent of prior funds and equal
    # at two; it holds the award down from two cents on.
    s = sweep(app(eligible_cost="599999.96"), "prior_program_funds", 0, 1000)
    assert [(b.value, b.exact, b.award, b.binding_before, b.binding_after) for b in s.breakpoints] == [
        (2, Fraction(2), 29_999_998, ("cost_share",), ("prior_grant_room",))]


def test_every_pair_of_cap_lines_is_crossed():
    # $700,000 of local funds: what the project still lacks (cost less $700,000) holds the award down from $700,000 of cost
    # until it meets the program maximum at $1,300,000 (the State share, half the cost, is
    # larger there); a large request adds a fourth line that never holds the award down.
    a = app(eligible_cost=1_000_000, local_contribution=700_000, requested_amount=10_000_000)
    s = sweep(a, "eligible_cost", 0, 300_000_000)
    assert [(b.value, b.binding_before, b.binding_after) for b in s.breakpoints] == [
        (70_000_000, ("funding_need",), ("funding_need",)), (130_000_000, ("funding_need",), ("program_max",))]


def test_sweep_of_the_request_of_an_application_without_one():
    # Each point of the sweep requests its amount: the request binds up to half the
    # $1,000,000 cost, where the State share takes over.
    s = sweep(app(eligible_cost=1_000_000, local_contribution=100_000), "requested_amount", 0, 100_000_000)
    assert [(b.value, b.exact, b.award, b.binding_before, b.binding_after, b.slope_before, b.slope_after)
            for b in s.breakpoints] == [
        (50_000_000, Fraction(50_000_000), 50_000_000, ("requested_amount",), ("cost_share",), Fraction(1),
         Fraction(0))]


def test_map_over_property_value_opens_the_exception():
    # Without a request the map over the property value asks for the exception: $700,000 of
    # property lets the exception route give the program maximum; $0 leaves the standard route.
    a = app(eligible_cost=1_000_000)
    award, binding = grid(a, "local_property_value", [0, 50_000_000, 70_000_000], "local_contribution",
                          [0, 60_000_000])
    assert award.tolist() == [[50_000_000, 50_000_000, 60_000_000], [40_000_000, 40_000_000, 40_000_000]]
    assert binding.tolist() == [["cost_share", "cost_share", "program_max"],
                                ["funding_need", "funding_need", "funding_need"]]


def test_map_over_the_requested_amount_requests_it():
    # An application without a request: each column of the map requests its amount ($0 too).
    award, binding = grid(app(eligible_cost=1_000_000), "requested_amount", [0, 10_000_000, 90_000_000],
                          "eligible_cost", [100_000_000])
    assert award.tolist() == [[0, 10_000_000, 50_000_000]]
    assert binding.tolist() == [["requested_amount", "requested_amount", "cost_share"]]


def test_map_under_a_variant_and_a_reading():
    a = app(eligible_cost=1_000_000)
    award, binding = grid(a, "eligible_cost", [100_000_000, 300_000_000], "local_contribution", [0],
                          load("cap-800k"))
    assert award.tolist() == [[50_000_000, 80_000_000]] and binding.tolist() == [["cost_share", "program_max"]]
    award, binding = grid(a, "eligible_cost", [100_000_000, 300_000_000], "local_contribution",
                          [0, 50_000_000], readings=Readings(local_match_effect="condition"))
    assert award.tolist() == [[0, 0], [50_000_000, 0]]
    assert binding.tolist() == [["local_match", "local_match"], ["cost_share;funding_need", "local_match"]]


@pytest.mark.parametrize("name,application,rs,readings,want", [
    # 33.33% of $400,000 is $133,320: $266,680 of local funds leave no gap.
    ("third ruleset", app(eligible_cost=400_000, local_contribution=200_000), THIRD, None, 26_668_000),
    ("regulation", app(eligible_cost=400_000, local_contribution=200_000), None, None, 20_000_000),
    # The whole cost's match ($500,000) as a condition: no award, and a gap, below it; at it the
    # award of $100,000 closes the gap at once (the gap drops from $100,000.01 to $0).
    ("match as a condition", app(eligible_cost=1_000_000, federal_grant=400_000), None, CONDITION, 50_000_000),
    ("match as a check", app(eligible_cost=1_000_000, federal_grant=400_000), None, None, 30_000_000),
    # The remainder's match ($500,000) as a condition, from $100,000 of local funds: the gap of
    # $400,000 would close at $500,000 on its slope and does so there, where the award appears.
    ("condition from a start", app(eligible_cost=1_000_000, local_contribution=100_000), None,
     Readings(local_match_effect="condition"), 50_000_000),
    # A 60% match as a condition: the gap drops to $0 at $600,000, where the ruleset's match is
    # met (not at the regulation's $500,000).
    ("variant match as a condition", app(eligible_cost=1_000_000, local_contribution=100_000), SIXTY_LOCAL,
     Readings(local_match_effect="condition"), 60_000_000),
])
def test_closing_local_exact(name, application, rs, readings, want):
    got = closing_local(application, rs, readings)
    assert got == want
    assert evaluate(application.replace(local_contribution=got), rs, readings).funding_gap == 0
    assert evaluate(application.replace(local_contribution=got - 1), rs, readings).funding_gap > 0


@settings(max_examples=settings.default.max_examples // 4, deadline=None)
@example(app(eligible_cost=1_000_000, federal_grant=400_000), CONDITION)
@example(app(eligible_cost=1_000_000, local_contribution=100_000), Readings(local_match_effect="condition"))
@example(app(eligible_cost=3_000_000, local_contribution=1_500_000), Readings())
@given(applications(), st.sampled_from(every()))
def test_closing_local_is_the_least_local_funds_without_a_gap(a, readings):
    got = closing_local(a, None, readings)
    if got is None:   # even the whole cost in local funds leaves a gap
        assert evaluate(a.replace(local_contribution=max(a.local_contribution, a.eligible_cost)),
                        None, readings).funding_gap > 0
        return
    assert got >= a.local_contribution
    assert evaluate(a.replace(local_contribution=got), None, readings).funding_gap == 0
    if got > a.local_contribution:
        assert evaluate(a.replace(local_contribution=got - 1), None, readings).funding_gap > 0


def test_boundaries_on_a_map_equal_scalar():
    """The map of the Sensitivity page (batch engine over a grid) at the boundary values."""
    base = app(eligible_cost=1_000_000, bpw_exception={"local_property_value": 0})
    xs = [49_999_999, 50_000_000, 50_000_001, 60_000_000]
    ys = [0, 29_999_999, 30_000_000, 30_000_001]
    award, binding = grid(base, "local_property_value", xs, "prior_program_funds", ys)
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            a = evaluate(base.replace(local_property_value=x, prior_program_funds=y))
            assert (award[j, i], binding[j, i]) == (a.amount, ";".join(a.binding)), (x, y)


def test_sweep_refuses_bad_ranges_and_fields():
    a = app(eligible_cost=1_000_000)
    with pytest.raises(ValueError) as err:
        sweep(a, "eligible_cost", 5, 5)
    assert str(err.value) == "range: from 0.05 to 0.05 is empty; 'from' must be below 'to'"
    with pytest.raises(ValueError) as err:
        sweep(a, "federal_law_contrary", 0, 5)
    # every amount of the field table, in its order (the shipped ones among them)
    money = [f.name for f in FIELDS if f.kind == "money"]
    assert str(err.value) == "field: 'federal_law_contrary' cannot be swept; use one of " + ", ".join(money)
    assert in_order(["eligible_cost", "federal_grant", "local_contribution", "prior_program_funds", "requested_amount",
                     "local_property_value", "residual_value", "prior_matching_funds", "outstanding_state_debt",
                     "other_state_investment"], money)
    assert sweep(a, "eligible_cost", 0, 1).lo == 0
    with pytest.raises(ValueError) as err:
        grid(a, "eligible_cost", [1], "eligible_cost", [1])
    assert str(err.value) == "the two inputs of a map must differ"
    with pytest.raises(ValueError) as err:
        grid(a, "eligible_cost", [1], "senior_density", [1])
    assert str(err.value).startswith("field: 'senior_density' cannot be mapped; use one of eligible_cost, ")


def test_a_sweep_without_points_keeps_its_range():
    s = sweep(app(eligible_cost=1_000_000), "eligible_cost", 5, 500_000_000, points=False)
    assert (s.field, s.lo, s.hi, s.points) == ("eligible_cost", 5, 500_000_000, ())


def test_what_would_change_under_a_variant_ruleset():
    from core.law.changes import what_would_change
    from core.law.rulesets import load
    a = app(eligible_cost=1_000_000, local_contribution=500_000)
    assert what_would_change(a, load("cap-800k"))[0] == (
        "Each extra $1 of total cost of eligible work adds $0.50 of award until $1,600,000, where the program maximum "
        "takes over.")


def conversion(**fields):
    """An application of the review's cases: a conversion unless told otherwise."""
    return application(**({"project_type": "conversion"} | fields))


def test_federal_grant_above_cost_is_not_said_to_reach_zero():
    lines = what_would_change(conversion(eligible_cost=500_000, federal_grant=800_000))
    assert not any("reaches $0" in line for line in lines)
    assert about(lines, "total cost of eligible work") == ("Raising the total cost of eligible work from $500,000 does not change the $0 award "
                        "until $800,000, where the award starts to rise from $0.")


def test_prior_funds_at_the_ceiling_are_not_said_to_reach_zero():
    for prior in (300_000, 350_000):
        lines = what_would_change(conversion(eligible_cost=900_000, prior_program_funds=prior))
        assert not any("reaches $0" in line or "takes over" in line for line in lines), lines
        assert "Raising the federal grant from $0 does not change the $0 award." in lines


def test_zero_award_is_not_said_to_be_cut_by_prior_funds():
    lines = what_would_change(conversion(eligible_cost=500_000, federal_grant=800_000))
    assert not any("would start to cut" in line for line in lines)
    assert "Raising the prior program funds from $0 does not change the $0 award." in lines


def test_no_change_point_beyond_the_input_limit():
    for a in (conversion(eligible_cost=10**12 - 1), conversion(eligible_cost=900_000_000_000, local_contribution=899_999_000_000),
              conversion(eligible_cost=10**12, federal_grant=10**12 - 100)):
        for line in what_would_change(a):
            for word in line.replace(",", "").split():
                if word.startswith("$"):
                    value = float(word.strip("$.,()"))
                    assert value * 100 <= MAX_CENTS, line
