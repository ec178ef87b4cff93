"""The Compare page's library in Chromium when another session changes it meanwhile (issue 36):
"Yes, delete it" on a scenario deleted elsewhere deletes nothing and says so, and the select box
then shows the scenario whose details are shown (it kept showing the deleted one's name)."""
from __future__ import annotations

from harness.serve import wait_ready
from tests.support import ROOT
from tests.support.browser import library_server, no_error_on

SCENARIOS = [("keep me", dict(project_type="renovation", eligible_cost=100_000_000, local_contribution=50_000_000)),
             ("target", dict(project_type="renovation", eligible_cost=200_000_000, local_contribution=50_000_000))]


def test_a_delete_pressed_after_another_session_deleted_the_scenario_deletes_nothing(chromium, tmp_path_factory):  # noqa: F811
    from core.store.repository import ScenarioStore
    with library_server(tmp_path_factory, SCENARIOS) as (url, db):
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}/compare")
        wait_ready(page, 60_000)
        box = page.get_by_label("Scenario (from the page found above)")
        box.wait_for(timeout=60_000)
        assert box.input_value() == "target" and "Name: target" in page.inner_text("body")   # the most recent first
        page.get_by_role("button", name="Delete").click()
        page.get_by_text("Delete “target”? You can undo it right after.").wait_for(timeout=30_000)
        other = ScenarioStore(f"sqlite:///{db}")
        other.delete("target")                                   # another session, meanwhile
        page.get_by_role("button", name="Yes, delete it").click()
        page.get_by_text("was deleted by someone else since you picked it; nothing was changed.").wait_for(
            timeout=60_000)
        wait_ready(page, 60_000)
        assert other.names() == ["keep me"]
        assert "Scenario deleted." not in page.inner_text("body")
        assert box.input_value() == "keep me" and "Name: keep me" in page.inner_text("body")   # one scenario shown
        page.screenshot(path=str(ROOT / "test-artifacts" / "library-stale-delete.png"))
        no_error_on(page)
        other.dispose()
