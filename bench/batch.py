"""Batch engine benchmark: `python -m core batch` on 200,000 random applications, as a
ratio to a bare pandas read_csv + to_csv of the same file measured in the same run, then
every row of the batch's output checked against the single evaluation.

    python -m bench.batch [--rows N] [--repeat R] [--check N] [--ruleset ID] [--as-of DAY] [--reading ID=ALT]

Prints the ratio of medians (goal: at most 2x, issue 53), then compares each row's award,
binding limits, route, award without the Board's exception, local shortfall and funding gap
with `core.law.award.evaluate` of the same row under the same ruleset and readings (all rows
by default; `--check N` the first N, `--check 0` none). Exit status 1 if any row differs.
"""
from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core.law.application import Application
from core.law.award import evaluate
from core.law.money import plain
from core.law.readings import parse as parse_readings
from harness.applications import make_csv

ROOT = Path(__file__).resolve().parents[1]
GOAL = 2.0


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, check=False, cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 1):   # 1: some rows bad, by design of the sample; 2: nothing was done
        sys.exit(f"{' '.join(cmd[:4])} failed: {done.stderr.strip()}")
    return time.perf_counter() - start


def law(args):
    """The ruleset and readings the batch was run under, as `python -m core batch` reads its options."""
    from core.cli.common import law_of
    return law_of(args), parse_readings(args.reading)


def check_rows(src: Path, out: Path, rs, readings, limit: int | None) -> tuple[int, list[str]]:
    """-> (rows compared, the first differences): the batch's output against one evaluation per row."""
    differ, seen = [], 0
    with open(src, newline="", encoding="utf-8") as fin, open(out, newline="", encoding="utf-8") as fout:
        for seen, (row, got) in enumerate(zip(csv.DictReader(fin), csv.DictReader(fout)), start=1):
            if limit is not None and seen > limit:
                return seen - 1, differ
            if got["error"]:
                differ.append(f"row {seen}: refused ({got['error']})")
                continue
            a = evaluate(Application.from_dict(row, unknown="ignore"), rs, readings)
            want = (plain(a.amount), ";".join(a.binding), a.route, plain(a.routes["standard"].award),
                    plain(a.local_shortfall), plain(a.funding_gap))
            have = tuple(got[c] for c in ("award", "binding", "route", "standard_award", "local_shortfall",
                                          "funding_gap"))
            if have != want:
                differ.append(f"row {seen}: batch {have}, evaluate {want}")
            if len(differ) >= 10:
                break
    return seen, differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--check", type=int, default=None, metavar="N",
                    help="compare the first N rows with the single evaluation (default: every row)")
    ap.add_argument("--ruleset", default="regulation")
    ap.add_argument("--as-of", dest="as_of", default=None, metavar="YYYY-MM-DD")
    ap.add_argument("--reading", action="append", default=[], metavar="ID=ALT")
    args = ap.parse_args()
    options = ["--ruleset", args.ruleset, *(["--as-of", args.as_of] if args.as_of else []),
               *[f"--reading={r}" for r in args.reading]]
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "apps.csv", Path(tmp) / "out.csv"
        make_csv(src, args.rows)
        bare = [sys.executable, "-c", f"import pandas as pd; pd.read_csv({str(src)!r}).to_csv({str(out)!r}, index=False)"]
        ours = [sys.executable, "-m", "core", "batch", str(src), "-o", str(out), "--force", *options]
        bare_t, ours_t = [], []
        for _ in range(args.repeat):  # interleaved, so drift hits both alike
            bare_t.append(timed(bare))
            ours_t.append(timed(ours))   # the last run's output is the one checked below
        b, o = statistics.median(bare_t), statistics.median(ours_t)
        print(f"rows: {args.rows:,}   ruleset: {args.ruleset}   readings: {', '.join(args.reading) or 'default'}")
        print(f"bare pandas read_csv + to_csv: median {b:.2f} s  ({', '.join(f'{t:.2f}' for t in bare_t)})")
        print(f"python -m core batch:          median {o:.2f} s  ({', '.join(f'{t:.2f}' for t in ours_t)})")
        print(f"ratio (batch / bare): {o / b:.2f}x  (goal: at most {GOAL:g}x)")
        if args.check == 0:
            return
        rs, readings = law(args)
        start = time.perf_counter()
        seen, differ = check_rows(src, out, rs, readings, args.check)
        per = (time.perf_counter() - start) / max(seen, 1) * 1e6
        print(f"rows checked against the single evaluation (award, binding limits, route, standard award, "
              f"local shortfall, funding gap): {seen:,}, differing: {len(differ)}"
              f"{'+' if len(differ) >= 10 else ''}  ({per:.0f} µs a row: parse and evaluate, with the words)")
        for line in differ:
            print("  " + line)
        if differ:
            sys.exit(1)


if __name__ == "__main__":
    main()
