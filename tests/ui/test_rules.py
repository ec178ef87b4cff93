"""The Rules page in AppTest: variants' names shown literally everywhere."""
import re

import pytest


from tests.support.pages import dashboard as start
from core.law.rulesets import load, to_toml
from tests.support.store import url  # noqa: F401


CODE = re.compile(r"(`+) .*? \1", re.S)


def outside_code(markdown: str) -> str:
    """What Markdown would interpret: everything but the code spans."""
    return CODE.sub("", markdown)


def test_variant_names_literal_everywhere_on_the_rules_page(db):
    at = start(page="pages/rules.py")
    at.text_input[0].input("![x](https://example.com/i.png) $$x$$")
    at.button[0].click().run()   # the form's submit button
    assert not at.exception
    made = next(s.value for s in at.success)
    assert "example" not in outside_code(made) and "$$" not in outside_code(made)
    label = next(b.label for b in at.get("download_button") if "ruleset file" in b.label)
    assert "example" not in outside_code(label)
    assert any("variant-x-https-example-com-i-png-x" in o for o in at.multiselect(key="w:rules_cmp").value)


def test_the_variant_editor_has_one_input_per_parameter_of_the_ruleset_table(db):
    from fractions import Fraction

    from core.law.rulesets import PARAMETERS
    at = start(page="pages/rules.py")
    def shown(label: str) -> str:   # a label as the browser reads it out: as given (issue 48: no escapes)
        return label

    labels = [shown(w.label) for w in [*at.text_input, *at.number_input, *at.multiselect, *at.selectbox]]
    # one input per parameter of the registry, labelled with its unit; the shipped ones among them
    inputs = sorted(label for label in labels if label not in ("Variant name", "Rulesets", "Start from", "Ruleset"))
    assert inputs == sorted(label + {"money": " ($)", "share": " (%)"}.get(kind, "") for kind, label in PARAMETERS.values())
    assert {"Capital maximum ($)", "Federal grant applied first", "Limit for earlier grantees ($)", "Local share (%)",
            "Master-plan maximum ($)", "Project types that need the surplus-building certification",
            "Project types the Board exception covers", "State share (%)", "Test of the Board exception"} <= set(inputs)
    assert len(labels) - 4 == len(PARAMETERS)   # one input per parameter of the registry, never a pinned count
    at.text_input[0].input("Cap raised")
    next(t for t in at.text_input if shown(t.label) == "Capital maximum ($)").input("800,000")
    next(n for n in at.number_input if shown(n.label) == "State share (%)").set_value(60.0)
    at.button[0].click().run()
    assert not at.exception and not at.error
    variant = at.session_state["variants"]["variant-cap-raised"]
    assert (variant.number("capital_cap"), variant.number("master_plan_cap"), variant.number("state_share")) == (80_000_000, 1_500_000, Fraction(3, 5))


def test_a_loaded_variants_edition_is_shown_inert_and_one_with_hidden_characters_refused(db):
    from tests.support.text import interpreted
    text = to_toml(load().with_changes("mine", "Mine", {"capital_cap": "900000"}))
    hostile = text.replace(text.split("edition = ")[1].split("\n")[0],
                           '"ed. :material/skull: https://134744072/x **b** $x$"')
    at = start(page="pages/rules.py")
    at.file_uploader(key="w:variant_file").upload("mine.toml", hostile.encode(), "application/toml").run()
    assert not at.exception
    assert any("Loaded the variant" in s.value for s in at.success)
    from core.law.rulesets import edition_words
    from ui.text import md
    shown = md(edition_words("", at.session_state["variants"]["mine"].edition, "x"))   # the calculator's caption
    assert interpreted(shown) == [] and ":\u2060material/skull:" in shown
    bidi = text.replace(text.split("edition = ")[1].split("\n")[0], '"ed. \u202e 2"').replace('id = "mine"',
                                                                                             'id = "mine2"')
    at.file_uploader(key="w:variant_file").upload("bidi.toml", bidi.encode(), "application/toml").run()
    refused = next(e.value for e in at.error if "Not loaded" in e.value)
    assert "RIGHT-TO-LEFT OVERRIDE" in refused and "\u202e" not in refused


def test_an_uploaded_ruleset_with_a_huge_number_says_where_and_what_to_write(db):
    """Issue 36: the page showed Python's words cut mid-word ("... value has 5000 di)")."""
    text = to_toml(load().with_changes("mine", "Mine", {"capital_cap": "900000"}))
    huge = text.replace('value = "900000"', "value = " + "9" * 5000)
    at = start(page="pages/rules.py")
    at.file_uploader(key="w:variant_file").upload("huge.toml", huge.encode(), "application/toml").run()
    assert not at.exception
    refused = next(e.value for e in at.error if "Not loaded" in e.value).replace("\\", "")
    line = huge[:huge.index("9" * 5000)].count("\n") + 1
    assert f"line {line} holds a number of 5,000 digits, too long for an amount or a share" in refused
    assert "write money as dollars, such as \"600000.00\"" in refused
    assert "Exceeds the limit" not in refused and "set_int_max_str_digits" not in refused


def test_the_rules_page_says_once_that_the_letters_are_inferred(db):
    at = start(page="pages/rules.py")
    shown = " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown)
    assert shown.count("the regulation as received carries none") == 1


def test_the_rules_page_shows_each_numbers_history_with_its_sources(db):
    at = start(page="pages/rules.py")
    assert not at.exception
    shown = re.sub(r"\\(.)", r"\1", " ".join(str(c) for t in at.table for c in t.value.to_numpy().ravel()))
    for words in ("1984-07-01", "Acts of 1984", "1986-07-01", "Acts of 1987, ch. 436", "2007-10-01",
                  "Human Services § 10-504(a)(2), current as of 2025", "When $800,000 took effect was not found"):
        assert words in shown, words
    assert any("was not read whole" in re.sub(r"\\(.)", r"\1", m.value) for m in at.markdown)


def test_the_variant_editors_labels_and_choices_read_as_plain_words(db):
    """Issue 48: the accessible names read "Capital maximum \\(\\$\\)", "Master\\-plan maximum \\(\\$\\)":
    a text box's label is its accessible name as given, unrendered."""
    at = start(page="pages/rules.py")
    form = [*at.text_input, *at.number_input, *at.selectbox, *at.multiselect]
    assert {"Capital maximum ($)", "Master-plan maximum ($)", "Limit for earlier grantees ($)", "State share (%)",
            "Local share (%)", "Test of the Board exception"} <= {w.label for w in form}
    assert not [w.label for w in form if "\\" in w.label]
    test = next(s for s in at.selectbox if s.label == "Test of the Board exception")
    assert "\\" not in "".join(test.options) and "no Board exception" in test.options


def make_cap_raised(at):
    at.text_input[0].input("Cap raised")
    next(t for t in at.text_input if t.label == "Capital maximum ($)").input("1,000,000")
    at.button[0].click().run()
    assert not at.exception and not at.error
    return at


def test_a_made_variant_is_in_the_sidebar_at_once_and_kept_in_the_library(db):
    """Issue 48: a variant made on the Rules page was not listed in the sidebar until the next run,
    and was gone after a reload or in a new session."""
    at = make_cap_raised(start(page="pages/rules.py"))
    assert "Cap raised (variant, not the regulation in force)" in at.selectbox(key="w:ruleset").options   # this run
    kept = db.variants().get("variant-cap-raised")
    assert (kept.ruleset.title, kept.ruleset.number("capital_cap"), kept.owner) == ("Cap raised", 100_000_000, "local")
    assert any("kept it in the library" in s.value for s in at.success)
    # a new session (a reload): listed, and a link opens the Calculator under it
    again = start({"ruleset": "variant-cap-raised", "project_type": "renovation", "eligible_cost": "3000000",
                   "local_contribution": "1500000"})
    assert "Cap raised (variant, not the regulation in force)" in again.selectbox(key="w:ruleset").options
    assert again.selectbox(key="w:ruleset").value == "variant-cap-raised"
    assert not [w for w in again.warning if w.icon == ":material/link_off:"]   # the link read whole
    assert next(m.value for m in again.metric if m.label == "State grant award") == "$1,000,000"


def test_a_kept_variant_is_deleted_and_restored_from_the_rules_page(db):
    at = make_cap_raised(start(page="pages/rules.py"))
    at.button(key="w:variant_del:variant-cap-raised").click().run()
    assert not at.exception and db.variants().list() == []
    assert "variant-cap-raised" not in at.session_state["variants"]
    gone = db.variants().history("variant-cap-raised")[-1]
    at.button(key=f"w:variant_restore:{gone.id}").click().run()
    assert not at.exception and [k.id for k in db.variants().list()] == ["variant-cap-raised"]
    assert [e.action for e in db.variants().history()] == ["save", "delete", "restore"]


def test_a_variant_loaded_from_a_file_is_kept_once(db):
    v = load().with_changes("mine", "Mine", {"capital_cap": "900000"})
    at = start(page="pages/rules.py")
    at.file_uploader(key="w:variant_file").upload("mine.toml", to_toml(v).encode(), "application/toml").run()
    assert not at.exception and "Mine (variant, not the regulation in force)" in at.selectbox(key="w:ruleset").options
    at.run()   # the file still in the box: not kept again
    assert [e.action for e in db.variants().history()] == ["save"]


def test_the_boards_view_of_the_rules_page_has_words_not_code_names(db):
    """Issue 51: the Rules page showed "fingerprint 698739a14092" and "parameter capital_cap, unit:
    USD"; they are kept for programs in a closed "For programs" box, and out of presentation mode."""
    reg = load()
    at = start(page="pages/rules.py")
    boxes = [e for e in at.expander if e.label.startswith("For programs")]
    (box,) = boxes
    kept = {m.value for m in box.markdown}
    words = " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown if m.value not in kept)
    assert "fingerprint" not in words and "capital_cap" not in words and "unit: USD" not in words
    assert "$600,000" in words
    inside = " ".join(m.value for m in box.markdown) + box.table[0].value.to_string()
    assert reg.version in inside and "capital_cap" in inside
    at.toggle(key="presentation").set_value(True).run()
    assert not [e for e in at.expander if e.label.startswith("For programs")]
    assert reg.version not in " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown)


# --- a provision some laws lack (a parameter whose declared default is "none") ----------------------

NEW_CAP = "solar_cap"


@pytest.fixture
def none_by_default(monkeypatch, tmp_path):
    """A new cap's number, added as docs/architecture.md's recipe adds one: `default = "none"` in the
    registry's [parameters] (a law that does not set it has no such provision). Returns a function that
    gives the regulation a value for it, as the recipe's regulation.toml does."""
    import shutil

    from core.law import provisions, rulesets
    monkeypatch.setitem(provisions.PARAMETERS, NEW_CAP, ("money", "Solar-panel maximum"))
    monkeypatch.setitem(provisions.DEFAULTS, NEW_CAP, "none")
    monkeypatch.setitem(provisions.DEFAULT_ENTRIES, NEW_CAP, {
        "value": "none", "unit": "USD", "provision": "program_max",
        "description": "Most a solar-panel grant may be", "citation": "A number added for a test"})
    monkeypatch.setitem(rulesets.PARAMETER_KINDS, NEW_CAP, "money")
    monkeypatch.setattr(rulesets, "_CACHE", {})

    def give_the_regulation(dollars: str):
        folder = tmp_path / "rulesets"
        shutil.copytree(rulesets.HERE, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
        reg = folder / "regulation.toml"
        reg.write_text(reg.read_text(encoding="utf-8") + f'\n[parameters.{NEW_CAP}]\nvalue = "{dollars}"\n'
                       'unit = "USD"\nprovision = "program_max"\ndescription = "Most a solar-panel grant may be"\n'
                       'citation = "A number added for a test"\n', encoding="utf-8")
        monkeypatch.setattr(rulesets, "HERE", folder)
        rulesets._CACHE.clear()

    yield give_the_regulation
    rulesets._CACHE.clear()


def _switch(at):
    return next(c for c in at.checkbox if c.label == "Solar-panel maximum in this law")


def test_a_number_absent_by_default_shows_as_not_in_this_law_and_can_be_turned_on(db, none_by_default):
    """Issue 50: the variant form raised a TypeError on a parameter whose value is "none"."""
    at = start(page="pages/rules.py")
    assert not at.exception
    assert _switch(at).value is False
    box = next(t for t in at.text_input if t.label == "Solar-panel maximum ($)")
    assert (box.value, box.placeholder) == ("", "not in this law")
    at.text_input[0].input("Solar cap on")
    _switch(at).check()
    next(t for t in at.text_input if t.label == "Solar-panel maximum ($)").input("50,000")
    at.button[0].click().run()
    assert not at.exception and not at.error
    variant = at.session_state["variants"]["variant-solar-cap-on"]
    assert (variant.number(NEW_CAP), variant.number("capital_cap")) == (5_000_000, 60_000_000)


def test_a_number_absent_by_default_can_be_turned_off(db, none_by_default):
    none_by_default("100000.00")
    at = start(page="pages/rules.py")
    assert _switch(at).value is True
    assert next(t for t in at.text_input if t.label == "Solar-panel maximum ($)").value == "100,000"
    at.text_input[0].input("Solar cap off")
    _switch(at).uncheck()
    at.button[0].click().run()
    assert not at.exception and not at.error
    variant = at.session_state["variants"]["variant-solar-cap-off"]
    assert (variant.number(NEW_CAP), variant.number("capital_cap")) == (None, 60_000_000)
    assert load().number(NEW_CAP) == 10_000_000   # the regulation keeps its number


def test_only_a_number_some_laws_lack_has_the_switch(db):
    """The regulation (the form's first base) has every number; only an amount or share the registry
    declares absent by default (a provision some laws lack) gets the switch."""
    from core.law.provisions import DEFAULTS, PARAMETERS
    at = start(page="pages/rules.py")
    lacking = [f"{label} in this law" for pid, (kind, label) in PARAMETERS.items()
               if kind in ("money", "share") and DEFAULTS.get(pid) == "none"]
    assert [c.label for c in at.checkbox if c.label.endswith(" in this law")] == lacking
