"""The servers bench/load.py puts its load on: one `streamlit run` process, or deploy/run-team's
replicas behind nginx; each yields its URL and the pids whose CPU time the benchmark reads."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from harness.serve import free_port, streamlit_server

ROOT = Path(__file__).resolve().parents[1]


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def one_server(script: str):
    """One `streamlit run` process: yields its URL and {name: pid} of the processes serving."""
    server = []
    with streamlit_server(script, on_start=server.append) as url:
        yield url, lambda: {"server": server[0].pid}


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@contextmanager
def team_server(replicas: int, script: str = "dashboard.py"):
    """deploy/run-team with this many replicas of `script`: yields the proxy's URL and {name: pid}
    of every replica and of nginx's processes (master and workers)."""
    state = Path(tempfile.mkdtemp(prefix="load-team-")) / "state.json"
    log = ROOT / "test-artifacts" / "load-run-team.log"
    log.parent.mkdir(exist_ok=True)
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, str(ROOT / "deploy" / "run-team"), "--replicas", str(replicas),
                                 "--port", str(free_port()), "--state-file", str(state), "--app", script],
                                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 180
        while not state.exists():
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"deploy/run-team did not serve; see {log}")
            time.sleep(0.3)
        info = json.loads(state.read_text())

        def pids() -> dict:
            out = {r["name"]: r["pid"] for r in info["replicas"]}
            out.update({f"nginx-{i}": p for i, p in enumerate([info["nginx"]] + _children(info["nginx"]))})
            return out
        yield info["url"], pids
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
        state.parent.rmdir() if state.parent.exists() and not any(state.parent.iterdir()) else None


def cpu_of(pids: dict) -> dict:
    out = {}
    for name, pid in pids.items():
        try:
            out[name] = cpu_seconds(pid)
        except OSError:
            out[name] = 0.0
    return out
