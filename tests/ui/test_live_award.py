"""The award that follows the hand, on the server's side (ui/components/live_award.py): what a
money slider sends the browser to draw with, and the defect logged when what the browser drew
differs from the server's own run. The page is run in Streamlit's AppTest and the edit goes
through the fields panel's own handler, as a browser's release of a slider does."""
import logging

import pytest

from core.law.award import evaluate
from core.law.fields import FUNDING_PLAN
from core.report.charts.calculator import waterfall_steps
from tests.support.builders import application
from tests.support.pages import award, dashboard as app
from tests.support.panel import Panel
from ui.components.live_award import funding, funding_value

LINK = {"project_type": "renovation", "eligible_cost": "1000000", "federal_grant": "0",
        "local_contribution": "500000", "prior_program_funds": "0"}
LOGGER = "ui.components.live_award"


def defects(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.ERROR]


def test_a_drawn_award_that_differs_from_the_servers_is_logged_as_a_defect_and_the_servers_is_shown(caplog):
    """The browser says it drew $1 with the wrong limit and route for a cost of $1,001,000; the
    server's run shows its own award ($500,500: half the cost) and logs the one line of the defect."""
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    drawn = {"award": "$1", "limit": "the program maximum ($1)", "route": "Board of Public Works exception"}
    Panel(at).edit("eligible_cost", cents=100_100_000, drawn=drawn)
    assert not at.exception
    assert award(at) == "$500,500"
    assert defects(caplog) == [
        "live award defect: eligible_cost at 100100000 cents: the browser drew "
        "{'award': '$1', 'limit': 'the program maximum ($1)', 'route': 'Board of Public Works exception'}, "
        "the law gives {'award': '$500,500', 'limit': \"the State's share of the cost ($500,500)\", "
        "'route': 'Standard route (50% State share)'}"]


def test_a_drawing_equal_to_the_servers_run_logs_nothing(caplog):
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    drawn = {"award": "$500,500", "limit": "the State's share of the cost ($500,500)",
             "route": "Standard route (50% State share)"}
    Panel(at).edit("eligible_cost", cents=100_100_000, drawn=drawn)
    assert award(at) == "$500,500" and defects(caplog) == []


def test_a_forged_drawing_is_cut_in_the_log_and_the_servers_award_stands(caplog):
    """The drawing is whatever a browser sent: logged at most 200 characters of each part."""
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    Panel(at).edit("eligible_cost", cents=100_100_000, drawn={"award": "x" * 1000, "limit": None})
    assert award(at) == "$500,500"
    [line] = defects(caplog)
    assert line.startswith("live award defect: eligible_cost at 100100000 cents: the browser drew "
                           "{'award': '" + "x" * 200 + "', 'limit': 'None', 'route': 'None'}, the law gives")


def test_each_money_slider_carries_the_funding_picture_and_the_caps_names():
    at = app(LINK)
    live = Panel(at)["eligible_cost"]["live"]
    # the funding plan's sources in its order (a source this link leaves at $0 drawn as nothing)
    shipped = [["Federal grant", "0", "0"], ["State grant award", None, None], ["Local contribution", "0", "50000000"]]
    assert [key for key, _, _ in FUNDING_PLAN[:3]] == ["federal", "state", "local"]
    assert live["funding"] == {
        "cost": ["Cost of eligible work", "1", "0"],
        "sources": shipped + [[label, "0", "0"] for _, label, _ in FUNDING_PLAN[3:]],
        "left": {"gap": "Funding gap", "beyond": "Funded beyond the cost"}}
    assert live["titles"]["program_max"] == "Program maximum"
    assert live["zero"]["caps"] == [[c, str(v)] for c, v in evaluate(application(
        "renovation", eligible_cost=0, local_contribution=500_000)).caps.items()]


@pytest.mark.parametrize("field", ["eligible_cost", "federal_grant", "local_contribution", "prior_program_funds"])
@pytest.mark.parametrize("x", [0, 1, 37_500_001, 100_000_000, 250_000_000])
def test_the_funding_picture_from_its_pieces_is_the_waterfalls(field, x):
    """What the browser draws of the funding (funding_value does its arithmetic) equals the
    waterfall chart's steps of the server's own evaluation, to the cent, with a gap or a surplus."""
    base = application("construction", eligible_cost=1_500_000, federal_grant=200_000, local_contribution=500_000,
                       prior_program_funds=0)
    a = evaluate(base.replace(**{field: x}))
    assert funding_value(funding(base, field), x, a.amount) == [(name, amount) for name, _, _, amount in waterfall_steps(a)]


@pytest.mark.parametrize("part, wrong", [("limit", "the program maximum ($500,500)"),
                                         ("route", "Board of Public Works exception")])
def test_a_drawing_whose_limit_or_route_alone_differs_is_logged(caplog, part, wrong):
    """The award drawn right, the limit that holds it or the route wrong: a defect all the same."""
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    drawn = {"award": "$500,500", "limit": "the State's share of the cost ($500,500)",
             "route": "Standard route (50% State share)"} | {part: wrong}
    Panel(at).edit("eligible_cost", cents=100_100_000, drawn=drawn)
    assert award(at) == "$500,500"
    [line] = defects(caplog)
    assert f"'{part}': '{wrong}'" in line and line.startswith("live award defect: eligible_cost at 100100000 cents")


def test_a_flood_of_forged_drawings_is_logged_once_with_a_count(caplog):
    """A hostile page sends 12 wrong drawings: the first is logged whole, then only the count at 10
    (and at 100, 1000...): two lines, not 12. Another session's first is logged whole again."""
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    panel = Panel(at)
    for i in range(12):
        panel.edit("eligible_cost", cents=100_000_000 + (i % 2) * 100_000, drawn={"award": "$1"})
    assert award(at) == "$500,500"
    lines = defects(caplog)
    assert len(lines) == 2 and lines[0].startswith("live award defect: eligible_cost at 100000000 cents")
    assert lines[1] == ("live award defects: 10 in this session so far (the first logged whole above; the last: "
                        "eligible_cost at 100100000 cents)")
    Panel(app(LINK)).edit("eligible_cost", cents=100_100_000, drawn={"award": "$1"})
    assert len(defects(caplog)) == 3 and defects(caplog)[2].startswith("live award defect: eligible_cost at 100100000")
