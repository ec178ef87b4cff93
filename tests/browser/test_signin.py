"""Sign-in with a real OpenID Connect provider: `oidc-provider-mock` (PyPI, pinned in
requirements-dev.txt) started on loopback as a user would start it, Streamlit's native
st.login redirect flow driven in Chromium for three users: alice and bob, of the allowed
domain example.org, and carol, of outside.example, who is refused. A link opened before
signing in comes back whole after it (ui/addresses.py).

Without Chromium or the provider these tests skip with the reason, unless REQUIRE_BROWSER=1
(CI), where a missing one is a failure."""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest

from harness.serve import free_port, streamlit_server, wait_ready as _wait_ready
from tests.support import ROOT
from tests.support.browser import ACCESS_CONTACT, no_error_on, signin_settings


ARTIFACTS = ROOT / "test-artifacts"


PAGES = ["", "compare", "sensitivity", "portfolio", "rules"]


USERS = {"alice": {"sub": "alice", "email": "alice@example.org", "name": "Alice Analyst"},
         "bob": {"sub": "bob", "email": "bob@example.org", "name": "Bob Board"},
         "carol": {"sub": "carol", "email": "carol@outside.example", "name": "Carol Outsider"}}


CONTACT = ACCESS_CONTACT


STREAMLIT_NOT_FOUND = "does not seem to exist"   # Streamlit's own "Page not found" box


COOKIE_SECRET = "test-only-cookie-secret-3f9a1c0e5b7d2468"


PATIENCE = 120_000   # ms; generous, as a loaded 2-core CI machine is slow (nothing here asserts on time)


def wait_ready(page) -> None:
    _wait_ready(page, timeout=PATIENCE)


def _require_provider() -> None:
    try:
        import oidc_provider_mock  # noqa: F401
    except ImportError:
        reason = "oidc-provider-mock is not installed (pip install -r requirements-dev.txt)"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url + "/.well-known/openid-configuration", timeout=5)
        return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def provider():
    """The provider CI started (.ci/run exports OIDC_PROVIDER_URL; alice, bob and carol predefined
    as in USERS), else `python -m oidc_provider_mock` started here the same way, on a free loopback port."""
    external = os.environ.get("OIDC_PROVIDER_URL")
    if external:
        if not _answers(external):
            pytest.fail(f"OIDC_PROVIDER_URL={external} does not answer (is oidc-provider-mock running?)")
        yield external.rstrip("/")
        return
    _require_provider()
    port = free_port()
    log = open(ARTIFACTS / f"oidc-provider-{port}.log", "w")
    cmd = [sys.executable, "-m", "oidc_provider_mock", "--host", "127.0.0.1", "--port", str(port)]
    for claims in USERS.values():
        cmd += ["--user-claims", json.dumps(claims)]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(url + "/.well-known/openid-configuration", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"oidc-provider-mock did not start; see {log.name}")
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def server(provider, tmp_path_factory, chromium):  # noqa: F811
    """The dashboard with an [auth] section pointing at the provider (secrets in a temporary file),
    letting in example.org only."""
    home = tmp_path_factory.mktemp("signin")
    db_url = f"sqlite:///{home / 'lib.db'}"
    port = free_port()
    secrets = home / "secrets.toml"
    secrets.write_text(signin_settings(f"http://127.0.0.1:{port}/oauth2callback", COOKIE_SECRET, provider),
                       encoding="utf-8")
    from core.store.repository import ScenarioStore
    from tests.support.store import APP
    seed = ScenarioStore(db_url)
    seed.save("Confidential seed plan", APP, actor="carol@example.org")   # must never show when signed out
    seed.dispose()
    env = {"SCENARIO_DB_URL": db_url, "STREAMLIT_SECRETS_FILES": str(secrets)}
    with streamlit_server(env=env, port=port) as url:
        yield url, db_url


def sign_in(browser, url: str, who: str, address: str = "/", lands=None):
    """A fresh browser profile opens `address`, goes through the whole redirect flow, and lands
    (on `lands`, a glob or pattern, when given); returns its page."""
    context = browser.new_context(viewport={"width": 1400, "height": 2000})
    page = context.new_page()
    page.goto(url + address)
    wait_ready(page)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/oauth2/authorize?**", timeout=PATIENCE)     # at the identity provider
    page.get_by_role("button", name=who, exact=True).click()
    page.wait_for_url(url + "/**", timeout=PATIENCE)                   # back, through /oauth2callback
    if lands is not None:
        page.wait_for_url(lands, timeout=PATIENCE)
    wait_ready(page)
    page.wait_for_selector('text="Sign out"', state="attached", timeout=PATIENCE)   # hidden when presenting
    assert f"{USERS[who]['name']} ({USERS[who]['email']})" in page.locator("body").text_content()
    return page


def assert_sign_in_screen_only(page) -> None:
    body = page.inner_text("body")
    assert page.get_by_role("button", name="Sign in").count() == 1
    for never in ("State grant calculator", "Compare scenarios", "Confidential seed plan", "Alice plan",
                  "Eligible", "Presentation mode", "Ruleset"):
        assert never not in body, never
    assert page.get_by_role("slider").count() == 0
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0
    assert STREAMLIT_NOT_FOUND not in body and "Page not found" not in body
    assert "30 days or until you sign out" in body
    no_error_on(page)


@pytest.mark.parametrize("path", PAGES + ["nonexistent", "compare?present=1",
                                          "?eligible_cost=1450000&project_type=renovation"])
def test_signed_out_visitor_sees_only_sign_in(server, chromium, path):  # noqa: F811
    """On every address, a page's or not, with its query: the sign-in screen alone, the address
    left as it was (nothing says "Page not found" over it)."""
    url, _ = server
    context = chromium.new_context()
    page = context.new_page()
    page.goto(f"{url}/{path}")
    wait_ready(page)
    assert_sign_in_screen_only(page)
    assert page.url == f"{url}/{path}"
    if path == "compare":
        from harness.a11y import axe, summary
        results = axe(page)
        assert results["violations"] == [] or summary(results) == []
        page.screenshot(path=str(ARTIFACTS / "signed-out.png"))
    context.close()


def _signed(secret: str, payload: dict) -> str:
    """A `_streamlit_user` cookie value the way Streamlit 1.67 signs one (itsdangerous, salted by the name)."""
    from itsdangerous import URLSafeTimedSerializer
    return URLSafeTimedSerializer(secret, salt="_streamlit_user").dumps(json.dumps(payload))


@pytest.mark.parametrize("forge", ["genuine (control)", "signed with another secret", "payload changed", "garbage"])
def test_forged_session_cookie_gets_the_sign_in_screen(server, chromium, forge):  # noqa: F811
    import base64
    url, _ = server
    identity = {**USERS["alice"], "is_logged_in": True, "provider": "default", "origin": url}
    if forge == "genuine (control)":   # signed with the server's secret: proves the forgeries below are well formed
        value = _signed(COOKIE_SECRET, identity)
    elif forge == "signed with another secret":
        value = _signed("not-the-server-secret-at-all-0000", identity)
    elif forge == "payload changed":   # the server's own signature over alice, the identity then swapped for bob
        payload, stamp, signature = _signed(COOKIE_SECRET, identity).rsplit(".", 2)
        bob = json.dumps(json.dumps({**identity, **USERS["bob"]})).encode()
        value = ".".join([base64.urlsafe_b64encode(bob).decode().rstrip("="), stamp, signature])
    else:
        value = "alice@example.org"
    context = chromium.new_context()
    context.add_cookies([{"name": "_streamlit_user", "value": value, "url": url}])
    page = context.new_page()
    for path in ("", "compare"):
        page.goto(f"{url}/{path}")
        wait_ready(page)
        if forge == "genuine (control)":
            page.wait_for_selector('text="Sign out"', timeout=PATIENCE)
            assert "Alice Analyst (alice@example.org)" in page.inner_text("body")
        else:
            assert_sign_in_screen_only(page)
    context.close()


def test_alice_saves_bob_sees_her_plan_cannot_change_it_and_may_duplicate(server, chromium):  # noqa: F811
    url, db_url = server
    # alice signs in and saves "Alice plan"
    alice = sign_in(chromium, url, "alice")
    alice.get_by_label("Scenario name").fill("Alice plan")
    alice.keyboard.press("Tab")
    wait_ready(alice)
    alice.get_by_role("button", name="Save scenario").click()
    alice.wait_for_selector('text="Saved: Alice plan"', timeout=PATIENCE)
    no_error_on(alice)

    # bob signs in and sees it, with alice as its owner, on the Compare page
    bob = sign_in(chromium, url, "bob")
    bob.goto(url + "/compare")
    wait_ready(bob)
    picker = bob.get_by_role("combobox", name="Scenario (from the page found above)", exact=True)
    picker.click()
    bob.keyboard.type("Alice plan")
    bob.keyboard.press("Enter")
    bob.wait_for_selector("text=Owner: alice@example.org", timeout=PATIENCE)
    wait_ready(bob)
    body = bob.inner_text("body")
    assert "Alice plan · alice@example.org" in body
    assert "Owner: alice@example.org   Last changed by: alice@example.org" in body
    assert "Only its owner (or an administrator) may rename, replace or delete this scenario" in body
    bob.screenshot(path=str(ARTIFACTS / "signed-in-bob-compare.png"), full_page=True)

    # bob cannot delete it: the refusal says why
    bob.get_by_role("button", name="Delete").click()
    bob.get_by_role("button", name="Yes, delete it").click()
    bob.wait_for_selector("text=belongs to alice@example.org; only its owner or an administrator may delete it",
                          timeout=PATIENCE)
    bob.keyboard.press("Escape")

    # bob may duplicate it as his own
    bob.get_by_role("button", name="Rename or duplicate").click()
    bob.get_by_label("New name").fill("Bob's copy of Alice plan")
    bob.keyboard.press("Tab")
    wait_ready(bob)
    bob.get_by_role("button", name="Duplicate", exact=True).click()
    bob.wait_for_selector('[data-testid="stAlert"]:has-text("Duplicated"):has-text("as Bob\'s copy of Alice plan")',
                          timeout=PATIENCE)   # the names are shown literally, as code spans

    # bob cannot overwrite it from the Calculator either
    bob.goto(url)
    wait_ready(bob)
    bob.get_by_label("Scenario name").fill("Alice plan")
    bob.keyboard.press("Tab")
    wait_ready(bob)
    bob.get_by_role("button", name="Save scenario").click()
    bob.get_by_role("button", name="Replace it").click()
    bob.wait_for_selector("text=belongs to alice@example.org; only its owner or an administrator may overwrite it",
                          timeout=PATIENCE)
    no_error_on(bob)

    # the history shows each step, read by the command line from the same SCENARIO_DB_URL
    out = subprocess.run([sys.executable, "-m", "core", "scenarios", "history", "--json"], cwd=ROOT,
                         env={**os.environ, "SCENARIO_DB_URL": db_url}, capture_output=True, text=True, check=True)
    events = [(e["actor"], e["action"], e["scenario"]) for e in json.loads(out.stdout)]
    assert events == [("carol@example.org", "save", "Confidential seed plan"),
                      ("alice@example.org", "save", "Alice plan"),
                      ("bob@example.org", "duplicate", "Bob's copy of Alice plan")]
    saved = json.loads(out.stdout)[1]["after"]
    assert saved["owner"] == "alice@example.org" and saved["application"]["eligible_cost"] == "1000000.00"

    # signing out returns to the sign-in screen
    bob.get_by_role("button", name="Sign out").click()
    bob.wait_for_url("**/oauth2/end_session?**", timeout=PATIENCE)   # the provider ends its session too
    bob.get_by_role("button", name="End session").click()
    bob.wait_for_url(url + "/**", timeout=PATIENCE)
    wait_ready(bob)
    assert_sign_in_screen_only(bob)


LINK = "/?eligible_cost=1450000&project_type=renovation&local_contribution=700000"


def test_a_calculator_link_opened_before_sign_in_comes_back_whole(server, chromium):  # noqa: F811
    """The scenario's link, then sign-in: the same inputs and the award they give, not the example."""
    from core.law.application import Application
    from core.law.award import evaluate
    from core.law.money import fmt
    url, _ = server
    page = sign_in(chromium, url, "alice", LINK, lands=re.compile(r".*[?&]eligible_cost=1450000(&|$)"))
    want = fmt(evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_450_000,
                                               "local_contribution": 700_000})).amount)
    assert want == "$600,000"   # not the example's $500,000
    metric = page.locator('[data-testid="stMetric"]', has_text="State grant award")
    assert metric.locator('[data-testid="stMetricValue"]').inner_text() == want
    assert page.get_by_label("Total cost of eligible work, exact amount").input_value() == "1,450,000"
    assert page.get_by_label("Local contribution, exact amount").input_value() == "700,000"
    assert "local_contribution=700000" in page.url and "project_type=renovation" in page.url
    assert "grants_return_to" not in {c["name"] for c in page.context.cookies()}   # used once, then deleted
    no_error_on(page)
    page.context.close()


def test_a_compare_link_in_presentation_mode_comes_back_whole(server, chromium):  # noqa: F811
    url, _ = server
    # the page then writes its comparison into the address (ui/comparison.py): lands with more after it
    page = sign_in(chromium, url, "bob", "/compare?present=1", lands=re.compile(rf"{re.escape(url)}/compare\?present=1(&|$)"))
    assert page.locator('[data-testid="stMain"] h1').first.inner_text() == "Compare scenarios"
    assert page.get_by_role("button", name="Exit presentation mode").is_visible()
    assert not page.locator('section[data-testid="stSidebar"]').is_visible()   # presenting: no sidebar
    body = page.inner_text("body")
    assert STREAMLIT_NOT_FOUND not in body and "Confidential seed plan" in body   # bob may see the library
    page.screenshot(path=str(ARTIFACTS / "signed-in-came-back-compare-present.png"))
    no_error_on(page)
    page.context.close()


def test_a_compare_link_keeps_its_order_and_baseline_through_sign_in(server, chromium):  # noqa: F811
    """Compare's scenarios travel as one parameter a scenario (?scenario=A&scenario=B): every one of them
    comes back, in order, with the baseline (ui/addresses.py keeps the list)."""
    url, _ = server
    page = sign_in(chromium, url, "bob", "/compare?present=1&scenario=Alice+plan&scenario=Confidential+seed+plan"
                                         "&baseline=2", lands=re.compile(r".*/compare\?.*scenario=Alice"))
    assert page.url.endswith("/compare?present=1&scenario=Alice+plan&scenario=Confidential+seed+plan&baseline=2")
    card = page.locator(".st-key-cmp_focus_card")
    assert card.locator("[data-testid=stText]").inner_text() == "Alice plan"           # the link's first
    assert "Against the baseline “Confidential seed plan”" in card.inner_text()       # and its baseline
    no_error_on(page)
    page.context.close()


def test_an_unknown_page_says_so_in_words_after_sign_in(server, chromium):  # noqa: F811
    from harness.a11y import axe, summary
    url, _ = server
    page = sign_in(chromium, url, "alice", "/nonexistent", lands=f"{url}/nonexistent")
    body = page.inner_text("body")
    assert "There is no such page" in body
    assert "This dashboard has no page at the address /nonexistent" in body
    assert STREAMLIT_NOT_FOUND not in body
    results = axe(page)
    assert results["violations"] == [] or summary(results) == []
    page.screenshot(path=str(ARTIFACTS / "signed-in-unknown-page.png"))
    page.get_by_role("link", name="Open the Calculator").click()
    page.wait_for_url(f"{url}/**", timeout=PATIENCE)
    page.get_by_role("slider", name="Total cost of eligible work", exact=True).wait_for(timeout=PATIENCE)
    no_error_on(page)
    page.context.close()


def assert_refusal_only(page) -> None:
    body = page.inner_text("body")
    assert "This account may not use the dashboard" in body
    assert "You are signed in as Carol Outsider (carol@outside.example)." in body
    assert f"To be let in, ask {CONTACT}, naming the account above." in body
    assert page.get_by_role("button", name="Sign out").count() == 1
    for never in ("State grant calculator", "Compare scenarios", "Confidential seed plan", "Alice plan",
                  "Eligible", "Presentation mode", "Ruleset", STREAMLIT_NOT_FOUND, "Page not found"):
        assert never not in body, never
    assert page.get_by_role("slider").count() == 0
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0
    assert page.locator('section[data-testid="stSidebar"]').count() == 0
    no_error_on(page)


def test_an_account_of_another_domain_sees_only_the_refusal_on_every_address(server, chromium):  # noqa: F811
    from harness.a11y import axe, summary
    url, _ = server
    page = sign_in(chromium, url, "carol", "/compare")
    assert_refusal_only(page)
    for path in PAGES + ["nonexistent", "compare?present=1", LINK.lstrip("/")]:
        page.goto(f"{url}/{path}")
        wait_ready(page)
        assert_refusal_only(page)
    results = axe(page)
    assert results["violations"] == [] or summary(results) == []
    page.screenshot(path=str(ARTIFACTS / "signed-in-refused.png"))

    # from the keyboard: Tab reaches Sign out, Enter signs out (here and at the provider)
    page.goto(url)
    wait_ready(page)
    page.locator("body").focus()
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.innerText").strip().endswith("Sign out"):
            break
    else:
        raise AssertionError("Tab never reached Sign out")
    page.keyboard.press("Enter")
    page.wait_for_url("**/oauth2/end_session?**", timeout=PATIENCE)
    page.get_by_role("button", name="End session").click()
    page.wait_for_url(url + "/**", timeout=PATIENCE)
    wait_ready(page)
    assert_sign_in_screen_only(page)
    page.context.close()


@pytest.mark.parametrize("kept", ["genuine (control)", "signed with another secret", "older than 10 minutes",
                                  "another host"])
def test_a_forged_or_stale_kept_address_is_ignored(server, chromium, kept):  # noqa: F811
    """The kept address is read only as this server signed it, within 10 minutes, and only ever
    names a page of this app: else the signed-in user simply opens at the Calculator."""
    from itsdangerous import URLSafeTimedSerializer
    url, _ = server
    identity = {**USERS["alice"], "is_logged_in": True, "provider": "default", "origin": url}
    secret, address = COOKIE_SECRET, {"page": "rules", "query": {"present": "1"}}
    if kept == "signed with another secret":
        secret = "not-the-server-secret-at-all-0000"
    elif kept == "another host":
        address = {"page": "https://evil.example/", "query": {}}
    value = URLSafeTimedSerializer(secret, salt="grants_return_to").dumps(address)
    if kept == "older than 10 minutes":
        value = _stale(secret, address)
    context = chromium.new_context()
    context.add_cookies([{"name": "_streamlit_user", "value": _signed(COOKIE_SECRET, identity), "url": url},
                         {"name": "grants_return_to", "value": value, "url": url}])
    page = context.new_page()
    page.goto(url)
    wait_ready(page)
    if kept == "genuine (control)":
        page.wait_for_url(re.compile(re.escape(f"{url}/rules?") + r"(.*&)?present=1(&|$)"), timeout=PATIENCE)
        wait_ready(page)
        assert page.get_by_role("button", name="Exit presentation mode").is_visible()
    else:
        page.wait_for_timeout(1500)
        assert page.url.startswith(f"{url}/?project_type=renovation&eligible_cost=1000000")   # the example
        page.get_by_role("slider", name="Total cost of eligible work", exact=True).wait_for(timeout=PATIENCE)
    page.wait_for_function("() => !document.cookie.includes('grants_return_to')", timeout=PATIENCE)
    no_error_on(page)
    context.close()


def _stale(secret: str, address: dict) -> str:
    """A kept address signed eleven minutes ago."""
    import time as _time
    from unittest import mock

    from itsdangerous import URLSafeTimedSerializer
    with mock.patch("time.time", return_value=_time.time() - 660):
        return URLSafeTimedSerializer(secret, salt="grants_return_to").dumps(address)
