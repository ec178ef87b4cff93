"""Mutation testing of the law modules and the validators: one command, a score per module.

    python tools/mutation.py                  # fresh run (minutes), then the table and the survivors
    python tools/mutation.py --report         # the table again from the last run, no testing
    python tools/mutation.py --resume         # keep the mutants/ folder and its results; test only what is new
    python tools/mutation.py --diff           # also print each survivor's diff
    python tools/mutation.py --survivors      # after adding tests: rerun only the last run's survivors
    python tools/mutation.py --sample 30      # a fixed 30% of the mutants (the same ones every run)
    python tools/mutation.py --law            # only the law modules (issue 18's 90% goal); also --modules a,b

What is mutated and which tests run are set in pyproject.toml ([tool.mutmut]): every module of core/
except the presentation, storage and command modules listed there, against the fast core
subset of tests. mutmut copies the code into mutants/, makes one small change ("mutant") at
a time and runs the tests that reach the changed function; a mutant that no test notices
"survived". The score of a module is killed / all mutants (timeouts count as killed: the
change made the tests hang; mutants no test reaches count as survivors).

One mutmut worker by default (--workers N for more): the machine is shared. The run needs
nothing but the packages of requirements-dev.txt; it starts from an empty mutants/ folder
unless --resume is given, draws Hypothesis examples the same way every time (the "mutation"
profile of tests/conftest.py), and leaves PostgreSQL and browsers alone (TEST_POSTGRES_URL and
the REQUIRE_* variables are removed from its environment). Exit status: 0 when every module
reaches --threshold (90 by default), 1 otherwise, 2 when mutmut itself failed.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"

# mutmut's exit codes of a mutant run -> what they mean (mutmut/stats.py, 3.8.1).
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
          35: "suspicious", 36: "timeout", 37: "killed", -24: "timeout", 24: "timeout", 152: "timeout",
          255: "timeout", -11: "segfault", -9: "segfault", 2: "interrupted", None: "not checked"}
KILLED = {"killed", "timeout"}


def run_mutmut(workers: int, names: list[str] = ()) -> int:
    env = {k: v for k, v in os.environ.items()
           if k != "TEST_POSTGRES_URL" and not k.startswith("REQUIRE_")}
    env["PYTHONHASHSEED"] = "0"   # the same test order on every run
    env["HYPOTHESIS_PROFILE"] = "mutation"   # tests/conftest.py: fixed draws, fewer of them
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(workers)]
    print("$", " ".join(cmd), f"<{len(names)} mutants>" if names else "", flush=True)
    cmd += list(names)
    return subprocess.run(cmd, cwd=ROOT, env=env).returncode


def in_sample(name: str, percent: float | None) -> bool:
    """A fixed pseudo-random share of the mutants: the same names in every run and on every machine."""
    if percent is None:
        return True
    return int(hashlib.sha256(name.encode()).hexdigest()[:8], 16) % 10_000 < percent * 100


# The modules that state the law and check its inputs: the 90% goal is set on these
# (rulesets: the regulation's parameters and the policy variants built on them).
LAW_MODULES = ("caps", "engines", "rulesets", "readings", "award", "batch", "lines", "analysis", "application", "money")


def module_name(path: str) -> str:
    """core/law/award.py -> award; core/law/rulesets/__init__.py -> rulesets (the names --modules takes:
    the file's name, or its package's for an __init__.py; no two modules of core/ share one)."""
    parts = Path(path).with_suffix("").parts
    return parts[-2] if parts[-1] == "__init__" else parts[-1]


def results(percent: float | None = None, checked_only: bool = True,
            modules: set[str] | None = None) -> dict[str, dict[str, str]]:
    """module path -> {mutant name: status}, from mutmut's .meta files (mutants not yet run left out)."""
    out = {}
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        data = json.loads(meta.read_text())
        module = str(meta.relative_to(MUTANTS))[: -len(".meta")]
        if modules is not None and module_name(module) not in modules:
            continue
        out[module] = {name: STATUS.get(code, "suspicious")
                       for name, code in data.get("exit_code_by_key", {}).items()
                       if in_sample(name, percent) and not (checked_only and code is None)}
    return out


def exit_codes() -> dict[Path, dict]:
    """Every .meta file's results as they are now."""
    return {meta: json.loads(meta.read_text()).get("exit_code_by_key", {}) for meta in MUTANTS.rglob("*.py.meta")}


def keep_earlier_results(before: dict[Path, dict], rerun: set[str]) -> None:
    """mutmut forgets every result when the tests change; after rerunning the survivors, put
    back the earlier results of the mutants not rerun (a mutant killed stays killed when
    tests are only added, and core/ must not have changed), so the table covers whole modules."""
    for meta, codes in before.items():
        if not meta.exists():
            continue
        data = json.loads(meta.read_text())
        now = data.setdefault("exit_code_by_key", {})
        for name, code in codes.items():
            if name not in rerun and now.get(name) is None and code is not None:
                now[name] = code
        meta.write_text(json.dumps(data, indent=4))


def generate() -> None:
    """Make the mutants and the test statistics without testing any mutant (for --sample)."""
    env = {k: v for k, v in os.environ.items() if k != "TEST_POSTGRES_URL" and not k.startswith("REQUIRE_")}
    env["PYTHONHASHSEED"], env["HYPOTHESIS_PROFILE"] = "0", "mutation"
    # A name that matches no mutant: mutmut generates everything, collects which tests reach
    # which function, then stops at its filter ("nothing matches") before testing any mutant.
    subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", "1", "no-such-mutant"],
                   cwd=ROOT, env=env, capture_output=True, text=True)


def table(res: dict[str, dict[str, str]]) -> list[dict]:
    rows = []
    for module, statuses in res.items():
        if not statuses:
            continue
        counts = Counter(statuses.values())
        total = len(statuses)
        killed = sum(counts[s] for s in KILLED)
        rows.append({"module": module, "mutants": total, "killed": killed,
                     "survived": counts["survived"], "no_tests": counts["no tests"],
                     "other": total - killed - counts["survived"] - counts["no tests"],
                     "score": 100.0 * killed / total})
    if rows:
        total = sum(r["mutants"] for r in rows)
        killed = sum(r["killed"] for r in rows)
        rows.append({"module": "all", "mutants": total, "killed": killed,
                     "survived": sum(r["survived"] for r in rows), "no_tests": sum(r["no_tests"] for r in rows),
                     "other": sum(r["other"] for r in rows), "score": 100.0 * killed / total})
    return rows


def print_table(rows: list[dict]) -> None:
    print(f"\n{'module':32} {'mutants':>8} {'killed':>7} {'survived':>9} {'no tests':>9} {'other':>6} {'score':>7}")
    for r in rows:
        print(f"{r['module']:32} {r['mutants']:>8} {r['killed']:>7} {r['survived']:>9} {r['no_tests']:>9} "
              f"{r['other']:>6} {r['score']:>6.1f}%")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--resume", action="store_true", help="keep mutants/ and the results of the last run")
    p.add_argument("--report", action="store_true", help="only print the results of the last run")
    p.add_argument("--survivors", action="store_true",
                   help="rerun only the mutants the last run did not kill (new tests are picked up; the code "
                        "under core/ must not have changed since that run); the others keep their results")
    p.add_argument("--diff", action="store_true", help="print the diff of every survivor")
    p.add_argument("--workers", type=int, default=1, help="mutmut workers (default 1: the machine is shared)")
    p.add_argument("--threshold", type=float, default=90.0, help="least score per module, in percent")
    p.add_argument("--json", type=Path, help="also write the table and the survivors to this file")
    p.add_argument("--sample", type=float, metavar="PERCENT",
                   help="test only this share of the mutants, always the same ones (a hash of each name); "
                        "the score is then an estimate over that sample")
    p.add_argument("--modules", metavar="A,B",
                   help="only these modules of core/ (names without .py, comma-separated)")
    p.add_argument("--law", action="store_true", help="only the law modules: " + ", ".join(LAW_MODULES))
    args = p.parse_args(argv)
    modules = set(LAW_MODULES) if args.law else None
    if args.modules:
        modules = {m.strip().removesuffix(".py") for m in args.modules.split(",") if m.strip()}
        known = {module_name(str(f.relative_to(ROOT))) for f in (ROOT / "core").rglob("*.py")}
        unknown = sorted(m for m in modules if m not in known)
        if unknown:
            p.error(f"--modules: no such module in core/: {', '.join(unknown)}")

    if (args.sample is not None or modules is not None) and not args.report and not args.survivors:
        if not args.resume and MUTANTS.exists():
            shutil.rmtree(MUTANTS)
        if not any(MUTANTS.rglob("*.py.meta")):
            generate()
        todo = [n for st in results(args.sample, checked_only=False, modules=modules).values()
                for n, s in st.items() if s == "not checked"]
        if not any(MUTANTS.rglob("*.py.meta")):
            print("mutmut made no mutants (run `python -m mutmut run` to see why)", file=sys.stderr)
            return 2
        if todo and run_mutmut(args.workers, todo) != 0:
            print("mutmut run failed", file=sys.stderr)
            return 2
    elif args.survivors:
        names = [n for st in results(modules=modules).values() for n, s in st.items() if s not in KILLED]
        if not names:
            print("No survivors to rerun.", file=sys.stderr)
        else:
            before = exit_codes()
            if run_mutmut(args.workers, names) != 0:
                print("mutmut run failed", file=sys.stderr)
                return 2
            keep_earlier_results(before, set(names))
    elif not args.report:
        if not args.resume and MUTANTS.exists():
            shutil.rmtree(MUTANTS)
        code = run_mutmut(args.workers)
        if code != 0:
            print(f"mutmut run failed (exit status {code})", file=sys.stderr)
            return 2
    res = results(args.sample, modules=modules)
    if not any(res.values()):
        print("No results: run `python tools/mutation.py` first.", file=sys.stderr)
        return 2
    rows = table(res)
    survivors = {m: sorted(n for n, s in st.items() if s not in KILLED) for m, st in res.items()}
    print_table(rows)
    for module, names in survivors.items():
        for name in names:
            print(f"  {res[module][name]:10} {name}")
            if args.diff:
                shown = subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=ROOT,
                                       capture_output=True, text=True)
                print("    " + shown.stdout.strip().replace("\n", "\n    "))
    if args.json:
        args.json.write_text(json.dumps({"modules": rows, "survivors": survivors}, indent=2) + "\n")
    low = [r["module"] for r in rows if r["module"] != "all" and r["score"] < args.threshold]
    if low:
        print(f"\nBelow {args.threshold:g}%: {', '.join(low)}")
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
