"""Retention: `scenarios history --before DATE --redact` replaces the people in the history events
before DATE by pseudonyms and keeps every figure; the one change to the history the library makes,
an administrator's, recorded as an event. SQLite, and PostgreSQL when TEST_POSTGRES_URL is set."""
import json
import re
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import text

import core.store.db
import core.store.history
from core import cli
from core.store.history import is_pseudonym
from core.store.model import LOCAL, NotAllowed, ScenarioError
from core.store.repository import ScenarioStore
from tests.support.store import APP


ALICE, BOB, ADA = "alice@example.org", "Bob@Example.org", "ada@example.org"


TODAY = datetime.now(timezone.utc).date()


CUTOFF = (TODAY - timedelta(days=30)).isoformat()


OLD = datetime.combine(TODAY - timedelta(days=400), datetime.min.time(), timezone.utc)


@pytest.fixture
def lib(url, monkeypatch):  # noqa: F811
    """A library with a year-old stretch of history (alice, bob, a local change) and a recent one."""
    store = ScenarioStore(url, admins=[ADA])
    ticks = iter(range(10_000))
    monkeypatch.setattr(core.store.history, "_stamp",
                        lambda: (OLD + timedelta(minutes=next(ticks))).isoformat(timespec="microseconds"))
    store.save("Alice plan", APP, notes="ask alice@example.org", actor=ALICE)
    store.duplicate("Alice plan", "Bob copy", actor=BOB)
    store.rename("Bob copy", "Bob plan", actor=BOB.lower())
    store.save("Local plan", APP.replace(federal_grant=100_000), actor=LOCAL)
    store.delete("Bob plan", actor=BOB)
    monkeypatch.undo()                       # from here on, events are dated now
    store.save("Alice plan", APP.replace(local_contribution=400_000), overwrite=True, actor=ALICE)
    yield store
    store.dispose()


def raw(store):
    """Every history row as stored."""
    with store.engine.connect() as c:
        return [dict(r._mapping) for r in c.execute(text("SELECT * FROM history ORDER BY id"))]


def without_people(row):
    """A history row with its people taken out: what a redaction must keep."""
    kept = {k: v for k, v in row.items() if k != "actor"}
    for side in ("before", "after"):
        if kept[side]:
            kept[side] = {k: v for k, v in json.loads(kept[side]).items() if k not in ("owner", "changed_by")}
    return kept


def test_people_become_pseudonyms_and_every_figure_stays(lib):
    before = raw(lib)
    old = [r for r in before if r["at"] < CUTOFF]
    assert len(old) == 5 and len(before) == 6
    done = lib.redact_history(CUTOFF, actor=ADA, apply=True)
    assert (done.events, done.people, done.applied) == (4, 2, True)   # the local save names nobody
    after = raw(lib)
    # everything but the people, untouched: times, actions, names, inputs, amounts, rulesets, notes
    assert [without_people(r) for r in after[:6]] == [without_people(r) for r in before]
    assert after[5] == before[5]                                      # the recent event stays whole
    people = {r["actor"] for r in after[:5]}
    assert LOCAL in people and all(is_pseudonym(p) for p in people - {LOCAL})
    alice, bob = after[0]["actor"], after[1]["actor"]
    assert alice != bob and after[2]["actor"] == after[4]["actor"] == bob   # Bob and bob: one person
    assert json.loads(after[1]["before"])["owner"] == alice              # the same pseudonym in snapshots
    assert json.loads(after[1]["after"])["owner"] == bob
    assert json.loads(after[3]["after"])["owner"] == LOCAL
    assert "alice@example.org" in json.loads(after[0]["after"])["notes"]  # a user's own text is left as written
    for r in after[:5]:                                               # no address left where a person was named
        names = [r["actor"]] + [json.loads(r[side])[k] for side in ("before", "after") if r[side]
                                for k in ("owner", "changed_by")]
        assert not {n.lower() for n in names} & {ALICE, BOB.lower()}
    # recorded: who, when, what
    ev = lib.history()[-1]
    assert (ev.action, ev.actor, ev.scenario) == ("redact", ADA, f"(history before {CUTOFF})")
    assert ev.after == {"redacted_before": CUTOFF, "events": 4, "people": 2, "applied": True, "event_id": None}
    assert done.event_id == ev.id
    # the live library keeps its owners (who may change what)
    assert lib.get("Alice plan").owner == ALICE


def test_the_history_is_append_only_again_afterwards(lib):
    from sqlalchemy.exc import DBAPIError
    lib.redact_history(CUTOFF, actor=ADA, apply=True)
    for statement in ("UPDATE history SET actor = 'mallory'", "DELETE FROM history"):
        with pytest.raises(DBAPIError, match="history is append-only"):
            with lib.engine.begin() as c:
                c.execute(text(statement))


def test_a_second_run_finds_nothing_and_records_nothing(lib):
    lib.redact_history(CUTOFF, actor=ADA, apply=True)
    first = raw(lib)
    again = lib.redact_history(CUTOFF, actor=ADA, apply=True)
    assert (again.events, again.people, again.event_id) == (0, 0, None)
    assert raw(lib) == first


def test_without_yes_nothing_changes(lib):
    before = raw(lib)
    done = lib.redact_history(CUTOFF, actor=ADA)
    assert (done.events, done.people, done.applied) == (4, 2, False)
    assert raw(lib) == before


def test_only_an_administrator_may_redact(lib, url):  # noqa: F811
    before = raw(lib)
    with pytest.raises(NotAllowed, match="alice@example.org is not an administrator"):
        lib.redact_history(CUTOFF, actor=ALICE, apply=True)
    assert raw(lib) == before
    alone = ScenarioStore(url)   # nobody named administrator: one person on their own machine
    assert alone.redact_history(CUTOFF, actor=LOCAL, apply=True).events == 4
    alone.dispose()


def test_redacted_versions_still_restore_and_a_redaction_is_not_a_version(lib):
    done = lib.redact_history(CUTOFF, actor=ADA, apply=True)
    delete = next(e for e in lib.history() if e.action == "delete")
    with pytest.raises(NotAllowed):                      # its owner is a pseudonym now: nobody's but an admin's
        lib.restore_version(delete.id, actor=BOB)
    back = lib.restore_version(delete.id, actor=ADA)
    assert back.name == "Bob plan" and is_pseudonym(back.owner) and back.application == APP
    first = lib.history()[0]
    assert lib.restore_version(first.id, actor=ALICE).application == APP   # alice's plan, as first saved
    with pytest.raises(ScenarioError, match=f"history event {done.event_id} is a redaction"):
        lib.restore_version(done.event_id, actor=ADA)


@pytest.mark.parametrize("value,problem", [
    ("yesterday", "'yesterday' is not a date; write it as YYYY-MM-DD, such as 2025-01-31"),
    ("2025-02-30", "'2025-02-30' is not a date of the calendar"),
    ("20250101", "'20250101' is not a date"),
    ("2025-W01-1", "'2025-W01-1' is not a date"),
    ("2025-01-01T00:00", "'2025-01-01T00:00' is not a date"),
    ("", "'' is not a date"),
    ((TODAY + timedelta(days=1)).isoformat(), f"{(TODAY + timedelta(days=1)).isoformat()} is in the future "
                                              f"(today is {TODAY.isoformat()}, UTC)"),
])
def test_a_bad_date_is_refused_in_one_line_naming_the_argument(lib, tmp_path, monkeypatch, capsys, value, problem):
    before = raw(lib)
    _cli_library(lib, tmp_path, monkeypatch)
    assert cli.main(["scenarios", "--as", ADA, "history", "--before", value, "--redact", "--yes"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --before: {problem}") and err.count("\n") == 1, err
    assert raw(lib) == before


@pytest.mark.parametrize("argv,problem", [
    (["history", "--redact", "--yes"], "--redact needs --before DATE"),
    (["history", "--before", CUTOFF, "--yes"], "--yes goes with --redact"),
    (["history", "Alice plan", "--before", CUTOFF, "--redact"], "NAME: --redact applies to the whole history"),
    (["--as", ALICE, "history", "--before", CUTOFF, "--redact", "--yes"],
     "--as: alice@example.org is not an administrator"),
])
def test_a_bad_redaction_request_is_refused_in_one_line(lib, tmp_path, monkeypatch, capsys, argv, problem):
    before = raw(lib)
    _cli_library(lib, tmp_path, monkeypatch)
    assert cli.main(["scenarios", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {problem}") and err.count("\n") == 1, err
    assert raw(lib) == before


def _cli_library(lib, tmp_path, monkeypatch):
    """The command line on this library, with ada as administrator in its .streamlit/secrets.toml."""
    (tmp_path / ".streamlit").mkdir(exist_ok=True)
    (tmp_path / ".streamlit" / "secrets.toml").write_text(f'[library]\nadministrators = ["{ADA}"]\n')
    monkeypatch.setattr(core.store.db, "ROOT", tmp_path)
    monkeypatch.setenv("SCENARIO_DB_URL", lib.url)


def test_the_documented_commands(lib, tmp_path, monkeypatch, capsys):
    """docs/deploy.md, "Retention": look, try, then do it."""
    _cli_library(lib, tmp_path, monkeypatch)
    assert cli.main(["scenarios", "history", "--before", CUTOFF]) == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == 6 and ALICE in table[1]                 # a header and the five old events
    assert cli.main(["scenarios", "--as", ADA, "history", "--before", CUTOFF, "--redact"]) == 0
    assert capsys.readouterr().err == (f"would redact 4 history events before {CUTOFF} (2 people); "
                                       "nothing changed: add --yes to do it\n")
    assert cli.main(["scenarios", "--as", ADA, "history", "--before", CUTOFF, "--redact", "--yes"]) == 0
    err = capsys.readouterr().err
    assert re.fullmatch(rf"redacted 4 history events before {CUTOFF} \(2 people, each now a pseudonym\); "
                        r"recorded as history event \d+\n", err), err
    assert cli.main(["scenarios", "history", "--json"]) == 0
    events = json.loads(capsys.readouterr().out)
    assert [e["action"] for e in events] == ["save", "duplicate", "rename", "save", "delete", "overwrite", "redact"]
    assert all(is_pseudonym(e["actor"]) for e in events[:5] if e["actor"] != LOCAL)
    assert events[-1]["actor"] == ADA
    assert cli.main(["scenarios", "history"]) == 0
    assert f"redact     (history before {CUTOFF})  4 events of 2 people before {CUTOFF}" in capsys.readouterr().out
    assert cli.main(["scenarios", "--as", ADA, "history", "--before", CUTOFF, "--redact", "--yes", "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == {"redacted_before": CUTOFF, "events": 0, "people": 0, "applied": True,
                                   "event_id": None}
    assert out.err == f"nothing to redact before {CUTOFF}: no event before it names anyone\n"


def test_the_commands_in_the_docs_are_the_ones_tested_here():
    """Every `python -m core scenarios ...` line of docs/deploy.md's "Retention" parses as the command
    line reads it, and they are the three run by test_the_documented_commands (look, try, do)."""
    import shlex

    from tests.support import ROOT
    doc = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    retention = doc.split("### Retention: the people's addresses in the history", 1)[1].split("\n### ", 1)[0]
    lines = [line.split("#")[0].strip() for line in retention.splitlines()
             if line.startswith("python -m core scenarios")]
    parsed = [cli.build_parser().parse_args(shlex.split(line)[3:]) for line in lines]
    assert [(a.action, a.before, a.redact, a.yes) for a in parsed] == [
        ("history", "2025-01-01", False, False), ("history", "2025-01-01", True, False),
        ("history", "2025-01-01", True, True)]
    assert all(a.actor == "grants.manager@agency.gov" for a in parsed[1:])
    assert "**Without `allowed_domains` and `allowed_users`, everyone who can sign in" in doc
