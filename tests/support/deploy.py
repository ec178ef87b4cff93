"""What the deployment tests share (the team deployment behind nginx, the container stack):
a browser session of its own through the proxy, its requests and replicas, and the account and
folders docs/deploy.md sets up on a server."""
from __future__ import annotations

import re
import urllib.request

from harness.serve import wait_ready
from tests.support import ROOT

REPLICAS = ["replica-1", "replica-2"]

CSP_WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '')));
"""


def get(url: str, cookie: str | None = None):
    req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, r.headers, r.read()


class Session:
    """A browser of its own (its own cookies) and every replica that answered it."""

    def __init__(self, browser, url: str, query: str):
        self.context = browser.new_context(viewport={"width": 1400, "height": 2000}, accept_downloads=True)
        self.context.add_init_script(CSP_WATCH)
        self.page = self.context.new_page()
        self.served: list[tuple[str, str | None]] = []
        # http only: a blob: URL is made in the page (the calculator's inputs load from one), not served
        self.page.on("response", lambda r: self.served.append((r.url, r.headers.get("x-served-by")))
                     if r.url.startswith("http") else None)
        self.page.goto(f"{url}/?{query}", timeout=120_000)   # generous: CI machines can be busy
        wait_ready(self.page, timeout=120_000)
        self.replica = self.served[0][1]

    def award(self) -> str:
        return self.page.locator('[data-testid="stMetricValue"]').first.inner_text()

    def wait_award(self, text: str) -> None:
        self.page.wait_for_function("(t) => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                                    ".some(e => e.innerText === t)", arg=text, timeout=60_000)

    def go(self, link: str, heading: str | None = None) -> None:
        """Another page of the app in the same session (the sidebar's link, no reload)."""
        self.page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=link).click()
        self.page.wait_for_function("(t) => document.querySelector('[data-testid=stMain] h1')?.innerText === t",
                                    arg=heading or link, timeout=60_000)
        wait_ready(self.page, timeout=60_000)


QUERY = "project_type=renovation&eligible_cost=1000000&local_contribution=500000"


def save(s: Session, name: str) -> None:
    s.page.get_by_label("Scenario name").fill(name)
    s.page.get_by_role("button", name="Save scenario").click()
    s.page.wait_for_selector(f'text="Saved: {name}"', timeout=30_000)


DOC = ROOT / "docs" / "deploy.md"


def setup_block() -> str:
    """The shell block of docs/deploy.md that makes the service account and its folders."""
    doc = DOC.read_text(encoding="utf-8")
    m = re.search(r"<!-- server-setup -->\s*```(?:bash|sh)\n(.*?)```", doc, re.S)
    assert m, "docs/deploy.md has no server-setup block"
    return m.group(1)
