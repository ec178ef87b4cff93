"""The award first (ui/components/first_paint.py): a visitor's first run of the Calculator draws the
title and the award alone; once the browser has painted it, the page asks for the rest, and the
inputs, sidebar and charts come around the award already on screen, with nothing for the visitor
to do. What a link brings that the page must say (a value it could not use) is said by that second
run, not lost with the first."""
import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.fields import FIELD
from core.law.money import fmt
from harness.serve import streamlit_server, wait_ready
from tests.support.browser import chromium  # noqa: F401
from tests.support.browser import no_error_on

pytestmark = pytest.mark.browser

# Before the app's code: when each thing was first on the page (ms since the navigation), and the
# award's element as first drawn.
SEEN = """(() => {
  window.__seen = {};
  const mark = (name, found) => { if (found && !(name in window.__seen)) window.__seen[name] = performance.now(); return found; };
  const look = () => {
    const award = [...document.querySelectorAll('[data-testid=stMetricValue]')].find((m) => /\\$[0-9]/.test(m.textContent));
    if (mark('award', award) && !window.__awardNode) { window.__awardNode = award; window.__awardText = award.textContent; }
    mark('inputs', document.querySelector('input[type=range], [role=slider]'));
    mark('sidebar', document.querySelector('[data-testid=stSidebarUserContent] [data-testid=stSelectbox]'));
    mark('asked', document.querySelector('.st-key-first_paint'));
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true});
})();"""

# The Calculator's money sliders, found by their labels (a new money input adds a slider, not a miss).
SLIDERS = ("eligible_cost", "federal_grant", "local_contribution", "prior_program_funds")   # among others


def sliders(page) -> list[int]:
    return [page.get_by_role("slider", name=FIELD[name].label, exact=True).count() for name in SLIDERS]


# Not the page's example: the award drawn first is this link's ($550,000: what the project lacks).
LINK = {"project_type": "renovation", "eligible_cost": "1300000", "federal_grant": "100000", "local_contribution": "650000"}


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium):  # noqa: F811
    db = tmp_path_factory.mktemp("db") / "lib.db"
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}) as url:
        yield url


def visit(chromium, url: str):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1400, "height": 1800})
    page.add_init_script(SEEN)
    page.goto(url)
    wait_ready(page)
    return page


@pytest.mark.default   # the Calculator's first visit, the way every visitor comes in: in the default tier
def test_a_first_visit_draws_the_award_first_then_the_whole_page_around_it(server, chromium):  # noqa: F811
    page = visit(chromium, server + "/?" + "&".join(f"{k}={v}" for k, v in LINK.items()))
    seen = page.evaluate("() => window.__seen")
    want = fmt(evaluate(Application.from_dict(LINK)).amount)
    assert want == "$550,000"
    # the award alone, with the element that asks for the rest; then the inputs and the sidebar
    assert set(seen) == {"award", "inputs", "sidebar", "asked"}, seen
    assert seen["award"] < seen["inputs"] and seen["award"] < seen["sidebar"], seen
    assert page.evaluate("() => window.__awardText") == want
    # the award first drawn is the award on the page: kept in place, not drawn again
    assert page.evaluate("() => window.__awardNode.isConnected && window.__awardNode.textContent") == want
    # the whole page: its inputs, its sidebar, its charts; the asking element gone
    assert sliders(page) == [1, 1, 1, 1]
    assert page.locator("[data-testid=stSidebarUserContent] [data-testid=stSelectbox]").count() == 1
    page.wait_for_selector(".gc-plot .main-svg", timeout=60_000)
    assert page.locator(".st-key-first_paint").count() == 0
    no_error_on(page)
    page.close()


def test_what_a_first_visits_link_could_not_use_is_still_said(server, chromium):  # noqa: F811
    page = visit(chromium, server + "/?project_type=renovation&eligible_cost=lots&local_contribution=500000")
    assert page.evaluate("() => window.__seen.award < window.__seen.inputs")
    warning = page.locator("[data-testid=stAlert]", has_text="Total cost of eligible work")
    assert warning.count() == 1 and "lots" in warning.inner_text()
    page.close()


def test_presentation_mode_and_later_runs_draw_the_whole_page_at_once(server, chromium):  # noqa: F811
    """Only a session's first Calculator run draws the award alone: presenting, it is the answer
    screen itself; going back to the Calculator later in the session, the whole page at once."""
    page = visit(chromium, server + "/?present=1")
    assert "asked" not in page.evaluate("() => window.__seen")
    page.close()
    page = visit(chromium, server + "/compare")
    page.get_by_role("link", name="Calculator").first.click()
    page.wait_for_url(lambda u: "/compare" not in u, timeout=30_000)
    wait_ready(page)
    assert "asked" not in page.evaluate("() => window.__seen")
    assert sliders(page) == [1, 1, 1, 1]
    page.close()
