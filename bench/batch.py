"""Batch engine benchmark: `python -m core batch` on 200,000 random applications, as a
ratio to a bare pandas read_csv + to_csv of the same file measured in the same run.

    python -m bench.batch [--rows N] [--repeat R]

Prints the ratio of medians (goal: at most 3x) and microseconds per scalar evaluation.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path



from core.law.application import Application
from core.law.award import evaluate
from harness.applications import make_csv

ROOT = Path(__file__).resolve().parents[1]


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, check=False, cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 1):   # 1: some rows bad, by design of the sample; 2: nothing was done
        sys.exit(f"{' '.join(cmd[:4])} failed: {done.stderr.strip()}")
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "apps.csv", Path(tmp) / "out.csv"
        make_csv(src, args.rows)
        bare = [sys.executable, "-c", f"import pandas as pd; pd.read_csv({str(src)!r}).to_csv({str(out)!r}, index=False)"]
        ours = [sys.executable, "-m", "core", "batch", str(src), "-o", str(out), "--force"]  # bare wrote it first
        bare_t, ours_t = [], []
        for _ in range(args.repeat):  # interleaved, so drift hits both alike
            bare_t.append(timed(bare))
            ours_t.append(timed(ours))
        b, o = statistics.median(bare_t), statistics.median(ours_t)
        print(f"rows: {args.rows:,}")
        print(f"bare pandas read_csv + to_csv: median {b:.2f} s")
        print(f"python -m core batch:          median {o:.2f} s")
        print(f"ratio (batch / bare): {o / b:.2f}x  (goal: at most 3x)")

    app = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "federal_grant": 100_000,
                                 "local_contribution": 300_000, "prior_program_funds": 100_000,
                                 "bpw_exception": {"local_property_value": 700_000}})
    n = 5_000
    start = time.perf_counter()
    for _ in range(n):
        evaluate(app)
    per = (time.perf_counter() - start) / n * 1e6
    print(f"scalar evaluate (with explanation and checks): {per:.1f} µs per application")


if __name__ == "__main__":
    main()
