"""Start a real Streamlit server and a real Chromium (shared by browser tests and benchmarks)."""
from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                  "--no-first-run", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def free_port() -> int:
    """A loopback port nothing listens on. It is closed again before the server binds it, so
    under pytest-xdist each worker picks from a range of its own, below the kernel's ephemeral
    ports (32768 and up on Linux): another worker's server, or a client's outgoing connection,
    cannot take it in between."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return _bound(0)
    base = 10_000 + 1_000 * (int(worker.removeprefix("gw")) % 22)
    for _ in range(200):
        port = _bound(base + random.randrange(1_000))
        if port:
            return port
    raise RuntimeError(f"no free loopback port in pytest-xdist worker {worker}'s range")


def _bound(port: int) -> int | None:
    """The port a loopback socket bound to `port` got (0: any free one), or None where it is taken."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return None
        return s.getsockname()[1]


@contextmanager
def streamlit_server(script: str = "dashboard.py", env: dict | None = None, port: int | None = None,
                     on_start=None):
    """Yield the base URL of `streamlit run script` on a free loopback port (on_start gets the process)."""
    port = port or free_port()
    # Benchmarks use this too, from a fresh clone where only the test suite made the folder.
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "test-artifacts" / f"server-{port}.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env={**os.environ, **(env or {})}, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/_stcore/health", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"streamlit did not start; see {log.name}")
                time.sleep(0.3)
        if on_start:
            on_start(proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@contextmanager
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def wait_ready(page, timeout=90_000) -> None:
    """Wait until Streamlit has finished running the script and drawing it: the app says
    notRunning, the page has its title, and no element is still a loading skeleton.

    The default patience is the 90 s the accessibility tests already give a first draw: a fresh
    browser profile evaluates Streamlit's 4.7 MB Plotly chunk before a chart's skeleton goes,
    one main-thread task of 16 s on a 2-core machine at load 15 (the Portfolio page drawn 42 s
    after it opened, Compare 70 s), where 30 s failed tests that wait on the right condition."""
    page.wait_for_function(
        "() => { const app = document.querySelector('[data-testid=\"stApp\"]');"
        " return app && app.getAttribute('data-test-script-state') === 'notRunning'"
        " && document.querySelector('[data-testid=\"stMain\"] h1')"
        # elements whose code is still loading show as skeletons: wait them out too
        " && !document.querySelector('[data-testid^=\"stSkeleton\"], [data-testid=\"stAppSkeleton\"]'); }",
        timeout=timeout)
    page.wait_for_timeout(200)
