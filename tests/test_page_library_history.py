"""The Compare page's history views without sign-in (every change made as `local`), through
AppTest: a scenario's history, restoring an earlier version, and bringing back a deleted one.
Signed-in behaviour is tested in a real browser against a real provider (test_signin_browser.py)."""
import pytest
from streamlit.testing.v1 import AppTest

from core.store.repository import ScenarioStore
from tests.conftest import ROOT
from tests.test_scenarios import APP


@pytest.fixture
def db(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    monkeypatch.setenv("SCENARIO_DB_URL", url)
    s = ScenarioStore(url)
    yield s
    s.dispose()


def compare() -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    return at


def history_rows(at, index=0):
    return at.dataframe[index].value.to_dict("records")


def test_without_sign_in_everything_is_local_and_no_sign_in_shows(db):
    db.save("A", APP)
    at = compare()
    assert [b.label for b in at.button if b.label in ("Sign in", "Sign out")] == []
    assert "Owner: local   Last changed by: local" in at.text[0].value
    assert not [c for c in at.caption if "Only its owner" in c.value]   # local owns everything here


def test_history_and_restore_an_earlier_version(db):
    db.save("A", APP)
    db.save("A", APP.replace(federal_grant=10_000_00), overwrite=True)
    at = compare()
    rows = [r for r in at.dataframe if "Who" in r.value.columns][0].value.to_dict("records")
    assert [(r["Who"], r["What"], r["Scenario"]) for r in rows] == [("local", "save", "A"), ("local", "overwrite", "A")]
    version = at.selectbox(key="w:hist_event")
    assert version.options == [f"as it was after change #{rows[0]['#']}"]   # the last change is what it is now
    version.set_value(f"after change #{rows[0]['#']}").run()
    at.button(key="w:hist_restore").click().run()
    assert not at.exception
    assert db.get("A").application == APP
    assert [e.action for e in db.history("A")] == ["save", "overwrite", "restore"]
    assert [s.value.replace("\\", "") for s in at.success] == [f"Restored ` A ` as it was after change #{rows[0]['#']}."]  # name literal


def test_deleted_scenario_listed_and_restored_under_another_name_when_taken(db):
    db.save("A", APP)
    db.save("B", APP)
    db.delete("B")
    db.save("B", APP.replace(federal_grant=5), actor="someone@example.org")   # the name taken since
    at = compare()
    pick = at.selectbox(key="w:del_pick")
    assert pick.options == ["B (deleted by local)"]
    deleted_history = [d for d in at.dataframe if "Who" in d.value.columns][-1].value
    assert list(deleted_history["What"]) == ["save", "delete"]          # the deleted one's, not the new B's
    at.button(key="w:del_restore").click().run()
    assert any("a scenario named 'B' already exists" in e.value.replace("\\", "") for e in at.error)
    at.text_input(key="w:del_name").input("B (old)")
    at.button(key="w:del_restore").click().run()
    assert not at.exception
    assert sorted(db.names()) == ["A", "B", "B (old)"] and db.deleted() == []
    assert db.get("B (old)").application == APP and db.get("B (old)").owner == "local"
    assert [e.action for e in db.history("B (old)")] == ["save", "delete", "restore"]


def test_refusal_on_the_page_says_why(db):
    db.save("Theirs", APP, actor="alice@example.org")
    at = compare()
    assert any("Only its owner (or an administrator) may rename" in c.value for c in at.caption)
    at.button(key="w:lib_delete").click().run()
    assert not at.exception
    assert any("belongs to alice@example.org; only its owner or an administrator may delete it" in e.value.replace("\\", "")
               for e in at.error)   # shown through ui.text.md, which escapes Markdown
    assert db.names() == ["Theirs"]
