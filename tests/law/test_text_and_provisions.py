"""The regulation's split text (docs/regulation.txt) against the original, and the registry
(core/law/provisions.toml) against the text: sentences by id, letters, citations, templates."""
import hashlib
import re
import string
import tomllib

import pytest

from core.law import provisions as P
from core.law.award import evaluate
from core.law.readings import READINGS
from core.law.text import SENTENCES, TEXT, paragraph
from tests.support.builders import conversion


# The regulation as received (one line, 2,275 characters): its SHA-256.
ORIGINAL_SHA256 = "f2ce41a59a1c632f14477b2ebeef420048e8cac44c220e1bc74aef5bf1351246"


def test_the_split_text_is_the_original_character_for_character():
    assert len(TEXT) == 2_275 and hashlib.sha256(TEXT.encode("utf-8")).hexdigest() == ORIGINAL_SHA256
    assert list(SENTENCES)[:3] == ["A", "B", "C"] and len(SENTENCES) == 17


def test_provisions_without_a_sentence_say_so_and_quote_nothing():
    empty = {p.id for p in P.PROVISIONS if not p.text}
    assert {"funding_need", "requested_amount"} <= empty   # a new interpretation may join them
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
    shipped = ("program_max", "cost_share", "local_match", "property_value", "full_cost", "funding_need",
               "prior_grant_room", "requested_amount")
    assert [c for c in P.CAP_IDS if c in shipped] == list(shipped)   # in this order; a new cap may join them
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
             "after", "exception", "standard", "binding", "short", "measured", "gap", "type", "types", "grant", "conditions", "is_are", "more", "question",
             "once", "funds", "sources", "residual", "total", "match", "debt", "other", "day",
             "source", "law", "purpose"}
    templates = [t for steps in P.STEPS.values() for t in steps.values()]
    templates += [t for c in P.CHECKS.values() for t in c.templates.values()]
    # every template of the file is here (the 71 shipped at least: a new step or check may add its own)
    raw = tomllib.loads(P.REGISTRY.read_text(encoding="utf-8"))
    assert len(templates) >= 71 and sorted(templates) == sorted(
        [t for steps in raw["steps"].values() for t in steps.values()]
        + [t for c in raw["checks"].values() for k, t in c.items() if k not in ("label", "provision", "sentence")])
    for t in templates:
        assert _fields(t) <= given, t
        t.format(**{k: "x" for k in given})


def test_the_registry_refuses_a_sentence_that_is_not_in_the_text(tmp_path, monkeypatch):
    with pytest.raises(P.RegistryError, match="provisions.x: no sentence 'Z.9' in docs/regulation.txt"):
        P._sentence_ids(["A", "Z.9"], "provisions.x")
    with pytest.raises(P.RegistryError, match="caps.y.cite.default: no sentence 'Q'"):
        P._citation(["Title", "Q"], "caps.y.cite.default")


def test_with_a_federal_grant_the_remainder_sentence_is_cited():
    from core.law.provisions import citation
    a = evaluate(conversion(eligible_cost=1_000_000, federal_grant=400_000, local_contribution=300_000))
    cited = citation("cost_share", a)
    assert cited.paragraph == "E" and any("remaining after the federal grant has been applied" in s
                                          for s in cited.sentences)
    plain_case = citation("cost_share", evaluate(conversion(eligible_cost=1_000_000, local_contribution=500_000)))
    assert plain_case.paragraph == "C" and not any("remaining after" in s for s in plain_case.sentences)


def test_funding_need_is_not_quoted_as_a_sentence_of_the_regulation():
    from core.law.provisions import PROVISION
    assert PROVISION["funding_need"].text == ""
    assert PROVISION["requested_amount"].text == ""
