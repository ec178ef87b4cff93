"""Rulesets that arrive with imported scenarios (core/store/verify.py): one claiming a shipped
id or kind must equal it, else it is imported as a labelled variant."""
import json

import pytest

from core.law.rulesets import RulesetError, load, load_text, to_toml
from core.store.fileformat import parse_export
from tests.support import ROOT
from tests.support.pages import dashboard as start
from tests.support.store import url  # noqa: F401


HOSTILE = ROOT / "tests" / "fixtures" / "hostile"


def test_variant_ids_and_clashes(db):
    from core.law.names import variant_id
    assert variant_id("Café für Año") == "variant-cafe-fur-ano"
    assert variant_id("北京") .startswith("variant-") and len(variant_id("北京")) == 18
    assert variant_id("Cap 1.0") == variant_id("Cap 1-0")
    at = start(page="pages/rules.py")
    for title in ("Café für Año", "Cap 1.0", "Cap 1-0"):
        at.text_input[0].input(title)
        at.button[0].click().run()
    assert not at.exception
    assert [s.value.count("Made the variant") for s in at.success] == []   # the last one was refused
    error = next(e.value for e in at.error)
    assert "gives the id 'variant-cap-1-0', which another variant already has" in error.replace("\\", "")
    variants = at.session_state["variants"]
    assert list(variants) == ["variant-cafe-fur-ano", "variant-cap-1-0"]
    assert variants["variant-cap-1-0"].title == "Cap 1.0"                     # the first is kept, not replaced


def test_loaded_toml_may_not_take_a_shipped_id():
    from core.store.verify import accept_loaded_variant
    text = to_toml(load().with_changes("cap-800k", "Pretender", {"capital_cap": "900000"}))
    with pytest.raises(RulesetError, match="'cap-800k' is a ruleset shipped with the app"):
        accept_loaded_variant(load_text(text), {})
    mine = load_text(text.replace('id = "cap-800k"', 'id = "mine"'))
    assert accept_loaded_variant(mine, {}) is True
    assert accept_loaded_variant(mine, {"mine": mine}) is False              # the same file again: no change
    other = load().with_changes("mine", "Other", {"capital_cap": "1"})
    with pytest.raises(RulesetError, match="a different variant 'mine' is already loaded"):
        accept_loaded_variant(other, {"mine": mine})
    with pytest.raises(RulesetError, match="RIGHT-TO-LEFT OVERRIDE"):   # refused as the ruleset is read
        load().with_changes("bidi", "evil\u202e", {"capital_cap": "1"})


def test_altered_regulation_is_imported_as_a_labelled_variant(db):
    from core.report.html import Item, Report, render
    from core.store.verify import relabelled
    good, errors = parse_export(json.loads((HOSTILE / "regulation_claim.json").read_text()))
    assert not errors and len(good) == 1
    sc = good[0]
    assert sc.ruleset_id == "imported-regulation" and sc.ruleset_data["kind"] == "variant"
    assert "capital_cap $5,000,000 (shipped: $600,000)" in relabelled(sc.ruleset_data)
    award = sc.award()
    assert award.is_variant and "not the regulation in force" in award.ruleset_label
    doc = render(Report([Item(sc.name, award)]))
    assert "Ruleset: The regulation in force (fingerprint" not in doc
    # the id appears only in the table of the names the data files use, beside the variant's label
    assert "Policy variant" in doc and "<code>ruleset imported-regulation</code>" in doc


def test_altered_shipped_variant_and_honest_copies(db):
    from core.store.verify import verified
    good, _ = parse_export(json.loads((HOSTILE / "variant_claim.json").read_text()))
    assert good[0].ruleset_id == "imported-cap-800k" and good[0].award().amount == 90_000_000
    # the shipped data itself, and the same values in older wording, keep their id
    assert verified(load())[0] is load() and verified(load("cap-800k"))[1] is None
    data = load().to_data()
    data["parameters"]["capital_cap"]["citation"] = "older wording of the same rule"
    from core.law.rulesets import from_data
    same, note = verified(from_data(data))
    assert same.id == "regulation" and note is None
    # a ruleset of its own id that calls itself the regulation
    data = load().to_data() | {"id": "my-law", "title": "The regulation in force"}
    data["parameters"]["state_share"]["value"] = "0.9"
    relabel, note = verified(from_data(data))
    assert relabel.is_variant and relabel.id == "imported-my-law" and "state_share 90%" in note
