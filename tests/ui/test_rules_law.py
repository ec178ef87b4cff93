"""The Rules page shows the law chosen: under the statute, or as of a past day, that law's own numbers,
sources and days, not only the regulation's provisions (issue 47)."""
from __future__ import annotations

import pytest

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


FUTURE_VARIANT = """id = "mine-future"
title = "Cap raised from July 2027"
kind = "variant"
based_on = "regulation"

[parameters.capital_cap]
unit = "USD"
provision = "program_max"
description = "Capital maximum"
citation = "What-if"

[[parameters.capital_cap.values]]
from = "2027-07-01"
value = "800000.00"
source = "A what-if from July 1, 2027"
"""


def test_a_kept_variant_whose_values_begin_later_is_shown_from_its_first_day_and_breaks_no_page(db):
    """Hostile probe, 2026-12-06: a variant dated from a later day, kept in the library, made every page of
    every session fail (the sidebar read each ruleset as of today). It is read from its first day instead."""
    from datetime import date

    from core.law.rulesets import load_text
    rs = load_text(FUTURE_VARIANT, "mine-future.toml")
    assert rs.first_day == date(2027, 7, 1) > date.today()
    db.variants().save(rs)
    for page in (None, "pages/rules.py", "pages/compare.py", "pages/sensitivity.py", "pages/portfolio.py"):
        dashboard({}, page=page)   # no exception on any page
    at = dashboard({"ruleset": "mine-future", "project_type": "construction", "eligible_cost": "5000000",
                    "local_contribution": "3000000"})
    assert [m.value for m in at.metric if m.label == "State grant award"] == ["$800,000"]
    assert ["Computed under a policy variant, not the regulation in force: ` Cap raised from July 2027 `, as of "
            "2027-07-01."] == [w.value.replace("\\", "") for w in at.warning if "policy variant" in w.value]
    assert at.date_input(key="w:as_of").value == date(2027, 7, 1)


def test_a_variant_whose_values_all_begin_after_the_last_day_shown_is_not_kept(db):
    from core.law.rulesets import RulesetError, load_text
    from core.store.basics import last_law_day
    late = FUTURE_VARIANT.replace('from = "2027-07-01"', 'from = "2090-01-01"')
    with pytest.raises(RulesetError, match=f"values: the variant's first values begin on 2090-01-01, after the last day "
                                           fr"whose law this tool shows \({last_law_day().isoformat()}\)"):
        db.variants().save(load_text(late, "late.toml"))


@pytest.mark.parametrize("url", ["sqlite:////proc/no-such-folder/lib.db", "garbage"])
def test_a_library_that_cannot_be_opened_is_said_on_every_page_that_needs_it(monkeypatch, url):
    """Hostile probe, 2026-12-06: Compare, Rules and Save stopped with a traceback when SCENARIO_DB_URL could
    not be opened. Each says so in words (never the URL, which may hold a password); the award still shows."""
    monkeypatch.setenv("SCENARIO_DB_URL", url)
    said = ("the scenario library cannot be opened or written ({}; the server's SCENARIO_DB_URL names it). Saving, "
            "comparing and kept variants wait until it can be; the calculator works without it.")
    kind = "OperationalError" if url.startswith("sqlite") else "ArgumentError"
    compare = dashboard({}, page="pages/compare.py")
    assert [e.value.replace("\\", "") for e in compare.error] == ["Nothing to compare: " + said.format(kind)]
    rules = dashboard({}, page="pages/rules.py")
    assert "Kept variants cannot be shown: " + said.format(kind) in [e.value.replace("\\", "") for e in rules.error]
    calc = dashboard({})
    assert [m.value for m in calc.metric if m.label == "State grant award"]
    calc.text_input(key="w:scenario_name").input("Kept?")
    calc.button(key="w:save").click().run()
    assert not calc.exception
    assert any(("Not saved: " + said.format(kind)) in m.value.replace("\\", "") for m in calc.error)
    assert "garbage" not in " ".join(e.value for page in (compare, rules, calc) for e in page.error)
