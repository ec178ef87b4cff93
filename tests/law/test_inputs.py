"""Files and text in (core/law/inputs.py, core/law/names.py): JSON read with hostile input in
mind, sizes capped, names and free text without hidden characters."""
import json
import os
import re
import subprocess
import sys

import pytest

from core.law.money import ValidationError
from core.store.model import check_name
from tests.support import ROOT


@pytest.mark.slow   # a subprocess, or drawing: not in each mutant's run
def test_json_number_with_a_fraction_of_a_cent_is_rejected_like_the_string():
    for value in ("0.005", "1000000.005"):
        for raw in (value, f'"{value}"'):
            doc = '{"project_type": "conversion", "eligible_cost": %s}' % raw
            p = subprocess.run([sys.executable, "-m", "core", "evaluate", "-"], input=doc, capture_output=True,
                               text=True)
            assert p.returncode == 2, (raw, p.stdout)
            assert p.stderr.strip() == f"error: eligible_cost: {value if raw == value else repr(value)} has " \
                                       f"fractions of a cent; use at most two decimal places"


APP = {"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000}


def run(*args, stdin=None, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "core", *map(str, args)], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, env={**os.environ, **(env or {})})


def one_line_error(r, text):
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert text in r.stderr, r.stderr


@pytest.mark.slow   # a subprocess, or drawing: not in each mutant's run
def test_input_size_is_capped():
    one_line_error(run("evaluate", "/dev/zero", timeout=200), "larger than 64 MB")
    many = json.dumps([APP] * 100_001)
    one_line_error(run("evaluate", "-", stdin=many, timeout=200), "100,001 applications; at most 100,000")


@pytest.mark.parametrize("name, problem", [
    ("tab\there", "control character (U+0009"),
    ("line\nbreak", "control character (U+000A"),
    ("evil\u202etxt.exe", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("a\u2066b", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("zero\u200bwidth", "U+200B ZERO WIDTH SPACE"),
    ("join\u200dme", "U+200D ZERO WIDTH JOINER"),
    ("bom\ufeff", "U+FEFF"),
    ("para\u2029graph", "paragraph separator"),
    ("x" * 121, "is 121 characters long; at most 120"),
])
def test_names_refuse_hidden_characters_and_length(name, problem):
    with pytest.raises(ValidationError, match=re.escape(problem)):
        check_name(name)


def test_names_keep_what_people_type():
    for name in ("Café für Año", "北京 center", "O'Brien & Sons (2026)", "שלום", "Cap 1.0"):
        assert check_name(f"  {name} ") == name
