"""core/names.py: names people type, checked once at the edge; text shown with its hidden characters visible."""
import re

import pytest

from core.law.money import ValidationError
from core.law.names import check_text, hidden_character, slug, variant_id, visible


@pytest.mark.parametrize("ch, kind", [
    ("\u2028", "a line separator (U+2028 LINE SEPARATOR)"),          # a survivor of issue 30: accepted in names
    ("\u2029", "a paragraph separator (U+2029 PARAGRAPH SEPARATOR)"),
    ("\u202e", "an invisible formatting character (U+202E RIGHT-TO-LEFT OVERRIDE)"),
    ("\u200b", "an invisible formatting character (U+200B ZERO WIDTH SPACE)"),
    ("\x00", "a control character (U+0000)"),
    ("\x85", "a control character (U+0085)"),
    ("\ue000", "a private-use character (U+E000)"),
])
def test_every_kind_of_hidden_character_is_refused_and_named(ch, kind):
    assert hidden_character(f"ab{ch}c") == f"contains {kind} at position 3"
    with pytest.raises(ValidationError, match="contains " + re.escape(kind)):
        check_text(f"ab{ch}c", "name", 120)


def test_a_name_of_spaces_is_empty():
    """A survivor of issue 30: a variant name of spaces was accepted (scenario names have a check of
    their own before this one, variant names do not)."""
    for blank in ("", "   ", "\u3000"):
        with pytest.raises(ValidationError, match="is empty; give the variant a name"):
            check_text(blank, "Variant name", 80, what="variant")
    with pytest.raises(ValidationError, match="^title: is empty$"):
        check_text("  ", "title", 80, what="text")
    assert check_text(None, "notes", 10, required=False) == "" and check_text("  ", "n", 5, required=False) == ""
    assert check_text("  Cap 1.0 ", "Variant name", 80) == "Cap 1.0"


def test_lengths_notes_and_types():
    assert check_text("x" * 80, "n", 80) == "x" * 80
    with pytest.raises(ValidationError, match="is 81 characters long; at most 80 are allowed"):
        check_text("x" * 81, "n", 80)
    assert check_text("line\r\nnext\tcol", "notes", 50, multiline=True) == "line\nnext\tcol"
    with pytest.raises(ValidationError, match="U\\+000A"):
        check_text("line\nnext", "name", 50)
    with pytest.raises(ValidationError, match="must be text"):
        check_text(5, "name", 50)
    assert hidden_character("Café für Año, 北京, O'Brien\u00a0& Sons") is None


def test_visible_shows_each_hidden_character():
    assert visible("a\u202eb\u200bc\u2066d\u2028e\ufeff\x00\x7f\n\t") == \
        "a[U+202E]b[U+200B]c[U+2066]d[U+2028]e[U+FEFF]\u2400\u2421\u2424\u2409"
    assert visible("l1\nl2\tx\u202e", keep="\n\t") == "l1\nl2\tx[U+202E]"
    assert visible("no\u00a0break 北京") == "no\u00a0break 北京" and visible(7) == "7"


def test_slugs_and_variant_ids():
    assert slug("Café für Año") == "cafe-fur-ano" and variant_id("Cap 1.0") == "variant-cap-1-0"
    assert len(slug("北京")) == 10 and slug("x" * 100) == "x" * 40


def test_refusals_name_the_field_and_the_value_exactly():
    with pytest.raises(ValidationError) as err:
        check_text(5, "Variant name", 80)
    assert (str(err.value), err.value.field, err.value.value) == ("Variant name: 5 must be text", "Variant name", 5)
    with pytest.raises(ValidationError) as err:
        check_text("   ", "Scenario name", 80)
    assert str(err.value) == "Scenario name: is empty; give the name a name" and err.value.value == ""
    with pytest.raises(ValidationError) as err:
        check_text(" " + "y" * 81, "title", 80, what="text")
    assert err.value.value == "y" * 81 and err.value.problem == "is 81 characters long; at most 80 are allowed"
    with pytest.raises(ValidationError) as err:
        check_text("a\u202eb", "name", 80)
    assert err.value.value == "a\u202eb" and err.value.field == "name"
    with pytest.raises(ValidationError) as err:                       # one line unless told it is notes
        check_text("a\r\nb", "name", 80)
    assert "U+000D" in str(err.value)


def test_notes_allow_line_breaks_and_tabs_only():
    with pytest.raises(ValidationError, match=r"U\+202E RIGHT-TO-LEFT OVERRIDE\) at position 11"):
        check_text("line\nnext\t\u202e", "notes", 50, multiline=True)
    assert hidden_character("a\u0085b") == "contains a control character (U+0085) at position 2"   # no name


def test_visible_leaves_what_is_shown_as_it_is_around_a_hidden_character():
    assert visible("A b, Z~ 北京\u00a0\u3000é\u202e") == "A b, Z~ 北京\u00a0\u3000é[U+202E]"
    assert visible(" \u202e") == " [U+202E]"


def test_slugs_keep_to_letters_digits_and_single_dashes():
    assert slug(" abcdef", limit=3) == "abc" and slug("abc def", limit=4) == "abc"
    assert slug("--Déjà vu--") == "deja-vu" and slug("!!!") == slug("!!!") != "" and len(slug("!!!")) == 10
