"""The Rules page in AppTest: variants' names shown literally everywhere."""
import re


from tests.support.pages import dashboard as start


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
