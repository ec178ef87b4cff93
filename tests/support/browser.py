"""Fixtures for tests in a real Chromium driven by Playwright.

Without Chromium these tests skip with the reason, unless REQUIRE_BROWSER=1 (CI), where a
missing browser is a failure."""
import os

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


def no_error_on(page) -> None:
    """No exception box, no traceback, no generic error anywhere on the page."""
    assert page.locator('[data-testid="stException"]').count() == 0
    body = page.inner_text("body")
    assert "Traceback" not in body and "This app has encountered an error" not in body
