"""WCAG 2.1 AA in a real browser: axe-core on every page and state, the keyboard, names,
the live region, charts' text alternatives, reflow at 320 px (issue 13)."""
import re

import pytest

from tests.a11y_states import STATES, axe, summary
from tests.browser_fixtures import chromium, no_error_on  # noqa: F401
from tests.serve import streamlit_server, wait_ready

LINK = "/?project_type=renovation&eligible_cost=1000000&federal_grant=0&local_contribution=500000&prior_program_funds=0"


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium):  # noqa: F811
    db = tmp_path_factory.mktemp("db") / "lib.db"
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}) as url:
        yield url


def cost_slider(page):
    return page.locator('[data-testid="stSlider"] input[type=range]').first


def settled(page, value: int) -> None:
    """Wait until the server has caught up with the keys: the URL holds the value and the run ended."""
    page.wait_for_url(re.compile(rf"eligible_cost={value}(&|$)"), timeout=30_000)
    wait_ready(page)
    page.wait_for_timeout(1_500)   # any late message from the server that could still move it back


@pytest.mark.parametrize("gap_ms", [33, 100])
def test_ten_key_presses_on_a_link_opened_scenario_give_ten_steps(server, chromium, gap_ms):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(server + LINK)
    wait_ready(page)
    slider = cost_slider(page)
    slider.focus()
    for _ in range(10):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(gap_ms)
    settled(page, 1_010_000)
    assert slider.get_attribute("value") == "1010000"          # no snap-back
    assert page.get_by_label("Total cost of eligible work, exact amount").input_value() == "1,010,000"
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text() == "$505,000"
    no_error_on(page)


def test_holding_an_arrow_key_moves_the_slider(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(server + LINK)
    wait_ready(page)
    slider = cost_slider(page)
    slider.focus()
    page.keyboard.down("ArrowRight")          # a held key: the browser repeats keydown ~30 times a second
    for _ in range(19):
        page.wait_for_timeout(33)
        page.keyboard.down("ArrowRight")      # repeat=true
    page.keyboard.up("ArrowRight")
    settled(page, 1_020_000)
    assert slider.get_attribute("value") == "1020000"
