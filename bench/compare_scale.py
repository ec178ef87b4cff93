"""Server time of one view of the Compare page with 10 and with 10,000 scenarios in the
library, and their ratio (issue 19: a page's cost must stay flat as the library grows; goal: at most 1.5x).

Each library is a fresh SQLite file filled through the store (illustrative scenarios,
fictional numbers). The page runs in Streamlit's AppTest, in this process: the CPU time of
the process over --views reruns of the Compare page is the server's work per view
(script, queries, awards, charts; not the browser's drawing). Noisy while other work
shares the machine: compare the ratio, not the milliseconds.

    python -m bench.compare_scale [--views 10] [--sizes 10,10000]
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 1.5   # a view of 10,000 scenarios at most half as dear again as a view of 10 (issue 19)


def fill(url: str, n: int) -> None:
    from core.law.application import Application
    from core.law.rulesets import load
    from core.store.model import Scenario, now
    from core.store.repository import ScenarioStore
    rs = load()
    data, stamp = rs.to_data(), now()
    items = [Scenario(f"Illustrative scenario {i:05d}",
                      Application.from_dict({"project_type": "renovation", "eligible_cost": 500_000 + 137 * i,
                                             "local_contribution": 200_000 + 61 * i}),
                      rs.id, rs.version, data, "Illustrative, fictional numbers.", stamp, stamp) for i in range(n)]
    store = ScenarioStore(url)
    store.import_scenarios(items)
    store.dispose()


def view_cost(url: str, views: int) -> tuple[float, float]:
    """(median CPU ms, median wall ms) of one rerun of the Compare page."""
    from streamlit.testing.v1 import AppTest
    os.environ["SCENARIO_DB_URL"] = url
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=600)
    at.run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception, at.exception
    for _ in range(3):   # warm: imports, caches, the store's engine, Plotly's first figures
        at.run()
    cpu, wall = [], []
    for _ in range(views):
        c0, w0 = time.process_time(), time.perf_counter()
        at.run()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
        assert not at.exception, at.exception
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--views", type=int, default=10)
    ap.add_argument("--sizes", default="10,10000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            url = f"sqlite:///{Path(tmp) / f'lib{n}.db'}"
            t0 = time.perf_counter()
            fill(url, n)
            print(f"library of {n:,} scenarios filled in {time.perf_counter() - t0:.1f} s", flush=True)
            results[n] = view_cost(url, args.views)
            print(f"{n:>6,} scenarios: Compare page server time per view: CPU {results[n][0]:.0f} ms "
                  f"(wall {results[n][1]:.0f} ms), median of {args.views}", flush=True)
    small, large = results[sizes[0]], results[sizes[-1]]
    print(f"ratio {sizes[-1]:,} / {sizes[0]:,}: CPU x{large[0] / small[0]:.2f}, wall x{large[1] / small[1]:.2f}  "
          f"(goal: at most {GOAL:g}x: flat, whatever the library's size)")


if __name__ == "__main__":
    main()
