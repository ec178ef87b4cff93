"""Reliability and security: durability under crashes, hostile input, injection, settings."""
import json
import signal
import subprocess
import sys
import time
import tomllib

import pandas as pd
from hypothesis import given, settings, strategies as st

from core.law.batch import BatchError, evaluate_table
from core.report.export import csv_bytes, spreadsheet_safe
from core.law.portfolio import PortfolioError, read_table, run
from core.store.repository import ScenarioStore
from core.store.fileformat import parse_export
from tests.conftest import ROOT
from tests.test_scenarios import WRITER
from ui.uploads import size_problem


def test_eight_processes_fifty_saves_each_keep_all_400(tmp_path):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    ScenarioStore(url).dispose()
    code = WRITER.format(root=str(ROOT), url=url, n=50)
    procs = [subprocess.Popen([sys.executable, "-c", code, str(p)]) for p in range(8)]
    assert [p.wait(300) for p in procs] == [0] * 8
    names = ScenarioStore(url).names()
    assert len(names) == 400 and len(set(names)) == 400


SAVER = """
import sys
sys.path.insert(0, {root!r})
from core.law.application import Application
from core.store.repository import ScenarioStore
s = ScenarioStore({url!r})
app = Application.from_dict({{"project_type": "renovation", "eligible_cost": 1000, "local_contribution": 10}})
i = 0
while True:
    s.save(f"save-{{i}}", app.replace(eligible_cost=1000 + i), notes="n" * 4000)
    print(f"save-{{i}}", flush=True)   # reported only once the transaction has committed
    i += 1
"""


def test_sigkill_in_the_middle_of_saves_loses_no_completed_save(tmp_path):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    ScenarioStore(url).dispose()
    proc = subprocess.Popen([sys.executable, "-c", SAVER.format(root=str(ROOT), url=url)],
                            stdout=subprocess.PIPE, text=True)
    done = []
    deadline = time.time() + 60
    while len(done) < 40 and time.time() < deadline:
        done.append(proc.stdout.readline().strip())
    proc.send_signal(signal.SIGKILL)     # no chance to clean up, mid-transaction most likely
    proc.wait(30)
    store = ScenarioStore(url)           # the database opens...
    saved = {s.name: s for s in store.list()}
    assert set(done) <= set(saved)       # ...with every completed save present
    for name, sc in saved.items():       # ...and no half-written scenario
        assert sc.application.eligible_cost == 1000 + int(name.split("-")[1]) and len(sc.notes) == 4000


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=2000))
def test_fuzz_csv_reader_gives_result_or_clear_message(data):
    try:
        df = read_table(data, "upload.csv")
    except PortfolioError as err:
        assert str(err).startswith("upload.csv: ")
        return
    try:
        run(df, 100_000_000)
    except BatchError as err:
        assert "missing column" in str(err)


csv_text = st.lists(st.lists(st.text(max_size=12), min_size=1, max_size=6), min_size=1, max_size=8).map(
    lambda rows: "\n".join(",".join(r) for r in [["project_type", "eligible_cost", "local_contribution"]] + rows))


@settings(max_examples=150, deadline=None)
@given(csv_text)
def test_fuzz_csv_rows_only_row_errors(text):
    try:
        df = read_table(text, "f.csv")
    except PortfolioError:
        return
    out = evaluate_table(df)
    assert len(out) == len(df)
    assert ((out["error"] == "") | out["error"].str.contains(": ")).all()


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=12), c, max_size=5),
                           max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(json_values | st.fixed_dictionaries({"format": st.just("senior-center-grant-scenarios"),
                                             "version": st.just(1), "scenarios": st.lists(json_values, max_size=4)}))
def test_fuzz_scenario_json_gives_scenarios_or_messages(data):
    good, errors = parse_export(json.loads(json.dumps(data, default=str)) if data == data else data)
    assert all(isinstance(e, str) and e for e in errors)


def test_spreadsheet_formula_cells_are_neutralised():
    df = pd.DataFrame({"name": ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "ok", "\tx"], "n": range(6)})
    safe = spreadsheet_safe(df)
    assert list(safe["name"]) == ["'=HYPERLINK(\"http://x\")", "'+1", "'-2", "'@SUM(A1)", "ok", "'\tx"]
    assert b"'=HYPERLINK" in csv_bytes(df)


def test_server_settings_shipped():
    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert cfg["server"]["enableXsrfProtection"] is True
    assert cfg["client"]["showErrorDetails"] == "none"
    assert 1 <= cfg["server"]["maxUploadSize"] <= 50


def test_upload_size_checked_on_the_server():
    assert size_problem(10 * 1024 * 1024, 10, "a.csv") is None
    assert size_problem(10 * 1024 * 1024 + 1, 10, "a.csv") == "a.csv is 10.0 MB; files of at most 10 MB are accepted."


def test_md_escapes_everything_markdown_or_html_would_read():
    from ui.text import md
    evil = "**bold** _it_ <b>x</b> [link](javascript:alert(1)) $x$ `code` # h"
    out = md(evil)
    for ch in "*_<>[]()$`#":
        assert f"\\{ch}" in out


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
