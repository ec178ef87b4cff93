"""The documents ship with the project and stand on their own."""


from core.law.readings import READINGS
from core.law.text import TEXT
from tests.support import ROOT




def test_the_regulation_and_the_rules_document_ship_with_the_project():
    assert TEXT.startswith("A grant for conversion, acquisition, renovation, equipment, or construction")
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for r in READINGS:
        assert f"`{r.id}`" in rules
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/regulation.txt" in readme and "docs/rules.md" in readme
    assert "../shared" not in readme and "shared/seed" not in readme


def test_the_worked_examples_of_the_rules_are_the_data_the_tests_use():
    """docs/rules.md's table of worked examples says what tests/cases/worked_examples.json holds."""
    import re
    from tests.support import worked_examples
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = rules.split("## Worked examples", 1)[1]
    rows = {int(m.group(1)): (m.group(2).replace(",", ""), m.group(3).replace(" ", "").split(","), m.group(4))
            for m in re.finditer(r"^\| (\d) \| [^|]+ \| ([\d,.]+) \| ([a-z_, ]+) \| ([a-z_]+) \|$", table, re.M)}
    assert rows == {e["n"]: (e["award"], e["binding"], e["route"]) for e in worked_examples()}
