from pathlib import Path

import pytest

from core.rulesets import RulesetError, available, load, load_file, load_text



def regulation_text():
    from core.rulesets import HERE
    return (HERE / "regulation.toml").read_text()


def test_regulation_values_and_citations():
    rs = load()
    assert (rs.capital_cap, rs.master_plan_cap, rs.prior_grant_ceiling) == (60_000_000, 1_500_000, 30_000_000)
    assert str(rs.state_share) == "1/2" and str(rs.local_share) == "1/2"
    assert rs.bpw_eligible_types == ("conversion", "renovation", "construction")
    text = (Path(__file__).resolve().parents[1] / "docs" / "regulation.txt").read_text()   # shipped: never skips
    for p in rs.parameters.values():
        assert p.citation and p.unit and p.description
        assert p.citation in text, p.name  # every citation is the regulation's own sentence
    assert not rs.is_variant and len(rs.version) == 12


def test_shipped_variant_is_labelled():
    assert available() == ["regulation", "cap-800k"]
    v = load("cap-800k")
    assert v.is_variant and v.capital_cap == 80_000_000 and v.based_on == "regulation"
    assert v.label.endswith("(variant, not the regulation in force)")
    assert v.version != load().version


def test_version_changes_with_content():
    text = regulation_text()
    assert load_text(text).version == load().version
    assert load_text(text.replace('value = "0.50"', 'value = "0.60"', 1)).version != load().version


@pytest.mark.parametrize("change,message", [
    (('value = "0.50"', 'value = "1.50"'), "parameters.state_share.value: '1.50' is outside 0..1"),
    (('value = "0.50"', 'value = "-0.1"'), "parameters.state_share.value: '-0.1' is outside 0..1"),
    (('value = "600000.00"', 'value = "-5"'), "parameters.capital_cap.value: '-5' is negative"),
    (('value = "600000.00"', 'value = 600000.5'), "parameters.capital_cap.value: write money as a string"),
    (('value = "600000.00"', 'value = true'), "parameters.capital_cap.value: True is not an amount"),
    (('unit = "USD"', 'unit = "USD"\nunits = "x"'), "parameters.capital_cap.units: unknown key"),
    (('kind = "regulation"', 'kind = "regulation"\ncolour = "red"'), "colour: unknown key"),
    (('value = ["conversion", "renovation", "construction"]', 'value = ["conversion", "castle"]'),
     "parameters.bpw_eligible_types.value: unknown project type 'castle'"),
    (('[parameters.state_share]', '[parameters.state_share]\nvalue = "0.4"'), "Cannot overwrite a value"),
    (('[parameters.local_share]', '[parameters.bonus]\nvalue = 1\n[parameters.local_share]'), "parameters.bonus: unknown parameter"),
    (('kind = "regulation"', 'kind = "law"'), "kind: 'law' must be one of regulation, variant"),
])
def test_loader_rejects_bad_files_naming_the_key(change, message):
    with pytest.raises(RulesetError) as err:
        load_text(regulation_text().replace(*change, 1))
    assert message in str(err.value)


def test_missing_parameter_and_citation():
    text = regulation_text()
    start = text.index("[parameters.local_share]")
    end = text.index("[parameters.prior_grant_ceiling]")
    with pytest.raises(RulesetError, match="parameters.local_share: missing"):
        load_text(text[:start] + text[end:])
    with pytest.raises(RulesetError, match="citation: every value needs its citation"):
        load_text(text.replace('citation = "A grant for the development of a master plan may not exceed $15,000."', 'citation = " "'))


def test_with_changes_makes_a_validated_variant():
    v = load().with_changes("cap-1m", "Cap at $1,000,000", {"capital_cap": "1000000"})
    assert v.is_variant and v.capital_cap == 100_000_000 and "was '600000.00'" in v.parameters["capital_cap"].citation
    with pytest.raises(RulesetError, match="parameters.state_share.value"):
        load().with_changes("bad", "Bad", {"state_share": "2"})
    with pytest.raises(RulesetError, match="parameters.nope: unknown parameter"):
        load().with_changes("bad", "Bad", {"nope": 1})


def test_unknown_ruleset_id():
    with pytest.raises(RulesetError, match="unknown id 'nope'"):
        load("nope")


def test_load_file_round_trip(tmp_path):
    p = tmp_path / "regulation.toml"
    p.write_text(regulation_text())
    assert load_file(p).version == load().version


@pytest.mark.parametrize("key, value, problem", [
    ("edition", "edition 1 \u202e of 2026", "U+202E RIGHT-TO-LEFT OVERRIDE) at position 11"),
    ("edition", "line\nbreak", "control character (U+000A"),
    ("edition", "e" * 121, "121 characters long; at most 120"),
    ("edition", "   ", "is empty"),
    ("title", "Cap \u200braised", "U+200B ZERO WIDTH SPACE"),
    ("title", "t" * 201, "201 characters long; at most 200"),
])
def test_a_rulesets_labels_refuse_hidden_characters_and_length(key, value, problem):
    """Issue 30, finding 6: a TOML variant's edition (a raw right-to-left override reversed the
    caption) and an imported ruleset's edition were taken unchecked."""
    import re
    import json
    text = re.sub(rf'^{key} = .*$', lambda _: f'{key} = {json.dumps(value)}', regulation_text(), count=1,
                  flags=re.M).replace('kind = "regulation"', 'kind = "variant"').replace('id = "regulation"', 'id = "v"')
    with pytest.raises(RulesetError, match=re.escape(f"{key}: ") + ".*" + re.escape(problem)):
        load_text(text)


def test_a_rulesets_labels_may_hold_any_printable_text():
    import re
    text = re.sub(r'^edition = .*$', 'edition = "ed. :material/skull: https://e.x/ 北京"', regulation_text(),
                  count=1, flags=re.M)
    assert load_text(text).edition == "ed. :material/skull: https://e.x/ 北京"   # shown inert (ui/text.py)
