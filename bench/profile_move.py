"""Where the calculator's server CPU per slider move goes, by phase and by element.

    python bench/profile_move.py [--moves 100] [--script dashboard.py] [--top 25]

Measures: one session moves the cost slider --moves times (after 10 warm-up moves) against
`streamlit run` wrapped in cProfile in every thread (bench/_profiled_server.py). Prints
each phase (script run, widget registration, figure building and JSON, delta enqueue,
protobuf serialisation and websocket send in the server's event loop) and each kind of
element as a share of the profiled CPU and as ms per move. cProfile slows Python down,
so read the shares; the absolute figure per move is bench/rerun_cost.py's.
Goal (issue 17): the calculator at most 3x a bare one-slider app (bench/rerun_cost.py).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import pstats
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
from tests.serve import free_port  # noqa: E402

# phase -> predicate on (file, function name); cumulative time of the outermost match
PHASES = [
    ("script run (all of the page's Python)", lambda f, n: n == "_run_script"),
    ("  widget registration (register_widget, element ids)",
     lambda f, n: n in ("register_widget", "compute_and_register_element_id") and "streamlit" in f),
    ("  Plotly figures built (core/charts.py)", lambda f, n: n in ("headroom_figure", "waterfall_figure")),
    ("  Plotly figure to JSON (plotly.io.to_json)", lambda f, n: n == "to_json" and "plotly" in f),
    ("  delta enqueue (proto built, queued)", lambda f, n: n == "_enqueue" and "delta_generator" in f),
    ("  rules (evaluate, changes)", lambda f, n: n in ("evaluate", "changes") and "core" in f),
    ("protobuf serialisation (event loop)", lambda f, n: n == "serialize_forward_msg"),
    ("websocket send (event loop)", lambda f, n: n in ("write_message",) and "websocket" in f),
]
ELEMENTS = ("metric", "markdown", "plotly_chart", "slider", "text_input", "selectbox", "toggle", "checkbox",
            "subheader", "caption", "title", "button", "expander", "columns", "container", "text_area",
            "warning", "info", "error", "download_button")


def cum(stats: pstats.Stats, pred) -> float:
    """Cumulative seconds of functions matching pred, not counting matches inside matches
    (a recursive or nested match would be counted twice)."""
    hits = {k for k in stats.stats if pred(k[0], k[2])}
    total = 0.0
    for k in hits:
        cc, nc, tt, ct, callers = stats.stats[k]
        # subtract the part of ct reached from another hit
        inner = sum(v[3] for c, v in callers.items() if c in hits) if isinstance(callers, dict) else 0
        total += ct - inner
    return total


async def drive(url: str, proc, moves: int) -> tuple[float, int]:
    cost, _, query = link(0)
    s = Session(url)
    await s.open(query)
    for m in range(1, 11):
        await s.set_slider("s:eligible_cost", cost + 1_000 * m)
    proc.send_signal(signal.SIGUSR1)
    await asyncio.sleep(0.2)
    c0 = cpu_seconds(proc.pid)
    for m in range(11, 11 + moves):
        await s.set_slider("s:eligible_cost", cost + 1_000 * m)
    c1 = cpu_seconds(proc.pid)
    proc.send_signal(signal.SIGUSR2)
    await s.close()
    return (c1 - c0) / moves * 1000, moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--script", default="dashboard.py")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    print(__doc__.split("\n\n")[2].strip())
    out = Path(tempfile.mkdtemp()) / "server.prof"
    port = free_port()
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    log = open(ROOT / "test-artifacts" / f"server-{port}.log", "w")
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "_profiled_server.py"), args.script,
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
        per_move, n = asyncio.run(drive(url, proc, args.moves))
        for _ in range(100):
            if out.exists() and Path(str(out) + ".threads").exists():
                break
            time.sleep(0.2)
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
    stats = pstats.Stats(str(out))
    idle = sum(v[2] for k, v in stats.stats.items() if k[2] in ("<method 'poll' of 'select.epoll' objects>",
                                                                  "<method 'acquire' of '_thread.lock' objects>",
                                                                  "<built-in method time.sleep>"))
    busy = stats.total_tt - idle
    print(f"\n{args.script}: {n} moves; {per_move:.1f} ms of server CPU per move under the profiler "
          f"({busy / n * 1000:.1f} ms profiled, idle waits taken out)")
    print("\nby phase (share of profiled busy time; ms per move under the profiler):")
    for name, pred in PHASES:
        t = cum(stats, pred)
        print(f"  {name:58s} {100 * t / busy:5.1f}%  {t / n * 1000:6.2f} ms")
    print("\nby element (st.* call, cumulative, incl. its widget registration and enqueue):")
    rows = []
    for el in ELEMENTS:
        t = cum(stats, lambda f, nm, el=el: nm == el and "streamlit" in f and "elements" in f or
                nm == el and f.endswith("delta_generator.py"))
        calls = sum(v[1] for k, v in stats.stats.items() if k[2] == el and "streamlit" in k[0])
        if t:
            rows.append((t, el, calls))
    for t, el, calls in sorted(rows, reverse=True):
        print(f"  st.{el:20s} {calls / n:5.1f} calls/move  {100 * t / busy:5.1f}%  {t / n * 1000:6.2f} ms")
    print(f"\ntop {args.top} functions by cumulative time:")
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
