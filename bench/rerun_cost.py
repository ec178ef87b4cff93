"""Server CPU per slider move: the dashboard's calculator against a bare one-slider app and
the peer (bench/peer_app.py: sliders, a metric and a Plotly chart over the same law), all
started in this run. One session moves the cost slider --moves times, each move
waiting for the last to finish; the server process's CPU time (from /proc, so Linux only)
is divided by the moves. This is what limits how many users one server carries
(bench/load.py): every session's moves share one Python process.

The two apps are measured in turn, --rounds times, and each app's lowest figure is kept: on
a shared machine a neighbour's load only ever adds to a process's CPU time (a virtual CPU
taken away mid-run, caches emptied), so the lowest is the nearest to the app's own cost, and
taking turns lets drift hit every app alike. Every round's figures are printed too.

    python -m bench.rerun_cost [--moves 200] [--rounds 2] [--steps 10]

Since issue 39 the calculator's money sliders draw the award in the browser while they move
and send the amount once the hand stops (ui/components/live_award.py): a held key or a drag of
`--steps` steps costs one run, where the bare app runs once per step. Both figures are printed:
the CPU of one run (the calculator's run against the bare app's), and the CPU per step of a
move of `--steps` steps (the calculator's one run shared by the steps, against the bare app's
run per step), which is what a slider move costs the server.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

from bench.load import BARE, PEER, link
from bench.servers import cpu_seconds
from harness.serve import streamlit_server
from harness.stclient import Session


async def moves(url: str, pid: int, n: int) -> tuple[float, float | None]:
    """(server CPU ms per move, median ms from move sent to award received; None where no award is shown)."""
    cost, _, query = link(0)
    s = Session(url)
    try:
        await s.open(query)
        for m in range(1, 11):                      # warm up: first runs import and cache
            await s.set_slider("s:eligible_cost", cost + 1_000 * m)
        c0, firsts = cpu_seconds(pid), []
        for m in range(11, 11 + n):
            run = await s.set_slider("s:eligible_cost", cost + 1_000 * m)
            if run.first is not None:
                firsts.append(run.first * 1000)
        return (cpu_seconds(pid) - c0) / n * 1000, statistics.median(firsts) if firsts else None
    finally:
        await s.close()


def measure(script: str, n: int, env: dict | None = None) -> tuple[float, float]:
    server = []
    with streamlit_server(script, env=env, on_start=server.append) as url:
        return asyncio.run(moves(url, server[0].pid, n))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2, help="turns of the two apps; each one's lowest is kept")
    ap.add_argument("--steps", type=int, default=10,
                    help="slider steps per move (a held key, a drag): the calculator runs once per move, the bare app once per step")
    args = ap.parse_args()
    if args.moves < 1:
        sys.exit(f"--moves: {args.moves} must be at least 1")
    if args.steps < 1:
        sys.exit(f"--steps: {args.steps} must be at least 1")
    if not 1 <= args.rounds <= 10:
        sys.exit(f"--rounds: {args.rounds} must be between 1 and 10")
    if not Path("/proc/self/stat").exists():
        sys.exit("this benchmark reads the server's CPU time from /proc: run it on Linux")
    print("Measures: server CPU per slider move, the calculator (dashboard.py) against a bare one-slider app and the peer.")
    print(f"Goals: per step of a {args.steps}-step move, at most 1.5x the bare app (issue 39); below the peer "
          "(issue 53).", flush=True)
    runs = {BARE: [], PEER: [], "dashboard.py": []}
    for r in range(1, args.rounds + 1):
        for script, got in runs.items():
            got.append(measure(script, args.moves))
        print(f"round {r}: server CPU per move, bare {runs[BARE][-1][0]:.1f} ms, peer {runs[PEER][-1][0]:.1f} ms, "
              f"dashboard {runs['dashboard.py'][-1][0]:.1f} ms", flush=True)
    bare, peer, dash = (min(got) for got in runs.values())   # the lowest CPU figure of each app
    print(f"moves per app: {args.moves}; each app's lowest of {args.rounds} rounds:")
    print(f"bare one-slider app: {bare[0]:.1f} ms of server CPU per move; award received after {bare[1]:.0f} ms (median)")
    print(f"peer (bench/peer_app.py): {peer[0]:.1f} ms of server CPU per move; award received after {peer[1]:.0f} ms (median)")
    print(f"dashboard calculator: {dash[0]:.1f} ms of server CPU per move; award received after {dash[1]:.0f} ms (median)")
    print(f"ratio (dashboard / bare), server CPU per run: {dash[0] / bare[0]:.2f}x (issue 17's goal: at most 3x)")
    print(f"ratio (dashboard / peer), server CPU per run: {dash[0] / peer[0]:.2f}x; per step of a {args.steps}-step "
          f"move (the peer runs on every step, as the bare app): {dash[0] / args.steps / peer[0]:.2f}x (goal, issue 53: below 1x)")
    print(f"ratio (dashboard / bare), server CPU per step of a {args.steps}-step move (one run against "
          f"{args.steps}): {dash[0] / args.steps / bare[0]:.2f}x (goal: at most 1.5x)")


if __name__ == "__main__":
    main()
