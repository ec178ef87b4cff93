"""Golden files (tests/golden/): the whole output of `python -m core evaluate` for the worked
examples and the review's cases, under the default readings and under each single switch.
Keyed by content, not by the ruleset's fingerprint (tests/support/golden.py): a golden fails when
a sentence, a number, a cap or a route it records changes or goes, and a name added since it was
written (a new cap that changes no award, a new input left at nothing) rewrites none. After a
deliberate change, regenerate with UPDATE_GOLDEN=1 (only the files whose content changed are
rewritten) and read the diff before committing."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from core.cli import main
from core.law.analysis import describe, sweep
from core.law.changes import closing_local, what_would_change
from core.law.application import Application
from core.law.award import evaluate
from core.law.readings import READINGS, parse
from tests.support import ROOT, worked_examples
from tests.support.golden import KNOWN, check, differences


HERE = ROOT / "tests" / "golden"


EXAMPLES = {str(e["n"]): e["application"] for e in worked_examples()}


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
    check(path, json.loads(_run(example, extra, tmp_path)))


GOLDEN = HERE


SWEEP_TO = 400_000_000  # $4,000,000 in cents


def _numbers(data: dict) -> dict:
    """The same application with its amounts as JSON numbers (these goldens record them so)."""
    return {k: _numbers(v) if isinstance(v, dict) else int(v) if isinstance(v, str) and v.isdigit() else v
            for k, v in data.items()}


# name -> application as a user writes it (the CLI's input).
CASES = {
    # The worked examples (tests/cases/worked_examples.json), a conversion drawn as a construction
    # project (the same arithmetic, the other words).
    **{f"rules_{e['n']}": _numbers(e["application"]) | ({"project_type": "construction"}
                                                       if e["application"]["project_type"] == "conversion" else {})
       for e in worked_examples()},
    # Federal law to the contrary: the share is taken of the whole cost.
    "federal_law_contrary": {"project_type": "construction", "eligible_cost": 1_000_000, "federal_grant": 200_000,
                             "local_contribution": 0, "federal_law_contrary": True},
    # The federal grant alone covers the cost: the warning, and nothing left to share.
    "federal_covers_cost": {"project_type": "construction", "eligible_cost": 500_000, "federal_grant": 800_000},
    # Odd cents: the State share rounded down, the local match rounded up.
    "odd_cents": {"project_type": "construction", "eligible_cost": "333333.33", "federal_grant": "0.02",
                  "local_contribution": "166666.65"},
    # A request below every other cap, and prior funds with room left.
    "requested_and_prior": {"project_type": "conversion", "eligible_cost": 2_000_000, "local_contribution": 1_000_000,
                            "prior_program_funds": 100_000, "requested_amount": "123456.78"},
    # Prior funds at the ceiling: no room, the check fails.
    "prior_at_ceiling": {"project_type": "renovation", "eligible_cost": 900_000, "prior_program_funds": 300_000},
    # The exception's property value exactly equal to the award: the condition passes.
    "exception_value_equals_award": {"project_type": "renovation", "eligible_cost": 1_000_000,
                                     "local_contribution": 100_000,
                                     "bpw_exception": {"local_property_value": 600_000}},
    # The exception bound by the property value (and the route changes along the sweeps).
    "exception_property_binds": {"project_type": "conversion", "eligible_cost": 1_000_000,
                                 "bpw_exception": {"local_property_value": 550_000}},
    # The exception available but not paying more: the standard route; the value condition is measured
    # against the exception route's own grant (held to that value), so it passes.
    "exception_not_more": {"project_type": "construction", "eligible_cost": 1_000_000,
                           "bpw_exception": {"local_property_value": 300_000}},
    # The exception not available: State funds and State debt, both reasons given.
    "exception_state_money": {"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 200_000,
                              "bpw_exception": {"local_property_value": 900_000, "state_funds_in_property": True,
                                                "state_bonded_debt": True}},
}


def result_of(data: dict) -> dict:
    app = Application.from_dict(data)
    sweeps = {}
    for field in ("eligible_cost", "federal_grant", "local_contribution", "prior_program_funds",
                  "requested_amount", "local_property_value"):
        s = sweep(app, field, 0, SWEEP_TO, points=False)
        sweeps[field] = [dict(b.to_dict(), text=describe(b, field)) for b in s.breakpoints]
    changes = what_would_change(app)
    # "evaluate" is exactly what the CLI prints: the result and its "what would change it" sentences.
    return {"input": data, "evaluate": evaluate(app).to_dict() | {"changes": changes}, "what_would_change": changes,
            "sweeps": sweeps}


def golden_path(name: str) -> Path:
    return GOLDEN / f"mutation_{name}.json"


def load(name: str) -> dict:
    return json.loads(golden_path(name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", list(CASES))
def test_golden(name):
    # every step, check, sentence and breakpoint the file records, found by what it says
    check(golden_path(name), result_of(CASES[name]))


@pytest.mark.slow   # a subprocess, or drawing: not in each mutant's run
def test_cli_evaluate_prints_the_goldens():
    """The files are what `python -m core evaluate` prints (one run for every case)."""
    names = list(CASES)
    r = subprocess.run([sys.executable, "-m", "core", "evaluate", "-"], input=json.dumps([CASES[n] for n in names]),
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    printed = json.loads(r.stdout)
    for name, out in zip(names, printed):
        assert not differences(out, load(name)["evaluate"], load(name)[KNOWN]), name


def test_goldens_say_what_the_issue_names():
    """The sentences a slip once got past the suite, spelled out (they are also in the files)."""
    steps = {s["provision"]: s["text"] for s in load("odd_cents")["evaluate"]["steps"]}
    assert steps["cost_share"] == ("The State share may not exceed 50% of the $333,333.31 of the cost of eligible "
                                   "work remaining after the federal grant: $166,666.65 "
                                   "(rounded down to the cent).")
    # each sentence in whatever place: a new input adds its own sentences among them
    assert (
        "Raising the prior program funds from $0 does not change the award until $200,000, where the limit for "
        "earlier grantees takes over.") in load("rules_4")["what_would_change"]
    assert (
        "Any prior program funds would cut the award to $299,999.99 (the limit for earlier grantees); from there, each "
        "extra $1 of them takes away $1 of award until $300,000, where the award reaches $0.") in load("rules_1")["what_would_change"]
    assert (
        "Another $900,000 of local funds closes the $900,000 funding gap.") in load("rules_2")["what_would_change"]
    assert (
        "Another $850,000 of local funds closes the $850,000 funding gap.") in load("rules_6")["what_would_change"]
    texts = [b["text"] for b in load("exception_not_more")["sweeps"]["eligible_cost"]]
    assert any(t.endswith("(back to the standard route)") for t in texts), texts
    texts = [b["text"] for b in load("exception_property_binds")["sweeps"]["local_property_value"]]
    assert any(t.endswith("(on the Board's exception route, if the Board approves)") for t in texts), texts
    value = next(c for c in load("exception_value_equals_award")["evaluate"]["checks"] if c["id"] == "bpw_property_value")
    assert value["status"] == "pass" and "$600,000, at least the $600,000 grant of the exception route" in value["message"]


def test_cli_in_process_evaluate_and_sweep(tmp_path, capsys):
    """The same commands run in this process (so mutation testing sees the code they run)."""
    from core.cli import main
    path = tmp_path / "apps.json"
    path.write_text(json.dumps(CASES["rules_7"]), encoding="utf-8")
    assert main(["evaluate", str(path)]) == 0
    assert not differences(json.loads(capsys.readouterr().out), load("rules_7")["evaluate"], load("rules_7")[KNOWN])
    path.write_text(json.dumps(CASES["rules_1"]), encoding="utf-8")
    assert main(["sweep", "eligible_cost", "--from", "0", "--to", "1500000", str(path)]) == 0
    check(golden_path("sweep_rules_1"), json.loads(capsys.readouterr().out))


SWITCHES = [(r.id, a.id) for r in READINGS for a in r.alternatives if a.id != r.default]


# The change sentences (sweeps along every input) cost more: a few cases that each switch moves.
CHANGES = ("rules_2", "rules_6", "odd_cents")


def golden(reading: str, alt: str):
    return GOLDEN / f"mutation_readings_{reading}_{alt}.json"


@pytest.mark.parametrize("reading,alt", SWITCHES, ids=[f"{r}={a}" for r, a in SWITCHES])
def test_every_sentence_under_each_switch(reading, alt):
    readings = parse([f"{reading}={alt}"])
    got = {}
    for name, data in CASES.items():
        app = Application.from_dict(data)
        got[name] = {"evaluate": evaluate(app, None, readings).to_dict()}
        if name in CHANGES:
            got[name]["what_would_change"] = what_would_change(app, None, readings)
            got[name]["closing_local"] = closing_local(app, None, readings)
    check(golden(reading, alt), got)


def test_cli_evaluate_with_a_reading_in_process(tmp_path, capsys):
    from core.cli import main
    path = tmp_path / "app.json"
    path.write_text(json.dumps(CASES["rules_6"]), encoding="utf-8")
    assert main(["evaluate", str(path), "--reading", "f_reference=prior_grant"]) == 0
    want = json.loads(golden("f_reference", "prior_grant").read_text(encoding="utf-8"))
    assert not differences(json.loads(capsys.readouterr().out),
                           want["rules_6"]["evaluate"] | {"changes": want["rules_6"]["what_would_change"]}, want[KNOWN])


def _without(part: str, name: str) -> dict:
    """The names the house has, as if `name` of `part` had been added after a golden was written."""
    from tests.support.golden import known_now
    known = known_now()
    return known | {part: [n for n in known[part] if n != name]}


def test_a_name_added_since_changes_no_golden_but_a_slip_beside_it_still_fails():
    """The golden's tolerance is the new name's alone: its key, its sentence, its word in a list of
    funds. A changed number or word, a lost sentence or an extra one about anything else fails."""
    want = load("rules_2")
    got = json.loads(json.dumps(want))
    del want["evaluate"]["application"]["local_contribution"]   # as if written before the field existed
    want["what_would_change"] = [s for s in want["what_would_change"] if "local contribution" not in s]
    known = _without("fields", "local_contribution")
    assert not differences(got, want, known)
    assert differences(got, want, None), "without the new name, the extra key and sentence fail"
    for old, new in (("$2,100,000", "$2,100,001"), ("Another $900,000 of local funds", "Another $900,001 of local funds")):
        slipped = json.loads(json.dumps(got))
        slipped["what_would_change"] = [s.replace(old, new) for s in got["what_would_change"]]
        assert slipped != got
        assert differences(slipped, want, known), f"a wrong number beside the new name fails: {new}"
    lost = json.loads(json.dumps(got))
    lost["what_would_change"] = lost["what_would_change"][1:]
    assert differences(lost, want, known), "a lost sentence fails"
    extra = json.loads(json.dumps(got))
    extra["what_would_change"].append("Another $1 of federal grant changes nothing.")
    assert differences(extra, want, known), "an extra sentence about an old input fails"
    # a list of funds that gained a source reads as the old one; any other word changed fails
    from tests.support.golden import Match
    m = Match(_without("funds", "local"))
    assert m.same_text("Federal, State and local funds cover the cost.", "Federal and State funds cover the cost.")
    assert not m.same_text("Federal, State and local funds cover the costs.", "Federal and State funds cover the cost.")
    assert not Match(None).same_text("Federal, State and local funds cover the cost.",
                                     "Federal and State funds cover the cost.")
