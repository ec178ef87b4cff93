"""The live-award check's server side compares the whole answer the browser drew (issue 48: a
drawn limit or route that differed from the server's was never logged, as no test held it), and
a drawing that is not an object is ignored, not a traceback."""
import logging

import pytest

from tests.support.pages import award, dashboard as app
from tests.support.panel import Panel
from tests.ui.test_live_award import LINK, LOGGER, defects

RIGHT = {"award": "$500,500", "limit": "the State's share of the cost ($500,500)",
         "route": "Standard route (50% State share)"}


@pytest.mark.parametrize("part, wrong", [("limit", "the program maximum ($500,500)"),
                                         ("route", "Board of Public Works exception"),
                                         ("award", "$500,501")])
def test_one_part_drawn_wrong_is_logged_with_the_laws_whole_answer(caplog, part, wrong):
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    Panel(at).edit("eligible_cost", cents=100_100_000, drawn=RIGHT | {part: wrong})
    assert not at.exception and award(at) == "$500,500"
    [line] = defects(caplog)
    assert f"'{part}': '{wrong}'" in line.split(", the law gives")[0]
    assert line.endswith("the law gives " + repr(RIGHT))




@pytest.mark.parametrize("drawn", [["$500,500"], "$500,500", 5])
def test_a_drawing_that_is_not_an_object_is_ignored(caplog, drawn):
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    Panel(at).edit("eligible_cost", cents=100_100_000, drawn=drawn)
    assert not at.exception and award(at) == "$500,500" and defects(caplog) == []


def test_extra_parts_drawn_beside_the_right_answer_log_nothing(caplog):
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    Panel(at).edit("eligible_cost", cents=100_100_000, drawn=RIGHT | {"colour": "red"})
    assert award(at) == "$500,500" and defects(caplog) == []


def test_a_drawing_without_the_route_is_logged(caplog):
    at = app(LINK)
    caplog.set_level(logging.ERROR, logger=LOGGER)
    Panel(at).edit("eligible_cost", cents=100_100_000, drawn={k: v for k, v in RIGHT.items() if k != "route"})
    [line] = defects(caplog)
    assert "'route': 'None'" in line
