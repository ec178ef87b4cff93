"""Serving (ui/server.py, .streamlit/config.toml): settings shipped, uploads capped, sockets
and the collector set once, many sessions each with their own award."""
import os
import subprocess
import sys
import time
import tomllib
import urllib.request


from harness.serve import free_port
from tests.support import ROOT
from ui.uploads import size_problem


def listening_addresses(port: int) -> set[str]:
    """Local addresses with a socket listening on this TCP port (Linux /proc/net/tcp{,6})."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            addr, p = local.rsplit(":", 1)
            if state == "0A" and int(p, 16) == port:   # 0A: LISTEN
                found.add(addr)
    return found


def test_the_default_run_command_listens_on_loopback_only(tmp_path):
    port = free_port()
    log = open(tmp_path / "server.log", "w")
    # the README's command, with only a port chosen: no --server.address
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "dashboard.py", "--server.port", str(port)],
                            cwd=ROOT, env={**os.environ, "SCENARIO_DB_URL": f"sqlite:///{tmp_path / 'lib.db'}"},
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
                break
            except OSError:
                assert proc.poll() is None and time.time() < deadline, (tmp_path / "server.log").read_text()
                time.sleep(0.3)
        addresses = listening_addresses(port)
        assert addresses == {"0100007F"}, addresses     # 127.0.0.1 only: not 0.0.0.0, not ::
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def test_server_settings_shipped():
    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert cfg["server"]["enableXsrfProtection"] is True
    assert cfg["client"]["showErrorDetails"] == "none"
    assert 1 <= cfg["server"]["maxUploadSize"] <= 50


def test_upload_size_checked_on_the_server():
    assert size_problem(10 * 1024 * 1024, 10, "a.csv") is None
    assert size_problem(10 * 1024 * 1024 + 1, 10, "a.csv") == "a.csv is 10.0 MB; files of at most 10 MB are accepted."


def test_nagle_is_turned_off_for_connections_accepted_later():
    """Streamlit binds its listening socket with protocol 0, so asyncio leaves Nagle on and
    each small message after another waits ~40 ms for the browser's delayed ACK."""
    import socket

    from ui import server
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)   # protocol 0, as Streamlit does
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    early = socket.create_connection(listener.getsockname())
    early_conn, _ = listener.accept()
    try:
        assert early_conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
        server._done = False                 # once per process: let this test's call do the work
        assert server.disable_nagle() >= 2   # at least the listener and the early connection
        assert server.disable_nagle() == 0   # and only once
        assert early_conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        late = socket.create_connection(listener.getsockname())
        late_conn, _ = listener.accept()
        assert late_conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        late.close(), late_conn.close()
    finally:
        early.close(), early_conn.close(), listener.close()


def test_the_runtime_sends_each_message_without_its_5_ms_pause():
    """Streamlit's runtime loop slept 5 ms after each pass over the queued messages, and a
    move's award queued in that sleep waited for it (ui/server.send_at_once, issue 53). The
    setting is found in the pinned Streamlit, read by the loop on every pass (so setting it
    while the loop runs takes effect), and set by the dashboard itself."""
    from streamlit.runtime import runtime as runtime_module

    from tests.support.pages import dashboard
    from ui import server
    assert "MESSAGE_FLUSH_INTERVAL_SECS" in runtime_module.Runtime._loop_coroutine.__code__.co_names
    before = runtime_module.MESSAGE_FLUSH_INTERVAL_SECS
    runtime_module.MESSAGE_FLUSH_INTERVAL_SECS = 0.005   # as Streamlit ships it
    try:
        assert server.send_at_once() is True
        assert runtime_module.MESSAGE_FLUSH_INTERVAL_SECS == 0
        runtime_module.MESSAGE_FLUSH_INTERVAL_SECS = 0.005
        dashboard()   # a run of the app sets it: a served process never runs with the pause
        assert runtime_module.MESSAGE_FLUSH_INTERVAL_SECS == 0
    finally:
        runtime_module.MESSAGE_FLUSH_INTERVAL_SECS = before


def test_the_heap_is_settled_once_with_the_pages_modules_frozen():
    """Full collections stopped a loaded server for 60-107 ms (bench/load.py --team 2): what
    is alive after start is frozen out of them, once per process (ui/server.settle_heap)."""
    import gc
    import sys

    from ui import server
    before = gc.get_freeze_count()
    server._settled = False               # once per process: let this test's call do the work
    sys.modules.pop("core.report.compare", None)
    try:
        frozen = server.settle_heap(("core.report.compare",))
        assert frozen > before and gc.get_freeze_count() > before
        assert "core.report.compare" in sys.modules          # the pages' modules are loaded first
        assert server.settle_heap(("core.report.html",)) == 0   # and only once
    finally:
        gc.unfreeze()                    # leave the test process as it was


def test_runner_settings_for_many_users():
    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert cfg["runner"]["postScriptGC"] is False     # a full collection after each rerun held the lock
    assert cfg["server"]["fileWatcherType"] == "none"


def test_sessions_over_the_websocket_protocol_each_get_their_own_award():
    """Isolation at the protocol level (no browser needed): sessions from different links
    move the cost slider at the same time; each rerun carries that session's own award."""
    import asyncio

    from bench.load import run
    out = asyncio.run(run(sessions=8, moves=3, think=0.05, browsers=0))
    assert out["problems"] == []
    assert len(out["alone"]) == 3 and len(out["loaded"]) == 8 * 3


def test_a_forged_widget_value_over_the_websocket_is_refused_not_a_traceback(tmp_path):
    """Issue 30, finding 10, in a real server: Streamlit parses a custom element's value before the
    app runs; text that is not JSON or JSON nested 200,000 deep failed the run there."""
    import asyncio

    from streamlit.proto.BackMsg_pb2 import BackMsg

    from harness.stclient import Session
    from harness.serve import streamlit_server
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{tmp_path / 'lib.db'}"}) as url:
        async def go():
            s = Session(url)
            await s.open("")
            wid, _ = s.panels["eligible_cost"]
            found = []
            for sent in ("this is not JSON", '{"eligible_cost": ' + "[" * 200_000 + "]" * 200_000 + "}",
                         '{"eligible_cost": {"n": 1, "cents": ' + "9" * 5_000 + "}}"):
                s.values[wid].json_value = sent
                found.append(await s._rerun(BackMsg(), "State grant award"))
            s.values[wid].json_value = "{}"
            moved = await s.edit_field("eligible_cost", {"cents": 300_000_000})
            await s.close()
            return found, moved
        found, moved = asyncio.run(go())
    assert all(run.exceptions == [] and run.metrics["State grant award"] == "$500,000" for run in found)
    assert moved.metrics["State grant award"] == "$600,000"
