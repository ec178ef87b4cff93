"""Start a real Streamlit server and a real Chromium (shared by browser tests and benchmarks)."""
from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"   # where a wait that failed leaves its screenshot, and slow waits are counted
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
    """A headless Chromium. Every page opened in it (browser.new_page, or a context's) keeps a
    log of what went wrong since it opened (see `watch`), which wait_ready reports on a timeout."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS, headless=True)
        _watch_pages_of(b)
        try:
            yield b
        finally:
            b.close()


def _watch_pages_of(b) -> None:
    """Make b.new_page and b.new_context hand out pages that `watch` their own trouble."""
    new_page, new_context = b.new_page, b.new_context

    def watched_page(*args, **kwargs):
        page = new_page(*args, **kwargs)
        watch(page)
        return page

    def watched_context(*args, **kwargs):
        context = new_context(*args, **kwargs)
        context.add_init_script(LONG_TASKS)
        context.on("page", lambda page: watch(page, scripts=False))   # a page it opens, a popup too
        return context

    b.new_page, b.new_context = watched_page, watched_context


SLOW_REQUEST = 5   # s: a request answered later than this is noted
# The page's main-thread tasks over 50 ms (the browser's Long Tasks API), kept from its first
# script on: a page busy for a minute on a starved machine says so.
LONG_TASKS = """(() => { if (window.__longTasks) return; window.__longTasks = [];
  try { new PerformanceObserver(list => { for (const e of list.getEntries())
          window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); })
        .observe({type: 'longtask', buffered: true}); } catch (e) {} })();"""
TROUBLE_KEPT = 200   # entries in a page's log; the first ones (a first draw's) are the ones kept


def watch(page, scripts: bool = True) -> None:
    """Keep in `page.trouble` what went wrong in it since it opened, each with its second:
    console errors and warnings, uncaught exceptions, requests that failed, answered 4xx/5xx or
    answered after SLOW_REQUEST s, a websocket that closed or failed, and each navigation of the
    main frame (a reload shows); in `page.pending` the requests not yet answered; and (scripts)
    the page's long main-thread tasks in window.__longTasks (LONG_TASKS)."""
    if hasattr(page, "trouble"):
        return
    start = time.monotonic()
    page.trouble = []
    page.pending = {}   # request -> (its second, what it is): asked for, not yet answered

    def asked(request) -> None:
        page.pending[request] = (time.monotonic() - start, f"{request.method} {request.url}")

    def answered(request) -> None:
        when, what = page.pending.pop(request, (None, None))
        if when is not None and time.monotonic() - start - when > SLOW_REQUEST:
            note(f"slow request: {what} answered after {time.monotonic() - start - when:.1f} s")

    def note(text: str) -> None:
        if len(page.trouble) < TROUBLE_KEPT:
            page.trouble.append(f"{time.monotonic() - start:6.1f} s  {text}")

    def websocket(ws) -> None:
        note(f"websocket opened: {ws.url}")
        ws.on("close", lambda ws: note(f"websocket closed: {ws.url}"))
        ws.on("socketerror", lambda error: note(f"websocket error: {ws.url}: {error}"))

    page.on("console", lambda m: m.type in ("error", "warning") and note(f"console {m.type}: {m.text}"))
    page.on("pageerror", lambda error: note(f"uncaught: {error}"))
    if scripts:   # else its context runs LONG_TASKS in it already
        page.add_init_script(LONG_TASKS)
    page.on("request", asked)
    page.on("requestfinished", answered)
    page.on("requestfailed", lambda r: (answered(r), note(f"request failed: {r.method} {r.url}: {r.failure}"),
                                        "ERR_NETWORK_CHANGED" in (r.failure or "")
                                        and setattr(page, "network_changed", True)))
    page.on("response", lambda r: r.status >= 400 and note(f"HTTP {r.status}: {r.request.method} {r.url}"))
    page.on("websocket", websocket)
    page.on("framenavigated", lambda f: f.parent_frame is None and note(f"navigated: {f.url}"))


class NotReady(AssertionError):
    """A page that never became ready; its message says what the page showed instead."""


def wait_ready(page, timeout=90_000) -> None:
    """Wait until Streamlit has finished running the script and drawing it: the app says
    notRunning, the page has its title, and no element is still a loading skeleton.

    `timeout` is how long a page may go without moving towards ready. A fresh browser profile
    evaluates Streamlit's 4.7 MB Plotly chunk before a chart's skeleton goes: one main-thread
    task of 16 s on a 2-core machine at load 15, 20 to 60 s at load 30, and a chart page then
    needs 60 to 150 s in all (docs/testing.md, "Flaky waits"). So when `timeout` passes and
    the page is still working (its main thread ran long tasks, or what it shows changed), the
    wait goes on, up to STARVED_ROUNDS timeouts in all; each such wait is counted (count_slow_wait:
    a warning in pytest's summary and a line in test-artifacts/slow-waits.log), not hidden. A
    page that did nothing for a whole `timeout` is stuck: a dropped connection, a script chunk
    that never came, an app bug. That fails at once with NotReady, which says what the page
    showed instead (not_ready_report)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    began = time.monotonic()
    before, starved = _progress(page), 0
    for _ in range(STARVED_ROUNDS):
        try:
            page.wait_for_function(READY, timeout=timeout)
            break
        except PlaywrightTimeout:
            if _reloaded_after_network_change(page, timeout):   # counted there
                before = _progress(page)
                continue
            now = _progress(page)
            if now is None or before is None or not _moved(before, now):
                raise NotReady(not_ready_report(page, timeout, time.monotonic() - began)) from None
            before, starved = now, starved + 1
    else:
        raise NotReady(not_ready_report(page, timeout, time.monotonic() - began))
    if starved:   # ready, but only after one timeout or more of work: count it
        count_slow_wait(page, timeout, time.monotonic() - began)
    page.wait_for_timeout(200)


def _reloaded_after_network_change(page, timeout) -> bool:
    """Chromium drops the requests in flight when the host's network interfaces change
    (net::ERR_NETWORK_CHANGED): podman's containers, started by the deployment tests on the other
    worker, add and remove them. A page whose script chunk was dropped so never starts Streamlit
    (no stApp element, nothing to wait for). That is the machine's doing, not the app's: such a page
    is loaded again, once, and the reload is counted like a slow wait (docs/testing.md, "Flaky waits")."""
    if not getattr(page, "network_changed", False) or getattr(page, "reloaded_for_network", False):
        return False
    try:
        if page.evaluate("() => !!document.querySelector('[data-testid=\"stApp\"]')"):
            return False   # Streamlit started: a dropped request there is the page's to show
    except Exception:   # noqa: BLE001 - a page that cannot answer is not reloaded
        return False
    page.reloaded_for_network = True
    count_slow_wait(page, timeout, None, why="loaded again: the host's network changed under it "
                                              "(net::ERR_NETWORK_CHANGED) before Streamlit started")
    page.reload()
    return True


STARVED_ROUNDS = 4   # timeouts a page still working may take in all before it fails anyway
WORKED_MS = 1_000    # main-thread time in long tasks that counts as work done in one timeout

# What says a page is still on its way: its main thread's long-task time so far, and what it
# shows (script state, skeletons, title, how much text). Read with a bounded wait: a main
# thread busy in one long task cannot answer, and that is work too (_moved).
PROGRESS = """() => { const app = document.querySelector('[data-testid="stApp"]');
  return [(window.__longTasks || []).reduce((s, t) => s + t[1], 0),
          [app && app.getAttribute('data-test-script-state'),
           document.querySelectorAll('[data-testid^="stSkeleton"], [data-testid="stAppSkeleton"]').length,
           !!document.querySelector('[data-testid="stMain"] h1'),
           document.body ? document.body.innerText.length : 0].join(' ')]; }"""


def _progress(page):
    """(long-task ms so far, what the page shows), "busy" when its main thread cannot answer
    within 30 s, None where the page cannot be read at all (closed, crashed)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        return tuple(page.wait_for_function(PROGRESS, timeout=30_000).json_value())
    except PlaywrightTimeout:
        return "busy"
    except Exception:   # noqa: BLE001 - a closed or crashed page is not ready, and says so
        return None


def _moved(before, now) -> bool:
    """Whether a page did work between two _progress readings."""
    if "busy" in (before, now):
        return True
    return now[0] - before[0] >= WORKED_MS or now[1] != before[1]


def count_slow_wait(page, timeout, waited, why: str | None = None) -> None:
    """Count a wait that outlasted `timeout` on a page still working (or, `why`, a page loaded
    again): a pytest warning (the run's summary counts them) and a line in test-artifacts/slow-waits.log."""
    import warnings
    test = os.environ.get("PYTEST_CURRENT_TEST", "no test").split(" ")[0]
    if why:
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {test}: {why}: {page.url}"
    else:
        busy = _progress(page)
        worked = f"{busy[0] / 1000:.0f} s of long tasks" if isinstance(busy, tuple) else "long tasks unknown"
        line = (f"{time.strftime('%Y-%m-%d %H:%M:%S')} {test}: ready after {waited:.0f} s, over its "
                f"{timeout / 1000:.0f} s but working throughout ({worked} on its main thread): {page.url}")
    with open(ARTIFACTS / "slow-waits.log", "a", encoding="utf-8") as log:
        log.write(line + "\n")
    # A plain UserWarning: pytest-xdist carries a warning's class to the controller by name.
    warnings.warn(f"slow wait: {line}", UserWarning, stacklevel=3)


READY = ("() => { const app = document.querySelector('[data-testid=\"stApp\"]');"
         " return app && app.getAttribute('data-test-script-state') === 'notRunning'"
         " && document.querySelector('[data-testid=\"stMain\"] h1')"
         # a first visit's award drawn alone, the rest not yet asked for (ui/components/first_paint.py)
         " && !document.querySelector('.st-key-first_paint')"
         # elements whose code is still loading show as skeletons: wait them out too
         " && !document.querySelector('[data-testid^=\"stSkeleton\"], [data-testid=\"stAppSkeleton\"]'); }")

# What the page shows, read in one go (returned as an object, so wait_for_function's bounded
# patience applies: a page whose main thread is stuck does not hang the report).
SHOWN = """() => {
  const q = s => document.querySelector(s), text = e => e ? e.innerText.trim().slice(0, 300) : null;
  const app = q('[data-testid="stApp"]');
  return {
    script: app ? app.getAttribute('data-test-script-state') : 'no stApp element',
    connection: app ? app.getAttribute('data-test-connection-state') : null,
    h1: text(q('[data-testid="stMain"] h1')),
    // each skeleton with the element it stands in for (its nearest ancestor named by a test id or a key)
    skeletons: [...document.querySelectorAll('[data-testid^="stSkeleton"], [data-testid="stAppSkeleton"]')]
                 .map(e => { let a = e.parentElement;
                             while (a && !(a.getAttribute('data-testid') || '').match(/^st(?!Skeleton)/)
                                    && ![...a.classList].some(c => c.startsWith('st-key-'))) a = a.parentElement;
                             const where = a ? [a.getAttribute('data-testid'), ...[...a.classList]
                                                .filter(c => c.startsWith('st-key-'))].filter(Boolean).join(' ') : 'page';
                             return `${e.getAttribute('data-testid')} in ${where}`; }),
    status: text(q('[data-testid="stStatusWidget"]')),
    dialog: text(q('[role="dialog"]')),
    errors: [...document.querySelectorAll('[data-testid="stException"], [data-testid="stAlertContentError"]')]
              .map(text),
    body: document.body ? document.body.innerText.trim().slice(0, 600) : null,
    long_tasks: (() => { const t = window.__longTasks || [];
                         return `${t.length}, ${(t.reduce((s, x) => s + x[1], 0) / 1000).toFixed(1)} s in all; the longest`
                                + ` (start ms, length ms): ${JSON.stringify([...t].sort((a, b) => b[1] - a[1]).slice(0, 5))}`; })(),
    since_load_ms: Math.round(performance.now()),
  };
}"""


LATE = 60   # s a page not ready in time is watched still, to tell a slow page from a stuck one


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def not_ready_report(page, timeout, waited=None) -> str:
    """Why `page` is not ready: what it shows, its log since it opened (`watch`), and a screenshot
    saved under test-artifacts/, named after the test that waited."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "no-test").split(" ")[0]
    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in test.replace("::", "--"))[-150:]
    shot = ARTIFACTS / f"not-ready-{name}-{time.strftime('%H%M%S')}.png"
    waited = timeout / 1000 if waited is None else waited
    lines = [f"the page was not ready after {waited:.0f} s ({timeout / 1000:.0f} s without work done "
             f"or {STARVED_ROUNDS} times that in all): {page.url}"]
    try:
        shown = page.wait_for_function(SHOWN, timeout=10_000).json_value()
        lines += [f"  {key}: {value}" for key, value in shown.items()]
    except Exception as error:   # noqa: BLE001 - a report must not hide the timeout behind its own error
        lines.append(f"  (what the page shows could not be read: {str(error).splitlines()[0]})")
    try:
        page.screenshot(path=str(shot), timeout=15_000)
        lines.append(f"  screenshot: {_shown(shot)}")
    except Exception as error:   # noqa: BLE001
        lines.append(f"  (no screenshot: {str(error).splitlines()[0]})")
    trouble = getattr(page, "trouble", None)
    if trouble is None:
        lines.append("  (the page was not opened through harness.serve.browser(): no log of its trouble)")
    else:
        lines.append(f"  since the page opened ({len(trouble)} entries):" if trouble else "  nothing went wrong since the page opened")
        lines += [f"    {entry}" for entry in trouble]
    # Slow or stuck? Watch a while longer (the test fails either way).
    waited = time.monotonic()
    try:
        page.wait_for_function(READY, timeout=LATE * 1000)
        lines.append(f"  it became ready {time.monotonic() - waited:.0f} s after the timeout: slow, not stuck")
    except Exception:   # noqa: BLE001
        lines.append(f"  still not ready {LATE} s after the timeout: stuck")
    pending = sorted(getattr(page, "pending", {}).values())
    if pending:
        lines.append(f"  requests still unanswered ({len(pending)}):")
        lines += [f"    {when:6.1f} s  {what}" for when, what in pending[:30]]
    port = urllib.parse.urlsplit(page.url).port
    log = ROOT / "test-artifacts" / f"server-{port}.log"   # where streamlit_server writes it
    if port and log.exists():   # the server streamlit_server started for this page: its last words
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
        lines.append(f"  the server's log ({_shown(log)}), its last {len(tail)} lines:")
        lines += [f"    {line}" for line in tail]
    report = "\n".join(lines)
    shot.with_suffix(".txt").write_text(report + "\n", encoding="utf-8")
    return report
