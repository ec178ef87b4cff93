"""docs/architecture.md's recipes followed on a copy of the tree (tests/docs/test_recipes.py): a
throw-away cap ("an equipment-only grant may not exceed $100,000") and a throw-away money input
(in-kind contributions, counting toward the local match), each made with exactly the edits the
recipe names; then the default test command (`python -m pytest`, pages included) runs there. If the
recipe and the code part, the test says which file the recipe forgot.

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

RELEASE_LIBRARY = "tests/fixtures/library-release.db"
SKIPPED = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc", "test-artifacts", "*.db", ".pytest_cache",
                                 "node_modules", ".git")
# Where a file's failure is the code's, not a test's: a traceback's deepest line in one of these
PRODUCTION = re.compile(r"^((?:core|ui|pages|harness|bench|deploy|tools)/[\w/.-]+\.py|dashboard\.py):(\d+)")


def _tracked() -> list[str] | None:
    """The checkout's files as git knows them (None outside a git checkout)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return [p for p in out.decode().split("\0") if p]


def copy_tree(dest: Path) -> Path:
    """The whole tree (every file git tracks: the code, the pages, the tests and their data, the
    docs) copied to `dest`, the first release's library with it."""
    files = _tracked()
    if files:
        for rel in files:
            src = ROOT / rel
            if src.is_file():
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / rel)
    else:
        shutil.copytree(ROOT, dest, ignore=SKIPPED)
    (dest / RELEASE_LIBRARY).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / RELEASE_LIBRARY, dest / RELEASE_LIBRARY)
    return dest


class Edits:
    """The files a recipe touched, each edit made once at an anchor that must be there. What the
    recipe could not do as written is kept in `problems` (the edit is made as near as it can, so the
    rest of the run still tries the new provision)."""

    def __init__(self, root: Path):
        self.root = root
        self.touched: set[str] = set()
        self.problems: list[str] = []

    def _text(self, path: str) -> str:
        return (self.root / path).read_text(encoding="utf-8")

    def _write(self, path: str, text: str) -> None:
        (self.root / path).parent.mkdir(parents=True, exist_ok=True)
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

    def add_column(self, path: str, column: str, rows: list[str]) -> None:
        """A CSV file's new last column (empty in its rows: the field's default), and `rows` after them."""
        lines = self._text(path).rstrip("\n").split("\n")
        self._write(path, "\n".join([lines[0] + "," + column, *(line + "," for line in lines[1:]), *rows]) + "\n")


def _env(extra: dict | None = None) -> dict:
    """The copy's own environment: nothing of this run's library, workers or test marks."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    for name in ("PYTHONPATH", "SCENARIO_DB_URL", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT",
                 "PYTEST_CURRENT_TEST", "PYTEST_ADDOPTS", "UPDATE_GOLDEN"):
        env.pop(name, None)
    return env | (extra or {})


def run_tests(root: Path, *args: str, timeout: int = 1350, env: dict | None = None) -> subprocess.CompletedProcess:
    """`python -m pytest ARGS` in the copy: with no ARGS but `-v` (each test's outcome on its own line
    as it ends), the default test command (the default tier, every core, as the README says). Its
    output goes to a file as it runs, so a run that outlasts `timeout` is ended, its workers with
    it, and still says what failed until then (returncode None)."""
    log = root / "test-artifacts" / "default-run.txt"
    log.parent.mkdir(exist_ok=True)
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=_env(env), stdout=out, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)   # the run's own group: pytest and its workers, nothing else
            proc.wait()
            code = None
    text = log.read_text(encoding="utf-8", errors="replace")
    if code is None:
        text += f"\n[timed out after {timeout} s: ended]\n"
    return subprocess.CompletedProcess(cmd, code, text, "")


def run_python(root: Path, code: str, *args: str, timeout: int = 180, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], cwd=root, env=_env(env), capture_output=True, text=True,
                          timeout=timeout)


def run_core(root: Path, *args: str, db: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    """`python -m core ARGS` in the copy, on the library `db`."""
    return subprocess.run([sys.executable, "-m", "core", *args], cwd=root, capture_output=True, text=True,
                          timeout=timeout, env=_env({"SCENARIO_DB_URL": f"sqlite:///{db}"} if db else None))


def failures(output: str) -> list[tuple[str, str, str]]:
    """(test, the production file and line its traceback ends in, or "", the error's last line) for
    each failure or error of a pytest run's output."""
    out = []
    sections = re.split(r"^_{3,} (.+?) _{3,}$", output, flags=re.M)
    for name, body in zip(sections[1::2], sections[2::2]):
        where = [f"{m.group(1)}:{m.group(2)}" for m in map(PRODUCTION.match, body.splitlines()) if m]
        errors = [line[1:].strip() for line in body.splitlines() if line.startswith("E ")]
        out.append((name, where[-1] if where else "", errors[-1] if errors else ""))
    return out


# --- the throw-away cap: "An equipment-only grant may not exceed $100,000." --------------------

CAP_ID, CAP_PARAMETER = "equipment_max", "equipment_cap"
CAP_TITLE = "Equipment maximum"
CAP_CENTS = 10_000_000
# How the caps read a parameter of the ruleset (core/law/rulesets): the one place to change when
# that access changes.
PARAMETER_READ = 'rs.number("{name}")'
CASE_HEADER = ("case,ruleset,readings,project_type,eligible_cost,federal_grant,local_contribution,prior_program_funds,"
               "requested_amount,federal_law_contrary,bpw_exception_requested,local_property_value,"
               "state_funds_in_property,state_bonded_debt,expect_award,expect_binding,expect_route")
# The recipe's own files: docs/architecture.md, "How to add a provision".
CAP_FILES = {"core/law/caps.py", "core/law/rulesets/regulation.toml", "core/law/provisions.toml",
             f"tests/cases/{CAP_ID}.csv"}


def add_a_cap(e: Edits) -> None:
    """docs/architecture.md, "How to add a provision": the caps function, the ruleset file, the
    registry, one case file; and the existing case whose award the new law changes."""
    read = PARAMETER_READ.format(name=CAP_PARAMETER)
    # 1. The caps function: computed under its sentence, with the ops arithmetic, in a route's dict.
    e.insert_before("core/law/caps.py", "    common = {", (
        f"    # {CAP_ID} (a throw-away cap). \"An equipment-only grant may not exceed $100,000.\"\n"
        f"    {CAP_ID} = A if {read} is None else ops.where(\n"
        f"        ops.is_type(x.project_type, (\"equipment\",)), {read}, A)\n\n"))
    e.replace("core/law/caps.py", "    common = {", f"    common = {{\"{CAP_ID}\": {CAP_ID}, ")
    # 2. The ruleset file: its number, as the capital maximum's entry is written; an interpretation's
    # number cites its provision (by title), there being no sentence to cite.
    e.copy_table("core/law/rulesets/regulation.toml", "parameters.capital_cap", f"parameters.{CAP_PARAMETER}", {
        "600000.00": "100000.00", 'provision = "program_max"': f'provision = "{CAP_ID}"',
        'citation = "§A"': f'citation = "{CAP_TITLE}"',
        "Most a grant for conversion, acquisition, renovation, equipment or construction may be":
        "Most an equipment-only grant may be"})
    # 3. The registry: the provision, the cap, the number's kind, label and default ("none": the
    # statute and a saved ruleset have no such cap).
    e.insert_before("core/law/provisions.toml", "[provisions.considerations]", (
        f"[provisions.{CAP_ID}]\n"
        f'title = "{CAP_TITLE}"\n'
        "sentences = []\n"
        'interpretation = "No sentence of the regulation says this: a throw-away cap, an equipment-only grant at most $100,000."\n'
        "readings = []\n\n"))
    e.insert_before("core/law/provisions.toml", "[caps.requested_amount]", (
        f"[caps.{CAP_ID}]\n"
        f'title = "{CAP_TITLE}"\n'
        f'provision = "{CAP_ID}"\n'
        'label = "the equipment maximum"\n'
        'meaning = "the most an equipment-only grant may be"\n'
        'colour = "#2f4f6f"\n'
        'marker = "cross"\n'
        f'cite.default = ["{CAP_TITLE}"]\n\n'))
    e.insert_before("core/law/provisions.toml", "# --- provisions ---", (
        f"[parameters.{CAP_PARAMETER}]\n"
        'kind = "money"\n'
        f'label = "{CAP_TITLE}"\n'
        'default = "none"\n'
        'unit = "USD"\n'
        f'provision = "{CAP_ID}"\n'
        'description = "Most an equipment-only grant may be"\n'
        'citation = "No such cap in this law"\n\n'))
    # 4. One case file, read by both engines.
    e._write(f"tests/cases/{CAP_ID}.csv", CASE_HEADER + "\n" + "\n".join((
        "equipment held to its maximum,regulation,,equipment,2000000,0,1000000,0,,no,no,0,no,no,100000.00,equipment_max,standard",
        "equipment under it,regulation,,equipment,150000,0,75000,0,,no,no,0,no,no,75000.00,cost_share;funding_need,standard",
        "not equipment,regulation,,renovation,2000000,0,1000000,0,,no,no,0,no,no,600000.00,program_max,standard",
        "inherited by a variant,cap-800k,,equipment,2000000,0,1000000,0,,no,no,0,no,no,100000.00,equipment_max,standard",
        "none under the statute,statute,,equipment,2000000,0,1000000,0,,no,no,0,no,no,800000.00,program_max,standard",
    )) + "\n")
    # The case the new law changes changes with it (an equipment grant's maximum): a case's award, as
    # a golden file's output, changed because the law did.
    e.replace("tests/cases/program_max.csv",
              "equipment too,regulation,,equipment,2000000,0,1000000,0,,no,no,0,no,no,600000.00,program_max,standard",
              "equipment too,regulation,,equipment,2000000,0,1000000,0,,no,no,0,no,no,100000.00,equipment_max,standard")


# --- the throw-away money input: in-kind contributions toward the local match ----------------

MONEY, MONEY_LABEL, MONEY_FUNDS = "in_kind_contribution", "In-kind contributions", "in-kind"
INPUT_FILES = {"core/law/fields.py", "tests/cases/local_match.csv"}


def add_an_input(e: Edits) -> None:
    """docs/architecture.md, "How to add an input", a source of funds that counts toward the local
    match: the field table (`funds=`: every source but the federal grant is local money, counted
    toward the match by core.law.caps.local_funds), the local match's case file."""
    # 1. The field table: a source of funds (the gap, the funding plan, the words, the batch read it).
    e.insert_after("core/law/fields.py", '          slider=(3_000_000, 60_000)),', (
        f'    Field("{MONEY}", "{MONEY_LABEL}", "money", 0, funds="{MONEY_FUNDS}",\n'
        '          help="Goods and services given to the project, at their value; they count toward the local match.",\n'
        '          slider=(3_000_000, 60_000)),\n'))
    # 2. The local match's case file: the new column, and the cases it decides.
    e.add_column("tests/cases/local_match.csv", MONEY, [
        "condition met with in-kind contributions,regulation,local_match_effect=condition,conversion,1000000,0,300000,"
        "0,,no,no,0,no,no,500000.00,cost_share;funding_need,standard,200000",
        "condition: in-kind one cent short,regulation,local_match_effect=condition,conversion,1000000,0,300000,0,,no,"
        "no,0,no,no,0.00,local_match,standard,199999.99",
    ])
