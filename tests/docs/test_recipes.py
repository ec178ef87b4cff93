"""docs/architecture.md's recipes, followed on a copy of the tree (issue 37): a throw-away cap
touches exactly the files "How to add a provision" names, a throw-away source of funds exactly
those of "How to add an input", and the law's tests pass there; the first release's library
then opens with every scenario and award it had. If the code and the recipe part, this says
which file the recipe forgot."""
from __future__ import annotations

import json
import shutil

import pytest

from tests.support import ROOT
from tests.support.recipe import (CAP_ID, CAP_PARAMETER, MONEY, Edits, add_a_cap, add_a_source_of_funds, copy_tree,
                                  run_law_tests, run_python)

pytestmark = pytest.mark.slow

# The law's tests that read the registry, the field table, the cases and saved rulesets: what a
# recipe can break (the whole of tests/law would double CI's time to check the same files again).
LAW_TESTS = ("tests/law/test_cases.py", "tests/law/test_caps.py", "tests/law/test_text_and_provisions.py",
             "tests/law/test_rulesets.py", "tests/law/test_golden.py", "tests/law/test_application.py",
             "tests/law/test_batch.py", "tests/law/test_statute.py", "tests/law/test_award.py")

# The first release's library: every scenario, its ruleset's numbers and its award, as JSON.
LIBRARY = """
import json, sys
from core.store.repository import ScenarioStore
lib = ScenarioStore("sqlite:///" + sys.argv[1] if len(sys.argv) > 1 else {url!r})
out = []
for sc in lib.list():
    rs = sc.saved_ruleset()
    out.append({{"name": sc.name, "award": sc.award().amount, "application": sc.application.to_dict(),
                "filled": [p.name for p in rs.parameters.values() if p.filled]}})
print(json.dumps(out))
"""


def _library(root, tmp_path, name: str) -> list[dict]:
    """The release library as `root`'s code reads it (a fresh copy of the file each time: opening upgrades it)."""
    db = tmp_path / f"{name}.db"
    shutil.copy2(ROOT / "tests" / "fixtures" / "library-release.db", db)
    r = run_python(root, LIBRARY.format(url=f"sqlite:///{db}"))
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def _passes(root, tests=LAW_TESTS) -> None:
    r = run_law_tests(root, *tests, timeout=900)
    out = r.stdout + r.stderr
    first = out.find("\n_____")   # the first failure's report, from its start (not Hypothesis's long tail)
    assert r.returncode == 0, "\n".join(line for line in out.splitlines() if line.startswith(("FAILED", "ERROR"))) \
        + "\n" + out[first:first + 3000]


def test_a_new_cap_touches_the_files_the_recipe_names_and_the_law_holds(tmp_path):
    root = copy_tree(tmp_path / "tree")
    edits = Edits(root)
    add_a_cap(edits)
    assert edits.touched == {"core/law/caps.py", "core/law/rulesets/regulation.toml", "core/law/provisions.toml",
                             f"tests/cases/{CAP_ID}.csv", "tests/cases/program_max.csv"}
    _passes(root)
    r = run_python(root, (
        "import json\nfrom core.law.application import Application\nfrom core.law.award import evaluate\n"
        "from core.law.rulesets import load\n"
        "a = evaluate(Application.from_dict({'project_type': 'equipment', 'eligible_cost': 2_000_000, "
        "'local_contribution': 1_000_000}), load())\n"
        f"print(json.dumps([a.amount, list(a.binding), load().largest_award('equipment'), load().number('{CAP_PARAMETER}')]))"))
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout) == [25_000_000, [CAP_ID], 25_000_000, 25_000_000]
    # the first release's library, saved long before the new number: every scenario, no award changed
    # but where the new cap holds, and the missing number read from the shipped ruleset and said
    before, after = _library(ROOT, tmp_path, "before"), _library(root, tmp_path, "after")
    assert [s["name"] for s in after] == [s["name"] for s in before] and len(before) > 0
    for old, new in zip(before, after):
        assert new["application"] == old["application"]
        if new["application"]["project_type"] != "equipment":
            assert new["award"] == old["award"], new["name"]
    assert {CAP_PARAMETER} <= {p for s in after for p in s["filled"]}


def _changes(new, old, path=""):
    """Every leaf of two JSON results that differs: (where, new, old)."""
    if isinstance(new, dict) and isinstance(old, dict):
        return [c for k in {**old, **new} for c in _changes(new.get(k), old.get(k), f"{path}.{k}")]
    if isinstance(new, list) and isinstance(old, list) and len(new) == len(old):
        return [c for i, (a, b) in enumerate(zip(new, old)) for c in _changes(a, b, f"{path}[{i}]")]
    return [] if new == old else [(path, new, old)]


def test_a_new_source_of_funds_is_the_field_table_alone(tmp_path):
    root = copy_tree(tmp_path / "tree")
    edits = Edits(root)
    add_a_source_of_funds(edits)
    assert edits.touched == {"core/law/fields.py"}
    # The golden files record whole results, so a new input is in them: regenerated (as the recipe
    # says), every difference is the new input's (its amount, its words), nothing else moved.
    r = run_law_tests(root, "tests/law/test_golden.py", env={"UPDATE_GOLDEN": "1"})
    assert r.returncode == 0, r.stdout[-3000:]
    changed = 0
    for path in sorted((ROOT / "tests" / "golden").glob("*.json")):
        for where, new, old in _changes(json.loads((root / "tests/golden" / path.name).read_text(encoding="utf-8")),
                                        json.loads(path.read_text(encoding="utf-8"))):
            changed += 1
            assert "reserve" in where + json.dumps(new), (path.name, where, new, old)
    assert changed > 0
    # the tests that pin the record's whole form (an application's to_dict, the batch's column
    # types) name a new field on purpose; every test of the computation passes as it is
    _passes(root, [*LAW_TESTS, "--deselect", "tests/law/test_application.py::test_round_trips_keep_every_field",
                   "--deselect", "tests/law/test_batch.py::test_parsed_values_keep_each_row_label_and_a_fixed_type_per_column"])
    r = run_python(root, (
        "import json\nfrom core.law.application import Application\nfrom core.law.award import evaluate\n"
        "from core.law.batch import evaluate_parsed, frame_of\n"
        f"app = Application.from_dict({{'project_type': 'renovation', 'eligible_cost': 1_000_000, "
        f"'local_contribution': 300_000, '{MONEY}': 100_000}})\n"
        "a = evaluate(app)\nrow = evaluate_parsed(frame_of([app])).iloc[0]\n"
        "print(json.dumps([a.amount, a.funding_gap, int(row.award), int(row.funding_gap)]))"))
    assert r.returncode == 0, r.stderr[-3000:]
    # $1,000,000 of work, $300,000 local, $100,000 of reserve and the award (half, $500,000): $100,000
    # still lacking on both engines, where without the reserve it would be $200,000
    assert json.loads(r.stdout) == [50_000_000, 10_000_000, 50_000_000, 10_000_000]
