"""Golden files: the whole output of `python -m core evaluate` for RULES.md's worked examples
(award, caps, checks, every explanation step and every 'what would change it' sentence),
under the default readings and under one switched reading. A change to any sentence shows
here as a diff. After a deliberate change, regenerate with UPDATE_GOLDEN=1 and review the diff."""
import io
import json
import os
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from core.cli import main

HERE = Path(__file__).parent / "golden"
EXAMPLES = json.loads((HERE / "examples.json").read_text(encoding="utf-8"))
RUNS = [(n, []) for n in EXAMPLES] + [(n, ["--reading", "local_match_effect=condition",
                                          "--reading", "f_reference=prior_grant"]) for n in ("3", "6")]


def _run(example: str, extra: list[str], tmp_path) -> str:
    src = tmp_path / "app.json"
    src.write_text(json.dumps(EXAMPLES[example]), encoding="utf-8")
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["evaluate", str(src), *extra]) == 0
    return buf.getvalue()


@pytest.mark.parametrize("example,extra", RUNS, ids=lambda v: v if isinstance(v, str) else "-".join(v[1::2]) or "default")
def test_evaluate_output_matches_the_golden_file(example, extra, tmp_path):
    name = f"example_{example}" + ("" if not extra else "_" + "_".join(a.replace("=", "-") for a in extra[1::2]))
    path = HERE / f"{name}.json"
    got = _run(example, extra, tmp_path)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"{path.name} missing: run with UPDATE_GOLDEN=1 once and review it"
    assert got == path.read_text(encoding="utf-8")
