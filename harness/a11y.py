"""Every page in every state a user reaches, for axe-core and the other accessibility checks.

Used by tests/browser/test_accessibility.py."""
from __future__ import annotations

import json

from harness.serve import wait_ready

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

BAD_IMPORT = json.dumps({"scenarios": [{"name": "Fine", "application": {"project_type": "renovation",
                                                                       "eligible_cost": "1000000"}},
                                       {"name": "Bad", "application": {"project_type": "renovation",
                                                                      "eligible_cost": "-5"}}]})


def _ready(page) -> None:
    wait_ready(page, timeout=90_000)
    page.wait_for_timeout(300)


def _present(page) -> None:
    page.get_by_text("Presentation mode", exact=True).first.click()
    page.wait_for_timeout(500)
    _ready(page)


def _illustrative(page, url) -> None:
    page.goto(url + "/compare")
    _ready(page)
    add = page.get_by_role("button", name="Add illustrative scenarios")
    if add.count():
        add.click()
        page.wait_for_timeout(500)
        _ready(page)
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=20_000)


def _calc(page, url):
    page.goto(url)
    _ready(page)


def _calc_exception(page, url):
    page.goto(url + "/?project_type=renovation&eligible_cost=1800000&local_contribution=300000"
               "&bpw_exception_requested=true&local_property_value=2000000")
    _ready(page)


def _calc_quotes(page, url):
    _calc(page, url)
    page.get_by_role("switch", name="Show the regulation's own sentences").check()
    page.locator(".gd-quote").first.wait_for(state="visible")


def _calc_present(page, url):
    _calc(page, url)
    _present(page)


def _compare_empty(page, url):
    page.goto(url + "/compare")
    _ready(page)


def _compare(page, url):
    _illustrative(page, url)


def _compare_present(page, url):
    _illustrative(page, url)
    _present(page)


def _compare_import_problems(page, url):
    _illustrative(page, url)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
        files=[{"name": "bad.json", "mimeType": "application/json", "buffer": BAD_IMPORT.encode()}])
    page.wait_for_selector("text=problem", timeout=20_000)
    _ready(page)


def _charted(page, url, path: str) -> None:
    """A page whose charts are drawn before it is checked."""
    page.goto(url + path)
    _ready(page)
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=20_000)


def _sensitivity(page, url):
    _charted(page, url, "/sensitivity")


def _sensitivity_present(page, url):
    _sensitivity(page, url)
    _present(page)


def _portfolio(page, url):
    _charted(page, url, "/portfolio")


# An illustrative portfolio with a blank line and two bad rows (lines 4 and 5), for the problems' list.
BAD_PORTFOLIO = ("name,locality,project_type,eligible_cost,local_contribution\n"
                 "Illustrative: Alder,Alder County,renovation,1000000,500000\n\n"
                 "Illustrative: Birch,Birch City,renovation,oops,0\n"
                 "Illustrative: Cedar,Cedar Falls,castle,300000,150000\n,,,,\n")


def _portfolio_problems(page, url):
    _portfolio(page, url)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
        files=[{"name": "applications.csv", "mimeType": "text/csv", "buffer": BAD_PORTFOLIO.encode()}])
    page.wait_for_selector(".st-key-pf_problems", timeout=30_000)
    _ready(page)


def _portfolio_present(page, url):
    _portfolio(page, url)
    _present(page)


def _rules(page, url):
    page.goto(url + "/rules")
    _ready(page)


def _rules_present(page, url):
    _rules(page, url)
    _present(page)


# name -> how to get there from a fresh page on the server at `url`
STATES = {
    "calculator": _calc,
    "calculator, exception panel open": _calc_exception,
    "calculator, the regulation's sentences shown": _calc_quotes,
    "calculator, presentation mode": _calc_present,
    "compare, empty library": _compare_empty,
    "compare, illustrative scenarios": _compare,
    "compare, presentation mode": _compare_present,
    "compare, import problems shown": _compare_import_problems,
    "sensitivity": _sensitivity,
    "sensitivity, presentation mode": _sensitivity_present,
    "portfolio, sample loaded": _portfolio,
    "portfolio, presentation mode": _portfolio_present,
    "portfolio, a file's bad rows listed": _portfolio_problems,
    "rules": _rules,
    "rules, presentation mode": _rules_present,
}


def axe(page) -> dict:
    """axe-core's results at the four WCAG 2.1 A/AA tags."""
    from axe_playwright_python.sync_playwright import Axe
    return Axe().run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS},
                                    "resultTypes": ["violations", "incomplete"]}).response


def summary(results: dict) -> list[str]:
    return [f"{v['id']} ({len(v['nodes'])} nodes): {v['help']}; e.g. {v['nodes'][0]['target']}"
            for v in results["violations"]]
