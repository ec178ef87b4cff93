"""Each fact the law derives is named once (core.law.caps.intermediates) and every reader follows it.

A throw-away source of funds ("in-kind contributions", flagged `funds=` in the field table and
nothing else) must move the award, the "$X short" words, the batch's row and solve's answer
together: an application with $200,000 of it and $300,000 of local contributions is, for the local
match and what the project still lacks, the one with $500,000 of local contributions. A reader that
worked the match out again from `local_contribution` (as explain.py and batch.py once did beside
caps.py) would leave "$200,000 short" beside an award that counts the new money.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.batch import frame_of
from core.law.caps import derive, inputs_of
from core.law.engines import ARRAYS, EXACT
from core.law.readings import DEFAULT

ROOT = Path(__file__).resolve().parents[2]

# Run in a child process: the field table is read when core.law is imported, so the new field is
# put into core/law/fields.py's text before anything of the law loads (the tree itself is not changed).
CHILD = r'''
import importlib.util, json, sys, types
from pathlib import Path
import core.law
path = Path("core/law/fields.py")
anchor = '          slider=(3_000_000, 60_000)),\n'
text = path.read_text(encoding="utf-8")
assert text.count(anchor) == 1
text = text.replace(anchor, anchor + '    Field("in_kind", "In-kind contributions", "money", 0, funds="in_kind",\n'
                    '          help="Donated work and materials, at their value.", slider=(1_000_000, 30_000)),\n')
module = types.ModuleType("core.law.fields")
module.__file__ = str(path)
sys.modules["core.law.fields"] = core.law.fields = module
exec(compile(text, str(path), "exec"), module.__dict__)

from core.law.application import Application
from core.law.award import evaluate
from core.law.batch import evaluate_parsed, frame_of
from core.law.readings import DEFAULT
from core.law.solve import solve

CONDITION = DEFAULT.switched("local_match_effect")   # a short match leaves no award
out = {}
for name, local, in_kind in (("with", 300_000_00, 200_000_00), ("as_local", 500_000_00, 0), ("without", 300_000_00, 0)):
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": "1000000",
                                 "local_contribution": str(local // 100), "in_kind": str(in_kind // 100)})
    row = {}
    for label, rd in (("default", DEFAULT), ("condition", CONDITION)):
        a = evaluate(app, None, rd)
        batch = evaluate_parsed(frame_of([app]), None, rd).iloc[0]
        row[label] = {
            "award": a.amount, "binding": list(a.binding), "short": a.local_shortfall,
            "match": a.check("local_match").message, "unmet": [u.text for u in a.unmet],
            "match_step": [s.text for s in a.steps if s.provision == "local_match"],
            "batch": [int(batch.award), batch.binding, int(batch.local_shortfall), int(batch.funding_gap)],
            "solve": solve(app, "eligible_cost", 40_000_000, rs=None, readings=rd).to_dict(),
        }
    out[name] = row
print(json.dumps(out))
'''


@pytest.mark.slow
def test_a_new_source_of_funds_moves_every_reader_of_the_local_match_together():
    r = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout)
    # The new money counts toward the match and what the project still lacks exactly as local money does:
    # the award, the words of the match, the batch's row and solve's answer (every range, every sentence).
    assert out["with"] == out["as_local"]
    # ... and it is counted: without it the match is $200,000 short, said beside the award and in the row.
    default, condition = out["without"]["default"], out["without"]["condition"]
    assert default["short"] == 20_000_000 and default["batch"][2] == 20_000_000
    assert default["unmet"] == ["$500,000 once the local match reaches $500,000: it is $200,000 short."]
    assert default["match"] == "Local contributions are $200,000 short of the 50% match of $500,000."
    assert out["with"]["default"]["match"].startswith("Local contributions of $500,000 meet")
    assert (condition["award"], condition["binding"]) == (0, ["local_match"])
    assert (out["with"]["condition"]["award"], out["with"]["condition"]["batch"][0]) == (50_000_000, 50_000_000)
    assert out["with"]["condition"]["solve"]["sentence"] != condition["solve"]["sentence"]


def test_the_intermediates_are_the_same_on_every_engine():
    """The three engines derive one set of intermediates: the batch's arrays and the exact fractions
    hold the one application's numbers (EXACT's before the clamp at zero, here never reached)."""
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": "1000000", "federal_grant": "100000",
                                 "local_contribution": "300000", "prior_program_funds": "5000"})
    one = derive(inputs_of(app), evaluate(app).ruleset, DEFAULT).facts
    rows = derive(inputs_of_frame_row(app), evaluate(app).ruleset, DEFAULT, ARRAYS).facts
    exact = derive(inputs_of(app, __import__("fractions").Fraction), evaluate(app).ruleset, DEFAULT, EXACT).facts
    assert (one.remaining, one.base, one.match_required, one.local_funds, one.match_short) \
        == (90_000_000, 90_000_000, 45_000_000, 30_000_000, 15_000_000)
    assert one.match_met is False and one.federal_applied is True and not one.contrary
    for name in ("remaining", "base", "match_required", "local_funds", "match_short"):
        assert int(getattr(rows, name)[0]) == getattr(one, name) == getattr(exact, name), name
    assert exact.match_met == -15_000_000   # the margin: met while >= 0
    assert evaluate(app).facts == one and evaluate(app).local_shortfall == one.match_short


def inputs_of_frame_row(app):
    from core.law.batch import inputs_of_frame
    return inputs_of_frame(frame_of([app]))
