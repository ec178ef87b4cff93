"""The regulation ships inside the project (docs/regulation.txt, split into its paragraphs and
sentences with ids) with the project's own rules document (docs/rules.md). The registry
(core/law/provisions.toml) names every sentence the app quotes by its id; these tests hold the
split text to the original, the registry to the text, and every template to its values."""
import hashlib
import re
import string
from pathlib import Path

import pytest

from core.law import provisions as P
from core.law.readings import READINGS
from core.law.rulesets import RulesetError, available, from_data, load, load_text
from core.law.text import SENTENCES, TEXT, paragraph

ROOT = Path(__file__).resolve().parents[1]
# The regulation as received (one line, 2,275 characters): its SHA-256.
ORIGINAL_SHA256 = "f2ce41a59a1c632f14477b2ebeef420048e8cac44c220e1bc74aef5bf1351246"


def norm(s: str) -> str:
    return " ".join(s.split())


def test_the_split_text_is_the_original_character_for_character():
    assert len(TEXT) == 2_275 and hashlib.sha256(TEXT.encode("utf-8")).hexdigest() == ORIGINAL_SHA256
    assert list(SENTENCES)[:3] == ["A", "B", "C"] and len(SENTENCES) == 17


def test_the_regulation_and_the_rules_document_ship_with_the_project():
    assert TEXT.startswith("A grant for conversion, acquisition, renovation, equipment, or construction")
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for r in READINGS:
        assert f"`{r.id}`" in rules
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/regulation.txt" in readme and "docs/rules.md" in readme
    assert "../shared" not in readme and "shared/seed" not in readme


def test_provisions_without_a_sentence_say_so_and_quote_nothing():
    empty = {p.id for p in P.PROVISIONS if not p.text}
    assert empty == {"funding_need", "requested_amount"}
    for p in P.PROVISIONS:
        if not p.text:
            assert "No sentence of the regulation" in p.interpretation


def test_the_exception_conditions_are_the_sentences_of_paragraph_F():
    assert list(P.BPW_CONDITIONS) == ["bpw_project_type", "bpw_property_value", "bpw_no_state_funds",
                                      "bpw_no_state_debt"]
    assert list(P.BPW_CONDITIONS.values()) == [SENTENCES[f"F.{i}"] for i in range(1, 5)]


def test_reading_sentences_are_read_from_the_text():
    for r in READINGS:
        assert (not r.sentence) == (r.id == "funding_need_cap")
        assert r.provision in P.PROVISION and r.sentence == " ".join(SENTENCES[i] for i in r.sentences)


@pytest.mark.parametrize("rid", available())
def test_every_parameter_citation_is_in_the_regulation(rid):
    rs = load(rid)
    for p in rs.parameters.values():
        quoted = p.citation.split("The regulation reads: ", 1)[-1]
        assert norm(quoted) in TEXT, (rid, p.name)
        assert p.provision in P.PROVISION, (rid, p.name)
        if rs.is_variant and p.value != load(rs.based_on).parameters[p.name].value:
            assert p.citation.startswith("Variant value"), p.name  # a changed value says it is not the law


def test_paragraph_letters_follow_the_order_of_the_text_and_its_cross_references():
    """A to H in the order the paragraphs appear (the two maximums each a paragraph); §E must be
    the 50% of the remainder, to which §C's 50% limits yield ('Except as provided in §E'), and §F
    the Board's exception, to which §E's limit yields ('except as provided in §F')."""
    letters = list(dict.fromkeys(paragraph(s) for s in SENTENCES))
    assert letters == list("ABCDEFGH") == [k for k, _ in P.LETTERING]
    assert [p.paragraph for p in P.PROVISIONS if p.paragraph] == ["A–B", "C", "C", "D–E", "F", "G", "H"]
    assert SENTENCES["C"] == "Except as provided in §E of this regulation:"
    assert SENTENCES["E"].endswith("except as provided in §F of this regulation.")
    assert "may exceed 50 percent" in SENTENCES["F"]


def test_every_cap_has_one_entry_with_its_citations_colour_and_marker():
    assert P.CAP_IDS == ("program_max", "cost_share", "local_match", "property_value", "full_cost", "funding_need",
                         "prior_grant_room", "requested_amount")
    for cap in P.CAPS:
        assert cap.provision in P.PROVISION and "default" in cap.cites or cap.id in ("program_max", "cost_share")
        assert re.fullmatch(r"#[0-9a-f]{6}", cap.colour) and cap.marker
    assert len({c.marker for c in P.CAPS}) == len(P.CAPS) and len({c.colour for c in P.CAPS}) == len(P.CAPS)
    assert set(P.CAP["program_max"].cites) == {"capital", "master_plan"}
    assert set(P.CAP["cost_share"].cites) == {"whole", "remainder"}
    assert P.CAP["cost_share"].cites["whole"].sentences == (SENTENCES["C"] + " " + SENTENCES["C.1"],)


def _fields(template: str) -> set:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_template_names_only_values_the_explanation_gives():
    """Each template of the registry, with every value it may name: a slip in a {name} is caught here,
    not when a board member's case reaches that sentence."""
    given = {"cost", "federal", "remaining", "kind", "program_max", "local", "need", "reading", "prior", "ceiling",
             "room", "requested", "share", "of", "amount", "base", "required", "why", "value", "full_cost",
             "after", "exception", "standard", "binding", "short", "measured", "gap", "type", "types", "grant"}
    templates = [t for steps in P.STEPS.values() for t in steps.values()]
    templates += [t for c in P.CHECKS.values() for t in c.templates.values()]
    assert len(templates) == 50
    for t in templates:
        assert _fields(t) <= given, t
        t.format(**{k: "x" for k in given})


def test_the_registry_refuses_a_sentence_that_is_not_in_the_text(tmp_path, monkeypatch):
    with pytest.raises(P.RegistryError, match="provisions.x: no sentence 'Z.9' in docs/regulation.txt"):
        P._sentence_ids(["A", "Z.9"], "provisions.x")
    with pytest.raises(P.RegistryError, match="caps.y.cite.default: no sentence 'Q'"):
        P._citation(["Title", "Q"], "caps.y.cite.default")


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
