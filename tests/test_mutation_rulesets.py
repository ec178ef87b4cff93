"""Mutants of core/law/rulesets/__init__.py that survived `python tools/mutation.py --modules rulesets`
(issue 18), each killed here with exact values and whole error messages naming the key. The ones
no input can tell apart are explained in tools/survivors-rulesets.md.
"""
from __future__ import annotations

import copy
import pickle
import re
from datetime import date, datetime
from decimal import Decimal

import pytest

import core.law.rulesets as rulesets
from core.law.rulesets import (MAX_TOML_CHARS, Ruleset, RulesetError, _parse_value, edition_words, from_data,
                           load, load_file, load_text, version_words)

PARAMS = "capital_cap, master_plan_cap, state_share, local_share, prior_grant_ceiling, bpw_eligible_types"
TYPES = "conversion, acquisition, renovation, construction, equipment, master_plan"


def regulation_data() -> dict:
    return load().to_data()


def regulation_text() -> str:
    return (rulesets.HERE / "regulation.toml").read_text(encoding="utf-8")


def error_of(data) -> str:
    with pytest.raises(RulesetError) as err:
        from_data(data)
    return str(err.value)


def without(d: dict, key: str) -> dict:
    return {k: v for k, v in d.items() if k != key}


def with_param(name: str, entry) -> dict:
    data = regulation_data()
    data["parameters"][name] = entry
    return data


# ---------------------------------------------------------------- from_data: whole messages

@pytest.mark.parametrize("data,message", [
    ([], "a ruleset is a table of keys"),
    ("regulation", "a ruleset is a table of keys"),
    (regulation_data() | {"colour": "red"},
     "colour: unknown key; allowed: based_on, description, edition, id, kind, parameters, title"),
    (without(regulation_data(), "id"), "id: missing"),
    (without(regulation_data(), "title"), "title: missing"),
    (without(regulation_data(), "kind"), "kind: missing"),
    (without(regulation_data(), "parameters"), "parameters: missing"),
    (regulation_data() | {"id": 5}, "id: must be text, not 5"),
    (regulation_data() | {"title": 5}, "title: must be text, not 5"),
    (regulation_data() | {"kind": None}, "kind: must be text, not None"),
    (regulation_data() | {"description": 5}, "description: must be text, not 5"),
    (regulation_data() | {"based_on": ["regulation"]}, "based_on: must be text, not ['regulation']"),
    (regulation_data() | {"edition": 1}, "edition: must be text, not 1"),
    (with_param("bonus", {"value": 1}), f"parameters.bonus: unknown parameter; known: {PARAMS}"),
    (with_param("capital_cap", "600000.00"),
     "parameters.capital_cap: must be a table with a value and its citation"),
    (with_param("capital_cap", regulation_data()["parameters"]["capital_cap"] | {"units": "USD"}),
     "parameters.capital_cap.units: unknown key; allowed: citation, description, provision, unit, value"),
    (with_param("capital_cap", without(regulation_data()["parameters"]["capital_cap"], "unit")),
     "parameters.capital_cap.unit: missing"),
    (with_param("local_share", without(regulation_data()["parameters"]["local_share"], "citation")),
     "parameters.local_share.citation: missing"),
    (with_param("bpw_eligible_types", regulation_data()["parameters"]["bpw_eligible_types"] | {"value": ["castle"]}),
     f"parameters.bpw_eligible_types.value: unknown project type 'castle'; known: {TYPES}"),
])
def test_from_data_rejects_naming_the_key_whole(data, message):
    assert error_of(data) == message


def test_variant_parameter_that_is_not_a_table_is_refused_not_inherited():
    data = {"id": "v", "title": "V", "kind": "variant", "based_on": "regulation",
            "parameters": {"capital_cap": "800000.00"}}
    assert error_of(data) == "parameters.capital_cap: must be a table with a value and its citation"


def test_variant_unknown_parameter_named_whole():
    data = {"id": "v", "title": "V", "kind": "variant", "based_on": "regulation",
            "parameters": {"bonus": {"value": 1}}}
    assert error_of(data) == f"parameters.bonus: unknown parameter; known: {PARAMS}"


def test_only_a_variant_inherits_from_based_on():
    # A regulation naming a based_on still has to give every parameter itself.
    params = {"capital_cap": regulation_data()["parameters"]["capital_cap"]}
    data = {"id": "reg2", "title": "R", "kind": "regulation", "based_on": "regulation", "parameters": params}
    assert error_of(data) == "parameters.master_plan_cap: missing"
    variant = from_data(data | {"kind": "variant"})
    assert (variant.master_plan_cap, variant.capital_cap) == (1_500_000, 60_000_000)


def test_unknown_kind_of_parameter_is_a_programming_error_naming_the_kind():
    with pytest.raises(AssertionError) as err:
        _parse_value("capital_cap", "colour", "1")
    assert err.value.args == ("colour",)


# ---------------------------------------------------------------- description, edition, version

def test_missing_description_and_edition_are_empty_and_do_not_change_the_version():
    data = regulation_data()
    bare = from_data(without(without(data, "description"), "edition"))
    empty = from_data(data | {"description": "", "edition": ""})
    assert (bare.description, bare.edition) == ("", "")
    assert (empty.description, empty.edition) == ("", "")
    assert bare.version == empty.version
    assert bare.version != load().version   # the description is content; the edition is not
    assert from_data(without(data, "edition")).version == load().version
    assert version_words(bare) == f"The regulation in force (fingerprint {bare.version})"


def test_amount_given_as_decimal_has_the_version_of_the_same_text():
    as_text = load().with_changes("v", "V", {"capital_cap": "800000"})
    as_decimal = load().with_changes("v", "V", {"capital_cap": Decimal("800000")})
    assert as_decimal.capital_cap == as_text.capital_cap == 80_000_000
    assert as_decimal.version == as_text.version


def test_with_changes_labels_the_variant_with_the_day_it_was_made():
    before = date.today()
    variant = load().with_changes("v", "V", {"capital_cap": "800000"})
    after = date.today()
    assert load().edition == "edition 1 of November 29, 2026"
    assert re.fullmatch(r"made [A-Z][a-z]+ [1-9][0-9]?, [0-9]{4}", variant.edition), variant.edition
    made = datetime.strptime(variant.edition, "made %B %d, %Y").date()
    assert before <= made <= after


# ---------------------------------------------------------------- words people read

def test_version_words_with_and_without_an_edition():
    rs = load()
    assert version_words(rs) == f"The regulation in force, edition 1 of November 29, 2026 (fingerprint {rs.version})"
    v = load("cap-800k")
    assert version_words(v) == ("Capital cap raised to $800,000 (later statute) (variant, not the regulation in force), "
                                f"edition 2 of December 1, 2026 (fingerprint {v.version})")


@pytest.mark.parametrize("label,edition,version,words", [
    ("Rules", "edition 2", "abc123", "Rules, edition 2 (fingerprint abc123)"),
    ("Rules", "", "abc123", "Rules (fingerprint abc123)"),
])
def test_edition_words(label, edition, version, words):
    assert edition_words(label, edition, version) == words


@pytest.mark.parametrize("ruleset_id,project_type,cents", [
    ("regulation", "master_plan", 1_500_000),
    ("regulation", "construction", 60_000_000),
    ("regulation", "equipment", 60_000_000),
    ("regulation", "MASTER_PLAN", 60_000_000),
    ("cap-800k", "master_plan", 1_500_000),
    ("cap-800k", "renovation", 80_000_000),
])
def test_program_max_by_project_type(ruleset_id, project_type, cents):
    assert load(ruleset_id).program_max(project_type) == cents


# ---------------------------------------------------------------- parameters as attributes

def test_ruleset_copies_and_pickles_whole():
    # copy and pickle look up attributes on an object whose fields are not set yet
    rs = load("cap-800k")
    for other in (copy.copy(rs), copy.deepcopy(rs), pickle.loads(pickle.dumps(rs))):
        assert isinstance(other, Ruleset) and other == rs and other.capital_cap == 80_000_000


def test_unknown_attribute_names_itself():
    with pytest.raises(AttributeError) as err:
        load().nope
    assert err.value.args == ("nope",)


# ---------------------------------------------------------------- load and its cache

def test_load_reads_the_shipped_file_when_not_cached(monkeypatch):
    monkeypatch.setattr(rulesets, "_CACHE", {})
    rs = load("cap-800k")
    assert isinstance(rs, Ruleset) and (rs.id, rs.capital_cap, rs.master_plan_cap) == ("cap-800k", 80_000_000, 1_500_000)
    assert rs.version == load_file(rulesets.HERE / "cap-800k.toml").version
    assert load("cap-800k") is rs and rulesets._CACHE == {"cap-800k": rs, "regulation": load("regulation")}


def test_load_refuses_a_file_whose_id_is_not_its_name(monkeypatch, tmp_path):
    (tmp_path / "regulation.toml").write_text(regulation_text(), encoding="utf-8")
    (tmp_path / "other.toml").write_text(regulation_text().replace('id = "regulation"', 'id = "elsewhere"', 1),
                                         encoding="utf-8")
    monkeypatch.setattr(rulesets, "HERE", tmp_path)
    monkeypatch.setattr(rulesets, "_CACHE", {})
    assert rulesets.available() == ["regulation", "other"]
    assert load("regulation").id == "regulation"
    with pytest.raises(RulesetError) as err:
        load("other")
    assert str(err.value) == "other.toml: its id is 'elsewhere'; file name and id must agree"
    assert "other" not in rulesets._CACHE


def test_load_file_reads_utf8(tmp_path):
    p = tmp_path / "r.toml"
    p.write_text(regulation_text().replace('title = "The regulation in force"', 'title = "Règlement § 1 — ü"', 1),
                 encoding="utf-8")
    assert load_file(p).title == "Règlement § 1 — ü"


# ---------------------------------------------------------------- load_text: size and depth edges

def padded(n: int) -> str:
    text = regulation_text()
    pad = n - len(text) - 2
    return text + "#" + "x" * pad + "\n"


def test_file_of_exactly_the_maximum_size_loads_one_more_is_refused():
    assert len(padded(MAX_TOML_CHARS)) == MAX_TOML_CHARS == 262_144
    assert load_text(padded(MAX_TOML_CHARS)).version == load().version
    with pytest.raises(RulesetError) as err:
        load_text(padded(MAX_TOML_CHARS + 1), "big.toml")
    assert str(err.value) == "big.toml: 262,145 characters; a ruleset file has at most 262,144"


@pytest.mark.parametrize("text,message", [
    # 11 arrays in the top table: 12 levels, allowed (then refused as an unknown key)
    ("x = " + "[" * 11 + "]" * 11, "x: unknown key; allowed: based_on, description, edition, id, kind, parameters, title"),
    ("x = " + "[" * 12 + "]" * 12, "r.toml: nested more than 12 levels deep; not a ruleset file"),
    # deep enough that the TOML reader itself runs out of stack
    ("x = " + "[" * 3000 + "]" * 3000, "r.toml: nested more than 12 levels deep; not a ruleset file"),
    ("x = " + "9" * 5000, "r.toml: cannot be read (Exceeds the limit (4300 digits) for integer string conversion: "
                          "value has 5000 di)"),
])
def test_load_text_refuses_whole(text, message):
    with pytest.raises(RulesetError) as err:
        load_text(text, "r.toml")
    assert str(err.value) == message


def test_a_variant_made_with_a_decimal_amount_is_written_as_text_and_read_back():
    """to_toml wrote a Decimal amount bare (`value = 800000.00`), a TOML float that load_text refuses."""
    from decimal import Decimal
    from core.law.rulesets import load, load_text, to_toml
    variant = load().with_changes("cap-dec", "Cap as a Decimal", {"capital_cap": Decimal("800000.00")})
    text = to_toml(variant)
    assert 'value = "800000.00"' in text.split("[parameters.capital_cap]")[1]
    back = load_text(text)
    assert back.version == variant.version and back.capital_cap == 80_000_000
