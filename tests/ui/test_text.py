"""User text on screen (ui/text.py): never read as Markdown, HTML, LaTeX or an icon."""
import re


from tests.support.pages import dashboard as start


CODE = re.compile(r"(`+) .*? \1", re.S)


def outside_code(markdown: str) -> str:
    """What Markdown would interpret: everything but the code spans."""
    return CODE.sub("", markdown)


def test_link_values_are_shown_literally_and_cut(db):
    long = "x" * 20_000
    at = start({"eligible_cost": "www.example.com", "ruleset": ":material/warning: :skull: " + long})
    texts = [w.value for w in at.warning]
    # One message names every bad value of a link (issue 14: the example is then shown whole),
    # so both values are in it; each is inside a code span, and the message says "example".
    cost = next(t for t in texts if "total cost of eligible work" in t.lower())
    assert "` www.example.com `" in cost and "www.example.com" not in outside_code(cost)
    assert "example.com" not in outside_code(cost)
    rs = next(t for t in texts if "ruleset" in t)
    assert ":material" not in outside_code(rs) and ":skull:" not in outside_code(rs)
    assert len(rs) < 600 and "(20,027 characters)" in rs                 # not echoed whole
    heading = start({"eligible_cost": "a\n===\nb"})
    cost = next(w.value for w in heading.warning if "total cost" in w.value.lower())
    assert "\n" not in cost and "a\u2424===\u2424b" in cost                # a line break cannot make a heading


def test_table_cells_are_shown_as_written():
    """st.table reads its cells as Markdown: the 'Numbers behind' tables must not link a name."""
    from ui.text import cell, table
    assert cell("$600,000") == "\\$600,000" and cell("Program maximum") == "Program maximum"
    assert cell("https://example.com/x") == "` https://example.com/x `"
    assert cell("www.example.com") == "` www.example.com `"
    assert cell("&copy;") == "` &copy; `"
    assert cell(":material/warning:") == "` :\u2060material/warning: `"
    assert table([{"Limit": "a*b*", "Amount": "$1"}]) == [{"Limit": "` a*b* `", "Amount": "\\$1"}]


def test_md_escapes_everything_markdown_or_html_would_read():
    from ui.text import md
    evil = "**bold** _it_ <b>x</b> [link](javascript:alert(1)) $x$ `code` # h"
    out = md(evil)
    for ch in "*_<>[]()$`#":
        assert f"\\{ch}" in out
