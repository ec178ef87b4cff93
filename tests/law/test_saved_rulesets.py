"""Rulesets across releases (core/law/rulesets/saved.py): a saved variant keeps the numbers and the
fingerprint it was saved with when its base gains a number; a saved ruleset of a newer release is read
without the numbers this release does not know, and says so; a number read by its name
(core/law/rulesets/definitions.py)."""
from __future__ import annotations

import shutil

import pytest

import core.law.rulesets as rulesets
from core.law import provisions
from core.law.rulesets import RulesetError, available, from_data, load, read_saved

NEW = "added_cap"
ENTRY = {"unit": "USD", "provision": "program_max", "description": "Most an equipment-only grant may be",
         "citation": "A number added after the library was saved"}


@pytest.fixture
def base_gains_a_number(monkeypatch, tmp_path):
    """The shipped rulesets after a maintainer adds a cap as docs/architecture.md says: the number in the
    registry with `default = "none"` (a saved ruleset without it has no such provision), and its value
    in regulation.toml. Yields the data of scenarios saved before: cap-800k's and a variant made on the
    Rules page, each as the library keeps it (Ruleset.to_data), with its fingerprint."""
    saved = {"cap-800k": load("cap-800k"),
             "my-cap": load().with_changes("my-cap", "My cap", {"capital_cap": "700000"})}
    saved = {rid: (rs.to_data(), rs.version) for rid, rs in saved.items()}
    folder = tmp_path / "rulesets"
    shutil.copytree(rulesets.HERE, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    reg = folder / "regulation.toml"
    reg.write_text(reg.read_text(encoding="utf-8") + f'\n[parameters.{NEW}]\nvalue = "100000.00"\n'
                   + "".join(f'{k} = "{v}"\n' for k, v in ENTRY.items()), encoding="utf-8")
    monkeypatch.setattr(rulesets, "HERE", folder)
    monkeypatch.setitem(rulesets.PARAMETER_KINDS, NEW, "money")
    monkeypatch.setitem(provisions.PARAMETERS, NEW, ("money", "Equipment maximum"))
    monkeypatch.setitem(provisions.DEFAULTS, NEW, "none")
    monkeypatch.setitem(provisions.DEFAULT_ENTRIES, NEW, {"value": "none"} | ENTRY)
    monkeypatch.setattr(rulesets, "_CACHE", {})
    yield saved
    rulesets._CACHE.clear()


def test_a_saved_variant_keeps_its_numbers_and_fingerprint_when_its_base_gains_a_number(base_gains_a_number):
    """Issue 50: a saved cap-800k scenario took the base's new number into its fingerprint, silently."""
    data, version = base_gains_a_number["cap-800k"]
    rs = read_saved(data)
    assert rs.version == version
    assert (rs.number("capital_cap"), rs.number("master_plan_cap"), rs.number(NEW)) == (80_000_000, 1_500_000, 10_000_000)
    assert rs.notes == ("This saved ruleset has no equipment maximum (it was saved before that number was added): "
                        "read from the shipped ruleset 'cap-800k' (Capital cap raised to $800,000 (later statute)).",)
    assert NEW not in rs.to_data()["parameters"] and read_saved(rs.to_data()).version == version   # re-saved: the same


def test_a_variant_made_on_the_rules_page_keeps_its_fingerprint_and_reads_the_new_number_from_its_base(
        base_gains_a_number):
    data, version = base_gains_a_number["my-cap"]
    rs = read_saved(data)
    assert (rs.version, rs.number("capital_cap"), rs.number(NEW)) == (version, 70_000_000, 10_000_000)
    assert rs.notes == ("This saved ruleset has no equipment maximum (it was saved before that number was added): "
                        "read from the shipped ruleset 'regulation' (The regulation in force).",)


def test_a_variant_file_follows_its_base(base_gains_a_number):
    """A file holds only what it changes: it takes the base's new number, and a new fingerprint."""
    data, version = base_gains_a_number["cap-800k"]
    shipped = load("cap-800k")
    assert shipped.number(NEW) == 10_000_000 and shipped.version != version and shipped.notes == ()
    assert from_data(data).version == shipped.version   # the same data, read as a file: as the shipped one


def test_a_saved_ruleset_of_a_newer_release_is_read_without_the_number_it_does_not_know():
    data = load("cap-800k").to_data()
    newer = data | {"parameters": data["parameters"] | {"in_kind_cap": {"value": "5.00"} | ENTRY}}
    with pytest.raises(RulesetError, match="parameters.in_kind_cap: unknown parameter"):
        from_data(newer)   # a file loaded by hand is checked whole
    rs = read_saved(newer)
    assert rs.number("capital_cap") == 80_000_000 and rs.version == load("cap-800k").version
    assert rs.notes == ("Saved by a newer release of this tool: the number 'in_kind_cap' not read by this "
                        "release (the award is worked out without it); the saved ruleset is kept as it was.",)
    assert "in_kind_cap" in newer["parameters"]   # the saved data itself untouched
    newer = newer | {"region": "north", "parameters": newer["parameters"] | {
        "state_share": newer["parameters"]["state_share"] | {"rounding": "down"}}}
    assert read_saved(newer).notes == (
        "Saved by a newer release of this tool: the key 'region', the key 'rounding' of the State share, the "
        "number 'in_kind_cap' not read by this release (the award is worked out without it); the saved ruleset is "
        "kept as it was.",)


def test_a_number_is_read_by_its_name_and_an_unknown_name_is_an_error_naming_it_and_the_ruleset():
    assert load().number("capital_cap") == 60_000_000
    with pytest.raises(RulesetError) as err:
        load("cap-800k").number("capital_cpa")
    assert str(err.value).startswith("parameters.capital_cpa: no such parameter in the ruleset 'cap-800k' "
                                     "(Capital cap raised to $800,000 (later statute)); its parameters: capital_cap, ")
    with pytest.raises(AttributeError, match=r"capital_cap: a parameter of the ruleset, read with \.number"):
        load().capital_cap


@pytest.mark.parametrize("ruleset_id", available())
@pytest.mark.parametrize("project_type", ["conversion", "construction", "master_plan"])
def test_the_program_maximum_is_the_largest_award_where_no_other_maximum_holds_for_one_type(ruleset_id, project_type):
    rs = load(ruleset_id).as_of("2026-12-01") if load(ruleset_id).is_dated else load(ruleset_id)
    expected = {"regulation": (60_000_000, 1_500_000), "cap-800k": (80_000_000, 1_500_000),
                "statute": (80_000_000, 1_500_000)}[ruleset_id]
    assert rs.program_maximum(project_type) == expected[project_type == "master_plan"]
    assert rs.largest_award(project_type) == rs.program_maximum(project_type)


def test_the_program_maximum_is_not_the_largest_award_where_a_type_has_its_own_maximum(base_gains_a_number):
    """Issue 50: program_max() returned the least cap, not the program maximum. (The added number is
    not a cap of core/law/caps.py here: the largest award is the caps' to say.)"""
    rs = load()
    assert (rs.program_maximum("equipment"), rs.number(NEW)) == (60_000_000, 10_000_000)


def test_every_number_read_by_name_in_the_code_is_a_parameter_of_the_registry():
    """The numbers are read as rs.number("NAME"): grep finds every reader of a number, and this test
    finds a name the registry (core/law/provisions.toml [parameters]) does not have before a user does."""
    import re

    from tests.support import ROOT
    read = {}
    for folder in ("core", "ui", "pages"):
        for path in (ROOT / folder).rglob("*.py"):
            for name in re.findall(r"\.number\(['\"](\w+)['\"]\)", path.read_text(encoding="utf-8")):
                read.setdefault(name, path.relative_to(ROOT).as_posix())
    assert {"capital_cap", "state_share", "bpw_test"} <= set(read)
    assert {n: p for n, p in read.items() if n not in provisions.PARAMETERS} == {}
