"""What only a browser shows: the real server, real Chromium, real clicks and keys."""
import re

import pytest

from harness.serve import streamlit_server, wait_ready
from tests.support import ROOT
from tests.support.browser import no_error_on
from tests.support.browser import chromium  # noqa: F401


ARTIFACTS = ROOT / "test-artifacts"


PAGES = ["", "compare", "sensitivity", "portfolio", "rules"]


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium):  # noqa: F811
    db = tmp_path_factory.mktemp("db") / "lib.db"
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}) as url:
        yield url, db


def award_text(page) -> str:
    return page.locator('[data-testid="stMetric"]').first.locator('[data-testid="stMetricValue"]').inner_text()


def test_calculator_loads_slider_moves_award_charts_render(server, chromium):  # noqa: F811
    url, _ = server
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(url)
    wait_ready(page)
    assert award_text(page) == "$500,000"
    thumb = page.get_by_role("slider").first
    thumb.focus()
    page.keyboard.press("ArrowRight")    # one $1,000 step: cost $1,001,000
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                           ".some(e => e.innerText === '$500,500')", timeout=20_000)
    page.wait_for_url(re.compile(r"eligible_cost=1001000"), timeout=20_000)   # the link follows the inputs
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=20_000)
    assert page.locator(".js-plotly-plot").count() >= 2
    # chart titles are page text above each chart (they wrap at any width; ui/charts.py)
    assert page.get_by_text("Headroom under every limit", exact=False).first.is_visible()
    no_error_on(page)
    page.screenshot(path=str(ARTIFACTS / "calculator.png"), full_page=True)


def test_the_charts_change_in_place_and_follow_the_column(server, chromium):  # noqa: F811
    """The calculator's charts (ui/components/chart_panel.js) are drawn once and then changed in place on
    every move (st.plotly_chart drew them anew each time); they follow their column's width."""
    url, _ = server
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(url + "/?project_type=renovation&eligible_cost=1000000&local_contribution=500000")
    wait_ready(page)
    page.wait_for_function("() => document.querySelectorAll('.gc-plot .annotation-text').length > 0", timeout=30_000)
    page.evaluate("() => { window.__plots = [...document.querySelectorAll('.gc-plot')]; }")
    annotation = "() => document.querySelector('.gc-plot .annotation-text').textContent"
    assert page.evaluate(annotation) == "Award $500,000"
    slider = page.get_by_role("slider", name="Total cost of eligible work", exact=True)
    slider.focus()
    page.keyboard.press("ArrowRight")   # cost $1,001,000: award $500,500
    page.wait_for_function(f"() => ({annotation})() === 'Award $500,500'", timeout=20_000)
    assert page.evaluate("() => [...document.querySelectorAll('.gc-plot')].every((p, i) => p === window.__plots[i])")
    assert "award $500,500" in page.locator(".gc-figure").first.get_attribute("aria-label")
    width = "() => document.querySelector('.gc-plot .main-svg').getBoundingClientRect().width"
    before = page.evaluate(width)
    page.locator("[data-testid=stSidebar]").hover()
    page.locator("[data-testid=stSidebarCollapseButton] button").first.click()   # the column widens
    page.wait_for_function(f"() => ({width})() > {before} + 100", timeout=20_000)
    box = page.evaluate("() => document.querySelector('.gc-plot').getBoundingClientRect().width")
    assert abs(page.evaluate(width) - box) < 2    # the drawing fills its column again
    no_error_on(page)
    page.close()


def test_without_plotly_js_each_chart_says_so_and_shows_its_numbers(server, chromium):  # noqa: F811
    """If Plotly.js cannot be loaded (a proxy without its file, a network fault), each chart says
    so in an alert and opens its table; the award and the rest of the page are unaffected."""
    url, _ = server
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.route(re.compile(r".*/plotly\.min\.js.*"), lambda route: route.abort())
    page.goto(url)
    wait_ready(page)
    assert award_text(page) == "$500,000"
    problems = page.locator(".gc-problem")
    problems.first.wait_for(state="visible", timeout=20_000)
    assert problems.count() == 2
    assert problems.first.inner_text() == ("This chart could not be drawn (Plotly.js did not load). "
                                           "Its numbers are in the table below.")
    assert problems.first.get_attribute("role") == "alert"
    table = page.locator("details.gc-numbers").first
    assert table.get_attribute("open") is not None and "Program maximum" in table.locator("table").inner_text()
    page.close()


def test_the_regulations_sentences_show_at_the_switch_without_a_server_run(server, chromium):  # noqa: F811
    """The details (ui/components/details_panel.js) show each step's sentence at their switch, from the
    keyboard, without asking the server for a run; the switch is kept through moves and reloads
    of the tab, and a move changes the checks, steps and what would change it."""
    url, _ = server
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(frame)))
    page.goto(url)
    wait_ready(page)
    switch = page.get_by_role("switch", name="Show the regulation's own sentences")
    quotes = page.locator(".gd-quote")
    assert not switch.is_checked() and quotes.count() == 4 and not quotes.first.is_visible()
    before = len(sent)
    switch.focus()
    page.keyboard.press("Space")
    quotes.first.wait_for(state="visible", timeout=5_000)
    assert switch.is_checked()
    assert quotes.nth(1).inner_text().startswith("§A Program maximum: “A grant for conversion")
    page.wait_for_timeout(500)
    assert len(sent) == before            # no run of the server
    headings = page.locator(".gd h2").all_inner_texts()
    assert headings == ["Checks", "How the award is worked out", "What would change it"]
    changes = page.locator(".gd-changes li").first
    assert changes.inner_text().startswith("Each extra $1 of total cost of eligible work adds $0.50")
    cost = page.get_by_role("textbox", name="Total cost of eligible work, exact amount")
    cost.fill("1,300,000")
    cost.press("Enter")
    page.wait_for_function("() => document.querySelector('.gd-changes li').textContent"
                           ".startsWith('Costs above $1,200,000 no longer raise the award')", timeout=20_000)
    assert page.locator(".gd-check.gd-fail").count() == 2 and quotes.first.is_visible()
    page.reload()
    wait_ready(page)
    assert page.get_by_role("switch", name="Show the regulation's own sentences").is_checked()
    assert page.locator(".gd-quote").first.is_visible()
    no_error_on(page)
    page.close()


def test_a_mouse_drag_moves_the_cost_and_the_award_follows(server, chromium):  # noqa: F811
    """Dragging sends the amount while the mouse moves (at most every 150 ms) and on release:
    the award, the exact-amount box and the link end on where the thumb was let go."""
    url, _ = server
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(url)
    wait_ready(page)
    track = page.get_by_role("slider", name="Total cost of eligible work", exact=True)
    box = track.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.2, y)
    page.mouse.down()
    for i in range(1, 11):                                  # a drag to the middle, in steps
        page.mouse.move(box["x"] + box["width"] * (0.2 + 0.03 * i), y)
        page.wait_for_timeout(40)
    page.mouse.up()
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                           ".some(e => e.innerText === '$600,000')", timeout=20_000)
    dollars = int(track.input_value())
    assert 2_000_000 < dollars < 3_000_000
    page.wait_for_url(re.compile(rf"eligible_cost={dollars}(&|$)"), timeout=20_000)
    assert page.get_by_label("Total cost of eligible work, exact amount").input_value() == f"{dollars:,}"
    no_error_on(page)
    page.close()


def test_link_reproduces_scenario(server, chromium):  # noqa: F811
    url, _ = server
    page = chromium.new_page()
    page.goto(url + "/?project_type=renovation&eligible_cost=3000000&local_contribution=1500000")
    wait_ready(page)
    assert award_text(page) == "$600,000"
    assert "the program maximum ($600,000)" in page.inner_text("body")


@pytest.mark.parametrize("path", PAGES)
def test_no_page_shows_an_exception(server, chromium, path):  # noqa: F811
    url, _ = server
    page = chromium.new_page()
    page.goto(f"{url}/{path}")
    wait_ready(page)
    no_error_on(page)


def test_deep_link_on_a_fresh_server_gets_the_full_app(chromium, tmp_path):  # noqa: F811
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{tmp_path / 'lib.db'}"}) as url:
        page = chromium.new_page()
        page.goto(url + "/compare")
        wait_ready(page)
        nav = page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert "Calculator" in nav and "Compare scenarios" in nav and "dashboard" not in nav
        assert page.locator("h1").first.inner_text() == "Compare scenarios"


def save(page, name: str) -> None:
    page.get_by_label("Scenario name").fill(name)
    page.get_by_role("button", name="Save scenario").click()
    page.wait_for_selector(f'text="Saved: {name}"', timeout=20_000)


def test_save_two_compare_restart_still_there(chromium, tmp_path):  # noqa: F811
    env = {"SCENARIO_DB_URL": f"sqlite:///{tmp_path / 'lib.db'}"}
    names = ["As submitted", "With <b>federal</b> grant"]
    with streamlit_server(env=env) as url:
        page = chromium.new_page(viewport={"width": 1400, "height": 1600})
        page.goto(url)
        wait_ready(page)
        save(page, names[0])
        page.goto(url + "/?project_type=renovation&eligible_cost=1000000&federal_grant=400000&local_contribution=300000")
        wait_ready(page)
        save(page, names[1])
    with streamlit_server(env=env) as url:      # a new server process: the library is on disk
        page = chromium.new_page(viewport={"width": 1400, "height": 2400})
        page.goto(url + "/compare")
        wait_ready(page)
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=20_000)
        assert page.locator(".js-plotly-plot").count() == 3
        body = page.inner_text("body")
        assert names[1] in body                  # HTML in a name shows as text
        assert page.locator("b", has_text="federal").count() == 0
        legend = page.locator(".js-plotly-plot").first.inner_text()
        assert "As submitted" in legend and "Scenario 1" not in legend
        no_error_on(page)
        page.screenshot(path=str(ARTIFACTS / "compare.png"), full_page=True)


def test_save_and_report_after_a_slider_move_hold_the_moved_inputs(server, chromium):  # noqa: F811
    """A slider move redraws only the calculator; the save box and report, drawn before it,
    must still use what the screen shows when they are clicked."""
    from core.store.repository import ScenarioStore
    url, db = server
    page = chromium.new_page(viewport={"width": 1400, "height": 2400})
    page.goto(url)
    wait_ready(page)
    page.get_by_role("slider").first.focus()
    page.keyboard.press("ArrowRight")    # cost $1,001,000: award $500,500
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                           ".some(e => e.innerText === '$500,500')", timeout=20_000)
    wait_ready(page)
    page.get_by_label("Scenario name").fill("After one step")   # redraws the save box only
    page.keyboard.press("Tab")
    page.wait_for_timeout(500)
    wait_ready(page)
    page.get_by_role("slider").first.focus()
    page.keyboard.press("ArrowRight")    # redraws the calculator only: cost $1,002,000, award $501,000
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                           ".some(e => e.innerText === '$501,000')", timeout=20_000)
    wait_ready(page)
    with page.expect_download(timeout=30_000) as d:
        page.get_by_role("button", name="Download the report (HTML, works offline)").click()
    html = open(d.value.path(), encoding="utf-8").read()
    page.get_by_role("button", name="Save scenario").click()
    page.wait_for_selector('text="Saved: After one step"', timeout=20_000)
    store = ScenarioStore(f"sqlite:///{db}")
    try:
        assert store.get("After one step").application.eligible_cost == 100_200_000
    finally:
        store.dispose()
    assert "$1,002,000" in html and "$1,001,000" not in html and "After one step" in html
    no_error_on(page)


def test_sessions_at_once_each_show_their_own_award():
    """Isolation: several sessions from different links move sliders at the same time; each
    always shows the award for its own inputs (the full 30 x 20 run is bench/load.py)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from bench.load import run
    from tests.support.browser import require_chromium
    require_chromium()
    with ThreadPoolExecutor(1) as pool:  # its own thread: the sync browser fixture owns this one's loop
        out = pool.submit(asyncio.run, run(sessions=4, moves=4, think=0.2, browsers=4)).result()
    assert out["problems"] == []
    # latencies were measured (their size is the benchmark's business)
    assert out["alone_browser"] and len(out["loaded_browser"]) == 4 * 4
    # every key press drew the session's own award in the browser before the server's run (issue 39)
    assert all(drawn is not None for *_, drawn in out["alone_browser"] + out["loaded_browser"])
