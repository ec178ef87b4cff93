"""Every command the docs show is run by a test (issue 27).

Each line of a ```bash (or sh, shell, console) block of README.md and docs/*.md is a command.
Those of this project are proved to work without touching the machine:

- `python -m core ...` runs for real, in-process (the very `core.cli.main` that
  `python -m core` calls), in a temporary folder holding a seeded library and the files the
  docs name as placeholders (`app.json`, `applications.csv`, `applications.xlsx`, `backup.json`...), with standard
  input from an `echo '...' |` in front of it;
- commands that start a server or a long run (`streamlit run`, `python dashboard.py`,
  `python -m bench.*`, `deploy/...`, `python -m pytest`, `python tools/mutation.py`,
  `alembic`, `ruff`, `lint-imports`, `python -m oidc_provider_mock`) are checked by their
  `--help` (exit status 0, and every option the docs give is one it lists) or by parsing (the
  files and test paths they name exist, the markers they select are declared). The deploy
  commands themselves run in tests/deploy/, the retention commands in tests/store/test_retention.py.

Commands of other programs (git, systemctl, cp, podman, sudo...) are listed in FOREIGN and
left alone; a command that is neither is a failure, so a new kind of command gets a check.

A command of this project written in a sentence (`deploy/run-team --proxy-only`) is checked
by its program's --help: each subcommand and option it shows is one the program has.
"""
from __future__ import annotations

import datetime
import functools
import io
import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from tests.support import ROOT, script_command

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCKS = {"bash", "sh", "shell", "console"}

# Programs that are not this project's: shown for a server's set-up or a shell's, run by the
# people who follow the docs (the deploy tests run the blocks that matter in a container).
FOREIGN = {"python3", "python3.11", ".", "cd", "git", "cp", "ln", "install", "useradd", "systemctl", "sudo",
           "nginx", "gzip", "printf", "export", "podman", "kubectl", "logrotate", "pg_dump", "pg_restore",
           "createdb", "dropdb", "psql", "apt-get", "supervisorctl", "tail", "curl", "echo"}
ENV_ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")
TODAY = datetime.date.today().isoformat()

# --- finding the commands ----------------------------------------------------------------


def shown() -> list[tuple[str, str]]:
    """(where, command) for every command line of a shell block, continuation lines joined."""
    found = []
    for doc in DOCS:
        inside, pending, start = False, "", 0
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            fence = line.strip()
            if fence.startswith("```"):
                inside = not inside and fence[3:].strip().lower() in SHELL_BLOCKS
                continue
            if not inside:
                continue
            if not pending:
                start = n
            pending += line.strip()
            if pending.endswith("\\"):
                pending = pending[:-1] + " "
                continue
            text, pending = pending.strip(), ""
            if text and not text.startswith("#"):
                found.append((f"{doc.relative_to(ROOT)}:{start}", text))
    return found


def segments(command: str) -> list[tuple[dict, list[str], str | None]]:
    """A command line as (environment, words, standard input) per program: `a && b` is two,
    `echo '...' | python ...` one with that standard input; comments and a trailing & dropped."""
    words = shlex.split(command.replace("$(date +%F)", TODAY), comments=True)
    parts, current = [], []
    for w in words:
        if w in ("&&", ";", "|"):
            parts.append((current, w))
            current = []
        else:
            current.append(w)
    parts.append((current, None))
    out, stdin = [], None
    for words, joiner in parts:
        if words and words[-1] == "&":
            words = words[:-1]
        env = {}
        while words and ENV_ASSIGNMENT.match(words[0]):
            key, _, value = words.pop(0).partition("=")
            env[key] = value
        if joiner == "|" and words[:1] == ["echo"]:
            stdin = " ".join(words[1:]) + "\n"
            continue
        out.append((env, words, stdin))
        stdin = None
    return out


def kind(words: list[str]) -> str:
    head = words[0]
    if head.endswith("/python") and len(words) > 1 and words[1].startswith("deploy/"):
        return "deploy"
    if head.startswith("deploy/"):
        return "deploy"
    if head == "python" and words[1:3] == ["-m", "core"]:
        return "core"
    if head == "python" and len(words) > 2 and words[1] == "-m":
        return {"pytest": "pytest", "oidc_provider_mock": "help", "streamlit": "streamlit"}.get(
            words[2], "help" if words[2].startswith(("bench.", "harness.")) else "unknown")
    if head == "python" and words[1:2] == ["dashboard.py"]:
        return "dashboard"
    if head == "python" and words[1:2] == ["tools/mutation.py"]:
        return "help"
    if head == "streamlit" and words[1:2] == ["run"]:
        return "streamlit"
    if head in ("ruff", "lint-imports", "alembic"):
        return "tool"
    if head == "pip" or head.endswith("/pip"):
        return "pip"
    if head in FOREIGN:
        return "foreign"
    return "unknown"


COMMANDS = [(where, env, words, stdin) for where, text in shown() for env, words, stdin in segments(text) if words]


def _ids(kind_of):
    return [pytest.param(*c, id=f"{c[0]} {' '.join(c[2])[:60]}",
                         marks=[pytest.mark.slow] if "--pdf" in c[2] else [])
            for c in COMMANDS if kind(c[2]) == kind_of]


def test_every_command_is_of_a_kind_this_test_checks():
    assert COMMANDS, "no command found in the docs"
    unknown = [f"{where}: {' '.join(words)}" for where, _, words, _ in COMMANDS if kind(words) == "unknown"]
    assert not unknown, "commands with no check (add one here, or the program to FOREIGN):\n" + "\n".join(unknown)


def test_the_readme_shows_the_two_commands_and_ci_runs_the_second():
    readme = [" ".join(w) for where, _, w, _ in COMMANDS if where.startswith("README.md")]
    assert "pip install -r requirements.txt" in readme and "python dashboard.py" in readme
    assert "pip install -r requirements-dev.txt" in readme and "python -m pytest" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\npip install -q -r requirements-dev.txt && python -m pytest\n" in ci


# --- python -m core, for real --------------------------------------------------------------

SEED = [{"name": n, "project_type": "renovation", "eligible_cost": 1_000_000 + i * 250_000,
         "local_contribution": 500_000, "notes": "illustrative, fictional numbers"}
        for i, n in enumerate(["Draft", "Alice plan", "Harbor Street", "Elm Avenue", "Mill Road", "North Annex",
                               "Riverside", "West Hall"])]
APP = {"project_type": "renovation", "eligible_cost": 3_000_000, "local_contribution": 1_500_000}
CSV = ("name,locality,project_type,eligible_cost,federal_grant,local_contribution,prior_program_funds,"
       "requested_amount,federal_law_contrary,bpw_exception_requested,local_property_value,state_funds_in_property,"
       "state_bonded_debt,senior_density,distance_to_center_miles,previously_funded\n"
       "Illustrative: Alder,Alder County,renovation,1000000,0,500000,0,,no,no,,no,no,800,7.5,no\n"
       "Illustrative: Birch,Birch City,conversion,3000000,500000,1500000,0,,no,yes,2000000,no,no,1200,2.0,yes\n"
       "Illustrative: Cedar,Cedar Town,master_plan,40000,0,20000,0,15000,no,no,,no,no,300,12.0,no\n")

# The placeholder files the docs name, as the test writes them. A library export is made from
# the seeded library itself.
FILES = {
    "app.json": json.dumps(APP),
    "application.json": json.dumps(APP),
    "applications.json": json.dumps([APP, APP | {"project_type": "master_plan", "eligible_cost": 40_000}]),
    "applications.csv": CSV,
    "scenarios.json": json.dumps(SEED[:3]),
}
EXPORTS = ("backup.json", "backup-2026-11-29.json")


def binary_files() -> dict[str, bytes]:
    """The placeholders that are not text: the applications as an Excel workbook (sheet "Applications")."""
    from tests.support.workbooks import workbook_of_csv
    return {"applications.xlsx": workbook_of_csv(CSV, "Applications")}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder with the placeholder files and a library of SEED (events 1 to 8), as the
    command line sees them: its working directory, SCENARIO_DB_URL, no secrets.toml."""
    import core.store.db
    from core import cli
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(core.store.db, "ROOT", tmp_path)          # .streamlit/secrets.toml: none
    monkeypatch.setenv("SCENARIO_DB_URL", f"sqlite:///{tmp_path / 'library.db'}")
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for name, data in binary_files().items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "seed.json").write_text(json.dumps(SEED), encoding="utf-8")
    assert cli.main(["scenarios", "import", "seed.json"]) == 0
    for name in EXPORTS:
        assert cli.main(["scenarios", "export", "-o", name]) == 0
    return tmp_path


@pytest.mark.parametrize("where,env,words,stdin", _ids("core"))
def test_core_command(where, env, words, stdin, folder, monkeypatch, capsys):
    from core import cli
    args = words[3:]
    if "--pdf" in args:
        from core.report.pdf import find_browser
        if not find_browser():
            pytest.skip("no Chrome or Chromium for the PDF packet")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    for option in ("-o", "--output", "--pdf", "--html"):     # each example runs on its own: its outputs are new
        if option in args:
            (folder / args[args.index(option) + 1]).unlink(missing_ok=True)
    for arg in args:     # a file of the project named by its path (the illustrative sample)
        if "/" in arg and (ROOT / arg).is_file() and not (folder / arg).exists():
            (folder / arg).parent.mkdir(parents=True, exist_ok=True)
            (folder / arg).symlink_to(ROOT / arg)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    capsys.readouterr()
    try:
        status = cli.main(args)
    except SystemExit as exit_:    # --help
        status = exit_.code
    out = capsys.readouterr()
    assert status == 0, f"{where}: python -m core {shlex.join(args)} exited {status}: {out.err}"
    for option in ("-o", "--output", "--pdf", "--html"):
        if option in args:
            assert (folder / args[args.index(option) + 1]).stat().st_size > 0, f"{where}: {option} not written"
    if args[:1] == ["evaluate"] and "--help" not in args:
        result = json.loads(out.out)
        assert all("award" in r and "binding" in r for r in (result if isinstance(result, list) else [result]))


def test_python_m_core_is_the_command_line_these_run_in_process():
    done = subprocess.run([sys.executable, "-m", "core", "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "evaluate" in done.stdout and "scenarios" in done.stdout


# --- servers and long runs: by their --help, or by parsing ---------------------------------


@functools.lru_cache(maxsize=None)
def help_text(*command: str, flag: str = "--help", status: int = 0) -> str:
    program = script_command(ROOT / command[0]) if command[0].startswith(str(ROOT)) else [command[0]]
    done = subprocess.run([*program, *command[1:], *[flag][:bool(flag)]], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == status, f"{' '.join(command)} {flag} exited {done.returncode}: {done.stderr[-2000:]}"
    return done.stdout + done.stderr


def options(words: list[str]) -> list[str]:
    return [w.split("=", 1)[0] for w in words if w.startswith("-") and w != "-"]


def assert_listed(where: str, words: list[str], text: str) -> None:
    for option in options(words):
        assert re.search(rf"(^|[\s,\[]){re.escape(option)}\b", text), f"{where}: {option} is not an option of it"


@pytest.mark.parametrize("where,env,words,stdin", _ids("help"))
def test_long_runs_answer_help_with_the_options_shown(where, env, words, stdin):
    """python -m bench.NAME, python -m harness.NAME, python tools/mutation.py, python -m oidc_provider_mock."""
    command = (sys.executable, *words[1:3]) if words[1] == "-m" else (sys.executable, words[1])
    assert_listed(where, words[len(command):], help_text(*command))


@pytest.mark.parametrize("where,env,words,stdin", _ids("streamlit") + _ids("dashboard"))
def test_the_dashboard_commands_name_a_script_and_options_streamlit_has(where, env, words, stdin):
    """`streamlit run FILE ...` and `python dashboard.py ...` (which passes its options to
    `streamlit run`): the script exists, each option is one of `streamlit run`'s."""
    if words[0] == "python" and words[1:3] == ["-m", "streamlit"]:
        words = words[2:]
    rest = words[2:] if words[0] == "streamlit" else words[1:]
    script = words[2] if words[0] == "streamlit" else words[1]
    assert (ROOT / script).is_file(), f"{where}: {script} does not exist"
    assert_listed(where, rest, help_text(sys.executable, "-m", "streamlit", "run"))
    if script == "dashboard.py":
        from ui.server import hint
        assert "http://localhost:8501/" in hint([])          # where the README says it opens


@pytest.mark.parametrize("where,env,words,stdin", _ids("deploy"))
def test_deploy_commands_exist_and_take_the_options_shown(where, env, words, stdin):
    if words[0].endswith("/python"):
        words = words[1:]
    script = ROOT / words[0]
    assert script.is_file() and os.access(script, os.X_OK), f"{where}: {words[0]} is not an executable script"
    text = help_text(str(script))
    if words[0] == "deploy/stack" and len(words) > 1:
        assert f"deploy/stack {words[1]}" in text, f"{where}: deploy/stack has no command {words[1]!r}"
        words = words[1:]
    assert_listed(where, words[1:], text)


def declared_markers() -> set[str]:
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {m.split(":")[0] for m in config["tool"]["pytest"]["ini_options"]["markers"]}


@pytest.mark.parametrize("where,env,words,stdin", _ids("pytest"))
def test_test_commands_name_tests_that_exist_and_markers_that_are_declared(where, env, words, stdin):
    args, valued = words[3:], {"-m", "-k", "-p", "--maxfail", "--durations", "-n", "--junitxml", "--tb"}
    text = help_text(sys.executable, "-m", "pytest", "-p", "no:cacheprovider")   # with tests/conftest.py's --whole
    for i, arg in enumerate(args):
        if arg.startswith("-"):
            assert_listed(where, [arg], text)
        elif i > 0 and args[i - 1] in valued:
            if args[i - 1] == "-m":
                names = set(re.findall(r"[A-Za-z_]\w*", arg)) - {"and", "or", "not"}
                assert names <= declared_markers(), f"{where}: undeclared marker(s) {names - declared_markers()}"
        else:
            assert (ROOT / arg.split("::")[0]).exists(), f"{where}: {arg} does not exist"


@pytest.mark.parametrize("where,env,words,stdin", _ids("tool"))
def test_lint_and_migration_commands_answer_help(where, env, words, stdin):
    """ruff check ., lint-imports, alembic current|history|upgrade head: the program and its
    subcommand answer --help (CI runs ruff and lint-imports; tests/deploy runs alembic)."""
    sub = [w for w in words[1:2] if not w.startswith("-") and w != "."]
    assert_listed(where, words[1:], help_text(words[0], *sub))


@pytest.mark.parametrize("where,env,words,stdin", _ids("pip"))
def test_installs_name_requirement_files_that_exist(where, env, words, stdin):
    assert words[1] == "install"
    files = [words[i + 1] for i, w in enumerate(words) if w == "-r"]
    assert files, f"{where}: an install from the project names its requirement files"
    for name in files:
        path = ROOT / name.removeprefix("/opt/grants/")
        assert path.is_file(), f"{where}: {name} does not exist"


# --- commands named in a sentence ------------------------------------------------------------

INLINE = re.compile(r"`((?:python -m (?:core|bench\.\w+|harness\.\w+)|python tools/mutation\.py|deploy/[\w-]+)"
                    r"(?: [^`]*)?)`")


def named_in_prose() -> list[tuple[str, str]]:
    """(where, command) for every command of this project written in a sentence, as `...`."""
    found = []
    for doc in DOCS:
        inside = False
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip().startswith("```"):
                inside = not inside
                continue
            if not inside:
                found += [(f"{doc.relative_to(ROOT)}:{n}", command) for command in INLINE.findall(line)]
    return found


@pytest.mark.parametrize("where,command", named_in_prose())
def test_every_command_named_in_a_sentence_has_the_subcommands_and_options_it_shows(where, command):
    """`deploy/stack up --replicas 4` or `python -m core scenarios history` in a sentence: the
    program answers --help and lists each subcommand and option the sentence gives it."""
    words = shlex.split(command)
    if words[0] == "python":
        program = [sys.executable, *words[1:3]] if words[1] == "-m" else [sys.executable, words[1]]
    else:
        program = [str(ROOT / words[0])]
    rest = words[len(program):]
    subcommands = []
    if words[:3] == ["python", "-m", "core"]:
        while rest and re.fullmatch(r"[a-z]+", rest[0]):   # each level of core's commands has its own help
            subcommands.append(rest.pop(0))
    text = help_text(*program, *subcommands)
    for word in rest if words[0].startswith("deploy/") else ():
        if re.fullmatch(r"[a-z]+", word):
            assert re.search(rf"\b{word}\b", text), f"{where}: {word} is not a command of {words[0]}"
    assert_listed(where, rest, text)


def test_commands_in_sentences_are_found():
    """The finder above finds them (a typo in its pattern would pass every case by finding none)."""
    found = dict((c, w) for w, c in named_in_prose())
    assert {"deploy/run-team --proxy-only", "python -m core scenarios history", "deploy/stack up --replicas 4",
            "python tools/mutation.py --law"} <= set(found)
