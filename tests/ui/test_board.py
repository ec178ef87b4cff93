"""Board-ready output in AppTest: presentation mode, the report box, the Portfolio's table and
budget, versions in words."""

import pytest

from core.law.rulesets import edition_words, load, load_text, to_toml, version_words
from core.report.compare import place_words
from tests.support import ROOT
from tests.support.pages import dashboard as start, save
from tests.support.panel import Panel


def test_save_clears_the_boxes_so_the_next_scenario_inherits_nothing(db):
    at = save(start(), "First", "notes of the first")
    assert not at.exception
    assert [t.value for t in at.text if t.value.startswith("Saved:")] == ["Saved: First"]
    assert at.text_input(key="w:scenario_name").value == ""
    assert at.text_area(key="w:scenario_notes").value == ""
    Panel(at).move("federal_grant", 100_000)
    save(at, "Second")
    assert db.get("First").notes == "notes of the first"
    assert db.get("Second").notes == ""


def test_replace_after_asking_also_clears_the_boxes(db):
    at = save(start(), "Same", "one")
    save(at, "Same", "two")
    assert any("already exists" in w.value for w in at.warning)
    at.button(key="w:overwrite_yes").click().run()
    assert db.get("Same").notes == "two"
    assert at.text_input(key="w:scenario_name").value == "" and at.text_area(key="w:scenario_notes").value == ""


@pytest.mark.parametrize("page", ["pages/calculator.py", "pages/compare.py", "pages/sensitivity.py",
                                  "pages/portfolio.py", "pages/rules.py"])
def test_a_link_opens_any_page_in_presentation_mode(db, page):
    at = start({"present": "1"}, page)
    assert not at.exception
    assert at.session_state["presentation"] is True
    assert at.query_params["present"] == ["1"] or at.query_params["present"] == "1"
    assert at.button(key="w:exit_presentation")
    at.button(key="w:exit_presentation").click().run()
    assert at.session_state["presentation"] is False
    assert "present" not in at.query_params


def test_a_bad_presentation_value_is_said(db):
    at = start({"present": "perhaps"})
    assert any("“present” value ` perhaps ` was not understood" in w.value.replace("\\", "") for w in at.warning)
    assert at.session_state["presentation"] is False


@pytest.mark.parametrize("page", ["pages/calculator.py", "pages/compare.py", "pages/sensitivity.py",
                                  "pages/portfolio.py", "pages/rules.py"])
def test_a_presentation_value_is_never_read_as_markdown(db, page):
    """Issue 30, finding 2: `?present=![i](https://evil.example/p.png)` drew the image on every page."""
    from tests.support.text import interpreted
    value = "![i](https://e.x/p.png) :material/x: \u202e"
    at = start({"present": value}, page)
    said = next(w.value for w in at.warning if "present” value" in w.value)
    assert interpreted(said) == [] and "\u202e" not in said
    assert "` ![i](https://e.x/p.png) :\u2060material/x: [U+202E] `" in said   # the value as typed


def test_presenting_moves_between_scenarios_on_compare(db):
    at = start()
    for name, cost in (("A", 1_000_000), ("B", 3_000_000), ("C", 800_000)):
        Panel(at).move("eligible_cost", cost)
        save(at, name)
    at.switch_page("pages/compare.py").run()
    at.toggle(key="presentation").set_value(True).run()
    assert not at.exception

    def card():
        return [t.value for t in at.text if t.value in ("A", "B", "C")][0], \
               next(m.value for m in at.metric if m.label == "State grant award")

    order = at.multiselect(key="w:cmp_names").value      # in the order saved, the first the baseline
    assert order == ["A", "B", "C"]
    assert card() == ("A", "$500,000")
    assert any("Scenario 1 of 3" in m.value for m in at.markdown)
    at.button(key="w:cmp_next").click().run()
    assert card() == ("B", "$600,000")
    at.button(key="w:cmp_next").click().run()
    at.button(key="w:cmp_next").click().run()            # wraps round
    assert card() == ("A", "$500,000")
    at.button(key="w:cmp_prev").click().run()
    assert card() == ("C", "$300,000")
    assert any("Scenario 3 of 3" in m.value for m in at.markdown)


def test_portfolio_bad_budget_is_said_beside_the_field_and_the_page_stays():
    at = start(page="pages/portfolio.py")
    at.text_input(key="w:pf_budget").input("-5").run()
    assert not at.exception
    errors = [e.value.replace("\\", "") for e in at.error]
    assert "Budget: ` -5 ` is negative; amounts must be $0 or more. Still using $4,000,000." in errors
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Budget"] == "$4,000,000" and metrics["Allocated"] == "$4,000,000"
    assert len(at.get("plotly_chart")) == 3
    at.text_input(key="w:pf_budget").input("").run()
    assert "Budget is empty: enter dollars such as 1,250,000. Still using $4,000,000." in \
        [e.value.replace("\\", "") for e in at.error]
    at.text_input(key="w:pf_budget").input("2,500,000").run()
    assert not at.error
    assert {m.label: m.value for m in at.metric}["Budget"] == "$2,500,000"


def test_portfolio_table_in_peoples_words():
    at = start(page="pages/portfolio.py")
    df = at.dataframe[-1].value
    assert list(df.columns) == ["Rank", "Application", "Locality", "Project type", "Maximum award", "Held down by",
                                "Board's exception", "Priority score (0 to 1)", "Allocated", "Local match"]
    # each requirement not yet met with its amount (issue 35): the sample's rows short of the match say by how much
    assert set(df["Local match"]) - {"met"} and all(v == "met" or v.endswith(" short") for v in df["Local match"])
    assert set(df["Board's exception"]) == {"", "needed: +$50,000"}
    assert list(df["Rank"]) == sorted(df["Rank"])
    assert all(v.startswith("$") and "," in v or v == "$0" for v in df["Maximum award"])
    assert not any("_" in v or ";" in v for v in df["Held down by"])
    assert set(df["Held down by"]) <= {"the program maximum", "the State's share of the cost", "what the project still lacks", "the limit for earlier grantees",
                                       "the amount requested", "property value"} | {
        v for v in df["Held down by"] if " and " in v}
    assert not any(t in {"acquisition", "renovation"} for t in df["Project type"])


@pytest.mark.parametrize("problem,words", [
    ("scenarios[1].eligible_cost: '-5' is negative", "Scenario 2, Total cost of eligible work: '-5' is negative"),
    ("[0].name: is missing", "Scenario 1, Name: is missing"),
    ("scenarios[2]: must be an object", "Scenario 3: must be an object"),
    ("format: 'x' is not a scenario library export", "format: 'x' is not a scenario library export"),
])
def test_import_problems_are_counted_from_one(problem, words):
    assert place_words(problem) == words


def test_versions_read_as_title_and_edition_with_the_fingerprint_kept():
    reg = load()
    assert version_words(reg) == ("The regulation in force (this tool's copy of the text: edition 1 of November 29, "
                                  f"2026, not a date of the law; fingerprint {reg.version})")   # issue 47
    assert edition_words("Custom", "", "abc123") == "Custom (fingerprint abc123)"
    # the edition is a label: it does not change the fingerprint, and it survives a round trip
    text = to_toml(reg)
    assert load_text(text).version == reg.version and load_text(text).edition == reg.edition
    assert load_text(text.replace("edition 1 of November 29, 2026", "edition 2")).version == reg.version
    variant = reg.with_changes("v-test", "Test", {"capital_cap": "700000.00"})
    assert variant.edition.startswith("made ")


@pytest.mark.parametrize("argv,url", [
    ([], "http://localhost:8501/"),
    (["--server.port", "8600"], "http://localhost:8600/"),
    (["--server.port=8601", "--server.address=127.0.0.1"], "http://127.0.0.1:8601/"),
    (["--server.address", "0.0.0.0"], "http://localhost:8501/"),
])
def test_the_start_hint_says_where_the_app_opens(argv, url):
    from ui.server import hint
    assert f"Open {url} in a web browser" in hint(argv)


def test_python_dashboard_prints_the_hint_and_serves(tmp_path):
    import os
    import subprocess
    import sys
    import time
    import urllib.request

    from harness.serve import free_port
    port = free_port()
    log = tmp_path / "out.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "dashboard.py", "--server.port", str(port), "--server.address",
                                 "127.0.0.1", "--server.headless", "true"], cwd=ROOT, stdout=out,
                                stderr=subprocess.STDOUT, env={**os.environ, "SCENARIO_DB_URL": f"sqlite:///{tmp_path}/l.db"})
        try:
            for _ in range(120):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
                    break
                except OSError:
                    time.sleep(0.5)
            else:
                pytest.fail("the dashboard did not start: " + log.read_text())
        finally:
            proc.terminate()
            proc.wait(10)
    assert f"Open http://127.0.0.1:{port}/ in a web browser" in log.read_text()


def test_sweep_legend_says_what_the_breakpoint_list_says():
    """A segment where only the State's share of the cost binds is not labelled with the tie before it."""
    from core.law.analysis import first_up, caps_words, describe, sweep
    from core.law.application import Application
    from core.report.charts.sensitivity import sweep_figure
    app = Application(project_type="renovation", eligible_cost=100_000_000, federal_grant=20_000_000,
                      local_contribution=50_000_000)   # a tie segment, then the State's share of the cost alone
    sw = sweep(app, "eligible_cost", 0, 500_000_000, load())
    assert {tuple(cap) for *_, cap in sw.segments} >= {("cost_share",), ("cost_share", "funding_need")}
    fig = sweep_figure([("The regulation in force", sw)], "Total cost of eligible work")
    legend = {t.name for t in fig.data if t.showlegend is not False and t.name}
    for bp in sw.breakpoints:
        words = describe(bp, "eligible_cost")
        for verb in (" holds the award down from ", " hold the award down from "):
            if verb in words:
                assert f"{words.split(verb)[0]} {verb.strip().removesuffix(' from')}" in legend, (words, legend)
    assert {f"{first_up(caps_words(cap))} {'holds' if len(cap) == 1 else 'hold'} the award down"
            for *_, cap in sw.segments} == legend


def test_report_shows_the_edition_and_keeps_the_fingerprint():
    from core.law.application import Application
    from core.law.award import evaluate
    from core.report.html import Item, Report, render
    award = evaluate(Application(project_type="renovation", eligible_cost=100_000_000, local_contribution=50_000_000))
    doc = render(Report([Item("A", award)]))
    assert ("The regulation in force (this tool&#x27;s copy of the text: edition 1 of November 29, 2026, not a date of "
            f"the law; fingerprint {award.ruleset_version})") in doc
    assert f"version {award.ruleset_version}" not in doc


def test_failing_browser_in_the_app_gives_a_message_and_the_session_answers(db, monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", "/bin/false")
    at = start()
    at.button(key="w:calc:pdf").click().run()
    assert not at.exception
    assert any("/bin/false does not run" in e.value for e in at.error)
    Panel(at).move("eligible_cost", 3_000_000)       # the session still answers
    assert at.metric[0].value == "$600,000"
