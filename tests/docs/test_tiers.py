"""The two tiers of docs/testing.md, as tests/conftest.py makes them (issue 49): `python -m pytest`
collects the default tier, `--whole` everything, and the rule puts each kind where the docs say."""
import re
import subprocess
import sys

import pytest

from tests.support import ROOT

PAGES = ("calculator", "compare", "sensitivity", "portfolio", "rules")


def collected(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


@pytest.mark.slow
def test_the_default_tier_holds_every_page_under_axe_and_none_of_the_whole_suites_kinds():
    default, whole, rest = collected(), collected("--whole"), collected("-m", "whole")
    assert set(default) | set(rest) == set(whole) and not set(default) & set(rest)
    assert set(collected("-m", "not whole")) == set(default)
    axe = [t for t in default if "test_axe_finds_no_violation" in t]
    for page in PAGES:
        assert any(re.search(rf"\[{page}\b", t) for t in axe), f"no axe check of the {page} page in the default tier"
    for folder in ("law", "cli", "ui"):
        assert any(t.startswith(f"tests/{folder}/") for t in default), folder
    assert not [t for t in default if t.startswith(("tests/deploy/", "tests/browser/test_signin"))]
    assert not [t for t in default if t.endswith("[postgresql]")]
    assert "tests/law/test_differential.py" not in {t.split("::")[0] for t in default}
