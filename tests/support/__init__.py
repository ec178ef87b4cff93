"""Helpers the tests share (not tests): fixtures for a real Chromium, Hypothesis strategies of
applications, readers of the calculator's custom elements in AppTest, and the project's root."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def worked_examples() -> list[dict]:
    """The worked examples of docs/rules.md, once, as data (tests/cases/worked_examples.json):
    each with its application as a user writes it and the award, binding caps and route."""
    import json
    return json.loads((ROOT / "tests" / "cases" / "worked_examples.json").read_text(encoding="utf-8"))


def project_python_first(env: dict, folder: Path) -> dict:
    """`env` with a folder first on its PATH where `python3` and `python` are the Python running
    the tests (sys.executable): a script the tests call (`#!/usr/bin/env python3`, or deploy/stack's
    `python3 -`) runs with the project's packages, whether or not a virtual environment is active."""
    import sys
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("python3", "python"):
        link = folder / name
        if not link.exists():
            link.symlink_to(sys.executable)
    return {**env, "PATH": f"{folder}:{env.get('PATH', '')}"}


def script_command(path: Path) -> list[str]:
    """How the tests run a script of the project: one whose first line names Python runs under
    sys.executable (its `#!/usr/bin/env python3` could find a Python without the project's
    packages); any other (a shell script) as it is."""
    import sys
    with open(path, "rb") as f:
        first = f.readline()
    return [sys.executable, str(path)] if first.startswith(b"#!") and b"python" in first else [str(path)]
