"""How the app is served by default: `streamlit run dashboard.py` listens on loopback only."""
import os
import subprocess
import sys
import time
import urllib.request

from tests.conftest import ROOT
from tests.serve import free_port


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


def test_a_forged_widget_value_over_the_websocket_is_refused_not_a_traceback(tmp_path):
    """Issue 30, finding 10, in a real server: Streamlit parses a custom element's value before the
    app runs; text that is not JSON or JSON nested 200,000 deep failed the run there."""
    import asyncio

    from streamlit.proto.BackMsg_pb2 import BackMsg

    from bench.stclient import Session
    from tests.serve import streamlit_server
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
