"""Streamlit's own floor under issue 17's goals: what each element a rerun sends costs, on the
server and in the browser, measured on the bare one-slider app itself.

    python bench/element_floor.py [--elements N] [--moves 150] [--presses 24] [--outside]

Measures: the bare one-slider app (bench/bare_slider.py) as it is, and the same app drawing N
more Markdown lines on each run (BENCH_EXTRA_ELEMENTS=N), as a page re-sends its elements on
every move. N defaults to the number of elements and blocks the calculator sends per slider
move, counted over Streamlit's protocol in this run. Prints, for both: server CPU per move
(as bench/rerun_cost.py) and keypress to award on screen in Chromium (as bench/ui_latency.py);
then the cost of one element and the ratio that N plain elements alone give against the bare
app. Where that ratio is above a goal, no page re-sending N elements can meet it, whatever
its own code costs. --outside puts the slider and award in a fragment and the N lines
outside it, as the calculator's sidebar, title and save box are: what elements a move does
not resend still cost. Goals (issue 17): server 3x, browser 1.5x.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import BARE, link  # noqa: E402
from bench.rerun_cost import measure as server_cpu  # noqa: E402
from bench.stclient import Session  # noqa: E402
from bench.ui_latency import measure as keypress  # noqa: E402
from tests.serve import browser, streamlit_server  # noqa: E402


async def _calculator_deltas(url: str) -> int:
    cost, _, query = link(0)
    s = Session(url)
    try:
        await s.open(query)
        counts = [(await s.set_slider("s:eligible_cost", cost + 1_000 * m)).deltas for m in range(1, 6)]
        return statistics.median(counts)
    finally:
        await s.close()


def calculator_deltas() -> int:
    """Elements and blocks one slider move of the calculator sends (median of five moves)."""
    with streamlit_server() as url:
        return int(asyncio.run(_calculator_deltas(url)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", type=int, default=None,
                    help="extra elements per run (default: as many as the calculator sends per move)")
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--presses", type=int, default=24)
    ap.add_argument("--outside", action="store_true", help="the slider in a fragment, the extra elements outside it")
    args = ap.parse_args()
    for name in ("moves", "presses"):
        if getattr(args, name) < 3:
            sys.exit(f"--{name}: {getattr(args, name)} must be at least 3")
    if args.elements is not None and not 1 <= args.elements <= 500:
        sys.exit(f"--elements: {args.elements} must be between 1 and 500")
    if not Path("/proc/self/stat").exists():
        sys.exit("this benchmark reads the server's CPU time from /proc: run it on Linux")
    print("Measures: Streamlit's own cost per element a rerun sends, on the bare one-slider app with N more")
    print("Markdown lines. Goals (issue 17): server CPU at most 3x the bare app, keypress to award 1.5x.", flush=True)
    n = args.elements
    if n is None:
        n = calculator_deltas()
        print(f"the calculator sends {n} elements and blocks per slider move (counted over the protocol)")
    base = {"BENCH_OUTSIDE": "1"} if args.outside else {}
    extra = {**base, "BENCH_EXTRA_ELEMENTS": str(n)}
    where = "outside the fragment" if args.outside else "sent with every move"
    # Server: alternate the two apps, twice, so drift hits both alike; keep each one's lower figure.
    cpu_bare, cpu_more = [], []
    for _ in range(2):
        cpu_bare.append(server_cpu(BARE, args.moves, base)[0])
        cpu_more.append(server_cpu(BARE, args.moves, extra)[0])
    sb, sm = min(cpu_bare), min(cpu_more)
    with streamlit_server(BARE, env=base) as bare_url, streamlit_server(BARE, env=extra) as more_url, browser() as b:
        bare, more = [], []
        for _ in range(3):
            bare += keypress(b, bare_url + "/?bench=bare", args.presses // 3)
            more += keypress(b, more_url + "/?bench=bare", args.presses // 3)
    kb, km = (statistics.median(t[0] for t in times) for times in (bare, more))
    print(f"server CPU per move: bare app {sb:.2f} ms, with {n} more elements {where} {sm:.2f} ms "
          f"(runs: {', '.join(f'{x:.2f}' for x in cpu_bare)} / {', '.join(f'{x:.2f}' for x in cpu_more)})")
    print(f"keypress to award (median of {len(bare)}): bare app {kb:.0f} ms, with {n} more elements {where} "
          f"{km:.0f} ms")
    print(f"one element costs: {(sm - sb) / n * 1000:.0f} us of server CPU, {(km - kb) / n:.2f} ms in the browser")
    print(f"floor: {n} plain elements {where}, server {sm / sb:.2f}x the bare app (goal 3x); "
          f"browser {km / kb:.2f}x (goal 1.5x)")


if __name__ == "__main__":
    main()
