"""Fixtures for tests in a real Chromium driven by Playwright.

Without Chromium these tests skip with the reason, unless REQUIRE_BROWSER=1 (CI), where a
missing browser is a failure."""
import os
from contextlib import contextmanager

import pytest

from harness.serve import chromium_path


def require_chromium() -> str:
    path = chromium_path()
    if path:
        return path
    reason = "no Chromium found on PATH (install Debian's 'chromium' package to run browser tests)"
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium():
    require_chromium()
    from harness.serve import browser
    with browser() as b:
        yield b


@contextmanager
def library_server(tmp_path_factory, scenarios, notes: str = "Illustrative sample, not a real application."):
    """A Streamlit server over a library of its own holding `scenarios` ((name, Application
    fields) pairs, saved in that order): yields (url, the library's path)."""
    from core.law.application import Application
    from core.store.repository import ScenarioStore
    from harness.serve import streamlit_server
    db = tmp_path_factory.mktemp("db") / "lib.db"
    store = ScenarioStore(f"sqlite:///{db}")
    for name, inputs in scenarios:
        store.save(name, Application(**inputs), notes=notes)
    store.dispose()
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}) as url:
        yield url, db


def no_error_on(page) -> None:
    """No exception box, no traceback, no generic error anywhere on the page."""
    assert page.locator('[data-testid="stException"]').count() == 0
    body = page.inner_text("body")
    assert "Traceback" not in body and "This app has encountered an error" not in body


# Whom a refused visitor is told to ask, in the sign-in tests (the stack's and the single app's).
ACCESS_CONTACT = "the Grants Office help desk (grants-help@example.org)"


def signin_settings(redirect_uri: str, cookie_secret: str, provider: str) -> str:
    """secrets.toml for sign-in through the tests' OpenID Connect provider, letting in example.org
    only and naming ACCESS_CONTACT to everyone else (docs/deploy.md, "Sign-in")."""
    return f"""[auth]
redirect_uri = "{redirect_uri}"
cookie_secret = "{cookie_secret}"
client_id = "grant-dashboard"
client_secret = "test-only-client-secret"
server_metadata_url = "{provider}/.well-known/openid-configuration"

[library]
allowed_domains = ["example.org"]
access_contact = "{ACCESS_CONTACT}"
"""
