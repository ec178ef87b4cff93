"""What every part of deploy/run-team shares: where things are, the affinity cookie, how it
speaks, and how it asks whether a server answers."""
from __future__ import annotations

import os
import socket
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]   # deploy/
ROOT = HERE.parent
RUN_TEAM = HERE / "run-team"                 # supervisord runs it again for the lifeline and each replica
COOKIE = "grants_replica"
POLL = 0.3   # seconds between looks at the processes and their logs


def say(msg: str) -> None:
    print(f"run-team: {msg}", flush=True)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            return resp.status == 200
    except OSError:
        return False


def replica_names(ports: list[int]) -> list[str]:
    return [f"replica-{i + 1}" for i in range(len(ports))]


def proxy_url(args) -> str:
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    return f"http://{host if ':' not in host else '[' + host + ']'}:{args.port}"


def running(pid: int) -> bool:
    """Whether the process is alive (a zombie is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
