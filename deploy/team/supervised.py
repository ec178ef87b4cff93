"""What supervisord runs for deploy/run-team (`run-team --lifeline PID`, `run-team
--replica-process NAME ... -- COMMAND`): the lifeline that stops supervisord when run-team is
gone, even killed outright, and each replica's start, delayed after a restart."""
from __future__ import annotations

import json
import os
import select
import signal
import time
from pathlib import Path


def lifeline(pid: int) -> int:
    """Run by supervisord: wait for run-team (pid) to end, then stop supervisord, its parent."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        fd = None
    except (AttributeError, OSError):   # no pidfd here (Linux before 5.3): look every second
        fd = -1
    if fd is not None and fd >= 0:
        select.select([fd], [], [])
    while fd == -1:
        try:
            os.kill(pid, 0)
            time.sleep(1)
        except ProcessLookupError:
            break
    print(f"run-team (pid {pid}) is gone; stopping supervisord and everything it runs", flush=True)
    os.kill(os.getppid(), signal.SIGTERM)
    return 0


def replica_process(name: str, delay: float, workdir: Path, command: list[str]) -> int:
    """Run by supervisord for each replica: on a restart, wait --restart-delay seconds first
    (doubling, up to 30, while it keeps dying within 30 s of starting), then become the replica."""
    marker = workdir / f"{name}.start"
    try:
        last = json.loads(marker.read_text())
    except (OSError, ValueError):
        last = None
    if last is None:
        wait = 0.0                                     # its first start
    elif time.time() - last["at"] < 30 and last["wait"]:
        wait = min(last["wait"] * 2, 30)               # died again soon after a delayed start
    else:
        wait = delay
    time.sleep(wait)
    marker.write_text(json.dumps({"at": time.time(), "wait": wait}))
    os.execv(command[0], command)
