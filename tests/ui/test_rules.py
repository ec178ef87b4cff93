"""The Rules page in AppTest: variants' names shown literally everywhere."""
import re


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
    def shown(label: str) -> str:   # a label as the page shows it (md() escapes Markdown's characters)
        return re.sub(r"\\(.)", r"\1", label)

    labels = [shown(w.label) for w in [*at.text_input, *at.number_input, *at.multiselect, *at.selectbox]]
    assert sorted(label for label in labels if label not in ("Variant name", "Rulesets", "Start from", "Ruleset")) == \
        ["Capital maximum ($)", "Limit for earlier grantees ($)", "Local share (%)", "Master-plan maximum ($)",
         "Project types that need the surplus-building certification", "Project types the Board exception covers",
         "State share (%)", "Test of the Board exception"]
    assert len(labels) - 4 == len(PARAMETERS)   # one input per parameter of the registry, never a pinned count
    at.text_input[0].input("Cap raised")
    next(t for t in at.text_input if shown(t.label) == "Capital maximum ($)").input("800,000")
    next(n for n in at.number_input if shown(n.label) == "State share (%)").set_value(60.0)
    at.button[0].click().run()
    assert not at.exception and not at.error
    variant = at.session_state["variants"]["variant-cap-raised"]
    assert (variant.capital_cap, variant.master_plan_cap, variant.state_share) == (80_000_000, 1_500_000, Fraction(3, 5))


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
