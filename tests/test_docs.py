"""The regulation ships inside the project (docs/regulation.txt) with the project's own rules
document (docs/rules.md). Every sentence the app quotes and every parameter citation is
checked against the shipped text; nothing here skips."""
import re
from pathlib import Path

import pytest

from core.law.provisions import BPW_CONDITIONS, PARAGRAPH, PROVISIONS, REMAINDER_SENTENCE
from core.law.readings import READINGS
from core.law.rulesets import RulesetError, available, from_data, load, load_text

ROOT = Path(__file__).resolve().parents[1]
TEXT = " ".join((ROOT / "docs" / "regulation.txt").read_text(encoding="utf-8").split())


def norm(s: str) -> str:
    return " ".join(s.split())


def test_the_regulation_and_the_rules_document_ship_with_the_project():
    assert TEXT.startswith("A grant for conversion, acquisition, renovation, equipment, or construction")
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rid in ("f_reference", "local_match_base", "local_match_effect", "funding_need_cap"):
        assert f"`{rid}`" in rules
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/regulation.txt" in readme and "docs/rules.md" in readme
    assert "../shared" not in readme and "shared/seed" not in readme


@pytest.mark.parametrize("prov", [p for p in PROVISIONS if p.text], ids=lambda p: p.id)
def test_every_provision_sentence_is_in_the_regulation(prov):
    assert norm(prov.text) in TEXT


def test_provisions_without_a_sentence_say_so_and_quote_nothing():
    empty = {p.id for p in PROVISIONS if not p.text}
    assert empty == {"funding_need", "requested_amount"}
    for p in PROVISIONS:
        if not p.text:
            assert "No sentence of the regulation" in p.interpretation


@pytest.mark.parametrize("check_id", list(BPW_CONDITIONS))
def test_every_exception_condition_sentence_is_in_the_regulation(check_id):
    assert norm(BPW_CONDITIONS[check_id]) in TEXT


def test_reading_sentences_and_the_remainder_sentence_are_in_the_regulation():
    assert norm(REMAINDER_SENTENCE) in TEXT
    for r in READINGS:
        assert (not r.sentence) == (r.id == "funding_need_cap")
        if r.sentence:
            assert norm(r.sentence) in TEXT


@pytest.mark.parametrize("rid", available())
def test_every_parameter_citation_is_in_the_regulation(rid):
    rs = load(rid)
    for p in rs.parameters.values():
        quoted = p.citation.split("The regulation reads: ", 1)[-1]
        assert norm(quoted) in TEXT, (rid, p.name)
        if rs.is_variant and p.value != load(rs.based_on).parameters[p.name].value:
            assert p.citation.startswith("Variant value"), p.name  # a changed value says it is not the law


def test_paragraph_letters_follow_the_order_of_the_text_and_its_cross_references():
    """A to H in the order the paragraphs appear (the two maximums each a paragraph); §E must be
    the 50% of the remainder, to which §C's 50% limits yield ('Except as provided in §E'), and §F
    the Board's exception, to which §E's limit yields ('except as provided in §F')."""
    from core.law.provisions import (CAPITAL_SENTENCE, EXCEPTION_SENTENCE, FEDERAL_FIRST_SENTENCE, LETTERING,
                                 MASTER_PLAN_SENTENCE, PROVISION)
    at = {"A": CAPITAL_SENTENCE, "B": MASTER_PLAN_SENTENCE, "C": PROVISION["cost_share"].text,
          "D": FEDERAL_FIRST_SENTENCE, "E": REMAINDER_SENTENCE, "F": EXCEPTION_SENTENCE,
          "G": PROVISION["prior_grant_room"].text, "H": PROVISION["considerations"].text}
    positions = [TEXT.index(norm(at[k])) for k, _ in LETTERING]
    assert [k for k, _ in LETTERING] == list("ABCDEFGH") and positions == sorted(positions)
    assert [p.paragraph for p in PROVISIONS if p.paragraph] == ["A–B", "C", "C", "D–E", "F", "G", "H"]
    assert "Except as provided in §E" in at["C"] and "except as provided in §F" in at["E"]
    assert "may exceed 50 percent" in at["F"]


def test_a_variant_holds_only_what_it_changes():
    text = (ROOT / "core" / "law" / "rulesets" / "cap-800k.toml").read_text(encoding="utf-8")
    keys = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(keys) <= 10
    assert re.findall(r"^\[parameters\.(\w+)\]", text, re.M) == ["capital_cap"]
    v, reg = load("cap-800k"), load()
    assert v.capital_cap == 80_000_000
    assert {n: p.value for n, p in v.parameters.items() if n != "capital_cap"} == \
        {n: p.value for n, p in reg.parameters.items() if n != "capital_cap"}
    assert v.parameters["capital_cap"].unit == reg.parameters["capital_cap"].unit  # keys inherited too


def test_a_delta_variant_names_its_base_and_the_full_form_has_the_same_version():
    delta = load_text('id = "half"\ntitle = "Half"\nkind = "variant"\nbased_on = "regulation"\n'
                      '[parameters.state_share]\nvalue = "0.40"\ncitation = "Variant value"\n')
    assert delta.state_share.numerator * 5 == delta.state_share.denominator * 2
    assert from_data(delta.to_data()).version == delta.version
    with pytest.raises(RulesetError, match="based_on: unknown ruleset 'nope'"):
        load_text('id = "x"\ntitle = "X"\nkind = "variant"\nbased_on = "nope"\n[parameters]\n')
