"""Sign-in with a real OpenID Connect provider: `oidc-provider-mock` (PyPI, pinned in
requirements-dev.txt) started on loopback as a user would start it, Streamlit's native
st.login redirect flow driven in Chromium for two users, alice and bob.

Without Chromium or the provider these tests skip with the reason, unless REQUIRE_BROWSER=1
(CI), where a missing one is a failure."""
import json
import os
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.browser_fixtures import chromium, no_error_on  # noqa: F401
from tests.conftest import ROOT
from tests.serve import free_port, streamlit_server, wait_ready as _wait_ready

ARTIFACTS = ROOT / "test-artifacts"
PAGES = ["", "compare", "sensitivity", "portfolio", "rules"]
USERS = {"alice": {"sub": "alice", "email": "alice@example.org", "name": "Alice Analyst"},
         "bob": {"sub": "bob", "email": "bob@example.org", "name": "Bob Board"}}
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
    """The provider CI started (.ci/run exports OIDC_PROVIDER_URL; alice and bob predefined as in
    USERS), else `python -m oidc_provider_mock` started here the same way, on a free loopback port."""
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
    """The dashboard with an [auth] section pointing at the provider (secrets in a temporary file)."""
    home = tmp_path_factory.mktemp("signin")
    db_url = f"sqlite:///{home / 'lib.db'}"
    port = free_port()
    secrets = home / "secrets.toml"
    secrets.write_text(f"""[auth]
redirect_uri = "http://127.0.0.1:{port}/oauth2callback"
cookie_secret = "{COOKIE_SECRET}"
client_id = "grant-dashboard"
client_secret = "test-only-client-secret"
server_metadata_url = "{provider}/.well-known/openid-configuration"
""", encoding="utf-8")
    from core.store.repository import ScenarioStore
    from tests.test_scenarios import APP
    seed = ScenarioStore(db_url)
    seed.save("Confidential seed plan", APP, actor="carol@example.org")   # must never show when signed out
    seed.dispose()
    env = {"SCENARIO_DB_URL": db_url, "STREAMLIT_SECRETS_FILES": str(secrets)}
    with streamlit_server(env=env, port=port) as url:
        yield url, db_url


def sign_in(browser, url: str, who: str):
    """A fresh browser profile goes through the whole redirect flow; returns its page."""
    context = browser.new_context(viewport={"width": 1400, "height": 2000})
    page = context.new_page()
    page.goto(url)
    wait_ready(page)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/oauth2/authorize?**", timeout=PATIENCE)     # at the identity provider
    page.get_by_role("button", name=who, exact=True).click()
    page.wait_for_url(url + "/**", timeout=PATIENCE)                   # back, through /oauth2callback
    wait_ready(page)
    page.wait_for_selector('text="Sign out"', timeout=PATIENCE)
    assert f"{USERS[who]['name']} ({USERS[who]['email']})" in page.inner_text("body")
    return page


def assert_sign_in_screen_only(page) -> None:
    body = page.inner_text("body")
    assert page.get_by_role("button", name="Sign in").count() == 1
    for never in ("State grant calculator", "Compare scenarios", "Confidential seed plan", "Alice plan",
                  "Eligible", "Presentation mode", "Ruleset"):
        assert never not in body, never
    assert page.get_by_role("slider").count() == 0
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0
    no_error_on(page)


@pytest.mark.parametrize("path", PAGES)
def test_signed_out_visitor_sees_only_sign_in(server, chromium, path):  # noqa: F811
    url, _ = server
    context = chromium.new_context()
    page = context.new_page()
    page.goto(f"{url}/{path}")
    wait_ready(page)
    assert_sign_in_screen_only(page)
    if path == "compare":
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
