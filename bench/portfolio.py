"""Portfolio benchmark: 10,000 applications scored and allocated, as a ratio to the bare
batch evaluation of the same rows, both measured in this run. Goal: at most 3x.

    python -m bench.portfolio [--rows N] [--repeat R]
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np


from bench.batch import make_csv
from core.law.batch import evaluate_parsed, parse_frame, read_file
from core.law.portfolio import run

ROOT = Path(__file__).resolve().parents[1]
GOAL = 3   # scoring, ranking and allocating may cost at most twice the evaluation on top of it


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "apps.csv"
        make_csv(path, args.rows)
        df = read_file(path)
    rng = np.random.default_rng(3)
    df["senior_density"] = rng.integers(10, 3000, len(df)).astype(str)
    df["distance_to_center_miles"] = rng.uniform(0, 40, len(df)).round(1).astype(str)
    df["previously_funded"] = rng.choice(["yes", "no"], len(df))
    bare, full = [], []
    for _ in range(args.repeat):  # interleaved, so drift hits both alike
        t = time.perf_counter()
        evaluate_parsed(parse_frame(df)[0])
        bare.append(time.perf_counter() - t)
        t = time.perf_counter()
        run(df, 1_000_000_000, "whole")
        full.append(time.perf_counter() - t)
    b, f = statistics.median(bare), statistics.median(full)
    print(f"rows: {args.rows:,}")
    print(f"bare batch evaluation:      median {b * 1000:.1f} ms")
    print(f"score + rank + allocate:    median {f * 1000:.1f} ms")
    print(f"ratio (portfolio / batch): {f / b:.2f}x  (goal: at most {GOAL:g}x)")


if __name__ == "__main__":
    main()
