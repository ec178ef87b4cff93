"""User text in a real browser: shown as typed, no request to another host."""


from core.law.application import Application
from core.store.repository import ScenarioStore
from tests.support import ROOT


APP = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})


def test_browser_shows_hostile_text_as_text(tmp_path):
    from tests.support.browser import require_chromium
    from harness.serve import browser, streamlit_server, wait_ready
    require_chromium()
    from urllib.parse import urlencode, urlparse
    store = ScenarioStore(f"sqlite:///{tmp_path / 'lib.db'}")
    evil = "https://example.com/x ![i](https://example.com/i.png) :material/warning: &copy; $$x$$"
    store.save(evil, APP)
    query = urlencode({"eligible_cost": "www.example.com https://example.com/y", "ruleset": ":material/warning: :skull:"})
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{tmp_path / 'lib.db'}"}) as url, browser() as b:
        page = b.new_page(viewport={"width": 1400, "height": 1800})
        outside = []
        # blob: URLs are made in the page itself (the calculator's inputs load as one): not a request out
        page.on("request", lambda r: outside.append(r.url)
                if urlparse(r.url).scheme != "blob" and urlparse(r.url).hostname != "127.0.0.1" else None)
        page.goto(f"{url}/?{query}")
        wait_ready(page)
        page.wait_for_selector("[data-testid=stAlertContainer]", timeout=30_000)
        alerts = page.locator("[data-testid=stAlertContainer]")
        text = " ".join(alerts.all_inner_texts())
        assert "www.example.com https://example.com/y" in text and ":material/warning: :skull:" in text.replace("\u2060", "")
        assert alerts.locator("a").count() == 0 and alerts.locator("[data-testid=stIconMaterial]").count() == 0
        page.goto(f"{url}/compare")
        wait_ready(page)
        page.wait_for_selector("text=Scenarios to compare", timeout=30_000)
        main = page.locator("[data-testid=stMain]")
        assert main.locator("a[href*='example.com']").count() == 0 and main.locator("img").count() == 0
        assert main.locator(".katex").count() == 0
        page.screenshot(path=str(ROOT / "test-artifacts" / "hostile-compare.png"), full_page=True)
        assert outside == []
