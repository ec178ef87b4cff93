"""Where the calculator's server CPU per slider move goes, by phase and by element.

    python bench/profile_move.py [--moves 200] [--script dashboard.py] [--cprofile]

Measures: one session moves the cost slider --moves times (after 10 warm-up moves, over
Streamlit's websocket protocol, bench/stclient.py) while py-spy samples the server process
at 1 kHz (every thread, without pausing it; samples waiting on the socket, a lock or a sleep are dropped).
Prints the share of each phase (the script thread's rerun: page code, figures, rules,
widget registration, delta enqueue; the event loop: protobuf serialisation, websocket
send) and of each kind of st.* element, and that share of the server CPU per move measured
from /proc in the same run. --cprofile instead runs the server under cProfile in every
thread (bench/_profiled_server.py): exact call counts, but it slows Python ~9x.
Goal (issue 17): the calculator at most 3x a bare one-slider app (bench/rerun_cost.py).
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import linecache
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import cpu_seconds, link  # noqa: E402
from bench.stclient import Session  # noqa: E402
from tests.serve import free_port, streamlit_server  # noqa: E402

SCRIPT = "scriptThread"
PHASES = [  # (label, predicate on one sampled stack, frames joined by ";")
    ("script thread: the rerun of the calculator fragment", lambda s: SCRIPT in s),
    ("  page code (pages/calculator.py and what it calls)", lambda s: SCRIPT in s and "calculator.py" in s),
    ("    delta enqueue (proto built, queued, event loop woken)", lambda s: SCRIPT in s and "_enqueue (" in s),
    ("    widget registration (register_widget, element ids)",
     lambda s: SCRIPT in s and ("register_widget" in s or "compute_and_register_element_id" in s)),
    ("    Plotly figures built (core/report/charts.py)", lambda s: SCRIPT in s and "core/report/charts.py" in s),
    ("    Plotly figure to dict and JSON (in st.plotly_chart)",
     lambda s: SCRIPT in s and "plotly_chart" in s and ("to_dict" in s or "to_json" in s)),
    ("    rules: evaluate", lambda s: SCRIPT in s and "evaluate (core/award" in s and "core/analysis" not in s),
    ("    rules: what would change it (core/analysis)", lambda s: SCRIPT in s and "core/law/analysis.py" in s),
    ("    URL written (ui/state.write_url)", lambda s: SCRIPT in s and "write_url" in s),
    ("  Streamlit around the page (session state, callbacks, fragment, finish)",
     lambda s: SCRIPT in s and "calculator.py" not in s),
    ("event loop thread: messages in and out", lambda s: SCRIPT not in s),
    ("  protobuf serialisation (serialize_forward_msg)", lambda s: SCRIPT not in s and "serialize_forward_msg" in s),
    ("  websocket send", lambda s: SCRIPT not in s and ("send_bytes" in s or "_sender" in s)),
    ("  back message parsed, rerun started", lambda s: SCRIPT not in s and "handle_backmsg" in s),
]
ELEMENT = re.compile(r"(?:[A-Za-z]+Mixin\.)?([a-z][a-z_]*) \(streamlit/elements/")
FRAME = re.compile(r"^(.*) \((.+):(\d+)\)$")


def idle(stack: str) -> bool:
    """A sample of a thread that waits (socket, lock, timer) rather than computes."""
    leaf = stack.rsplit(";", 1)[-1]
    if re.match(r"(EpollSelector\.select|Event\.wait|Condition\.wait|_worker \(concurrent)", leaf):
        return True
    m = FRAME.match(leaf)   # a sleep shows as the line that calls it
    if m:
        for base in (ROOT, ROOT / "pages", *sys.path):
            line = linecache.getline(str(Path(base) / m.group(2)), int(m.group(3)))
            if line:
                return "sleep(" in line
    return False


def _task_seconds(pid: int, tid: int) -> float:
    with open(f"/proc/{pid}/task/{tid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


LOOP_CPU: list[float] = []   # event loop thread's CPU ms per move, from /proc, set by drive()


async def drive(url: str, pid: int, moves: int, start, stop) -> float:
    """Server CPU ms per move while start()..stop() records."""
    cost, _, query = link(0)
    s = Session(url)
    await s.open(query)
    for m in range(1, 11):
        await s.set_slider("s:eligible_cost", cost + 1_000 * m)
    start()
    await asyncio.sleep(1.0)
    c0, l0 = cpu_seconds(pid), _task_seconds(pid, pid)
    for m in range(11, 11 + moves):
        await s.set_slider("s:eligible_cost", cost + 1_000 * m)
    c1, l1 = cpu_seconds(pid), _task_seconds(pid, pid)
    LOOP_CPU.append((l1 - l0) / moves * 1000)
    stop()
    await s.close()
    return (c1 - c0) / moves * 1000


def sampled(script: str, moves: int) -> None:
    spy = shutil.which("py-spy")
    if not spy:
        sys.exit("py-spy is not installed: pip install -r requirements-dev.txt (or use --cprofile)")
    out = Path(tempfile.mkdtemp()) / "stacks.txt"
    server, rec = [], []
    with streamlit_server(script, on_start=server.append) as url:
        pid = server[0].pid
        start = lambda: rec.append(subprocess.Popen(  # noqa: E731
            [spy, "record", "--pid", str(pid), "--rate", "1000", "--format", "raw", "--threads",
             "--nonblocking", "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

        def stop():
            rec[0].send_signal(signal.SIGINT)
            rec[0].wait(60)
        per_move = asyncio.run(drive(url, pid, moves, start, stop))
    rows = []
    for line in out.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if stack and not idle(stack):
            rows.append((stack, int(n)))
    total = sum(n for _, n in rows)
    print(f"\n{script}: {moves} moves, {per_move:.1f} ms of server CPU per move (/proc, under sampling); "
          f"{total} busy samples ({total / moves:.1f} per move at 1 kHz)")
    print(f"exact split from /proc: event loop thread {LOOP_CPU[-1]:.1f} ms, other threads (the script's) "
          f"{per_move - LOOP_CPU[-1]:.1f} ms per move")
    print("\nby phase (share of busy samples; that share of the CPU per move). A thread waiting to take the\n"
          "interpreter lock back after a system call counts as busy (it shows as _write_to_self):")
    for name, pred in PHASES:
        c = sum(n for s, n in rows if pred(s))
        print(f"  {name:72s} {100 * c / total:5.1f}%  {per_move * c / total:5.2f} ms")
    els = collections.Counter()
    for s, n in rows:
        if SCRIPT in s:
            for frame in s.split(";"):
                m = ELEMENT.match(frame)
                if m:
                    els[m.group(1)] += n
                    break
    print("\nby element (st.* call, inclusive of its registration and enqueue):")
    for el, c in els.most_common():
        print(f"  st.{el:22s} {100 * c / total:5.1f}%  {per_move * c / total:5.2f} ms")
    ours = collections.Counter()   # inclusive, once per sample: each function of this project on the stack
    for s, n in rows:
        if SCRIPT in s:
            for name in {f"{m.group(1)} ({m.group(2)})" for m in map(FRAME.match, s.split(";"))
                         if m and m.group(2).split("/")[0] in ("pages", "ui", "core")}:
                ours[name] += n
    print("\nby function of this project (inclusive of what it calls, Streamlit's elements too):")
    for name, c in ours.most_common(25):
        print(f"  {100 * c / total:5.1f}%  {per_move * c / total:5.2f} ms  {name[:100]}")
    leaves = collections.Counter()
    for s, n in rows:
        leaves[s.rsplit(";", 1)[-1]] += n
    print("\nbusiest leaf frames:")
    for leaf, c in leaves.most_common(12):
        print(f"  {100 * c / total:5.1f}%  {leaf[:110]}")


def profiled(script: str, moves: int) -> None:
    import pstats
    out = Path(tempfile.mkdtemp()) / "server.prof"
    port = free_port()
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "test-artifacts" / f"server-{port}.log", "w")
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "_profiled_server.py"), script,
                             "--server.headless", "true", "--server.port", str(port), "--server.address",
                             "127.0.0.1", "--browser.gatherUsageStats", "false"],
                            cwd=ROOT, env={**os.environ, "PROFILE_OUT": str(out)}, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.3)
        per_move = asyncio.run(drive(url, proc.pid, moves, lambda: proc.send_signal(signal.SIGUSR1),
                                     lambda: proc.send_signal(signal.SIGUSR2)))
        for _ in range(100):
            if Path(str(out) + ".threads").exists():
                break
            time.sleep(0.2)
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
    print(f"\n{script}: {per_move:.1f} ms of server CPU per move under cProfile (thread CPU time)")
    pstats.Stats(str(out)).sort_stats("cumulative").print_stats(40)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--script", default="dashboard.py")
    ap.add_argument("--cprofile", action="store_true", help="cProfile in every thread instead of py-spy")
    args = ap.parse_args()
    print(__doc__.split("\n\n")[2].strip(), flush=True)
    (profiled if args.cprofile else sampled)(args.script, args.moves)


if __name__ == "__main__":
    main()
