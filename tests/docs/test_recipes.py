"""docs/architecture.md's recipes, followed on a copy of the tree (issues 37 and 50): a throw-away
cap ("an equipment-only grant may not exceed $100,000", its number "none" in the statute and in
saved rulesets) and a throw-away money input (in-kind contributions, counting toward the local
match), each made with the edits its recipe names (tests/support/recipe.py). Then, on the copy:

- each recipe touched at most four files, and no golden file changed;
- the new cap and input compute as the law says, on the award, the words and the batch alike;
- the default test command (`python -m pytest`, the pages' tests included) passes;
- a library, an export and a report made before the change open after it, and the library the
  new code wrote still opens with the code before it (a rollback).

If the code and a recipe part, the failure names the production file the recipe forgot (the last
line of the code in each failing test's traceback). One copy holds both recipes and the default
tier runs once for the two: it is minutes of two cores."""
from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.recipe import (CAP_CENTS, CAP_FILES, CAP_ID, CAP_PARAMETER, INPUT_FILES, MONEY, MONEY_FUNDS,
                                  RELEASE_LIBRARY, Edits, add_a_cap, add_an_input, copy_tree, failures, run_core,
                                  run_python, run_tests)

pytestmark = pytest.mark.slow   # minutes: the whole suite's tier (tests/conftest.py)

# Each scenario of a library, as the code of the tree it runs in reads it: its name, award,
# application, and the numbers its saved ruleset lacked and read from elsewhere.
LIBRARY = """
import json, sys
from core.store.repository import ScenarioStore
out = []
for sc in ScenarioStore(sys.argv[1]).list():
    rs = sc.saved_ruleset()
    out.append({"name": sc.name, "award": sc.award().amount, "application": sc.application.to_dict(),
                "project_type": sc.application.project_type,
                "filled": [p.name for p in rs.parameters.values() if getattr(p, "filled", False)]})
print(json.dumps(out))
"""

# Saved before the change, beside the first release's scenarios: an equipment grant the new cap
# holds down, one it does not, and one under a shipped variant.
SAVED = [
    {"name": "Recipe equipment", "project_type": "equipment", "eligible_cost": "2000000", "local_contribution": "1000000"},
    {"name": "Recipe small equipment", "project_type": "equipment", "eligible_cost": "150000",
     "local_contribution": "75000"},
    {"name": "Recipe renovation", "project_type": "renovation", "eligible_cost": "1000000",
     "local_contribution": "300000"},
    {"name": "Recipe variant", "project_type": "conversion", "eligible_cost": "3000000", "local_contribution": "1500000",
     "ruleset": "cap-800k"},
]


@dataclass
class House:
    root: Path          # the copy, both recipes followed
    work: Path          # what was made before the change: library.db, export.json, report.html
    before: list        # the library as the code before the change read it
    cap: Edits
    money: Edits
    goldens: dict       # tests/golden's files before the change, by name


def _library(root: Path, db: Path) -> list[dict]:
    r = run_python(root, LIBRARY, f"sqlite:///{db}")
    assert r.returncode == 0, f"the library {db.name} does not open:\n{r.stderr[-3000:]}"
    return json.loads(r.stdout)


def _fresh(db: Path, name: str) -> Path:
    """A copy of a library file (opening one may upgrade it: each reader its own)."""
    dest = db.with_name(name)
    shutil.copy2(db, dest)
    return dest


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> House:
    base = tmp_path_factory.mktemp("recipes")
    root, work = copy_tree(base / "tree"), base / "work"
    work.mkdir()
    # Before the change, with the copy's code as it is: a library, an export of it, a report of it.
    db = work / "library.db"
    shutil.copy2(root / RELEASE_LIBRARY, db)
    (work / "saved.json").write_text(json.dumps(SAVED), encoding="utf-8")
    for args in (("scenarios", "import", str(work / "saved.json")),
                 ("scenarios", "export", "-o", str(work / "export.json")),
                 ("report", str(work / "export.json"), "-o", str(work / "report.html"))):
        r = run_core(root, *args, db=db)
        assert r.returncode == 0, (args, r.stderr[-2000:])
    before = _library(root, _fresh(db, "before.db"))
    goldens = {p.name: p.read_bytes() for p in (root / "tests" / "golden").glob("*.json")}
    cap, money = Edits(root), Edits(root)
    add_a_cap(cap)
    add_an_input(money)
    return House(root, work, before, cap, money, goldens)


def test_a_new_cap_is_the_four_files_the_recipe_names(house):
    # beside them, only the case whose award the new law changes (an equipment grant's maximum)
    law_changed = house.cap.touched - CAP_FILES
    assert law_changed <= {"tests/cases/program_max.csv"}, f"the recipe forgot: {sorted(law_changed)}"
    assert house.cap.touched - law_changed == CAP_FILES and len(CAP_FILES) <= 4
    assert not house.cap.problems, house.cap.problems


def test_a_new_money_input_is_at_most_four_files(house):
    assert house.money.touched == INPUT_FILES and len(INPUT_FILES) <= 4, sorted(house.money.touched)
    # the local match funds stated once in the law, where the recipe adds the input
    assert not house.money.problems, "\n".join(house.money.problems)


def test_the_new_cap_and_input_compute_on_every_engine(house):
    r = run_python(house.root, (
        "import json\nfrom core.law.application import Application\nfrom core.law.award import evaluate\n"
        "from core.law.batch import evaluate_parsed, frame_of\nfrom core.law.readings import parse\n"
        "from core.law.rulesets import load\n"
        "eq = Application.from_dict({'project_type': 'equipment', 'eligible_cost': 2_000_000, 'local_contribution': 1_000_000})\n"
        f"app = Application.from_dict({{'project_type': 'renovation', 'eligible_cost': 1_000_000, "
        f"'local_contribution': 300_000, '{MONEY}': 200_000}})\n"
        "d, row = evaluate(app).to_dict(), evaluate_parsed(frame_of([app])).iloc[0]\n"
        "strict = evaluate(app, None, parse(['local_match_effect=condition']))\n"
        "print(json.dumps({'cap': [evaluate(eq).amount, list(evaluate(eq).binding)],\n"
        "    'statute': list(evaluate(eq, load('statute')).binding), 'variant': evaluate(eq, load('cap-800k')).amount,\n"
        "    'award': d['award'], 'gap': d['funding_gap'], 'short': d['local_shortfall'],\n"
        "    'match': [c['status'] for c in d['checks'] if c['id'] == 'local_match'],\n"
        f"    'plan': d['funding'].get('{MONEY_FUNDS}'), 'batch': [int(row.award), int(row.funding_gap), int(row.local_shortfall)],\n"
        "    'condition': strict.amount}))"))
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout)
    # $2,000,000 of equipment: the new cap, $100,000; under the statute (its number "none") no such
    # cap; a variant of the regulation inherits it
    assert got["cap"] == [CAP_CENTS, [CAP_ID]] and CAP_ID not in got["statute"] and got["variant"] == CAP_CENTS
    # $1,000,000 of renovation, $300,000 local and $200,000 in kind: the 50% match met, nothing lacking,
    # on the award, its checks and words, the batch, and the match as a condition alike
    assert (got["award"], got["gap"], got["short"], got["match"], got["plan"]) == \
        ("500000.00", "0.00", "0.00", ["pass"], "200000.00")
    assert got["batch"] == [50_000_000, 0, 0] and got["condition"] == 50_000_000


@pytest.fixture(scope="module")
def default_run(house):
    """The default test command in the copy: `python -m pytest`, as the README says."""
    return run_tests(house.root, "-v")


def test_the_default_test_command_passes_after_both_recipes(default_run):
    out = default_run.stdout + default_run.stderr
    failed = failures(out)
    said = "\n".join(f"{test}: in {where or 'the tests'}: {error}" for test, where, error in failed)
    # each failure as it happened (all there is of a run that was ended), and the summary's
    summary = "\n".join(dict.fromkeys(line.split("] ", 1)[-1] for line in out.splitlines()
                                      if re.search(r"\b(FAILED|ERROR)\b", line) and "::" in line))
    assert default_run.returncode == 0, f"the recipe forgot (the file each failure ends in):\n{said}\n\n{summary}" \
        f"\n{out[-1500:] if not failed else ''}"


def test_no_golden_file_changed(house, default_run):
    now = {p.name: p.read_bytes() for p in (house.root / "tests" / "golden").glob("*.json")}
    assert now == house.goldens, sorted(n for n in now.keys() | house.goldens.keys() if now.get(n) != house.goldens.get(n))
    golden_failures = [f for f in failures(default_run.stdout) if "golden" in f[0]]
    assert not golden_failures, golden_failures


def test_work_saved_before_opens_after(house):
    after = _library(house.root, _fresh(house.work / "library.db", "after.db"))
    assert sorted(s["name"] for s in after) == sorted(s["name"] for s in house.before) and len(after) > len(SAVED)
    for old, new in zip(sorted(house.before, key=lambda s: s["name"]), sorted(after, key=lambda s: s["name"])):
        assert {k: v for k, v in new["application"].items() if k in old["application"]} == old["application"]
        assert {k: v for k, v in new["application"].items() if k not in old["application"]} in ({}, {MONEY: "0.00"})
        if new["project_type"] != "equipment":
            assert new["award"] == old["award"], new["name"]
        elif new["award"] != old["award"]:   # the new cap, and the scenario says where its number came from
            assert new["award"] == CAP_CENTS and CAP_PARAMETER in new["filled"], new
    # the export made before imports into a library of the new code, whole
    db = house.work / "imported.db"
    r = run_core(house.root, "scenarios", "import", str(house.work / "export.json"), db=db)
    assert r.returncode == 0, r.stderr[-2000:]
    assert sorted(s["name"] for s in _library(house.root, db)) == sorted(s["name"] for s in house.before)
    # the report made before is made again from the same export, and says the same awards
    r = run_core(house.root, "report", str(house.work / "export.json"), "-o", str(house.work / "again.html"))
    assert r.returncode == 0, r.stderr[-2000:]
    then, now = ((house.work / n).read_text(encoding="utf-8") for n in ("report.html", "again.html"))
    for s in house.before:
        if s["project_type"] != "equipment":
            words = f"${s['award'] // 100:,}" + (f".{s['award'] % 100:02d}" if s["award"] % 100 else "")
            assert words in then and words in now, (s["name"], words)


def test_the_code_before_reads_the_library_the_new_code_wrote(house):
    """A rollback: a scenario saved with the new input, then the library opened by the code before."""
    db = _fresh(house.work / "library.db", "rollback.db")
    saved = house.work / "new.json"
    saved.write_text(json.dumps([{"name": "Recipe in kind", "project_type": "renovation", "eligible_cost": "1000000",
                                  "local_contribution": "300000", MONEY: "200000"}]), encoding="utf-8")
    r = run_core(house.root, "scenarios", "import", str(saved), db=db)
    assert r.returncode == 0, r.stderr[-2000:]
    names = [s["name"] for s in _library(ROOT, db)]   # this checkout's code: the release before the change
    assert sorted(names) == sorted([s["name"] for s in house.before] + ["Recipe in kind"])
