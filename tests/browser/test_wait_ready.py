"""harness.serve.wait_ready tells a starved page from a stuck one (docs/testing.md, "Flaky waits"):
a page still working when its timeout passes is waited for, and counted; a page that did nothing
for a whole timeout fails at once, and the error says what it showed and what went wrong."""
from pathlib import Path

import pytest

from harness import serve
from harness.serve import NotReady, PROGRESS, READY, SHOWN, wait_ready


class _Handle:
    def __init__(self, value):
        self.value = value

    def json_value(self):
        return self.value


class FakePage:
    """A page whose readiness and progress readings are scripted: `ready_after` timeouts pass
    before it is ready; `progress` gives each reading (a (long-task ms, shown) pair, or "busy":
    its main thread cannot answer)."""

    url = "http://127.0.0.1:1/sensitivity"

    def __init__(self, ready_after: int, progress: list):
        self.ready_after, self.progress, self.trouble = ready_after, list(progress), ["   3.0 s  navigated: x"]

    def wait_for_function(self, expression, timeout):
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        if expression == READY:
            if self.ready_after:
                self.ready_after -= 1
                raise PlaywrightTimeout("Timeout exceeded")
            return _Handle(True)
        if expression == PROGRESS:
            reading = self.progress.pop(0)
            if reading == "busy":
                raise PlaywrightTimeout("Timeout exceeded")
            return _Handle(list(reading))
        if expression == SHOWN:
            return _Handle({"script": "notRunning", "skeletons": ["stSkeleton in stElementContainer st-key-sweep_chart"]})
        raise AssertionError(expression)

    def screenshot(self, path, timeout):
        open(path, "wb").close()

    def wait_for_timeout(self, ms):
        pass


@pytest.fixture
def quick(monkeypatch, tmp_path):
    """No minute's watch after a timeout; the artifacts (the slow waits' count, screenshots) in
    tmp_path, not the run's own; returns the slow waits counted."""
    monkeypatch.setattr(serve, "LATE", 0)
    monkeypatch.setattr(serve, "ARTIFACTS", tmp_path)
    log = tmp_path / "slow-waits.log"
    return lambda: log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_a_page_still_working_at_its_timeout_is_waited_for_and_counted(quick):
    page = FakePage(ready_after=2, progress=[(0, "running 0 false 80"), (30_000, "notRunning 4 true 900"),
                                            "busy", (90_000, "notRunning 0 true 950")])
    with pytest.warns(UserWarning, match=r"^slow wait: .* ready after \d+ s, over its 90 s but working throughout"):
        wait_ready(page, timeout=90_000)
    counted = quick()
    assert len(counted) == 1 and counted[0].endswith(f"on its main thread): {page.url}")
    assert "(90 s of long tasks" in counted[0]


def test_a_page_that_did_nothing_for_a_whole_timeout_fails_saying_what_it_showed(quick, tmp_path):
    page = FakePage(ready_after=3, progress=[(0, "running 0 false 80"), (5_000, "notRunning 2 true 900"),
                                            (5_400, "notRunning 2 true 900")])   # 0.4 s of work: stuck
    with pytest.raises(NotReady) as failed:
        wait_ready(page, timeout=30_000)
    report = str(failed.value)
    assert report.startswith(f"the page was not ready after 0 s (30 s without work done or {serve.STARVED_ROUNDS} "
                             f"times that in all): {page.url}")
    assert "  skeletons: ['stSkeleton in stElementContainer st-key-sweep_chart']" in report
    assert "  still not ready 0 s after the timeout: stuck" in report
    assert "     3.0 s  navigated: x" in report
    shot = Path(report.split("  screenshot: ")[1].splitlines()[0])
    assert shot.parent == tmp_path and shot.name.startswith("not-ready-tests-browser-test_wait_ready.py--test_a_page_that")
    assert shot.exists() and shot.with_suffix(".txt").read_text(encoding="utf-8") == report + "\n"
    assert quick() == []   # a failure is not a slow wait


def test_a_page_working_past_every_round_fails_anyway(quick):
    rounds = serve.STARVED_ROUNDS
    page = FakePage(ready_after=rounds, progress=[(k * 10_000, f"notRunning {rounds - k} true 900") for k in range(rounds + 1)])
    with pytest.raises(NotReady, match=rf"without work done or {rounds} times that in all"):
        wait_ready(page, timeout=30_000)


def test_a_chunk_that_never_comes_is_named(chromium, tmp_path, monkeypatch):  # noqa: F811
    """A real page whose Plotly chunk is held back: stuck, and the report names the request."""
    from harness.serve import streamlit_server
    monkeypatch.setattr(serve, "LATE", 1)
    monkeypatch.setattr(serve, "ARTIFACTS", tmp_path)
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{tmp_path / 'lib.db'}"}) as url:
        page = chromium.new_page(viewport={"width": 1280, "height": 1600})
        page.route("**/static/js/PlotlyChart.*", lambda route: None)   # never answered
        page.goto(url + "/sensitivity")
        with pytest.raises(NotReady) as failed:
            wait_ready(page, timeout=30_000)
        page.close()
    report = str(failed.value)
    assert "still not ready 1 s after the timeout: stuck" in report
    assert "requests still unanswered (1):" in report and "/static/js/PlotlyChart." in report
    assert "stSkeleton in stElementContainer st-key-sweep_chart" in report
    assert "  connection: CONNECTED" in report and "  h1: Sensitivity" in report


class NetworkChangedPage(FakePage):
    """A page whose script chunk Chromium dropped (net::ERR_NETWORK_CHANGED): Streamlit never
    started (`started`: whether the stApp element is there); loaded again, it becomes ready."""

    def __init__(self, started: bool = False):
        super().__init__(ready_after=1, progress=[(0, " 0 false 0"), (0, " 0 false 0"), (0, " 0 false 0")])
        self.network_changed, self.started, self.reloads = True, started, 0

    def evaluate(self, expression):
        assert "stApp" in expression
        return self.started

    def reload(self):
        self.reloads += 1


def test_a_page_whose_chunk_the_hosts_network_change_dropped_is_loaded_again_once_and_counted(quick):
    page = NetworkChangedPage()
    with pytest.warns(UserWarning, match=r"^slow wait: .*loaded again: the host's network changed under it"):
        wait_ready(page, timeout=30_000)
    assert page.reloads == 1 and len(quick()) == 1 and "net::ERR_NETWORK_CHANGED" in quick()[0]


def test_a_started_page_is_not_loaded_again_for_a_network_change(quick):
    page = NetworkChangedPage(started=True)   # Streamlit ran: whatever the page shows is its own
    page.ready_after = 2
    with pytest.raises(NotReady):
        wait_ready(page, timeout=30_000)
    assert page.reloads == 0 and not quick()
