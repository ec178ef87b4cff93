"""Readings in the UI through AppTest: bound to the URL under their ids, a note beside the
award when it depends on a reading (with a switch), the Rules page switches, the
Sensitivity overlay."""

from tests.support.pages import award, dashboard as run


# Example 6 of docs/rules.md: $50,000 by default; $0 when a short local match is a condition.
EX6 = {"project_type": "renovation", "eligible_cost": "900000", "local_contribution": "0",
       "prior_program_funds": "250000"}


def texts(at):
    return [m.value.replace("\\", "") for m in at.markdown] + [c.value.replace("\\", "") for c in at.caption]


def test_the_award_says_what_the_other_reading_would_allow_and_switches():
    at = run(EX6)
    assert award(at) == "$50,000"
    assert any("What a short local match does: read as “A condition of any award”, the award would be $0 (the local "
               "match requirement)." in t for t in texts(at))
    assert any("most the State may give under the regulation; the Department sets the amount" in t for t in texts(at))
    at.button(key="w:reading_switch:local_match_effect").click().run()
    assert award(at) == "$0"
    assert at.query_params["local_match_effect"] == "condition"
    assert any("What a short local match does: read as “A check beside the award”, the award would be $50,000 "
               "(the limit for earlier grantees)." in t for t in texts(at))


def test_a_link_reproduces_the_readings_and_a_bad_one_is_named():
    at = run(EX6 | {"local_match_effect": "condition"})
    assert award(at) == "$0"
    at = run(EX6 | {"local_match_effect": "sideways"})
    assert award(at) == "$50,000"
    assert any("local_match_effect: unknown alternative 'sideways'" in w.value.replace('\\', '') for w in at.warning)


def test_rules_page_switches_a_reading_for_the_session():
    at = run(EX6, page="pages/rules.py")
    body = texts(at)
    assert any("except as provided in §F of this regulation" in t for t in body)
    assert any("§F is the top-up for earlier grantees" in t for t in body)
    at.radio(key="w:reading:local_match_effect").set_value("condition").run()
    assert not at.exception
    at.switch_page("pages/calculator.py").run()
    assert award(at) == "$0"


def test_sensitivity_overlays_another_reading():
    at = run(EX6 | {"local_match_effect": "condition"}, page="pages/sensitivity.py")
    at.selectbox(key="w:sweep_field").set_value("local_contribution").run()
    body = texts(at)
    # the jump under the condition reading, at the exact cent of the match
    assert any("from $450,000 of local contribution" in t for t in body), body
    at.multiselect(key="w:sweep_overlay_readings").set_value(["local_match_effect"]).run()
    assert not at.exception
    fig = at.get("plotly_chart")[0].proto.spec
    assert "Read: default readings" in fig


def test_saved_scenarios_record_their_readings(tmp_path, monkeypatch):
    from core.law.readings import parse
    from core.store.repository import ScenarioStore
    from core.store.fileformat import parse_export
    from core.law.application import Application
    store = ScenarioStore(f"sqlite:///{tmp_path / 's.db'}")
    app = Application.from_dict(EX6)
    rd = parse(["local_match_effect=condition"])
    store.save("as a condition", app, readings=rd)
    store.save("as a check", app)
    got = {s.name: s for s in store.list()}
    assert got["as a condition"].readings == rd and got["as a condition"].award().amount == 0
    assert got["as a check"].readings.is_default and got["as a check"].award().amount == 5_000_000
    # an export carries them and an import reads them back
    again, errors = parse_export(store.export())
    assert not errors and {s.name: s.readings for s in again} == {"as a condition": rd, "as a check": parse([])}
    from core.report.compare import table
    df = table([(s.name, s.award()) for s in again])
    assert sorted(df["Readings"]) == ["default readings", "local_match_effect=condition"]
