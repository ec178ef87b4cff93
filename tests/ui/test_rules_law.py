"""The Rules page shows the law chosen: under the statute, or as of a past day, that law's own numbers,
sources and days, not only the regulation's provisions (issue 47)."""
from __future__ import annotations

from tests.support.pages import dashboard


def _text(at) -> str:
    parts = [m.value for m in at.markdown] + [h.value for h in at.header] + [c.value for c in at.caption]
    parts += [str(x) for t in at.table for x in t.value.to_numpy().ravel()]
    return " ".join(parts).replace("\\", "")


def test_under_the_statute_as_of_1990_the_rules_page_shows_that_laws_own_values_and_sources():
    at = dashboard({"ruleset": "statute", "as_of": "1990-01-01"}, page="pages/rules.py")
    said = _text(at)
    assert "The law chosen: The statute (Md. Code, Human Services § 10-504), as of 1990-01-01" in said
    assert "Acts of 1986 (Session Laws vol. 768 p. 1691): $300,000" in said
    assert "Ch. 125 (Session Laws vol. 771 p. 1874)" in said
    assert "The regulation's provisions (for reference)" in said


def test_under_the_regulation_the_page_is_as_it_was():
    at = dashboard({}, page="pages/rules.py")
    said = _text(at)
    assert "The law chosen" not in said and "No surplus public building" not in said


def test_the_calculator_as_of_1985_gives_both_numbers_for_the_boards_route_of_unknown_conditions():
    at = dashboard({"ruleset": "statute", "as_of": "1985-01-01", "project_type": "renovation",
                    "eligible_cost": "300000", "local_contribution": "0", "bpw_exception_requested": "true",
                    "local_property_value": "1000000"})
    said = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert ("Board of Public Works exception: its conditions in the law of that day are not known; $200,000 if the "
            "Board approves and they are met, $150,000 on the standard route (shown).") in said
    assert "came with the act of 1986" not in said


def test_under_the_statute_the_f_reading_is_said_not_to_arise_and_changes_no_answer():
    """The statute has no "except as provided in §F": a link that reads §F as the top-up changes nothing
    under it, the Calculator names no such reading, and the Rules page says why (law audit, 2026-12-06)."""
    link = {"ruleset": "statute", "as_of": "1985-01-01", "f_reference": "prior_grant", "project_type": "renovation",
            "eligible_cost": "300000", "federal_grant": "200000", "prior_program_funds": "100000"}
    calc = dashboard(link)
    assert [m.value for m in calc.metric if m.label == "State grant award"] == ["$50,000"]
    assert "f_reference" not in " ".join(c.value for c in calc.caption)
    assert not [b for b in calc.button if b.key == "w:reading_switch:f_reference"]
    rules = dashboard(link, page="pages/rules.py")
    said = " ".join(i.value for i in rules.info).replace("\\", "")
    assert ("Under the statute (Md. Code, Human Services § 10-504) this reading does not arise, whatever is chosen: "
            "The statute (Md. Code, Human Services § 10-504(a)(2)) limits the grant") in said
    # the session keeps the reading: under the regulation it counts again
    assert rules.radio(key="w:reading:f_reference").value == "prior_grant"
    back = dashboard(link | {"ruleset": "regulation", "as_of": ""})
    assert [m.value for m in back.metric if m.label == "State grant award"] == ["$100,000"]
