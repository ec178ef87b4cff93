"""A projector's clicker in presentation mode on Compare with three scenarios: PageDown and
ArrowRight show the next, PageUp and ArrowLeft the previous; not while a box or slider has focus."""
import pytest

from harness.serve import wait_ready
from tests.browser.test_presentation import NAMES, server  # noqa: F401
from tests.support.browser import chromium, no_error_on  # noqa: F401

pytestmark = pytest.mark.browser


def at(page, k: int) -> None:
    page.wait_for_function(f"() => document.body.innerText.includes('Scenario {k} of 3')", timeout=20_000)
    wait_ready(page)


def test_clicker_keys_step_through_the_scenarios(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server}/compare?present=1&scenario={NAMES[0]}&scenario={NAMES[1]}&scenario={NAMES[2]}")
    wait_ready(page, 90_000)
    at(page, 1)
    assert page.get_by_text("Keys: Page Down", exact=False).first.is_visible()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")   # the focus on the page
    page.keyboard.press("PageDown")
    at(page, 2)
    page.keyboard.press("ArrowRight")
    at(page, 3)
    page.keyboard.press("PageUp")
    at(page, 2)
    page.keyboard.press("ArrowLeft")
    at(page, 1)
    page.keyboard.press("n")
    at(page, 2)
    # a key in a text box is the box's: nothing moves
    page.evaluate("() => { const i = document.createElement('input'); i.id = 'typing'; document.body.append(i); }")
    page.locator("#typing").focus()
    for key in ("PageDown", "ArrowRight", "n", "ArrowLeft"):
        page.keyboard.press(key)
    page.wait_for_timeout(1500)
    assert "Scenario 2 of 3" in page.locator("body").inner_text()
    no_error_on(page)


def reveal(page, selector: str) -> None:
    """Show the page's first control matching `selector` that presentation mode hides (display:none
    cannot take the focus), with its containers: the real control, to focus as a user would."""
    page.evaluate("""t => { let e = document.querySelector(t);
        for (; e && e !== document.body; e = e.parentElement) e.style.setProperty('display', 'block', 'important'); }""",
                  selector)


def test_a_focused_text_box_keeps_the_clicker_keys(server, chromium):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server}/compare?present=1&scenario={NAMES[0]}&scenario={NAMES[1]}&scenario={NAMES[2]}")
    wait_ready(page, 90_000)
    at(page, 1)
    reveal(page, "[data-testid=stTextInput]")   # "Find saved scenarios by name"
    box = page.locator("[data-testid=stTextInput] input").first
    box.focus()
    assert page.evaluate("() => document.activeElement.tagName") == "INPUT"
    for key in ("PageDown", "ArrowRight", "n", "PageUp", "ArrowLeft"):
        page.keyboard.press(key)
    page.wait_for_timeout(1500)
    assert "Scenario 1 of 3" in page.locator("body").inner_text()
    box.blur()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("PageDown")   # and once the box lets go, the clicker moves again
    at(page, 2)
    no_error_on(page)



def test_a_focused_slider_keeps_the_clicker_keys(server, chromium):  # noqa: F811
    """The arrows and PageUp/PageDown move a slider that has the focus, never the scenario: no page
    with a Next shows a slider while presenting, so a real range input is put on Compare's page and
    focused (the clicker's rule is on what has the focus, whatever made it)."""
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server}/compare?present=1&scenario={NAMES[0]}&scenario={NAMES[1]}&scenario={NAMES[2]}")
    wait_ready(page, 90_000)
    at(page, 1)
    page.evaluate("""() => { const s = document.createElement('input'); s.type = 'range'; s.id = 'probe';
                             s.setAttribute('aria-label', 'Probe slider'); document.body.prepend(s); s.focus(); }""")
    assert page.evaluate("() => document.activeElement.id") == "probe"
    for key in ("PageDown", "ArrowRight", "PageUp", "ArrowLeft"):
        page.keyboard.press(key)
    page.wait_for_timeout(1500)
    assert "Scenario 1 of 3" in page.locator("body").inner_text()
    assert page.evaluate("() => document.getElementById('probe').value") == "50"   # the keys moved the slider: +10 -10
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("PageDown")
    at(page, 2)


def test_arrows_scroll_the_page_b_blanks_it_and_space_goes_on_from_the_shows_buttons(server, chromium):  # noqa: F811
    """Deck audit, 2026-12-06: below the first screen nothing was reachable by key (the page scrolls inside
    Streamlit's main area, which no key reached with the focus on the page); there was no blank-screen key;
    Space after a click on "Previous scenario" went back."""
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server}/compare?present=1&scenario={NAMES[0]}&scenario={NAMES[1]}&scenario={NAMES[2]}")
    wait_ready(page, 90_000)
    at(page, 1)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    top = "() => document.querySelector('[data-testid=stMain]').scrollTop"
    assert page.evaluate(top) == 0
    page.keyboard.press("ArrowDown")
    page.wait_for_function(f"() => ({top})() > 300", timeout=10_000)
    page.keyboard.press("End")
    page.wait_for_function("() => { const m = document.querySelector('[data-testid=stMain]');"
                           " return m.scrollTop + m.clientHeight >= m.scrollHeight - 2; }", timeout=10_000)
    page.keyboard.press("Home")
    page.wait_for_function(f"() => ({top})() === 0", timeout=10_000)
    at(page, 1)   # scrolling stepped nowhere
    page.keyboard.press("b")
    assert page.locator(".ck-blank").is_visible()
    page.keyboard.press("PageDown")   # any key brings the show back, and steps nowhere
    assert page.locator(".ck-blank").count() == 0
    page.wait_for_timeout(800)
    at(page, 1)
    page.keyboard.press("PageDown")
    at(page, 2)
    page.get_by_role("button", name="Previous scenario").click()   # a mouse click leaves the focus there
    at(page, 1)
    page.keyboard.press(" ")   # Space is the clicker's Next, not the focused Previous
    at(page, 2)
    no_error_on(page)
