"""docs/architecture.md's recipes followed on a copy of the tree (tests/docs/test_recipes.py): a
throw-away cap and a throw-away source of funds, each made with exactly the edits the recipe
names, and the law's tests run there. If the recipe and the code part, the test says which file
the recipe forgot.

The edits are written against today's files (a line to insert after, a block to copy): when a
file they anchor on changes shape, the edit says which anchor it could not find.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT

# What the law's tests read: the code, the tests and their data, the regulation's text.
COPIED = ("core", "tests", "harness", "docs", "pyproject.toml")
RELEASE_LIBRARY = "tests/fixtures/library-release.db"
SKIPPED = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc", "test-artifacts", "*.db")


def copy_tree(dest: Path) -> Path:
    """The parts of the tree the law's tests read, copied to `dest` (databases left behind but the
    first release's library, which the law's tests open)."""
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=SKIPPED)
        else:
            shutil.copy2(src, dest / name)
    shutil.copy2(ROOT / RELEASE_LIBRARY, dest / RELEASE_LIBRARY)
    return dest


class Edits:
    """The files a recipe touched, each edit made once at an anchor that must be there."""

    def __init__(self, root: Path):
        self.root = root
        self.touched: set[str] = set()

    def _text(self, path: str) -> str:
        return (self.root / path).read_text(encoding="utf-8")

    def _write(self, path: str, text: str) -> None:
        (self.root / path).write_text(text, encoding="utf-8")
        self.touched.add(path)

    def insert_after(self, path: str, anchor: str, text: str) -> None:
        """`text` after the line that starts with `anchor` (the first such line)."""
        lines = self._text(path).splitlines(keepends=True)
        at = next((i for i, line in enumerate(lines) if line.startswith(anchor)), None)
        assert at is not None, f"{path}: no line starting {anchor!r} to insert after"
        self._write(path, "".join(lines[:at + 1]) + text + "".join(lines[at + 1:]))

    def insert_before(self, path: str, anchor: str, text: str) -> None:
        """`text` before the first line that starts with `anchor`."""
        lines = self._text(path).splitlines(keepends=True)
        at = next((i for i, line in enumerate(lines) if line.startswith(anchor)), None)
        assert at is not None, f"{path}: no line starting {anchor!r} to insert before"
        self._write(path, "".join(lines[:at]) + text + "".join(lines[at:]))

    def replace(self, path: str, old: str, new: str) -> None:
        text = self._text(path)
        assert text.count(old) == 1, f"{path}: {old!r} found {text.count(old)} times, not once"
        self._write(path, text.replace(old, new))

    def append(self, path: str, text: str) -> None:
        self._write(path, self._text(path).rstrip("\n") + "\n\n" + text)

    def copy_table(self, path: str, table: str, name: str, changes: dict[str, str]) -> None:
        """A TOML file's `[table]` block copied as `[name]` at the end of the file, each of `changes`
        (old text -> new) made in the copy: the new entry has every key the old one has, in the
        file's own format."""
        text = self._text(path)
        m = re.search(rf"^\[{re.escape(table)}\]\n(.*?)(?=^\[|\Z)", text, re.S | re.M)
        assert m, f"{path}: no [{table}] block to copy"
        block = f"[{name}]\n" + m.group(1).rstrip("\n") + "\n"
        for old, new in changes.items():
            assert old in block, f"{path}: [{table}] has no {old!r}"
            block = block.replace(old, new)
        self.append(path, block)


def run_law_tests(root: Path, *paths: str, timeout: int = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """The law's tests in the copy (`paths`, tests/law when none): the in-process tests (not the
    slow subprocess ones), stopping at the first failure, with Hypothesis's fixed draws (the same
    every run: the copy has no example database)."""
    env = dict(os.environ, HYPOTHESIS_PROFILE="mutation", PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    env.pop("PYTHONPATH", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:randomly",
                           "-n", "0", "-m", "not slow", *(paths or ("tests/law",))],
                          cwd=root, env=env, capture_output=True, text=True, timeout=timeout)


def run_python(root: Path, code: str, timeout: int = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                          timeout=timeout)


# --- the throw-away cap: "Equipment grants may not exceed $250,000." --------------------------

CAP_ID, CAP_PARAMETER = "equipment_max", "equipment_cap"


def add_a_cap(e: Edits) -> None:
    """docs/architecture.md, "How to add a provision": the caps function, the ruleset file, the
    registry, one case file; and the existing case the new cap changes."""
    # 1. The caps function: computed under its sentence, with the ops arithmetic, in a route's dict.
    e.insert_before("core/law/caps.py", "    common = {", (
        f"    # {CAP_ID} (a throw-away cap). \"Equipment grants may not exceed $250,000.\"\n"
        f"    {CAP_ID} = A if rs.number(\"{CAP_PARAMETER}\") is None else ops.where(\n"
        f"        ops.is_type(x.project_type, (\"equipment\",)), rs.number(\"{CAP_PARAMETER}\"), A)\n\n"))
    e.replace("core/law/caps.py", "    common = {", f"    common = {{\"{CAP_ID}\": {CAP_ID}, ")
    # 2. The ruleset file: its number, as the capital maximum's entry is written.
    e.copy_table("core/law/rulesets/regulation.toml", "parameters.capital_cap", f"parameters.{CAP_PARAMETER}", {
        "600000.00": "250000.00", 'provision = "program_max"': f'provision = "{CAP_ID}"',
        "Most a grant for conversion, acquisition, renovation, equipment or construction may be":
        "Most a grant for capital equipment may be"})
    # 3. The registry: the provision, the cap, the number's kind and label.
    e.insert_before("core/law/provisions.toml", "[provisions.considerations]", (
        f"[provisions.{CAP_ID}]\n"
        'title = "Equipment maximum"\n'
        "sentences = []\n"
        'interpretation = "No sentence of the regulation says this: a throw-away cap, equipment grants at most $250,000."\n'
        "readings = []\n\n"))
    e.insert_before("core/law/provisions.toml", "[caps.requested_amount]", (
        f"[caps.{CAP_ID}]\n"
        'title = "Equipment maximum"\n'
        f'provision = "{CAP_ID}"\n'
        'label = "the equipment maximum"\n'
        'meaning = "the most an equipment grant may be"\n'
        'colour = "#2f4f6f"\n'
        'marker = "cross"\n'
        'cite.default = ["Equipment maximum"]\n\n'))
    # the number's kind and label, and what a ruleset that does not set it reads (the statute, a saved
    # ruleset): "none", no such provision
    e.insert_before("core/law/provisions.toml", "# --- provisions ---", (
        f"[parameters.{CAP_PARAMETER}]\n"
        'kind = "money"\n'
        'label = "Equipment maximum"\n'
        'default = "none"\n'
        'unit = "USD"\n'
        f'provision = "{CAP_ID}"\n'
        'description = "Most a grant for capital equipment may be"\n'
        'citation = "A throw-away cap: no ruleset but the regulation sets it"\n\n'))
    # 4. One case file, read by both engines.
    header = (ROOT / "tests/cases/program_max.csv").read_text(encoding="utf-8").splitlines()[0]
    e._write(f"tests/cases/{CAP_ID}.csv", header + "\n" + "\n".join((
        "equipment held to its maximum,regulation,,equipment,2000000,0,1000000,0,,no,no,0,no,no,250000.00,equipment_max,standard",
        "equipment under it,regulation,,equipment,400000,0,200000,0,,no,no,0,no,no,200000.00,cost_share;funding_need,standard",
        "not equipment,regulation,,renovation,2000000,0,1000000,0,,no,no,0,no,no,600000.00,program_max,standard",
    )) + "\n")
    # The case the new cap changes changes with it (the law changed: an equipment grant's maximum).
    e.replace("tests/cases/program_max.csv",
              "equipment too,regulation,,equipment,2000000,0,1000000,0,,no,no,0,no,no,600000.00,program_max,standard",
              "equipment too,regulation,,equipment,2000000,0,1000000,0,,no,no,0,no,no,250000.00,equipment_max,standard")


# --- the throw-away source of funds: "a reserve fund" ----------------------------------------

MONEY = "reserve_fund"


def add_a_source_of_funds(e: Edits) -> None:
    """docs/architecture.md, "How to add an input", a source of funds: the field table alone (the
    computation reads every source of funds through the field table's `funds`)."""
    e.insert_after("core/law/fields.py", '          slider=(3_000_000, 60_000)),', (
        f'    Field("{MONEY}", "Reserve fund", "money", 0, funds="reserve",\n'
        '          help="The applicant\'s own reserve fund pledged to the project.", slider=(1_000_000, 30_000)),\n'))
