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


def test_a_drag_of_the_cost_slider_is_one_step_of_history(server, chromium):  # noqa: F811
    """Mouse down on the cost slider's thumb, moved across several positions, released: one change
    of the inputs, so one Back brings the example's inputs and award back."""
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(server)
    wait_ready(page)
    shows(page, "1000000", "$500,000")
    thumb = page.get_by_role("slider", name="Total cost of eligible work", exact=True)
    box = thumb.bounding_box()   # the track, $0 to $5,000,000: the thumb stands at a fifth of it
    x, y = box["x"] + box["width"] * 1_000_000 / 5_000_000, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for dx in (15, 40, 70, 100, 130):     # several positions on the way
        page.mouse.move(x + dx, y, steps=4)
        page.wait_for_timeout(120)
    page.mouse.up()
    page.wait_for_function("() => !location.search.includes('eligible_cost=1000000&')", timeout=20_000)
    wait_ready(page)
    dragged = re.search(r"eligible_cost=(\d+)", page.url).group(1)
    assert int(dragged) > 1_000_000
    page.go_back()
    shows(page, "1000000", "$500,000")    # one Back: the inputs before the drag
    page.go_forward()
    page.wait_for_url(re.compile(rf"eligible_cost={dragged}(&|$)"), timeout=20_000)
    no_error_on(page)
