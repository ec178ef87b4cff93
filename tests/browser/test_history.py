"""Back, Forward and Undo in a real browser: each committed change of the inputs is a history step."""
import re

import pytest

from harness.serve import streamlit_server, wait_ready
from tests.support.browser import chromium  # noqa: F401
from tests.support.browser import no_error_on

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium):  # noqa: F811
    db = tmp_path_factory.mktemp("db") / "lib.db"
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}) as url:
        yield url


def shows(page, cost: str, award: str) -> None:
    page.wait_for_url(re.compile(rf"eligible_cost={cost}(&|$)"), timeout=20_000)
    page.wait_for_function("a => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                           ".some(e => e.innerText === a)", arg=award, timeout=20_000)


def test_back_and_forward_bring_the_inputs_back_and_undo_does_the_same(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(server)
    wait_ready(page)
    shows(page, "1000000", "$500,000")
    slider = page.get_by_role("slider", name="Total cost of eligible work", exact=True)
    slider.focus()
    page.keyboard.press("ArrowRight")        # cost $1,001,000
    shows(page, "1001000", "$500,500")
    page.keyboard.press("ArrowRight")        # cost $1,002,000
    shows(page, "1002000", "$501,000")
    page.go_back()
    shows(page, "1001000", "$500,500")
    page.go_back()
    shows(page, "1000000", "$500,000")       # the example's inputs and award
    page.go_forward()
    shows(page, "1001000", "$500,500")
    page.get_by_role("button", name="Undo").click()
    shows(page, "1000000", "$500,000")
    no_error_on(page)
