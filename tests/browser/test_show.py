"""Issue 51: the clicker runs the whole show. From the first screen of presentation mode, Page Down
goes through every scenario of Compare in the presenter's order, then every other page, and Page
Up comes back the same way; on every screen the fixed key note covers nothing (bounding boxes), at
1280 x 720 and 1920 x 1080. Screenshots go to test-artifacts/."""
import pytest

from harness.serve import wait_ready
from tests.browser.test_presentation import NAMES, SIZES, server  # noqa: F401
from tests.support import ROOT
from tests.support.browser import chromium, no_error_on  # noqa: F401

pytestmark = pytest.mark.browser
ARTIFACTS = ROOT / "test-artifacts"

SHOW = (["Calculator"] + [f"Compare scenarios: Scenario {k} of 3: {n}" for k, n in enumerate(NAMES, 1)]
        + ["Sensitivity", "Portfolio", "Rules and variants"])

WHERE = """() => {
  const bar = document.querySelector('.st-key-present_bar');
  const here = bar && [...bar.querySelectorAll('p')].find(p => p.innerText.includes('(this page)'));
  if (!here) return '';
  const page = here.innerText.replace('(this page)', '').trim();
  const nav = document.querySelector('[class*="st-key-keep_cmp_nav"]');
  const card = document.querySelector('.st-key-cmp_focus_card [data-testid="stText"]');
  return nav && card ? `${page}: ${nav.innerText.match(/Scenario \\d+ of \\d+/)[0]}: ${card.innerText.trim()}` : page;
}"""

# Every visible thing the note's box meets, in the main area: text, a chart's drawing, a table's cell.
COVERED = """() => {
  const note = document.querySelector('.ck');
  if (!note || !note.textContent) return ['no key note'];
  if (getComputedStyle(note).visibility === 'hidden') return [];   // it gave way
  const n = note.getBoundingClientRect();
  const meets = r => r.width > 0 && r.height > 0 && r.left < n.right && r.right > n.left && r.top < n.bottom && r.bottom > n.top;
  const out = [];
  const main = document.querySelector('[data-testid="stMain"]');
  const m = main.getBoundingClientRect();   // the part of the page in view (it scrolls inside stMain)
  for (const e of main.querySelectorAll('p, span, td, th, h1, h2, h3, li, label, a, button, svg text, .js-plotly-plot .bg, [data-testid="stMetricValue"]')) {
    if (e.closest('.ck') || note.contains(e)) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden' || style.display === 'none' || !(e.textContent.trim() || e.classList.contains('bg'))) continue;
    const b = e.getBoundingClientRect();
    const r = {left: Math.max(b.left, m.left), right: Math.min(b.right, m.right), top: Math.max(b.top, m.top),
               bottom: Math.min(b.bottom, m.bottom)};
    r.width = r.right - r.left; r.height = r.bottom - r.top;
    if (meets(r)) out.push(e.tagName + ': ' + e.textContent.trim().slice(0, 40));
  }
  return out;
}"""


def where(page) -> str:
    return page.evaluate(WHERE)


def press(page, key: str, before: str) -> str:
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)
    page.wait_for_function(f"() => ({WHERE})() && ({WHERE})() !== {before!r}", timeout=60_000)
    wait_ready(page)
    page.wait_for_timeout(600)   # the charts' last resize
    return where(page)


def nothing_covered(page, label: str) -> bool:
    """At the top of the screen and scrolled to its end, the key note meets nothing; True where it
    was in sight at either."""
    shown = False
    for end in (True, False):
        page.evaluate(f"() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, {'1e6' if end else 0})"
                      f" || window.scrollTo(0, {'1e6' if end else 0})")
        page.wait_for_timeout(300)
        assert page.evaluate(COVERED) == [], (label, "end" if end else "top")
        shown |= page.evaluate("() => getComputedStyle(document.querySelector('.ck')).visibility") == "visible"
    return shown


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_page_down_runs_the_whole_show_and_page_up_comes_back(server, chromium, size):  # noqa: F811
    page = chromium.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(f"{server}/?present=1")
    wait_ready(page, 90_000)
    seen = [where(page)]
    shown = [nothing_covered(page, seen[-1])]
    for _ in SHOW[1:]:
        seen.append(press(page, "PageDown", seen[-1]))
        page.screenshot(path=str(ARTIFACTS / f"show-{size[0]}-{len(seen)}.png"))
        shown.append(nothing_covered(page, seen[-1]))
    assert seen == SHOW
    assert all(shown), shown   # in the strip the page leaves it, the note is there to be read on every page
    back = [seen[-1]]
    for _ in SHOW[1:]:
        back.append(press(page, "PageUp", back[-1]))
        nothing_covered(page, back[-1])
    assert back == SHOW[::-1]
    no_error_on(page)
    page.close()
