"""Issue 51: on the Calculator, the award stays in view while any input is edited, at 1280 x 720 as on
a large screen, and it is the largest number on the page (it was the size of "Cost after federal
grant" beside it, and editing the local contribution or the prior program funds scrolled it away)."""
import pytest

from harness.serve import wait_ready
from tests.browser.test_calculator import server  # noqa: F401
from tests.support import ROOT
from tests.support.browser import chromium, no_error_on  # noqa: F401

pytestmark = pytest.mark.browser
ARTIFACTS = ROOT / "test-artifacts"

AWARD = '.st-key-calc_answer [data-testid="stMetricValue"]'

LARGEST = """sel => {
  const award = document.querySelector(sel);
  const size = parseFloat(getComputedStyle(award).fontSize);
  const others = [...document.querySelectorAll('[data-testid="stMain"] *')].filter(e =>
    !award.contains(e) && !e.contains(award) && e.childElementCount === 0 && /^\\s*[-+]?\\$[\\d,]/.test(e.textContent)
    && e.getBoundingClientRect().width > 0);
  return [size, Math.max(0, ...others.map(e => parseFloat(getComputedStyle(e).fontSize))),
          others.filter(e => parseFloat(getComputedStyle(e).fontSize) >= size).map(e => e.textContent.trim())];
}"""


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_award_stays_in_view_and_is_the_largest_number(server, chromium, size):  # noqa: F811
    url, _ = server
    page = chromium.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(url)
    wait_ready(page)
    award, largest, bigger = page.evaluate(LARGEST, AWARD)
    assert award > largest, bigger
    for label in ("Local contribution", "Prior program funds"):
        field = page.get_by_text(label, exact=True).first
        field.scroll_into_view_if_needed()
        field.click()
        page.wait_for_timeout(400)
        box, height = page.locator(AWARD).bounding_box(), size[1]
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, (label, box)
        whole = page.locator(".st-key-calc_answer").bounding_box()   # the whole box, under the page's header
        header = page.evaluate("() => document.querySelector('header[data-testid=stHeader]').getBoundingClientRect().bottom")
        assert whole["y"] >= header - 1, (label, whole, header)
        assert page.evaluate("""sel => { const r = document.querySelector(sel).getBoundingClientRect();
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return document.querySelector(sel).contains(top); }""", AWARD), label   # in view, not under anything
    page.screenshot(path=str(ARTIFACTS / f"award-in-view-{size[0]}.png"))
    no_error_on(page)
    page.close()
