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


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    import re
    return re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", "")).replace(" ", "-")


def test_every_link_between_the_documents_reaches_a_file_and_a_heading():
    """README.md and docs/*.md link to each other by path and heading: each target exists."""
    import re
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    headings = {d.resolve(): {_anchor(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", d.read_text(encoding="utf-8"), re.M)}
                for d in docs}
    broken = []
    for doc in docs:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (doc.parent / path).resolve() if path else doc.resolve()
            if not file.exists():
                broken.append(f"{doc.name}: {target} (no file)")
            elif anchor and file in headings and anchor not in headings[file]:
                broken.append(f"{doc.name}: {target} (no heading)")
    assert not broken, broken
