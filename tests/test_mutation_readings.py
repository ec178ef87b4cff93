"""The readings (RULES.md, "Readings"): every explanation step, check and change sentence under
each single switch of a reading, asserted whole (golden files of `python -m core evaluate
--reading ID=ALT` output), and the readings' own parsing at its edges.

Regenerate after a deliberate change with UPDATE_GOLDEN=1, and read the diff of tests/golden/.
"""
from __future__ import annotations

import json

import pytest

from core.law.analysis import closing_local, what_would_change
from core.law.application import Application
from core.law.award import evaluate
from core.law.readings import DEFAULT, READINGS, ReadingError, Readings, every, from_dict, parse
from tests.test_mutation_golden import CASES, GOLDEN, UPDATE

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
    if UPDATE:
        golden(reading, alt).write_text(json.dumps(got, indent=2) + "\n", encoding="utf-8")
    want = json.loads(golden(reading, alt).read_text(encoding="utf-8"))
    for name in CASES:
        for i, step in enumerate(want[name]["evaluate"]["steps"]):
            assert got[name]["evaluate"]["steps"][i] == step, (name, f"step {i + 1}")
        assert got[name] == want[name], name


def test_cli_evaluate_with_a_reading_in_process(tmp_path, capsys):
    from core.cli import main
    path = tmp_path / "app.json"
    path.write_text(json.dumps(CASES["rules_6"]), encoding="utf-8")
    assert main(["evaluate", str(path), "--reading", "f_reference=prior_grant"]) == 0
    want = json.loads(golden("f_reference", "prior_grant").read_text(encoding="utf-8"))["rules_6"]
    assert json.loads(capsys.readouterr().out) == want["evaluate"] | {"changes": want["what_would_change"]}


def test_readings_in_words_and_back():
    assert DEFAULT.describe() == "default readings" and DEFAULT.is_default and DEFAULT.changed() == {}
    r = parse(["f_reference=prior_grant", " local_match_effect = condition "])
    assert r.describe() == "f_reference=prior_grant, local_match_effect=condition"
    assert r.changed() == {"f_reference": "prior_grant", "local_match_effect": "condition"}
    assert not r.is_default
    assert from_dict(r.as_dict()) == r == from_dict(r.changed())
    assert from_dict(None) == DEFAULT == from_dict({}) == parse([]) == parse(None)
    assert r.switched("f_reference") == parse(["local_match_effect=condition"])
    assert DEFAULT.switched("funding_need_cap").describe() == "funding_need_cap=none"
    assert len(every()) == 32 and every()[0] == DEFAULT and len(set(every())) == 32


@pytest.mark.parametrize("pairs,message", [
    (["f_reference"], "reading 'f_reference': write ID=ALTERNATIVE, e.g. f_reference=prior_grant"),
    (["colour=red"], "unknown reading 'colour'; known: f_reference, local_match_base, local_match_effect, "
                     "funding_need_cap, prior_grant_limit"),
])
def test_readings_rejected_with_their_names(pairs, message):
    with pytest.raises(ReadingError) as err:
        parse(pairs)
    assert str(err.value) == message


def test_readings_rejected_shapes():
    with pytest.raises(ReadingError) as err:
        from_dict(["f_reference"])
    assert str(err.value) == "readings: a table of reading ids, not ['f_reference']"
    with pytest.raises(ReadingError) as err:
        parse(["f_reference=prior_grant=x"])
    assert "'prior_grant=x'" in str(err.value)
    with pytest.raises(ReadingError):
        Readings(f_reference="nope")
    with pytest.raises(ReadingError) as err:
        DEFAULT.replace(colour="red")
    assert str(err.value).startswith("unknown reading 'colour'")
