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


BIG = "/?project_type=renovation&eligible_cost=3000000&local_contribution=1500000"


def award_is(page, amount: str) -> None:
    page.wait_for_function("a => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                           ".some(e => e.innerText === a) && document.querySelector('[data-testid=stApp]')"
                           ".getAttribute('data-test-script-state') === 'notRunning'", arg=amount, timeout=20_000)


def test_undo_after_a_change_of_ruleset_computes_under_the_ruleset_put_back(server, chromium):  # noqa: F811
    """Undo runs the calculator's fragment alone; the page's law was the statute's: the run must
    follow the ruleset put back ($600,000 under the regulation), and so must a later move."""
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(server + BIG)
    wait_ready(page)
    award_is(page, "$600,000")
    page.get_by_role("combobox", name="Ruleset").click()
    page.get_by_role("option", name=re.compile("^The statute")).click()
    award_is(page, "$800,000")
    page.get_by_role("button", name="Undo").click()
    page.wait_for_function("() => !location.search.includes('ruleset=')", timeout=20_000)
    award_is(page, "$600,000")
    said = page.inner_text("[data-testid=stMain]")
    assert "The most the State may give under the regulation" in said and "In the statute:" not in said
    slider = page.get_by_role("slider", name="Total cost of eligible work", exact=True)
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"eligible_cost=3001000(&|$)"), timeout=20_000)
    award_is(page, "$600,000")
    assert "ruleset=" not in page.url
    no_error_on(page)


def test_ctrl_z_and_ctrl_shift_z_undo_and_redo_outside_text_boxes(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(server)
    wait_ready(page)
    shows(page, "1000000", "$500,000")
    slider = page.get_by_role("slider", name="Total cost of eligible work", exact=True)
    slider.focus()
    page.keyboard.press("ArrowRight")
    shows(page, "1001000", "$500,500")
    page.keyboard.press("Control+z")
    shows(page, "1000000", "$500,000")
    page.keyboard.press("Control+Shift+Z")
    shows(page, "1001000", "$500,500")
    page.keyboard.press("Meta+z")   # Cmd+Z on a Mac
    shows(page, "1000000", "$500,000")
    box = page.get_by_role("textbox", name="Scenario name")
    box.fill("As submitted")
    page.keyboard.press("Meta+Shift+Z")   # in a text box: the box's own undo, not Redo
    page.wait_for_timeout(1500)
    assert re.search(r"eligible_cost=1000000(&|$)", page.url)
    no_error_on(page)


def test_after_back_three_times_and_forward_three_times_a_fourth_undo_does_not_go_forward(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(server)
    wait_ready(page)
    shows(page, "1000000", "$500,000")
    steps = [("1001000", "$500,500"), ("1002000", "$501,000"), ("1003000", "$501,500")]
    page.get_by_role("slider", name="Total cost of eligible work", exact=True).focus()
    for cost, amount in steps:
        page.keyboard.press("ArrowRight")
        shows(page, cost, amount)
    for cost, amount in [steps[1], steps[0], ("1000000", "$500,000")]:
        page.go_back()
        shows(page, cost, amount)
    for cost, amount in steps:
        page.go_forward()
        shows(page, cost, amount)
    undo = page.get_by_role("button", name="Undo")
    for cost, amount in [steps[1], steps[0], ("1000000", "$500,000")]:
        undo.click()
        shows(page, cost, amount)
    page.wait_for_function("() => document.querySelector('.st-key-w-undo button').disabled", timeout=20_000)
    page.keyboard.press("Control+z")   # a fourth Undo, from the keyboard: nothing
    page.wait_for_timeout(1500)
    shows(page, "1000000", "$500,000")
    no_error_on(page)


def test_a_typed_law_as_of_day_applies_on_enter_and_the_next_click_is_not_swallowed(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(server + BIG + "&ruleset=statute")
    wait_ready(page)
    award_is(page, "$800,000")
    for part, text in (("year", "1987"), ("month", "01"), ("day", "01")):
        page.get_by_role("spinbutton", name=f"{part}, Law as of").click()
        page.keyboard.type(text)
    page.keyboard.press("Enter")   # the focus stays in the field: only Enter applies the day
    page.wait_for_url(re.compile(r"as_of=1987-01-01"), timeout=20_000)
    award_is(page, "$300,000")
    assert page.locator("[data-baseweb=calendar], [role=dialog]").count() == 0   # no calendar opened
    assert page.evaluate("() => document.activeElement.closest('.st-key-w-as_of') !== null")
    page.get_by_role("link", name="Compare scenarios").click()   # the next click goes where it points
    page.wait_for_url(re.compile(r"/compare"), timeout=20_000)
    no_error_on(page)


def test_a_forged_control_value_is_said_on_the_page_it_was_sent_to(server, chromium):  # noqa: F811
    """A value no page of ours sends, sent through the inputs panel (a run of the calculator's
    fragment alone): the warning shows at once, on this page, not on the next page opened."""
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(server)
    wait_ready(page)
    shows(page, "1000000", "$500,000")
    page.evaluate("() => document.querySelector('.gf').gf.setStateValue('project_type', {value: {not: 'a type'}, n: 7})")
    page.get_by_text("could not be used (not a value this page sends)").wait_for(timeout=20_000)
    shows(page, "1000000", "$500,000")   # nothing changed
    page.get_by_role("link", name="Compare scenarios").click()
    page.wait_for_url(re.compile(r"/compare"), timeout=20_000)
    wait_ready(page)
    assert page.get_by_text("could not be used (not a value this page sends)").count() == 0
    no_error_on(page)
