"""The report under the statute cites the statute's act, value and day for each limit, says what its
edition is, and its two-laws line has one meaning (issue 47). Exact strings; every day is given."""
from __future__ import annotations

import html
import re

from core.law.application import Application
from core.law.award import evaluate
from core.law.rulesets import load
from core.report.html import Item, Report, render

BIG = {"project_type": "renovation", "eligible_cost": "3000000", "local_contribution": "1500000"}


def _text(doc: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", doc)))


def test_the_report_under_the_statute_as_of_1990_cites_the_1986_act_and_its_300000():
    a = evaluate(Application.from_dict(BIG), load("statute").as_of("1990-01-01"))
    text = _text(render(Report([Item("Old law", a)])))
    assert ("In the statute: Program maximum: as of 1990-01-01, $300,000: Acts of 1986 (Session Laws vol. 768 "
            "p. 1691): $300,000 (now Md. Code, Human Services § 10-504(a)(2))") in text
    assert "may not exceed $600,000" not in text
    assert "The law's sentences for the limits that hold the awards down" in text
    # the explanation's steps cite the statute too, never the regulation's letters
    steps = text.split("How the award is worked out")[1].split("Held down by")[0]
    assert "(Program maximum: as of 1990-01-01, $300,000" in steps and "§A" not in steps and "§C" not in steps


def test_the_edition_is_said_as_this_tools_copy_not_a_date_of_the_law():
    a = evaluate(Application.from_dict(BIG))
    text = _text(render(Report([Item("Now", a)])))
    assert ("The regulation in force (this tool's copy of the text: edition 1 of November 29, 2026, not a date of "
            f"the law; fingerprint {a.ruleset_version})") in text


def test_a_variant_in_the_report_cites_itself():
    a = evaluate(Application.from_dict(BIG), load("cap-800k"))
    text = _text(render(Report([Item("What if", a)])))
    assert ("In the variant: Program maximum: $800,000, this variant's value (Capital cap raised to $800,000 "
            "(later statute)), not the law in force") in text
    assert "may not exceed $600,000" not in text


def test_a_statute_report_states_the_statutes_own_interpretations_and_only_the_readings_it_has():
    """Deck audit, 2026-12-06: a report of statute scenarios said "When federal law is to the contrary, the
    federal grant is not applied first" beside the statute's "no 'unless federal law is to the contrary'",
    described the regulation's State-funds test where ch. 125's residual-value test applied, and listed the
    "§F" reading the statute does not have."""
    a = evaluate(Application("renovation", eligible_cost=1_000_000_00, federal_grant=100_000_00,
                             bpw_exception_requested=True, local_property_value=2_000_000_00, residual_value=1),
                 load("statute").as_of("1990-01-01"))
    law = _text(render(Report([Item("Statute 1990", a)]))).split("Interpretations applied")[1]
    assert "When federal law is to the contrary" not in law and "What \"§F\" refers to" not in law
    assert ("Federal grant applied first (the statute): Md. Code, Human Services § 10-504(a)(1) (since the act of "
            "1984, ch. 472): any federal grant is applied first") in law
    assert ("As of 1990-01-01, the test of the Board exception: the residual value of the property above the State's "
            "earlier investment in it (Ch. 125 (Session Laws vol. 771 p. 1874)") in law
    # beside a regulation scenario, each law's words, each named
    r = evaluate(Application("renovation", eligible_cost=1_000_000_00, federal_grant=100_000_00))
    both = _text(render(Report([Item("Statute 1990", a), Item("Regulation", r)]))).split("Interpretations applied")[1]
    assert "Federal grant applied first (the regulation): When federal law is to the contrary" in both
    assert "Federal grant applied first (the statute): Md. Code" in both
    assert "What \"§F\" refers to" in both
