"""Owners and history (core/store/repository.py, history.py): who may change what, the
append-only record of every change, restoring any version, migrations of older libraries."""
import getpass
import json
import shutil
import subprocess
import sys

import pytest
from sqlalchemy import MetaData, create_engine, inspect, select, text

from core import cli
from core.law.application import Application
from core.store.db import head_revision
from core.store.model import LOCAL, NotAllowed, ScenarioError, ScenarioExists
from core.store.repository import ScenarioStore
from tests.support import ROOT
from tests.support.store import APP, postgres_database


ALICE, BOB, ADA = "alice@example.org", "bob@example.org", "ada@example.org"


FIXTURE = ROOT / "tests" / "fixtures" / "library-release.db"


# What the first release's library holds (read with plain SQL below, checked again here by value).
FIXTURE_AWARDS = {"As submitted": 50_000_000, "Smaller local match": 50_000_000,
                  "Illustrative: Millbrook": 5_000_000, "Under cap-800k": 50_000_000}


@pytest.fixture
def team(url):
    s = ScenarioStore(url, admins=[ADA])
    yield s
    s.dispose()


def actions(events):
    return [(e.action, e.actor, e.scenario) for e in events]


@pytest.mark.parametrize("who,allowed", [(ALICE, True), (BOB, False), (ADA, True), ("ALICE@example.org", True)])
@pytest.mark.parametrize("change", ["overwrite", "rename", "delete", "import-overwrite"])
def test_only_owner_or_administrator_may_change(team, who, allowed, change):
    team.save("Alice plan", APP, actor=ALICE)
    do = {"overwrite": lambda: team.save("Alice plan", APP.replace(federal_grant=100), overwrite=True, actor=who),
          "rename": lambda: team.rename("Alice plan", "Renamed", actor=who),
          "delete": lambda: team.delete("Alice plan", actor=who),
          "import-overwrite": lambda: team.import_scenarios([team.get("Alice plan")], overwrite=True, actor=who)}
    if allowed:
        do[change]()
        assert len(team.history()) == 2
    else:
        with pytest.raises(NotAllowed) as refused:
            do[change]()
        verb = "overwrite" if change.endswith("overwrite") else change
        assert str(refused.value) == (f"“Alice plan” belongs to {ALICE}; only its owner or an administrator may "
                                      f"{verb} it. You may duplicate it as your own.")
        assert team.get("Alice plan").application == APP and team.get("Alice plan").changed_by == ALICE
        assert actions(team.history()) == [("save", ALICE, "Alice plan")]   # a refusal records nothing


def test_anyone_may_duplicate_and_the_copy_is_theirs(team):
    team.save("Alice plan", APP, actor=ALICE)
    copy = team.duplicate("Alice plan", "Bob's copy", actor=BOB)
    assert (copy.owner, copy.changed_by, copy.application) == (BOB, BOB, APP)
    team.delete("Bob's copy", actor=BOB)
    assert team.get("Alice plan").owner == ALICE


def test_every_change_recorded_with_before_and_after(team):
    team.save("A", APP, actor=ALICE)
    team.save("A", APP.replace(federal_grant=100), overwrite=True, actor=ALICE)
    team.rename("A", "B", actor=ADA)
    team.duplicate("B", "C", actor=BOB)
    team.delete("C", actor=BOB)
    gone = team.get("B")
    team.delete("B", actor=ALICE)
    team.restore(gone, actor=ALICE)
    imported = team.get("B")
    team.import_scenarios([imported.__class__(**{**imported.__dict__, "name": "D"})], actor=BOB)
    events = team.history()
    assert actions(events) == [("save", ALICE, "A"), ("overwrite", ALICE, "A"), ("rename", ADA, "B"),
                               ("duplicate", BOB, "C"), ("delete", BOB, "C"), ("delete", ALICE, "B"),
                               ("restore", ALICE, "B"), ("import", BOB, "D")]
    save, overwrite, rename, dup, delete_c = events[:5]
    assert save.before is None and save.after["application"] == APP.to_dict() and save.after["owner"] == ALICE
    assert overwrite.before["application"]["federal_grant"] == "0.00"
    assert overwrite.after["application"]["federal_grant"] == "1.00"   # 100 cents
    assert (rename.before["name"], rename.after["name"], rename.after["owner"], rename.after["changed_by"]) == \
        ("A", "B", ALICE, ADA)
    assert (dup.before["name"], dup.after["name"], dup.after["owner"]) == ("B", "C", BOB)
    assert delete_c.after is None and delete_c.before["name"] == "C"
    # One scenario's history follows it through its renames and its deletion.
    assert [e.action for e in team.history("B")] == ["save", "overwrite", "rename", "delete", "restore"]
    assert [e.action for e in team.history("C")] == ["duplicate", "delete"]
    with pytest.raises(ScenarioError, match="no scenario named 'Z', now or in the history"):
        team.history("Z")
    assert team.get("B").owner == ALICE and team.get("D").owner == BOB


def test_restore_an_earlier_version_and_a_deleted_scenario(team):
    team.save("A", APP, actor=ALICE)
    team.save("A", APP.replace(federal_grant=100), overwrite=True, actor=ALICE)
    first = team.history("A")[0]
    with pytest.raises(NotAllowed):
        team.restore_version(first.id, actor=BOB)
    back = team.restore_version(first.id, actor=ADA)
    assert back.application == APP and back.owner == ALICE and team.get("A").changed_by == ADA
    team.delete("A", actor=ALICE)
    assert [e.scenario for e in team.deleted()] == ["A"]
    team.save("A", APP.replace(federal_grant=7), actor=BOB)             # the name is taken meanwhile
    delete_event = team.history()[-2]
    with pytest.raises(ScenarioExists, match="restore under another name"):
        team.restore_version(delete_event.id, actor=ALICE)
    again = team.restore_version(delete_event.id, actor=ALICE, name="A (restored)")
    assert again.application == APP and again.owner == ALICE and team.deleted() == []
    assert [e.action for e in team.history("A (restored)")][-2:] == ["delete", "restore"]
    # the version from before the first recorded change
    assert team.restore_version(team.history("A")[0].id, actor=BOB, before=False).application.federal_grant == 7


def _release_library(url: str) -> None:
    """Put the fixture's tables and rows, exactly as the first release wrote them, into `url`."""
    src = create_engine(f"sqlite:///{FIXTURE}")
    old = MetaData()
    old.reflect(src)
    dst = create_engine(url)
    with src.connect() as s, dst.begin() as d:
        old.create_all(d)
        for table in old.sorted_tables:
            rows = [dict(r._mapping) for r in s.execute(select(table))]
            if rows:
                d.execute(table.insert(), rows)
    src.dispose()
    dst.dispose()


def _rows(url: str) -> dict:
    """Each scenario's columns, its ruleset's data read from the row (the first release) or
    from the rulesets table it names (migration 0003)."""
    e = create_engine(url)
    with e.connect() as c:
        kept = "rulesets" in inspect(c).get_table_names()
        query = ("SELECT s.*, r.data AS ruleset_data FROM scenarios s LEFT JOIN rulesets r ON r.key = s.ruleset_key"
                 if kept else "SELECT * FROM scenarios")
        rows = {r.name: (r.notes, r.application, json.loads(r.ruleset_data), r.created_at, r.updated_at)
                for r in c.execute(text(query))}
    e.dispose()
    return rows


@pytest.fixture
def release_url(backend, tmp_path):
    if backend == "sqlite":
        shutil.copy(FIXTURE, tmp_path / "lib.db")
        yield f"sqlite:///{tmp_path / 'lib.db'}"
        return
    with postgres_database() as url:
        if url is None:
            pytest.skip("TEST_POSTGRES_URL not set: no PostgreSQL to test against")
        _release_library(url)
        yield url


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_library_of_the_first_release_upgrades_in_place(backend, release_url):
    url = release_url
    before = _rows(url)
    assert set(before) == set(FIXTURE_AWARDS)
    lib = ScenarioStore(url)                         # first start of the new release
    assert _rows(url) == before                      # nothing lost, nothing changed
    assert {s.name: s.award().amount for s in lib.list()} == FIXTURE_AWARDS
    assert {(s.owner, s.changed_by) for s in lib.list()} == {(LOCAL, LOCAL)}
    assert len({s.uid for s in lib.list()}) == 4 and lib.history() == []
    e = create_engine(url)
    with e.connect() as c:
        assert c.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
        assert "library_meta" not in inspect(c).get_table_names()
    e.dispose()
    lib.save("As submitted", APP.replace(federal_grant=1), overwrite=True)   # local owns them: may change
    assert lib.restore_version(lib.history()[0].id, before=True).application == \
        Application.from_dict(json.loads(before["As submitted"][1]))
    lib.dispose()
    ScenarioStore(url).dispose()                     # a second start changes nothing
    assert len(_rows(url)) == 4


def test_release_library_with_newer_hand_written_version_refused(tmp_path):
    shutil.copy(FIXTURE, tmp_path / "lib.db")
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    e = create_engine(url)
    with e.begin() as c:
        c.execute(text("UPDATE library_meta SET value='99' WHERE key='schema_version'"))
    e.dispose()
    with pytest.raises(ScenarioError, match="schema version 99"):
        ScenarioStore(url)
    assert set(_rows(url)) == set(FIXTURE_AWARDS)    # refused untouched


CHANGER = """
import sys
from core.law.application import Application
from core.store.repository import ScenarioStore
s = ScenarioStore({url!r})
who = f"user{{sys.argv[1]}}@example.org"
app = Application.from_dict({{"project_type": "renovation", "eligible_cost": 1000}})
for i in range({n}):
    if i % 2 == 0:
        s.save(f"p{{sys.argv[1]}}-{{i}}", app.replace(eligible_cost=1000 + i), actor=who)
    else:
        s.save(f"p{{sys.argv[1]}}-{{i - 1}}", app.replace(eligible_cost=5000 + i), overwrite=True, actor=who)
"""


def test_eight_processes_fifty_changes_each_keep_400_history_events(url):
    ScenarioStore(url).dispose()
    procs = [subprocess.Popen([sys.executable, "-c", CHANGER.format(root=str(ROOT), url=url, n=50), str(p)], cwd=ROOT)
             for p in range(8)]
    assert [p.wait(300) for p in procs] == [0] * 8
    lib = ScenarioStore(url)
    events = lib.history()
    assert len(events) == 400 and len({e.id for e in events}) == 400
    for p in range(8):
        mine = [e for e in events if e.actor == f"user{p}@example.org"]
        assert [e.action for e in mine] == ["save", "overwrite"] * 25
        assert [e.scenario for e in mine] == [f"p{p}-{i - i % 2}" for i in range(50)]
    final = {s.name: s.application.eligible_cost for s in lib.list()}
    assert len(final) == 200 and all(cents == 5000 + i + 1 for name, cents in final.items()
                                     for i in [int(name.split("-")[1])])
    lib.dispose()


def test_cli_acts_as_named_actor_and_prints_history(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCENARIO_DB_URL", f"sqlite:///{tmp_path / 'lib.db'}")
    (tmp_path / "a.json").write_text(json.dumps([{"name": "Alice plan", "project_type": "renovation",
                                                  "eligible_cost": 1000}]))
    assert cli.main(["scenarios", "--as", ALICE, "import", str(tmp_path / "a.json")]) == 0
    assert capsys.readouterr().err == "imported 1 scenarios\n"
    assert cli.main(["scenarios", "delete", "Alice plan", "--as", BOB]) == 2
    err = capsys.readouterr().err
    assert err == (f"error: “Alice plan” belongs to {ALICE}; only its owner or an administrator may delete it. "
                   f"You may duplicate it as your own.\n")
    assert cli.main(["scenarios", "duplicate", "Alice plan", "Copy"]) == 0     # as the operating-system user
    capsys.readouterr()
    assert cli.main(["scenarios", "history", "--json"]) == 0
    events = json.loads(capsys.readouterr().out)
    assert [(e["actor"], e["action"], e["scenario"]) for e in events] == \
        [(ALICE, "import", "Alice plan"), (getpass.getuser(), "duplicate", "Copy")]
    assert all(set(e) == {"id", "at", "actor", "action", "scenario", "before", "after"} for e in events)
    assert events[0]["before"] is None and events[0]["after"]["owner"] == ALICE
    assert cli.main(["scenarios", "history", "Alice plan"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["EVENT", "WHEN", "WHO", "WHAT", "SCENARIO", "DETAIL"] and len(lines) == 2
    assert lines[1].split()[0] == str(events[0]["id"]) and lines[1].split()[2:5] == [ALICE, "import", "Alice"]
    assert cli.main(["scenarios", "history", "Nope"]) == 2
    assert "no scenario named 'Nope', now or in the history" in capsys.readouterr().err


OPENER = """
import sys
from core.law.application import Application
from core.store.repository import ScenarioStore
s = ScenarioStore({url!r})       # every process finds an empty database and migrates it
s.save(f"first-{{sys.argv[1]}}", Application.from_dict({{"project_type": "renovation", "eligible_cost": 1}}))
"""


def test_servers_starting_at_once_on_an_empty_library_migrate_it_once(url):
    procs = [subprocess.Popen([sys.executable, "-c", OPENER.format(root=str(ROOT), url=url), str(p)], cwd=ROOT)
             for p in range(6)]
    assert [p.wait(120) for p in procs] == [0] * 6
    lib = ScenarioStore(url)
    assert sorted(lib.names()) == [f"first-{p}" for p in range(6)] and len(lib.history()) == 6
    lib.dispose()


@pytest.mark.parametrize("statement", ["UPDATE history SET actor = 'mallory'", "DELETE FROM history"])
def test_history_is_append_only_in_the_database_itself(team, url, statement):
    from sqlalchemy.exc import DBAPIError
    team.save("A", APP, actor=ALICE)
    with pytest.raises(DBAPIError, match="history is append-only"):
        with team.engine.begin() as c:
            c.execute(text(statement))
    assert actions(team.history()) == [("save", ALICE, "A")]


def test_migrations_downgrade_to_the_first_release_and_up_again(tmp_path):
    from alembic import command
    from core.store.db import _alembic_config
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    lib = ScenarioStore(url)
    lib.save("A", APP)
    with lib.engine.begin() as conn:
        command.downgrade(_alembic_config(conn), "0001")
    assert "history" not in inspect(lib.engine).get_table_names()
    lib.dispose()
    again = ScenarioStore(url)           # the first release's layout again: upgraded on open
    assert again.get("A").application == APP and again.get("A").owner == LOCAL and again.history() == []
    again.dispose()


def test_cli_reads_administrators_from_the_secrets_as_the_dashboard_does(tmp_path, monkeypatch, capsys):
    import core.store.db
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text('[library]\nadministrators = ["ada@example.org"]\n')
    monkeypatch.setattr(core.store.db, "ROOT", tmp_path)     # where the CLI looks for .streamlit/secrets.toml
    monkeypatch.setenv("SCENARIO_DB_URL", f"sqlite:///{tmp_path / 'lib.db'}")
    lib = ScenarioStore(f"sqlite:///{tmp_path / 'lib.db'}")
    lib.save("Alice plan", APP, actor=ALICE)
    lib.save("Other", APP, actor=ALICE)
    assert cli.main(["scenarios", "--as", BOB, "delete", "Alice plan"]) == 2
    assert cli.main(["scenarios", "--as", ADA, "delete", "Alice plan"]) == 0
    assert cli.main(["scenarios", "--as", ADA, "rename", "Other", "Renamed by Ada"]) == 0
    assert lib.names() == ["Renamed by Ada"] and lib.get("Renamed by Ada").owner == ALICE
    delete_event = lib.history()[-2]
    assert cli.main(["scenarios", "--as", ALICE, "restore", str(delete_event.id)]) == 0
    assert capsys.readouterr().err.endswith(f"restored 'Alice plan' from history event {delete_event.id}\n")
    assert sorted(lib.names()) == ["Alice plan", "Renamed by Ada"]
    lib.dispose()
