"""The team deployment end to end: deploy/run-team with 2 replicas behind Debian's nginx on one
PostgreSQL library, driven through the proxy by real Chromium sessions.

Needs nginx, Chromium and PostgreSQL (TEST_POSTGRES_URL; a database is made for the run). Where
one is missing these tests skip with the reason, unless REQUIRE_NGINX=1 (CI), where it is a failure."""
from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

from harness.serve import free_port, wait_ready
from tests.support import ROOT
from tests.support.browser import no_error_on
from tests.support.deploy import QUERY, REPLICAS, Session, get, save


RUN_TEAM = ROOT / "deploy" / "run-team"


ARTIFACTS = ROOT / "test-artifacts"


def _missing(reason: str):
    if os.environ.get("REQUIRE_NGINX") == "1":
        pytest.fail(f"REQUIRE_NGINX=1 but {reason}")
    pytest.skip(reason)


def nginx_path() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


@pytest.fixture(scope="module")
def pg_url():
    """A PostgreSQL database of its own for this run, dropped afterwards."""
    base = os.environ.get("TEST_POSTGRES_URL")
    if nginx_path() is None:
        _missing("no nginx found (apt-get install nginx) for the team deployment tests")
    if not base:
        _missing("TEST_POSTGRES_URL not set: the team deployment is tested on one PostgreSQL library")
    from sqlalchemy import create_engine, text
    name = f"team_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:   # a zombie is not running
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Deployment:
    def __init__(self, proc, state_file: Path, log: Path):
        self.proc, self.state_file, self.log = proc, state_file, log

    @property
    def state(self) -> dict:
        return json.loads(self.state_file.read_text())

    @property
    def url(self) -> str:
        return self.state["url"]

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def pid(self, name: str) -> int:
        return next(r["pid"] for r in self.state["replicas"] if r["name"] == name)

    def all_pids(self) -> list[int]:
        s = self.state
        return [s["nginx"]] + [r["pid"] for r in s["replicas"]]

    def wait_for_output(self, text: str, timeout: float = 90) -> None:
        deadline = time.time() + timeout
        while text not in self.output():
            assert self.proc.poll() is None, f"run-team exited:\n{self.output()[-3000:]}"
            assert time.time() < deadline, f"no {text!r} from run-team within {timeout} s:\n{self.output()[-3000:]}"
            time.sleep(0.3)


@contextmanager
def run_team(tag: str, *args: str, env: dict | None = None, prefix: list[str] | None = None,
             workdir: Path | None = None):
    """deploy/run-team on a free port; yields a Deployment once it serves; stops it with SIGTERM."""
    state = Path(tempfile.mkdtemp(prefix="team-state-")) / "state.json"
    if prefix:   # another user must be able to write the state file
        shutil.chown(state.parent, "nobody")
    log = ARTIFACTS / f"run-team-{tag}.log"
    # The replicas' ports too from this worker's range (harness/serve.free_port): left to run-team,
    # they are the kernel's ephemeral ones, which another worker's client connection (to
    # PostgreSQL, from a browser) may take between run-team's choice and the replica's bind.
    replicas = int(args[args.index("--replicas") + 1]) if "--replicas" in args else 2
    ports = [free_port()]   # nginx's, then each replica's
    while len(ports) < 1 + replicas:
        if (port := free_port()) not in ports:
            ports.append(port)
    with open(log, "w") as out:
        proc = subprocess.Popen((prefix or []) + [sys.executable, str(RUN_TEAM), "--port", str(ports[0]),
                                                  "--replica-ports", ",".join(map(str, ports[1:])),
                                                  "--state-file", str(state), "--access-log", *args]
                                + (["--workdir", str(workdir)] if workdir else []),
                                cwd=ROOT, env={**os.environ, **(env or {})}, stdout=out, stderr=subprocess.STDOUT)
    team = Deployment(proc, state, log)
    try:
        deadline = time.time() + 180
        while not state.exists():
            assert proc.poll() is None, f"run-team exited with {proc.returncode}:\n{team.output()[-3000:]}"
            assert time.time() < deadline, f"run-team did not serve within 180 s:\n{team.output()[-3000:]}"
            time.sleep(0.3)
        yield team
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        shutil.rmtree(state.parent, ignore_errors=True)


@pytest.fixture(scope="module")
def team(pg_url, chromium):  # noqa: F811
    with run_team("affinity", "--replicas", "2", "--restart-delay", "5", env={"SCENARIO_DB_URL": pg_url}) as t:
        yield t


@pytest.fixture(scope="module")
def sessions(team, chromium):  # noqa: F811
    """One browser session on each replica: new browsers until both replicas have one."""
    found: dict[str, Session] = {}
    for _ in range(12):
        s = Session(chromium, team.url, QUERY)
        if s.replica in found:
            s.context.close()
        else:
            found[s.replica] = s
        if len(found) == 2:
            break
    yield found
    for s in found.values():
        s.context.close()


def test_new_browsers_are_spread_over_both_replicas_and_stay_with_theirs(team):
    seen = {}
    for _ in range(6):
        _, headers, _ = get(team.url + "/")
        name = headers["X-Served-By"]
        cookie = next(c for c in headers.get_all("Set-Cookie") if c.startswith("grants_replica="))
        assert cookie.split(";")[0] == f"grants_replica={name}"
        seen[name] = cookie.split(";")[0]
    assert set(seen) == set(REPLICAS)
    for name, cookie in seen.items():       # a pinned browser keeps its replica, page after page
        assert {get(team.url + path, cookie)[1]["X-Served-By"]
                for path in ("/", "/_stcore/health", "/portfolio", "/") } == {name}
    status, headers, body = get(team.url + "/healthz")
    assert (status, body) == (200, b"ok") and headers["X-Served-By"] in REPLICAS


def test_security_headers_on_every_kind_of_response(team):
    _, page, html = get(team.url + "/")
    js = re.search(rb'src="\./(static/js/index\.[^"]+\.js)"', html).group(1).decode()
    for headers in (page, get(team.url + "/" + js)[1], get(team.url + "/_stcore/health")[1]):
        csp = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp and "object-src 'none'" in csp
        assert "'unsafe-eval'" not in csp and "script-src 'self' 'sha256-" in csp
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers.get_all("Content-Security-Policy") == [csp]   # one policy, nginx's


def test_shipped_csp_hashes_match_the_installed_streamlit():
    """deploy/security-headers.conf (copied to production) allows exactly the inline scripts of
    the pinned Streamlit; after an upgrade this fails until the hashes are updated."""
    printed = subprocess.run([sys.executable, str(RUN_TEAM), "--print-csp"], capture_output=True, text=True,
                             check=True).stdout.split()
    shipped = (ROOT / "deploy" / "security-headers.conf").read_text()
    assert printed and all(h in shipped for h in printed)
    assert "script-src 'self' " + " ".join(printed) + " blob: 'wasm-unsafe-eval';" in shipped


def test_a_large_file_comes_whole_through_the_proxy(team):
    """With nginx's workers unable to write their temp folder, big responses were cut short."""
    import streamlit
    js = Path(streamlit.__file__).parent / "static" / "static" / "js"
    big = max(js.glob("*.js"), key=lambda p: p.stat().st_size)
    status, headers, body = get(f"{team.url}/static/js/{big.name}")
    assert status == 200 and body == big.read_bytes()


def slow_get(url: str, rate: int = 2_000_000) -> bytes:
    """GET like a browser on a slower line (`rate` bytes a second), with a small receive buffer so
    the kernel does not take the whole response on the client's behalf."""
    import socket
    from urllib.parse import urlsplit
    u = urlsplit(url)
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        s.connect((u.hostname, u.port))
        s.sendall(f"GET {u.path} HTTP/1.1\r\nHost: {u.netloc}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
            time.sleep(len(chunk) / rate)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    return body


def test_nginx_spools_no_response_to_disk(team):
    """The largest script the app's pages load through a replica (st.plotly_chart's, 4.7 MB), read at
    2 MB/s: nginx holds what fits in its buffers and streams the rest, and its error log never says
    "an upstream response is buffered to a temporary file" (the normal pages of the browser sessions
    are checked the same way at the end of this file)."""
    import streamlit
    js = Path(streamlit.__file__).parent / "static" / "static" / "js"
    big = max(js.glob("*.js"), key=lambda p: p.stat().st_size)
    assert slow_get(f"{team.url}/static/js/{big.name}") == big.read_bytes()
    assert_nothing_spooled(team)


def assert_nothing_spooled(team) -> None:
    log = Path(team.state["workdir"]) / "logs" / "nginx.log"
    time.sleep(0.5)   # run-team relays nginx's log every 0.3 s
    assert log.exists() and "buffered to a temporary file" not in log.read_text(errors="replace")
    assert "buffered to a temporary file" not in team.output()


def download(page, button: str) -> Path:
    """Click a download button; the file it gives. A second click if the first gives nothing:
    on a loaded machine a rerun can replace the button's deferred file just before the click
    (the server logs 'Deferred file ... not found'), with or without a proxy."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    for attempt in range(3):
        try:
            with page.expect_download(timeout=30_000) as d:
                page.get_by_role("button", name=button).click()
            return Path(d.value.path())
        except PlaywrightTimeout:
            if attempt == 2:
                raise
            print(f"no download from {button!r} on click {attempt + 1}; clicking again")
            wait_ready(page)


def portfolio_csv(tmp_path: Path, tag: str) -> Path:
    lines = (ROOT / "core" / "law" / "samples" / "portfolio_illustrative.csv").read_text().splitlines()
    rows = [line for line in lines if not line.startswith("#")][:4]   # header and three applications
    rows[1:] = [f"{tag} {i}," + row.split(",", 1)[1] for i, row in enumerate(rows[1:], 1)]
    path = tmp_path / f"{tag}.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("replica", REPLICAS)
def test_on_each_replica_a_session_moves_the_slider_downloads_a_report_and_runs_a_portfolio(
        sessions, replica, tmp_path):
    s = sessions[replica]
    assert s.award() == "$500,000"
    s.page.get_by_role("slider").first.focus()
    s.page.keyboard.press("ArrowRight")                 # cost $1,001,000
    s.wait_award("$500,500")
    s.page.wait_for_url(re.compile(r"eligible_cost=1001000"), timeout=20_000)
    wait_ready(s.page)
    report = download(s.page, "Download the report (HTML, works offline)").read_text(encoding="utf-8")
    assert "$1,001,000" in report and "$500,500" in report

    s.go("Portfolio")
    tag = f"Team test {replica}"
    s.page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(
        str(portfolio_csv(tmp_path, tag)))
    s.page.wait_for_function("() => !document.body.innerText.includes('ILLUSTRATIVE sample')", timeout=60_000)
    wait_ready(s.page)
    result = download(s.page, "Download the results (CSV)").read_text(encoding="utf-8-sig")
    assert all(f"{tag} {i}" in result for i in (1, 2, 3)) and "Illustrative" not in result
    assert "allocated" in result.splitlines()[0]
    no_error_on(s.page)
    s.go("Calculator", "State grant calculator")


def test_every_request_of_a_session_reached_its_own_replica_and_the_csp_blocked_nothing(sessions):
    assert set(sessions) == set(REPLICAS)
    for name, s in sessions.items():
        kinds = {re.sub(r"^https?://[^/]+", "", u).split("/")[1] or "page" for u, _ in s.served}
        assert {"static", "media", "_stcore"} <= kinds          # assets, downloads, the upload
        assert any("/_stcore/upload_file/" in u for u, _ in s.served)
        plotly = [u for u, _ in s.served if PLOTLY_JS in u]
        assert len(plotly) <= 1           # loaded once by the page (none when the browser kept it)
        assert {by for u, by in s.served if PLOTLY_JS not in u} == {name}   # that one nginx serves itself
        assert s.page.evaluate("() => window.__csp") == []
        # Plotly.js loaded and ran: both charts drawn
        assert s.page.locator(".gc-plot.js-plotly-plot").count() == 2 and s.page.locator(".gc-plot .main-svg").count() >= 2


PLOTLY_JS = "/component/ui.components.chart_panel.plotly_js/plotly.min.js"


def test_nginx_serves_the_charts_plotly_js_compressed_once_and_kept_by_browsers(team, sessions):
    """The calculator's charts load the plotly package's Plotly.js (ui/components/chart_panel.py). Through a
    replica it would be gzipped again for every browser; nginx serves run-team's copy instead."""
    import gzip

    import plotly
    from ui.components.chart_panel import plotly_path

    assert plotly_path().startswith(PLOTLY_JS.lstrip("/") + "?v=" + plotly.__version__)
    page_url = next(u for u, _ in next(iter(sessions.values())).served + [(team.url + "/" + plotly_path(), None)]
                    if PLOTLY_JS in u)
    req = urllib.request.Request(page_url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req, timeout=30) as r:
        body, headers = r.read(), r.headers
    source = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_bytes()
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == source
    assert headers["Content-Type"].startswith("text/javascript")
    assert "max-age=31536000" in headers["Cache-Control"]
    assert headers.get("X-Served-By") is None                    # nginx itself, no replica
    assert headers["X-Content-Type-Options"] == "nosniff" and "default-src 'self'" in headers["Content-Security-Policy"]
    status, _, whole = get(page_url)                             # a client that takes no gzip
    assert status == 200 and whole == source


def test_the_app_cannot_be_framed_by_another_site(team, chromium, tmp_path):  # noqa: F811
    page = chromium.new_page()
    outside = f"http://127.0.0.1:{free_port()}"   # another origin; nothing listens, the page is set inline
    page.route(outside + "/", lambda route: route.fulfill(
        content_type="text/html", body=f'<h1>Elsewhere</h1><iframe src="{team.url}/" width="800" height="600"></iframe>'))
    page.goto(outside + "/")
    page.wait_for_timeout(3000)
    framed = [f for f in page.frames if f != page.main_frame]
    assert framed and all(f.locator('[data-testid="stApp"]').count() == 0 for f in framed)
    page.close()


def test_a_scenario_saved_on_one_replica_is_seen_on_the_other(sessions):
    name = f"Saved on replica-1 {uuid.uuid4().hex[:6]}"
    save(sessions["replica-1"], name)
    other = sessions["replica-2"]
    other.go("Compare scenarios")
    other.page.wait_for_selector(f"text={name}", timeout=30_000)
    no_error_on(other.page)
    other.go("Calculator", "State grant calculator")


def upload_statuses(url: str, tries: int = 6) -> tuple[str | None, list[int]]:
    """A protocol session opened through the proxy, then `tries` uploads to it the way the
    browser sends them (its cookies, its XSRF token): the HTTP status of each."""
    from harness.stclient import Session as Protocol

    async def go():
        s = Protocol(url)
        try:
            await s.open(QUERY)
            statuses = []
            for i in range(tries):
                boundary = "b" + uuid.uuid4().hex
                body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"UploadedFile\"; filename=\"a.csv\"\r\n"
                        f"Content-Type: text/csv\r\n\r\nname\r\nx\r\n--{boundary}--\r\n").encode()
                req = urllib.request.Request(
                    f"{url}/_stcore/upload_file/{s.session_id}/f{i}", data=body, method="PUT",
                    headers={"Cookie": s.cookie_header(), "X-Xsrftoken": s.cookies["_streamlit_xsrf"],
                             "Content-Type": f"multipart/form-data; boundary={boundary}"})
                try:
                    with urllib.request.urlopen(req, timeout=30) as r:
                        statuses.append(r.status)
                except urllib.error.HTTPError as err:
                    statuses.append(err.code)
            return s.served_by, statuses
        finally:
            await s.close()
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as pool:   # its own thread: the sync browser fixture owns this one's loop
        return pool.submit(asyncio.run, go()).result()


def test_uploads_reach_the_session_through_the_proxy_and_fail_without_affinity_control(team, pg_url, chromium):  # noqa: F811
    """The control: the same deployment without affinity spreads one browser's requests over
    both replicas, and the replica without the session refuses its uploads (HTTP 400,
    'Invalid session_id'). Then SIGTERM stops every process of it."""
    served_by, statuses = upload_statuses(team.url)
    assert served_by in REPLICAS and statuses == [204] * 6
    with run_team("no-affinity", "--replicas", "2", "--no-affinity", env={"SCENARIO_DB_URL": pg_url}) as control:
        _, statuses = upload_statuses(control.url)
        assert 400 in statuses and 204 in statuses, statuses     # alternately the right and the wrong replica
        assert set(statuses) == {204, 400}
        page = chromium.new_page()
        replicas = []
        page.on("response", lambda r: replicas.append(r.headers.get("x-served-by"))
                if r.url.startswith("http") and PLOTLY_JS not in r.url else None)   # that one, nginx serves
        page.goto(control.url + "/")
        wait_ready(page)
        assert set(replicas) == set(REPLICAS)   # one page, both replicas: the failure affinity prevents
        page.close()
        pids = control.all_pids()
        assert all(alive(p) for p in pids)
        proc = control.proc
    assert proc.returncode == 0
    assert not any(alive(p) for p in pids)
    assert "stopped; no replica or nginx process left" in control.output()


def test_the_browser_sessions_normal_pages_were_not_spooled_to_disk_by_nginx(team, sessions):
    """Every page, script, upload and download of the two browser sessions above, Plotly.js
    included: nginx's error log has no "buffered to a temporary file"."""
    assert all(s.served for s in sessions.values())
    assert_nothing_spooled(team)


def test_supervisorctl_shows_the_team_as_docs_deploy_md_says(team):
    """`supervisorctl -c DIR/supervisord.conf status` while run-team runs: every replica, nginx and
    the lifeline running, each with the pid run-team's state file names."""
    done = subprocess.run([sys.executable, "-m", "supervisor.supervisorctl", "-c",
                           str(Path(team.state["workdir"]) / "supervisord.conf"), "status"],
                          capture_output=True, text=True, timeout=30)
    status = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert set(status) == {"lifeline", "nginx", *REPLICAS}, done.stdout + done.stderr
    assert all(fields[1] == "RUNNING" for fields in status.values()), done.stdout
    assert f"pid {team.state['nginx']}," in " ".join(status["nginx"])
    for r in team.state["replicas"]:
        assert f"pid {r['pid']}," in " ".join(status[r["name"]])


def test_killing_a_replica_leaves_the_other_working_and_a_reloaded_session_comes_back_on_the_survivor(team, sessions):
    lost, survivor = sessions["replica-1"], sessions["replica-2"]
    wait_ready(lost.page)
    lost.page.get_by_role("slider").first.focus()
    lost.page.keyboard.press("ArrowRight")              # this session's scenario: cost $1,002,000
    lost.wait_award("$501,000")
    lost.page.wait_for_url(re.compile(r"eligible_cost=1002000"), timeout=20_000)
    scenario = lost.page.url

    os.kill(team.pid("replica-1"), signal.SIGKILL)
    wait_ready(survivor.page)
    survivor.page.get_by_role("slider").first.focus()
    survivor.page.keyboard.press("ArrowRight")          # the survivor's own sessions go on
    survivor.wait_award("$501,000")

    lost.served.clear()
    lost.page.reload(timeout=120_000)
    wait_ready(lost.page, timeout=120_000)
    assert lost.page.url == scenario and lost.award() == "$501,000"   # the same scenario, from its link
    assert lost.served[0][1] == "replica-2"
    no_error_on(lost.page)

    team.wait_for_output("replica-1 (pid")
    team.wait_for_output("replica-1 is back and healthy")
    assert "was killed by signal 9; restarting it" in team.output()
    # the moved session stays on the survivor after replica-1 is back: its cookie moved with it
    lost.page.get_by_role("slider").first.focus()
    lost.page.keyboard.press("ArrowRight")
    lost.wait_award("$501,500")
    wait_ready(lost.page)
    # (the app's static files and icon come from the browser's cache, with their first load's headers;
    # nginx serves Plotly.js itself)
    assert {by for u, by in lost.served if not re.search(r"/static/|/favicon", u) and PLOTLY_JS not in u} == {"replica-2"}
    # and new browsers reach the restarted replica again
    assert {get(team.url + "/")[1]["X-Served-By"] for _ in range(4)} == set(REPLICAS)


def test_run_team_works_unprivileged_and_its_children_die_with_it(tmp_path):
    """As a user other than root (nobody, when the tests run as root): nginx's temp folders and
    logs stay in the private working directory, and a large file still comes whole. Killed with
    SIGKILL, run-team leaves no replica or nginx behind."""
    if nginx_path() is None:
        _missing("no nginx found (apt-get install nginx) for the team deployment tests")
    prefix, env = [], {}
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("setpriv not found: cannot run as another user")
        home = Path(tempfile.mkdtemp(prefix="team-nobody-"))
        shutil.chown(home, "nobody")
        # read/search everywhere (Python may live under /root), but writes only where nobody may
        prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                  "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
        env = {"HOME": str(home), "SCENARIO_DB_URL": f"sqlite:///{home / 'lib.db'}"}
    try:
        with run_team("unprivileged", "--replicas", "1", prefix=prefix, env=env) as t:
            import streamlit
            js = Path(streamlit.__file__).parent / "static" / "static" / "js"
            big = max(js.glob("*.js"), key=lambda p: p.stat().st_size)
            assert get(f"{t.url}/static/js/{big.name}")[2] == big.read_bytes()
            status, headers, _ = get(t.url + "/")
            assert status == 200 and headers["X-Served-By"] == "replica-1"
            if prefix:
                assert Path(f"/proc/{t.state['nginx']}/status").read_text().count("\t65534\t") >= 1
            # killed outright, run-team cannot clean up: its children still go with it
            pids, workdir = t.all_pids(), t.state["workdir"]
            t.proc.kill()
            t.proc.wait(10)
            deadline = time.time() + 20
            while any(alive(p) for p in pids) and time.time() < deadline:
                time.sleep(0.2)
            assert not any(alive(p) for p in pids)
            shutil.rmtree(workdir, ignore_errors=True)
    finally:
        if prefix:
            shutil.rmtree(home, ignore_errors=True)


def test_nginx_starts_only_once_every_replica_answers(tmp_path):
    """A replica whose port is taken never answers its health check: run-team gives up after
    --start-timeout without ever starting nginx, says why, and leaves nothing running."""
    import socket
    if nginx_path() is None:
        _missing("no nginx found (apt-get install nginx) for the team deployment tests")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)                                 # listens, never answers: the replica cannot bind it
    port, proxy_port = taken.getsockname()[1], free_port()
    log = ARTIFACTS / "run-team-never-healthy.log"
    try:
        with open(log, "w") as out:
            done = subprocess.run([sys.executable, str(RUN_TEAM), "--replicas", "1", "--replica-ports", str(port),
                                   "--port", str(proxy_port), "--start-timeout", "8", "--restart-delay", "0.5",
                                   "--workdir", str(tmp_path / "work")],
                                  cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, timeout=120)
    finally:
        taken.close()
    said = log.read_text(errors="replace")
    assert done.returncode == 1, said[-3000:]
    assert "every replica answering /_stcore/health: not within 8 s" in said
    assert "spawned: 'nginx'" not in said and "serving http" not in said
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{proxy_port}/healthz", timeout=2)
    assert "stopped; no replica or nginx process left" in said


def test_sigterm_stops_every_process_of_the_team():
    """The way systemd and Ctrl-C stop it: supervisord, each replica and nginx are all gone."""
    if nginx_path() is None:
        _missing("no nginx found (apt-get install nginx) for the team deployment tests")
    with run_team("sigterm", "--replicas", "2") as t:
        pids = t.all_pids() + [t.state["supervisord"]]
        assert all(alive(p) for p in pids)
        t.proc.send_signal(signal.SIGTERM)
        assert t.proc.wait(60) == 0
        deadline = time.time() + 20
        while any(alive(p) for p in pids) and time.time() < deadline:
            time.sleep(0.2)
        assert [p for p in pids if alive(p)] == []
        assert t.output().rstrip().endswith("run-team: stopped; no replica or nginx process left")


def test_the_production_site_file_is_accepted_by_nginx(tmp_path):
    """deploy/nginx-site.conf with deploy/security-headers.conf, as a state IT office would
    install them (paths and certificate replaced by ones made here), passes `nginx -t`."""
    nginx = nginx_path()
    if nginx is None:
        _missing("no nginx found (apt-get install nginx) for the team deployment tests")
    if shutil.which("openssl") is None:
        pytest.skip("openssl not found: no certificate to check the HTTPS site with")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=grants.test",
                    "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True)
    site = (ROOT / "deploy" / "nginx-site.conf").read_text()
    site = (site.replace("/etc/nginx/snippets/grants-security-headers.conf", str(ROOT / "deploy" / "security-headers.conf"))
            .replace("/etc/ssl/certs/grants.example.gov.pem", str(tmp_path / "cert.pem"))
            .replace("/etc/ssl/private/grants.example.gov.key", str(tmp_path / "key.pem"))
            .replace("/var/log/grants/", f"{tmp_path}/"))
    (tmp_path / "site.conf").write_text(site)
    temp = "".join(f"{k}_temp_path {tmp_path}/{k};\n" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp_path / "nginx.conf").write_text(f"pid {tmp_path}/nginx.pid;\nevents {{}}\nhttp {{\n{temp}"
                                         f"access_log off;\ninclude {tmp_path}/site.conf;\n}}\n")
    check = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert "Content-Security-Policy" in (ROOT / "deploy" / "security-headers.conf").read_text()
