"""Differential check: the batch engine against the one-application engine, row by row, on
random applications (the same generator as bench/batch.py), under the default readings and
under each of the 16 combinations of readings.

    python bench/differential.py [--rows 200000] [--rows-per-reading 10000]

Prints the number of rows compared and of disagreements (award, binding, route, local
shortfall, funding gap) for each set of readings; exit status 1 if any row disagrees.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.batch import make_csv  # noqa: E402
from core.law.application import Application  # noqa: E402
from core.law.award import evaluate  # noqa: E402
from core.law.batch import evaluate_parsed, parse_frame, read_csv  # noqa: E402
from core.law.readings import DEFAULT, every  # noqa: E402
from core.law.rulesets import available, load  # noqa: E402


def compare(df, rs, rd) -> tuple[int, int]:
    values, errors = parse_frame(df)
    out = evaluate_parsed(values, rs, rd)
    bad = 0
    n = 0
    records = df.to_dict("records")
    for i, row in enumerate(records):
        if errors[i]:
            continue
        n += 1
        a = evaluate(Application.from_dict({k: v for k, v in row.items() if k != "name"}), rs, rd)
        got = out.iloc[i]
        if (int(got.award), got.binding, got.route, int(got.local_shortfall), int(got.funding_gap)) != \
                (a.amount, ";".join(a.binding), a.route, a.local_shortfall, a.funding_gap):
            bad += 1
            if bad <= 3:
                print(f"  disagreement at row {i}: batch {got.to_dict()} vs evaluate {a.amount} {a.binding} {a.route}")
    return n, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--rows-per-reading", type=int, default=10_000)
    args = ap.parse_args()
    total_bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "apps.csv"
        make_csv(path, args.rows, seed=11)
        df = read_csv(path)
        for rid in available():
            n, bad = compare(df, load(rid), DEFAULT)
            print(f"{rid}, default readings: {n:,} rows, {bad} disagreements")
            total_bad += bad
        part = df.iloc[:args.rows_per_reading]
        for rd in every()[1:]:
            n, bad = compare(part, load(), rd)
            print(f"regulation, {rd.describe()}: {n:,} rows, {bad} disagreements")
            total_bad += bad
    print("all agree" if not total_bad else f"{total_bad} disagreements")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
