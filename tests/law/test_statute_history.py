"""The statute held to the regulation's standard in citations, history and words (issue 47, the
citations/history half): each limit cites the ruleset and era that set it; the statute's history as
the session laws have it; doubt notes only where a day is uncertain; the surplus-building
certification of ch. 125. Exact values; every day is given (no test reads the clock)."""
from __future__ import annotations

import pytest

from core.law import provisions
from core.law.application import Application
from core.law.award import evaluate, law_differs
from core.law.explain import source_line
from core.law.provisions import citations
from core.law.readings import Readings
from core.law.rulesets import RulesetError, load, load_text

BIG = {"project_type": "renovation", "eligible_cost": "3000000", "local_contribution": "1500000"}


def statute(day):
    return load("statute").as_of(day)


@pytest.mark.parametrize("day,amount,words", [
    ("1985-01-01", "$200,000", "Acts of 1984, ch. 472"),
    ("1987-01-01", "$300,000", "Acts of 1986"),
    ("1990-01-01", "$300,000", "Acts of 1986"),
    ("2010-01-01", "$600,000", "Acts of 2007, ch. 3"),
    ("2026-01-01", "$800,000", "Md. Code, Human Services § 10-504(a)(2), current as of 2025"),
])
def test_the_program_maximum_cites_the_act_and_value_of_its_era(day, amount, words):
    a = evaluate(Application.from_dict(BIG), statute(day))
    assert a.binding == ("program_max",)
    where, said = source_line(a)
    assert where == "In the statute"
    assert said.startswith(f"Program maximum: as of {day}, {amount}: ") and words in said
    assert "may not exceed $600,000" not in said and "§A" not in said
    cited = a.to_dict()["citations"]
    assert cited[0]["paragraph"] == "" and amount in cited[0]["sentences"][0]


def test_a_variant_cites_itself_not_the_sentence_it_replaces():
    a = evaluate(Application.from_dict(BIG), load("cap-800k"))
    where, said = source_line(a)
    assert (where, said) == ("In the variant", "Program maximum: $800,000, this variant's value (Capital cap raised "
                                               "to $800,000 (later statute)), not the law in force")
    assert all("$600,000" not in s for c in a.to_dict()["citations"] for s in c["sentences"])


def test_under_the_statute_the_share_and_the_boards_test_cite_the_statute_never_the_regulations_letters():
    half = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": "1000000",
                                           "local_contribution": "500000"}), statute("2026-01-01"))
    share = provisions.citation("cost_share", half)
    assert share.words.startswith("State's share of the cost: as of 2026-01-01, 50%: Acts of 1984, ch. 472")
    assert "10-504(a)(2)" in share.words and "§C" not in share.words and "§E" not in share.words
    board = evaluate(Application.from_dict({
        "project_type": "renovation", "eligible_cost": "1000000", "local_contribution": "0",
        "bpw_exception": {"local_property_value": "700000", "residual_value": "1000000"}}), statute("2026-01-01"))
    assert (board.route, board.amount, board.binding) == ("bpw_exception", 70_000_000, ("property_value",))
    cite = provisions.citation("property_value", board).words
    assert "Ch. 125 (Session Laws vol. 771 p. 1874)" in cite and "10-504(b)" in cite and "§F" not in cite
    for step in board.steps:   # every step of the explanation cites the statute, not the regulation's letters
        c = provisions.citation(step.provision, board) if step.provision in provisions.PROVISION else None
        if c is not None and step.provision not in ("funding_need", "requested_amount"):
            assert not c.paragraph, (step.provision, c.words)


def test_the_regulations_citations_are_unchanged():
    a = evaluate(Application.from_dict(BIG))
    assert source_line(a) == ("In the regulation", "§A Program maximum")


# --- the history, from the session laws ------------------------------------------------------

SMALL = {"project_type": "renovation", "eligible_cost": "300000", "local_contribution": "0",
         "bpw_exception": {"local_property_value": "1000000"}}


def test_as_of_1985_the_boards_exception_exists_with_conditions_not_known_and_both_numbers_are_given():
    a = evaluate(Application.from_dict(SMALL), statute("1985-01-01"))
    assert (a.amount, a.route) == (15_000_000, "standard")
    check = a.check("bpw_in_law")
    assert check.status == "warning" and check.amount == 20_000_000
    assert "came with the act of 1986" not in check.message and "no Board of Public Works exception" not in check.message
    assert "conditions are cut off in the copies found" in check.message
    assert "$150,000 on the standard route; $200,000 if the Board approves" in check.message
    assert any("$150,000 on the standard route; $200,000" in s.text for s in a.steps)


def test_the_residual_value_act_adds_no_acquisition_acquisition_only_from_the_text_that_has_it():
    assert "acquisition" not in statute("1988-07-01").number("bpw_eligible_types")
    assert "acquisition" not in statute("2010-01-01").number("bpw_eligible_types")
    current = statute("2025-01-01")
    assert "acquisition" in current.number("bpw_eligible_types")
    assert "Human Services § 10-504(b), current as of 2025" in current.parameters["bpw_eligible_types"].citation


def test_each_dated_value_names_its_source():
    rs = load("statute")
    for p in rs.parameters.values():
        for v in p.history:
            assert v.source.strip(), (p.name, v.start)
    sources = " ".join(v.source for p in rs.parameters.values() for v in p.history)
    for act in ("ch. 472", "vol. 759 p. 2569", "vol. 768 p. 1691", "ch. 436", "Ch. 125", "vol. 771 p. 1874", "ch. 3"):
        assert act in sources, act


# --- doubt notes: only where the day is uncertain ---------------------------------------------

def test_no_act_of_the_1987_session_is_said_in_force_on_january_1_1987():
    notes = " ".join(statute("1987-01-01").law_notes)
    assert "may already be $300,000" not in notes            # the top-up of 1987
    assert "may already be the residual value" not in notes  # ch. 125, after 1987's volume
    assert "may already be $600,000" not in notes            # not before ch. 125, which still says $300,000
    later = " ".join(statute("1987-03-01").law_notes)        # the 1987 session sits: the day is in doubt
    assert "As of 1987-03-01 the limit for earlier grantees may already be $300,000." in later


def test_no_doubt_where_the_day_is_known():
    assert statute("2026-01-01").notes == ()     # $800,000 is known in force by 2025-01-01
    assert statute("2008-01-01").notes and all("$600,000 (" not in n or "may already be $800,000" in n
                                               for n in statute("2008-01-01").notes)


# (day before, first day, last day) of each era of the capital maximum
@pytest.mark.parametrize("before,first,last,old,new", [
    ("1986-06-30", "1986-07-01", "2007-09-30", 20_000_000, 30_000_000),
    ("2007-09-30", "2007-10-01", "2024-12-31", 30_000_000, 60_000_000),
    ("2024-12-31", "2025-01-01", "2099-12-31", 60_000_000, 80_000_000),
])
def test_each_era_of_the_capital_maximum_on_its_edges(before, first, last, old, new):
    assert statute(before).number("capital_cap") == old
    assert statute(first).number("capital_cap") == new
    assert statute(last).number("capital_cap") == new


@pytest.mark.parametrize("name,before,first,old,new", [
    ("prior_grant_ceiling", "1987-06-30", "1987-07-01", None, 30_000_000),
    ("bpw_test", "1986-06-30", "1986-07-01", "unknown", "state_funds"),
    ("bpw_test", "1988-06-30", "1988-07-01", "state_funds", "residual_value"),
    ("surplus_certification", "1988-06-30", "1988-07-01", (), ("acquisition", "construction")),
    ("master_plan_cap", "1986-06-30", "1986-07-01", None, 1_500_000),
])
def test_each_era_of_the_other_numbers_on_its_edges(name, before, first, old, new):
    assert statute(before).number(name) == old
    assert statute(first).number(name) == new


def test_a_ruleset_file_with_two_values_on_one_day_is_refused():
    from core.law.rulesets import to_toml
    text = to_toml(load("statute")).replace('from = "1986-07-01"', 'from = "1984-07-01"', 1)
    with pytest.raises(RulesetError, match=r"\.from: 1984-07-01 is not after 1984-07-01"):
        load_text(text)


def test_a_doubt_window_outside_its_day_is_refused():
    from core.law.rulesets import to_toml
    text = to_toml(load("statute")).replace('not_before = "1987-01-14"', 'not_before = "1987-08-01"', 1)
    with pytest.raises(RulesetError, match="not_before must be on or before from"):
        load_text(text)


def test_the_statute_reads_back_the_same():
    from core.law.rulesets import to_toml
    again = load_text(to_toml(load("statute")))
    assert again.version == load("statute").version and again.cites == load("statute").cites


# --- garbled lines ---------------------------------------------------------------------------

def test_before_1987_prior_funds_are_said_plainly_and_no_top_up_caveat_is_given():
    a = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": "900000",
                                        "local_contribution": "0", "prior_program_funds": "250000"}),
                 statute("1985-01-01"))
    words = " ".join([s.text for s in a.steps] + [c.message for c in a.checks] + list(a.law_notes))
    assert "—" not in words and "not less than" not in words and "not below the" not in words
    assert "the law as of 1985-01-01 has no top-up for earlier grantees" in words
    assert "(d) was not read whole" not in words
    assert "(d) was not read whole" in " ".join(statute("1987-07-01").law_notes)


# --- the surplus-building certification (ch. 125, (6)(i)) --------------------------------------

@pytest.mark.parametrize("certified,award,status", [(False, 0, "fail"), (True, 50_000_000, "pass"),
                                                    (None, 50_000_000, "warning")])
def test_the_surplus_building_certification_decides_a_construction_grant(certified, award, status):
    app = {"project_type": "construction", "eligible_cost": "1000000", "local_contribution": "500000"}
    if certified is not None:
        app["surplus_certified"] = certified
    a = evaluate(Application.from_dict(app), statute("2026-01-01"))
    assert a.amount == award and a.check("surplus_building").status == status
    if certified is False:
        assert a.binding == ("surplus_building",)
        assert "Ch. 125, (6)(i)" in provisions.citation("surplus_building", a).words
    # before ch. 125, and under the regulation, it is never asked
    for rs in (statute("1987-01-01"), load()):
        assert evaluate(Application.from_dict(app), rs).check("surplus_building") is None


def test_the_certification_is_asked_only_where_the_law_carries_it():
    from core.law.fields import FIELD, asked
    f = FIELD["surplus_certified"]
    assert asked(f, {"project_type": "acquisition"}, rs=statute("2026-01-01"))
    assert not asked(f, {"project_type": "renovation"}, rs=statute("2026-01-01"))
    assert not asked(f, {"project_type": "construction"}, rs=statute("1987-01-01"))
    assert not asked(f, {"project_type": "construction"}, rs=load())


# --- one sentence, one meaning ----------------------------------------------------------------

def test_the_two_laws_line_says_the_residual_value_was_taken_as_zero():
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": "1000000", "local_contribution": "0",
                                 "bpw_exception": {"local_property_value": "700000"}})
    said = law_differs(app, day="2026-12-01")
    assert said == ("This application's award under the statute as of 2026-12-01 would be $500,000 (the residual "
                    "value of the property was not given and is taken as $0, which closes the statute's Board "
                    "route; give it to see that route); under the regulation, $600,000.")


def test_the_command_lines_json_cites_the_statutes_act_and_value():
    import json
    import subprocess
    import sys

    from tests.support import ROOT
    done = subprocess.run([sys.executable, "-m", "core", "evaluate", "--ruleset", "statute", "--as-of", "1990-01-01",
                           "-"], input=json.dumps(BIG), capture_output=True, text=True, cwd=ROOT, timeout=120)
    cited = json.loads(done.stdout)["citations"]
    assert cited == [{"paragraph": "", "title": "Program maximum",
                      "sentences": ["Acts of 1986 (Session Laws vol. 768 p. 1691): $300,000"],
                      "law": "Program maximum: as of 1990-01-01, $300,000: Acts of 1986 (Session Laws vol. 768 p. 1691): "
                             "$300,000 (now Md. Code, Human Services § 10-504(a)(2))"}]


def test_a_board_amount_under_the_1984_unknown_conditions_is_refused_as_unknown_not_as_no_exception():
    """As of 1985 the Board could exceed 50% on conditions cut off in the copies found: sweep and solve
    refuse its amounts by saying so, never 'has no Board of Public Works exception'."""
    from core.law.analysis import not_read
    rs = load("statute").as_of("1985-01-01")
    why = not_read("residual_value", rs)
    assert "are not known (cut off in the copies found)" in why and "has no Board" not in why
    assert not_read("state_funds_in_property", rs).startswith("state_funds_in_property: the conditions")
    # the property's value neither: whether it limits the grant is not known, so it is not counted
    assert not_read("local_property_value", rs).startswith("local_property_value: the conditions")
    assert not_read("local_property_value", load("statute").as_of("1987-01-01")) == ""
    assert not_read("residual_value", load("statute").as_of("2025-01-01")) == ""


@pytest.mark.parametrize("values,readings,cited", [
    # the top-up from the act of 1987, whose (d) was not read whole: no "(now ...)" after it
    (dict(project_type="conversion", eligible_cost=2_000_000_00, local_contribution=1_000_000_00,
          prior_program_funds=250_000_00), Readings(),
     "Limit for earlier grantees: as of 2026-01-01, $300,000: Acts of 1987, ch. 436: the top-up for earlier "
     "grantees, up to $300,000 (the statute's (d) was not read whole; the regulation's reading is kept)"),
    # the regulation's local match, kept where the statute has none: no "(now The regulation's ...)"
    (dict(project_type="conversion", eligible_cost=2_000_000_00, federal_grant=400_000_00,
          local_contribution=400_000_00), Readings(local_match_effect="condition"),
     "Local match requirement: as of 2026-01-01, 50%: The regulation's 50% local match (§C.2), kept: the statute "
     "as read states none of its own"),
])
def test_a_stand_in_is_cited_as_itself_never_as_what_the_code_holds_now(values, readings, cited):
    a = evaluate(Application(**values), load("statute").as_of("2026-01-01"), readings)
    assert [c.words for c in citations(a)] == [cited]


def test_an_amount_only_the_boards_route_reads_answers_the_standard_route_too():
    """solve for the residual value, on the Board's route: the standard route's answer comes with it, as the
    command line's help says of every answer on that route (without_board_approval)."""
    from core.law.solve import solve
    app = Application("renovation", eligible_cost=1_000_000_00, bpw_exception_requested=True,
                      local_property_value=2_000_000_00, state_funds_in_property=False, state_bonded_debt=False,
                      residual_value=200_000_00, prior_matching_funds=200_000_00)
    s = solve(app, "residual_value", 800_000_00, rs=load("statute").as_of("2026-01-01"))
    assert s.intervals == ((200_000_01, 1_000_000_000_000_00),) and s.nearest.route == "bpw_exception"
    assert s.standard is not None and (s.standard.current, s.standard.intervals) == (500_000_00, ())
    assert s.to_dict()["without_board_approval"]["award"] == "500000.00"
    assert s.sentence.endswith("Without that approval the award is $500,000 (the standard route), whatever the "
                               "residual value of that property and its improvements.")


def test_solve_gives_one_reason_for_an_amount_the_law_does_not_read():
    """Hostile probe, 2026-12-06: under the regulation `report --reach residual_value=5` said the residual
    value "counts only on the Board's exception route, which is not requested", where `solve` said the
    regulation does not read it at all. Both now give that one reason."""
    from core.law.analysis import not_read
    from core.law.solve import solve
    app = Application("renovation", eligible_cost=1_000_000_00, local_contribution=500_000_00)
    why = not_read("residual_value", load("regulation")).removeprefix("residual_value: ")
    for a in (app, app.replace(bpw_exception_requested=True, local_property_value=100)):
        s = solve(a, "residual_value", 600_000_00)
        assert s.sentence == ("No residual value of that property and its improvements reaches $600,000: " + why
                              + ", and the State's share of the cost and what the project still lacks hold the award "
                                "at $500,000.")
    assert why.startswith("the regulation in force does not read the residual value")
