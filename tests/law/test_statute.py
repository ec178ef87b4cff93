"""The statute in force beside the regulation, its numbers dated with their sources, and saved work
that survives a new number (issue 37). Exact values; no test reads the clock (every day is given)."""
from __future__ import annotations

import json
import shutil

import pytest

from core.law import provisions, rulesets
from core.law.application import Application
from core.law.award import evaluate, law_differs
from core.law.rulesets import DateError, load
from tests.support import ROOT

CAPITAL = {"project_type": "construction", "eligible_cost": "5000000", "local_contribution": "3000000"}


def run(argv, stdin: str):
    """`python -m core ARGV` with STDIN, as a user runs it: (exit status, standard output, standard error)."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "core", *argv], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("day,award", [("1985-01-01", "200000.00"), ("1987-01-01", "300000.00"),
                                       ("2025-01-01", "800000.00")])
def test_the_statute_as_of_a_day_caps_a_capital_project_at_that_days_maximum(day, award):
    code, out, _ = run(["evaluate", "--as-of", day, "--ruleset", "statute", "-"], json.dumps(CAPITAL))
    result = json.loads(out)
    assert code == 0 and result["award"] == award and result["binding"] == ["program_max"]
    assert result["as_of"] == day
    # the (d) caveat comes with the act of 1987 that added the top-up, not before (issue 47)
    if day < "1987-07-01":
        assert not any("(d)" in n for n in result.get("law_notes", []))
    else:
        assert result["law_notes"][0].startswith("The statute's (d) was not read whole")


def test_a_day_before_the_first_value_is_refused_naming_it():
    code, out, err = run(["evaluate", "--as-of", "1983-06-30", "--ruleset", "statute", "-"], json.dumps(CAPITAL))
    assert (code, out) == (2, "")
    assert err == ("error: as of 1983-06-30: the statute (Md. Code, Human Services § 10-504) has no values before "
                   "1984-07-01 (its dated values begin then); choose 1984-07-01 or later\n")
    code, _, err = run(["evaluate", "--as-of", "2025-02-30", "-"], json.dumps(CAPITAL))
    assert (code, err) == (2, "error: --as-of: '2025-02-30' is not a day of the calendar; write it YYYY-MM-DD\n")


def test_a_value_superseded_on_a_day_not_found_is_answered_with_that_uncertainty():
    rs = load("statute").as_of("2020-05-05")
    assert rs.number("capital_cap") == 60_000_000
    said = [n for n in rs.notes if n.startswith("The capital maximum is read as $600,000")]
    assert said and said[0].endswith("As of 2020-05-05 the capital maximum may already be $800,000.")
    with pytest.raises(DateError):
        load("statute").as_of("1984-06-30")


def test_the_regulations_answers_are_unchanged_and_undated_by_default():
    code, out, _ = run(["evaluate", "-"], json.dumps(CAPITAL))
    result = json.loads(out)
    assert result["award"] == "600000.00" and "as_of" not in result and "law_notes" not in result
    assert not load().is_dated and load().as_of_date is None   # its numbers carry no days: read as they always were


ACQUISITION = {"project_type": "acquisition", "eligible_cost": "1000000", "local_contribution": "0",
               "bpw_exception": {"local_property_value": "2000000", "residual_value": "1000000",
                                 "prior_matching_funds": "100000", "outstanding_state_debt": "100000",
                                 "other_state_investment": "100000"}}


def test_under_the_statute_an_acquisition_may_take_the_boards_route_the_residual_value_decides():
    statute = load("statute").as_of("2025-01-01")
    open_ = evaluate(Application.from_dict(ACQUISITION), statute)
    assert (open_.route, open_.amount) == ("bpw_exception", 80_000_000)
    assert open_.check("bpw_residual_value").status == "pass"
    closed_app = json.loads(json.dumps(ACQUISITION))
    closed_app["bpw_exception"]["other_state_investment"] = "1000000"   # 100,000 + 100,000 + 1,000,000
    closed = evaluate(Application.from_dict(closed_app), statute)
    assert (closed.route, closed.amount) == ("standard", 50_000_000)
    assert closed.check("bpw_residual_value").message == (
        "The residual value of the property and improvements, $1,000,000, does not exceed the sum, $1,200,000, of "
        "prior matching funds ($100,000), outstanding State debt ($100,000), prior grants under the program ($0) "
        "and other tangible State investment ($1,000,000), so the exception is not available "
        "(ch. 125, Session Laws vol. 771 p. 1874; now Md. Code, Human Services § 10-504(b)).")
    # as of 1989, before the Human Services Article (2007): the same words, the act first
    as_of_1989 = evaluate(Application.from_dict(closed_app | {"project_type": "renovation"}), load("statute").as_of("1989-01-01"))
    assert as_of_1989.check("bpw_residual_value").message.endswith(
        "(ch. 125, Session Laws vol. 771 p. 1874; now Md. Code, Human Services § 10-504(b)).")
    # the regulation covers no acquisition on the Board's route
    assert evaluate(Application.from_dict(ACQUISITION)).route == "standard"


def test_where_the_two_disagree_one_line_says_so():
    app = Application.from_dict(CAPITAL)
    # one meaning: this application's award under each law (issue 47)
    assert law_differs(app, day="2026-12-01") == ("This application's award under the statute as of 2026-12-01 would "
                                                  "be $800,000; under the regulation, $600,000.")
    small = Application.from_dict({"project_type": "construction", "eligible_cost": "100000",
                                   "local_contribution": "50000"})
    assert law_differs(small, day="2026-12-01") == ""


def test_dated_values_write_and_read_back_the_same():
    statute = load("statute")
    back = rulesets.load_text(rulesets.to_toml(statute))
    assert back.version == statute.version and back.as_of("1987-01-01").number("capital_cap") == 30_000_000


# --- saved work survives a new number ----------------------------------------------------

@pytest.fixture
def new_number(monkeypatch, tmp_path):
    """A copy of the shipped rulesets with one parameter added, as a maintainer would add it."""
    folder = tmp_path / "rulesets"
    shutil.copytree(rulesets.HERE, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    reg = folder / "regulation.toml"
    reg.write_text(reg.read_text() + '\n[parameters.added_cap]\nvalue = "250000.00"\nunit = "USD"\n'
                   'provision = "program_max"\ndescription = "Most a grant may be under an added number"\n'
                   'citation = "A new number, added after the library was saved"\n', encoding="utf-8")
    monkeypatch.setattr(rulesets, "HERE", folder)
    monkeypatch.setitem(rulesets.PARAMETER_KINDS, "added_cap", "money")
    monkeypatch.setitem(provisions.PARAMETERS, "added_cap", ("money", "Added maximum"))
    monkeypatch.setattr(rulesets, "_CACHE", {})
    yield
    rulesets._CACHE.clear()


def test_a_saved_ruleset_without_a_new_number_reads_it_and_says_so(new_number):
    old = load("regulation").to_data()
    del old["parameters"]["added_cap"]
    saved = rulesets.from_data(old)
    assert saved.number("added_cap") == 25_000_000
    assert saved.notes == ("This saved ruleset has no added maximum (it was saved before that number was "
                           "added): read from the shipped ruleset 'regulation' (The regulation in force).",)


def test_the_first_release_library_and_an_old_export_open_after_a_number_is_added(new_number, tmp_path):
    from core.store.fileformat import parse_export
    from core.store.repository import ScenarioStore
    shutil.copy(ROOT / "tests" / "fixtures" / "library-release.db", tmp_path / "lib.db")
    lib = ScenarioStore(f"sqlite:///{tmp_path / 'lib.db'}")
    try:
        scenarios = lib.list()
        awards = {s.name: s.award().amount for s in scenarios}
        assert awards == {"As submitted": 50_000_000, "Smaller local match": 50_000_000,
                          "Illustrative: Millbrook": 5_000_000, "Under cap-800k": 50_000_000}
        assert all(s.saved_ruleset().number("added_cap") == 25_000_000 for s in scenarios)
        from core.store.fileformat import export_document
        export = json.loads(json.dumps(export_document(scenarios), default=str))
    finally:
        lib.dispose()
    for item in export["scenarios"]:   # an export made before the number: its rulesets lack it
        if item["ruleset"].get("data"):
            item["ruleset"]["data"]["parameters"].pop("added_cap", None)
    good, errors = parse_export(export)
    assert errors == [] and [s.name for s in good] == [s.name for s in scenarios]
    assert {s.name: s.award().amount for s in good} == awards


def test_batch_takes_the_day_and_the_statutes_board_amounts_as_columns(tmp_path):
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    src.write_text("project_type,eligible_cost,local_contribution,bpw_exception_requested,local_property_value,"
                   "residual_value,prior_matching_funds\n"
                   "acquisition,1000000,0,yes,2000000,1000000,300000\n"
                   "acquisition,1000000,0,yes,2000000,1000000,1200000\n"
                   "construction,5000000,3000000,no,0,0,0\n", encoding="utf-8")
    import pandas as pd
    for day, awards, routes in [("2025-01-01", [800000.0, 500000.0, 800000.0], ["bpw_exception", "standard", "standard"]),
                                ("1985-01-01", [200000.0, 200000.0, 200000.0], ["standard"] * 3)]:
        code, _, err = run(["batch", str(src), "-o", str(out), "--force", "--ruleset", "statute", "--as-of", day], "")
        assert code == 0, err
        table = pd.read_csv(out)
        assert list(table["award"]) == awards and list(table["route"]) == routes
