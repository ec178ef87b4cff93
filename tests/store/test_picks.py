"""Actions on a scenario as it was picked (core.store.model.Pick: its uid and version): when another
session deleted, changed, renamed or restored it meanwhile, the action does nothing and says so
(issue 36: a stale "Yes, delete it" deleted another scenario than the one asked about). Two
stores on one library are the two sessions; on SQLite and PostgreSQL."""
import pytest

from core.store.model import Pick, ScenarioStale
from core.store.repository import ScenarioStore
from tests.support.store import APP


@pytest.fixture
def two(url):
    """Two sessions on one library: "target" and "keep me" saved by the first."""
    mine, theirs = ScenarioStore(url), ScenarioStore(url)
    mine.save("keep me", APP)
    mine.save("target", APP.replace(federal_grant=100_00))
    yield mine, theirs
    mine.dispose()
    theirs.dispose()


def picked(store, name) -> Pick:
    sc = store.get(name)
    return store.picks([sc])[sc.uid]


def the_library(store):
    return sorted((s.name, s.application.federal_grant) for s in store.list()), len(store.history())


ACTIONS = {
    "open": lambda s, p: s.picked(p),
    "delete": lambda s, p: s.delete(p),
    "rename": lambda s, p: s.rename(p, "renamed by me"),
    "duplicate": lambda s, p: s.duplicate(p, "my copy"),
    "history (restore a version)": lambda s, p: s.restore_version(s.history(uid=p.uid)[0].id, picked=p),
}

MEANWHILE = {
    "deleted": (lambda s: s.delete("target"),
                "“target” was deleted by someone else since you picked it; nothing was changed."),
    "changed": (lambda s: s.save("target", APP.replace(federal_grant=5), overwrite=True),
                "“target” was changed by someone else since you picked it; nothing was changed. It is shown "
                "as it is now: look at it again, then try again."),
    "renamed": (lambda s: s.rename("target", "target, renamed"),
                "“target” was changed by someone else since you picked it (it is now called “target, renamed”); "
                "nothing was changed. It is shown as it is now: look at it again, then try again."),
}


@pytest.mark.parametrize("meanwhile", list(MEANWHILE))
@pytest.mark.parametrize("action", list(ACTIONS))
def test_an_action_on_a_scenario_changed_since_it_was_picked_does_nothing_and_says_so(two, action, meanwhile):
    mine, theirs = two
    pick = picked(mine, "target")
    change, said = MEANWHILE[meanwhile]
    change(theirs)
    before = the_library(mine)
    with pytest.raises(ScenarioStale) as err:
        ACTIONS[action](mine, pick)
    assert str(err.value) == said
    assert the_library(mine) == before          # nothing deleted, renamed, copied or restored
    assert "keep me" in mine.names()


@pytest.mark.parametrize("action", list(ACTIONS))
def test_an_action_on_a_scenario_as_it_was_picked_acts_on_that_one(two, action):
    mine, _ = two
    pick = picked(mine, "target")
    done = ACTIONS[action](mine, pick)
    assert (done.application.federal_grant, done.uid == pick.uid) == (100_00, action != "duplicate")
    assert "keep me" in mine.names() and mine.get("keep me").application.federal_grant == 0


def test_a_pick_follows_every_change_of_its_scenario_and_only_of_it(two):
    mine, theirs = two
    first = picked(mine, "target")
    other = picked(mine, "keep me")
    theirs.save("target", APP, overwrite=True)
    assert picked(mine, "target").version > first.version and picked(mine, "target").uid == first.uid
    assert picked(mine, "keep me") == other
    assert mine.versions(["no such uid"]) == {"no such uid": 0}


def test_a_deleted_scenario_restored_by_someone_else_meanwhile_is_not_restored_over(two):
    """The Deleted scenarios list and the undo of a delete act on the deleted one as shown."""
    mine, theirs = two
    gone = mine.delete("target")
    delete_event = mine.deleted()[0]
    pick = Pick(gone.uid, delete_event.id, "target", deleted=True)
    theirs.restore_version(delete_event.id)                 # someone brings it back, then changes it
    theirs.save("target", APP.replace(federal_grant=7), overwrite=True)
    before = the_library(mine)
    said = "“target” was restored by someone else since you picked it; nothing was changed. It is shown as it " \
           "is now: look at it again, then try again."
    for act in (lambda: mine.restore_version(delete_event.id, picked=pick), lambda: mine.restore(gone, picked=pick)):
        with pytest.raises(ScenarioStale) as err:
            act()
        assert str(err.value) == said
    assert the_library(mine) == before and mine.get("target").application.federal_grant == 7
    # deleted again: the pick of the first delete is out of date too
    theirs.delete("target")
    with pytest.raises(ScenarioStale, match="was changed \\(restored and deleted again\\) by someone else"):
        mine.restore_version(delete_event.id, picked=pick)
    # as shown now, it comes back
    now = mine.deleted()[0]
    back = mine.restore_version(now.id, picked=Pick(gone.uid, now.id, "target", deleted=True))
    assert back.application.federal_grant == 7


def test_a_history_event_of_another_scenario_is_refused_for_a_pick(two):
    mine, _ = two
    pick = picked(mine, "target")
    other = mine.history("keep me")[0]
    with pytest.raises(Exception, match=f"history event {other.id} is not of “target”"):
        mine.restore_version(other.id, picked=pick)


# -- the Calculator's "Replace it?": a save that replaces the scenario as it was asked about ---------

def test_a_replace_overwrites_the_scenario_it_asked_about_in_that_version(two):
    mine, _ = two
    asked = mine.pick_of("target")
    mine.save("target", APP.replace(federal_grant=7), overwrite=True, replacing=asked)
    assert mine.get("target").application.federal_grant == 7 and mine.pick_of("nobody") is None


@pytest.mark.parametrize("meanwhile, said", [
    ("renamed to it", "“target” was changed by someone else since you picked it (it is now called “gone”); "
                      "nothing was changed. It is shown as it is now: look at it again, then try again."),
    ("changed", MEANWHILE["changed"][1]),
    ("deleted", MEANWHILE["deleted"][1]),
])
def test_a_replace_never_overwrites_another_scenario_that_took_the_name_meanwhile(two, meanwhile, said):
    """Issue 48: the Calculator's "Replace it?" had no staleness check: "keep me" renamed to "target"
    (after "target" was renamed away) in the meantime was overwritten silently."""
    mine, theirs = two
    asked = mine.pick_of("target")
    if meanwhile == "renamed to it":
        theirs.rename("target", "gone")
        theirs.rename("keep me", "target")
    elif meanwhile == "changed":
        theirs.save("target", APP.replace(federal_grant=5), overwrite=True)
    else:
        theirs.delete("target")
    before = the_library(mine)
    with pytest.raises(ScenarioStale) as err:
        mine.save("target", APP.replace(federal_grant=7), overwrite=True, replacing=asked)
    assert str(err.value) == said and the_library(mine) == before
