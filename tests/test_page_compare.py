"""Saving on the calculator and the library on the Compare page, through AppTest."""
import pytest
from streamlit.testing.v1 import AppTest

from core.store.repository import ScenarioStore
from tests.panel import Panel
from tests.conftest import ROOT


@pytest.fixture
def db(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    monkeypatch.setenv("SCENARIO_DB_URL", url)
    return ScenarioStore(url)


def start(params=None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    return at.run()


def save(at, name, notes=""):
    at.text_input(key="w:scenario_name").input(name)
    at.text_area(key="w:scenario_notes").input(notes)
    at.button(key="w:save").click().run()
    return at


def test_save_and_overwrite_asks_first(db):
    at = save(start(), "As submitted", "first")
    assert not at.exception
    assert db.get("As submitted").notes == "first"
    Panel(at).move("eligible_cost", 3_000_000)
    save(at, "As submitted")
    assert any("already exists" in w.value for w in at.warning)
    assert db.get("As submitted").application.eligible_cost == 100_000_000   # not yet replaced
    at.button(key="w:overwrite_yes").click().run()
    assert db.get("As submitted").application.eligible_cost == 300_000_000


def test_bad_name_is_refused_clearly(db):
    at = save(start(), "   ")
    assert any("Not saved" in e.value and "is empty" in e.value for e in at.error)
    assert db.names() == []


def to_compare(at):
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    return at


def test_compare_shows_saved_scenarios_with_charts(db):
    at = save(start(), "Base")
    Panel(at).move("federal_grant", 400_000)
    save(at, "<b>With federal</b>")
    to_compare(at)
    assert at.multiselect(key="w:cmp_names").value == ["<b>With federal</b>", "Base"]
    answers = at.table[0].value       # the answer first: its own table, before the inputs
    assert list(answers.columns) == ["Scenario", "State grant award", "Binding", "Route", "Funding gap",
                                     "Local match shortfall"]
    # st.table reads each cell as Markdown: a name is a code span (shown as typed), ours escaped
    assert list(answers["Scenario"]) == ["` <b>With federal</b> `", "` Base `"]
    assert list(answers["State grant award"]) == ["\\$100,000", "\\$500,000"]
    inputs = at.dataframe[0].value
    assert list(inputs.columns)[:3] == ["Scenario", "Project type", "Total cost of eligible work"]
    assert list(inputs["Federal grant"]) == ["$400,000", "$0"]
    assert len(at.get("plotly_chart")) == 3
    at.selectbox(key="w:cmp_baseline").set_value("Base").run()
    assert not at.exception


def test_illustrative_samples_are_labelled(db):
    at = to_compare(start())
    at.button[0].click().run()
    assert all(n.startswith("Illustrative: ") for n in db.names()) and len(db.names()) == 4


def test_load_rename_duplicate_delete_undo(db):
    at = save(start({"project_type": "renovation", "eligible_cost": "3000000", "local_contribution": "1500000"}), "Big")
    at = save(start(), "Small")
    to_compare(at)
    at.selectbox(key="w:lib_pick").set_value("Big").run()
    at.text_input(key="w:lib_new").input("Bigger").run()
    at.button(key="w:lib_Renamed").click().run()
    assert sorted(db.names()) == ["Bigger", "Small"]
    at.selectbox(key="w:lib_pick").set_value("Bigger").run()
    at.text_input(key="w:lib_new").input("Copy").run()
    at.button(key="w:lib_Duplicated").click().run()
    assert sorted(db.names()) == ["Bigger", "Copy", "Small"]
    at.selectbox(key="w:lib_pick").set_value("Copy").run()
    at.button(key="w:lib_delete").click().run()
    assert sorted(db.names()) == ["Bigger", "Small"]
    at.button(key="w:undo").click().run()
    assert sorted(db.names()) == ["Bigger", "Copy", "Small"]
    at.selectbox(key="w:lib_pick").set_value("Bigger").run()
    at.button(key="w:lib_load").click().run()
    assert not at.exception
    assert next(m.value for m in at.metric if m.label == "State grant award") == "$600,000"
    assert at.query_params["eligible_cost"] == "3000000"
