"""WCAG 2.1 AA in a real browser: axe-core on every page and state, the keyboard, names,
the live region, charts' text alternatives, reflow at 320 px (issue 13)."""
import re

import pytest

from harness.a11y import STATES, axe, summary
from harness.serve import streamlit_server, wait_ready
from tests.support.browser import no_error_on


LINK = "/?project_type=renovation&eligible_cost=1000000&federal_grant=0&local_contribution=500000&prior_program_funds=0"


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium):  # noqa: F811
    db = tmp_path_factory.mktemp("db") / "lib.db"
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}) as url:
        yield url


def cost_slider(page):
    return page.get_by_role("slider", name="Total cost of eligible work", exact=True)


def settled(page, value: int) -> None:
    """Wait until the server has caught up with the keys: the URL holds the value and the run ended."""
    page.wait_for_url(re.compile(rf"eligible_cost={value}(&|$)"), timeout=30_000)
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    page.wait_for_timeout(1_500)   # any late message from the server that could still move it back


@pytest.mark.parametrize("gap_ms", [33, 100])
def test_ten_key_presses_on_a_link_opened_scenario_give_ten_steps(server, chromium, gap_ms):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(server + LINK)
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    slider = cost_slider(page)
    slider.focus()
    for _ in range(10):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(gap_ms)
    settled(page, 1_010_000)
    assert slider.input_value() == "1010000"          # no snap-back
    assert page.get_by_label("Total cost of eligible work, exact amount").input_value() == "1,010,000"
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text() == "$505,000"
    no_error_on(page)


def test_holding_an_arrow_key_moves_the_slider(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(server + LINK)
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    slider = cost_slider(page)
    slider.focus()
    page.keyboard.down("ArrowRight")          # a held key: the browser repeats keydown ~30 times a second
    for _ in range(19):
        page.wait_for_timeout(33)
        page.keyboard.down("ArrowRight")      # repeat=true
    page.keyboard.up("ArrowRight")
    settled(page, 1_020_000)
    assert slider.input_value() == "1020000"


def test_the_inputs_speak_for_themselves(server, chromium):  # noqa: F811
    """The calculator's inputs (ui/components/fields_panel.js): a slider says its amount, a "?" opens the
    field's explanation in place, a refused entry is an alert tied to its box, and a switch
    that shows more fields keeps the focus."""
    page = chromium.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(server + LINK)
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    assert cost_slider(page).get_attribute("aria-valuetext") == "$1,000,000"
    help_button = page.get_by_role("button", name="About: Total cost of eligible work")
    assert help_button.get_attribute("aria-expanded") == "false"
    assert not page.get_by_text("The whole cost of the eligible work, before any grant.").is_visible()
    help_button.focus()
    page.keyboard.press("Enter")
    assert help_button.get_attribute("aria-expanded") == "true"
    assert page.get_by_text("The whole cost of the eligible work, before any grant.").is_visible()
    box = page.get_by_label("Federal grant, exact amount")
    box.fill("lots")
    box.press("Enter")
    alert = page.get_by_role("alert").filter(has_text="Federal grant: 'lots' is not a number")
    alert.wait_for(timeout=30_000)
    assert box.get_attribute("aria-invalid") == "true"
    assert box.get_attribute("aria-describedby") == alert.get_attribute("id")
    assert box.input_value() == "lots"                       # kept for the user to correct
    box.fill("250,000")
    box.press("Tab")                                         # leaving the box commits it too
    page.wait_for_url(re.compile(r"federal_grant=250000(&|$)"), timeout=30_000)
    box.page.wait_for_function("(e) => !e.hasAttribute('aria-invalid')", arg=box.element_handle(), timeout=30_000)
    alert.wait_for(state="detached", timeout=30_000)   # the alert's text is cleared: no match left
    switch = page.get_by_role("switch", name="The applicant requests a specific amount")
    switch.focus()
    page.keyboard.press("Space")
    page.get_by_label("Requested amount, exact amount").wait_for(timeout=30_000)
    assert page.evaluate("document.activeElement.getAttribute('role')") == "switch"   # focus kept
    assert page.get_by_label("Requested amount, exact amount").input_value() == "250,000"   # the award shown
    no_error_on(page)
    page.close()


@pytest.mark.default   # every page, every state, in the default tier (docs/testing.md, "Two tiers")
@pytest.mark.parametrize("state", list(STATES))
def test_axe_finds_no_violation(server, chromium, state):  # noqa: F811
    """axe-core at wcag2a, wcag2aa, wcag21a and wcag21aa: zero violations on every page in every
    state a user reaches (exception panel open, presentation mode, import problems, a portfolio)."""
    page = chromium.new_page(viewport={"width": 1280, "height": 1600})
    STATES[state](page, server)
    results = axe(page)
    assert results["violations"] == [] or summary(results) == []
    no_error_on(page)
    page.close()


def test_every_chart_is_named_by_its_finding_with_its_numbers_beside_it(server, chromium):  # noqa: F811
    from core.report import chart_text
    from core.law.application import Application
    from core.law.award import evaluate
    page = chromium.new_page(viewport={"width": 1280, "height": 2400})
    page.goto(server + "/?project_type=renovation&eligible_cost=3000000&local_contribution=1500000")
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    award = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": "3000000",
                                            "local_contribution": "1500000"}))
    charts = page.locator(".gc-figure")   # the calculator's chart element (ui/components/chart_panel.js)
    charts.nth(1).locator(".main-svg").first.wait_for(timeout=20_000)
    assert charts.count() == 2
    assert charts.nth(0).get_attribute("role") == "figure"
    assert charts.nth(0).get_attribute("aria-label") == chart_text.headroom(award)[0]
    assert charts.nth(0).get_attribute("aria-label").startswith(
        "The program maximum holds the award down: award $600,000, $900,000 below the State's share of the cost")
    assert charts.nth(1).get_attribute("aria-label") == chart_text.waterfall(award)[0]
    # the numbers, as a real table, right after each chart, behind a native disclosure
    tables = page.locator("details.gc-numbers", has_text="Numbers behind")
    assert tables.count() == 2
    summary = tables.first.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")      # opened from the keyboard
    table = tables.first.locator("table")
    table.wait_for(timeout=20_000)
    assert "Program maximum" in table.inner_text() and "$600,000" in table.inner_text()
    assert table.locator("thead th").all_inner_texts() == ["Limit", "Amount", "Headroom above the award", "Holds the award down"]
    assert page.locator(".modebar, .modebar-btn").count() == 0      # no toolbar buttons in the Tab order
    page.close()


def test_compare_and_portfolio_charts_have_distinct_names(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1280, "height": 2400})
    STATES["compare, illustrative scenarios"](page, server)
    names = page.locator('[data-testid="stPlotlyChart"]').evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(names) == 3 and len(set(names)) == 3 and all(names)
    assert names[0] == "All 4 scenarios get an award of $600,000; the program maximum holds the award down in 3 of 4." or \
        names[0].startswith("Across 4 scenarios the award runs from $550,000 (Illustrative: reduced scope) to $600,000")
    STATES["portfolio, sample loaded"](page, server)
    names = page.locator('[data-testid="stPlotlyChart"]').evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(names) == 3 and all(names)
    assert names[0].startswith("20 applications in priority order: $4,000,000 allocated")
    page.close()


def announced(page, count: int) -> str:
    """What the live region says once it has spoken `count` times and no announcement is pending.

    The announcer (ui/a11y.py) speaks 400 ms after the amount stops changing, on a browser timer:
    after a rerun the page redraws its charts in one long task (measured 2 s on a loaded CI
    machine), and the timer fires only after it. So wait for the announcement itself, then for a
    timer set after it (timers run in order, so any debounce still pending has fired by then)."""
    page.wait_for_function(f"() => window.__awardAnnouncements >= {count}", timeout=30_000)
    page.evaluate("() => new Promise(done => setTimeout(done, 600))")
    assert page.evaluate("window.__awardAnnouncements") == count    # once per change, not per redraw
    return page.locator("#award-announcer").text_content()


def test_the_award_is_announced_once_per_change(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(server + LINK)
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    live = page.locator("#award-announcer")
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "status"
    assert live.inner_text() == ""                                  # the first draw is not a change
    assert page.evaluate("window.__awardAnnouncements") == 0
    cost_slider(page).focus()
    page.keyboard.press("ArrowRight")
    settled(page, 1_001_000)
    assert announced(page, 1) == "State grant award: $500,500"
    page.keyboard.press("ArrowRight")
    settled(page, 1_002_000)
    assert announced(page, 2) == "State grant award: $501,000"
    page.close()


NAMES_JS = """() => {
  const name = e => {
    if (e.getAttribute('aria-labelledby')) {
      return e.getAttribute('aria-labelledby').split(' ').map(i => document.getElementById(i))
        .map(x => x ? (x.getAttribute('aria-label') || x.innerText) : '').join(' ').trim();
    }
    if (e.getAttribute('aria-label')) return e.getAttribute('aria-label').trim();
    const l = e.id && document.querySelector(`label[for="${e.id}"]`);
    return l ? l.innerText.trim() : '';
  };
  return [...document.querySelectorAll('[data-testid="stMain"] input:not([type=hidden]), [data-testid="stMain"] textarea')]
    .map(name);
}"""


def test_control_names_are_unique_and_said_once(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 2400})
    page.goto(server + "/?project_type=renovation&eligible_cost=1000000&local_contribution=500000"
                       "&requested_amount=400000&bpw_exception_requested=true&local_property_value=2000000")
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    page.wait_for_timeout(500)
    names = page.evaluate(NAMES_JS)
    assert "Total cost of eligible work, exact amount" in names
    assert "Value of property made available locally, exact amount" in names
    assert "Exact amount" not in names
    assert "Total cost of eligible work" in names                   # the slider: once, not twice
    assert "Total cost of eligible work Total cost of eligible work" not in names
    assert all(names) and len(names) == len(set(names)), names
    # icons inside text are hidden from screen readers ("cancel icon cancel Fail")
    assert page.locator('span[role="img"][aria-label$=" icon"]:not([aria-hidden="true"])').count() == 0
    page.close()


@pytest.mark.default   # each page opened in a real browser, in the default tier
@pytest.mark.parametrize("path,title", [("", "Calculator"), ("compare", "Compare scenarios"),
                                        ("sensitivity", "Sensitivity"), ("portfolio", "Portfolio"),
                                        ("rules", "Rules and variants")])
def test_each_page_has_its_own_title_and_headings_in_order(server, chromium, path, title):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1280, "height": 1600})
    page.goto(f"{server}/{path}")
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    page.wait_for_function(f"() => document.title.startsWith({title!r})", timeout=20_000)
    assert page.title() == f"{title} · Senior center capital grants"
    levels = page.evaluate("() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]"
                           ".filter(h => h.offsetParent !== null).map(h => +h.tagName[1])")
    assert levels[0] == 1 and levels.count(1) == 1, levels
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:])), levels
    page.close()


def test_focus_is_visible_on_switches_checkboxes_and_links(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1280, "height": 1600})
    # With the Board exception asked for, its panel is open: Streamlit's own switch is on the page.
    page.goto(server + "/?project_type=renovation&eligible_cost=1000000&bpw_exception_requested=true")
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    for selector in ('[data-testid="stSidebar"] [role="switch"]', '[data-testid="stMain"] [data-testid="stCheckbox"]:visible input',
                     '.gf input[role="switch"]', '.gf input[type="checkbox"]:not([role])', '.gf input[type="range"]',
                     '.gf select', '.gf-help-btn', '.gd input[role="switch"]', '[data-testid="stSidebarNavLink"]'):
        page.keyboard.press("Shift")                     # the last input was a key: focus is shown
        page.locator(selector).first.focus()
        style = page.locator(selector).first.evaluate("""e => {
            const shown = e.matches('input') ? (e.closest('label') || e) : e;   // Streamlit's hide theirs in a label
            const s = getComputedStyle(shown);
            return [s.outlineStyle, s.outlineWidth, s.outlineColor]; }""")
        assert style == ["solid", "3px", "rgb(31, 78, 121)"], (selector, style)   # #1f4e79: 8.7:1 on white
    page.close()


@pytest.mark.parametrize("path", ["", "compare", "sensitivity", "portfolio", "rules"])
def test_reflow_at_320_px_cuts_no_title_or_word(server, chromium, path):  # noqa: F811
    page = chromium.new_page(viewport={"width": 320, "height": 1600})
    page.goto(f"{server}/{path}")
    wait_ready(page, timeout=90_000)   # a busy machine draws slowly
    page.wait_for_timeout(500)
    cut = page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid="stMain"] h1, [data-testid="stMain"] h2, [data-testid="stMain"] h3, ' +
            '[data-testid="stMain"] p, [data-testid="stMain"] li')]
        .filter(e => e.offsetParent !== null && !e.closest('[data-testid="stDataFrame"], table, .js-plotly-plot'))
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 || e.scrollWidth > e.clientWidth + 1)
        .map(e => e.innerText.slice(0, 60))""")
    assert cut == []
    page.close()
