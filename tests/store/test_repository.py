"""The scenario library (core/store/): save, overwrite, rename, duplicate, delete, restore,
export and import, the file format, concurrency and crashes, on SQLite and PostgreSQL."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings, strategies as st
from sqlalchemy import create_engine, text

from core.law.money import ValidationError
from core.law.rulesets import load
from core.store.fileformat import EXPORT_FORMAT, parse_export
from core.store.model import ScenarioError, ScenarioExists, MAX_NAME, MAX_NOTES, check_name, check_notes, Scenario
from core.store.repository import ScenarioStore
from tests.support import ROOT
from tests.support.builders import error_of
from tests.support.store import APP, WRITER


def test_round_trip(store):
    saved = store.save("As submitted", APP, notes="first <b>draft</b>")
    got = store.get("As submitted")
    assert got.application == APP and got.notes == "first <b>draft</b>"
    assert got.ruleset_id == "regulation" and got.ruleset_version == load().version
    assert got.created_at == saved.created_at and got.award().amount == 50_000_000


def test_overwrite_only_when_asked(store):
    store.save("A", APP)
    with pytest.raises(ScenarioExists):
        store.save("A", APP.replace(federal_grant=1))
    store.save("A", APP.replace(federal_grant=100), overwrite=True)
    assert store.get("A").application.federal_grant == 100
    assert store.names() == ["A"]


def test_rename_duplicate_delete_restore(store):
    store.save("A", APP)
    store.save("B", APP)
    store.rename("A", "C")
    with pytest.raises(ScenarioExists):
        store.rename("B", "C")
    store.duplicate("C", "D")
    assert sorted(store.names()) == ["B", "C", "D"]
    gone = store.delete("D")
    assert sorted(store.names()) == ["B", "C"]
    store.restore(gone)
    assert store.get("D").application == APP
    with pytest.raises(ScenarioError, match="no scenario named 'Z'"):
        store.delete("Z")


def test_most_recent_first(store):
    store.save("old", APP)
    time.sleep(1.1)
    store.save("new", APP)
    assert store.names()[:2] == ["new", "old"]


def test_variant_remembered(store):
    rs = load().with_changes("cap-1m", "Cap at $1,000,000", {"capital_cap": "1000000"})
    store.save("variant", APP.replace(eligible_cost=300_000_000, local_contribution=150_000_000), rs)
    sc = store.get("variant")
    assert sc.ruleset_id == "cap-1m" and sc.award().amount == 100_000_000 and not sc.outdated


def test_export_import_round_trip(store, tmp_path):
    store.save("A", APP, notes="n")
    store.save("B", APP.replace(requested_amount=12_345))
    data = json.loads(json.dumps(store.export()))
    assert data["format"] == EXPORT_FORMAT and data["version"] == 1
    other = ScenarioStore(f"sqlite:///{tmp_path / 'other.db'}")
    good, errors = parse_export(data)
    assert not errors and other.import_scenarios(good) == 2
    assert {s.name: s.application for s in other.list()} == {s.name: s.application for s in store.list()}
    with pytest.raises(ScenarioExists):
        other.import_scenarios(good)         # all or nothing: a clash imports none
    assert len(other.list()) == 2


def test_outdated_ruleset_version_is_detected(store):
    store.save("A", APP)
    with store.engine.begin() as c:
        data = load().to_data()
        data["parameters"]["capital_cap"]["value"] = "500000.00"
        c.execute(text("UPDATE scenarios SET ruleset_version='000000000000', ruleset_data=:d"), {"d": json.dumps(data)})
    sc = store.get("A")
    assert sc.outdated and sc.award().amount == 50_000_000


@pytest.mark.parametrize("data,message", [
    ({"format": "something-else", "version": 1, "scenarios": []}, "is not a scenario library export"),
    ({"format": EXPORT_FORMAT, "version": 99, "scenarios": []}, "version: 99 is not supported"),
    ({"format": EXPORT_FORMAT, "version": 1, "scenarios": "x"}, "scenarios: must be a list"),
    ("hello", "the file must hold a scenario export"),
])
def test_malformed_files_rejected(data, message):
    good, errors = parse_export(data)
    assert not good and message in errors[0]


def test_bad_scenarios_reported_with_their_place_and_good_ones_kept():
    items = [{"name": "ok", "project_type": "renovation", "eligible_cost": 1},
             {"name": "bad amount", "project_type": "renovation", "eligible_cost": "-3"},
             {"name": "x" * 10_000_000, "project_type": "renovation", "eligible_cost": 1},
             {"name": "<script>alert(1)</script>", "project_type": "renovation", "eligible_cost": 1},
             {"name": "ok", "project_type": "renovation", "eligible_cost": 2},
             {"name": "no type", "eligible_cost": 1}]
    good, errors = parse_export(items)
    assert [g.name for g in good] == ["ok", "<script>alert(1)</script>"]
    assert errors[0] == "scenarios[1].eligible_cost: '-3' is negative; amounts must be $0 or more"
    assert errors[1].startswith("scenarios[2].name: ") and "10,000,000 characters long; at most 120" in errors[1]
    assert errors[2] == "scenarios[4].name: 'ok' appears twice in the file"
    assert errors[3] == "scenarios[5].project_type: is missing; it is required"


def test_name_and_notes_validation(store):
    for bad in ["", "   ", "a\x00b", "n" * 121]:
        with pytest.raises(ValidationError):
            store.save(bad, APP)
    with pytest.raises(ValidationError, match="notes: .* at most 5,000"):
        store.save("ok", APP, notes="x" * 5001)
    assert store.names() == []


def test_newer_schema_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    ScenarioStore(url).dispose()
    e = create_engine(url)
    with e.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num='9999'"))
    e.dispose()
    with pytest.raises(ScenarioError, match="schema revision 9999, made by a newer version"):
        ScenarioStore(url)


def test_concurrent_processes_lose_nothing(url):
    ScenarioStore(url).dispose()
    code = WRITER.format(root=str(ROOT), url=url, n=25)
    procs = [subprocess.Popen([sys.executable, "-c", code, str(p)], cwd=ROOT) for p in range(4)]
    assert [p.wait(180) for p in procs] == [0, 0, 0, 0]
    s = ScenarioStore(url)
    names = s.names()
    assert len(names) == 100 and len(set(names)) == 100


IMPORTER = """
import sys
from core.law.application import Application
from core.store.model import Scenario
from core.store.repository import ScenarioStore
from core.law.rulesets import load
s = ScenarioStore({url!r})
app = Application.from_dict({{"project_type": "renovation", "eligible_cost": 1000}})
rs = load()
items = [Scenario(f"bulk-{{i}}", app, rs.id, rs.version, rs.to_data()) for i in range(200000)]
print("start", flush=True)
s.import_scenarios(items)
"""


def test_import_killed_half_way_leaves_library_as_it_was(tmp_path):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    s = ScenarioStore(url)
    s.save("kept", APP)
    proc = subprocess.Popen([sys.executable, "-c", IMPORTER.format(root=str(ROOT), url=url)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout.readline().strip() == "start"
    time.sleep(1.5)                     # well into the 200,000 inserts
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    s.dispose()
    after = ScenarioStore(url)
    assert after.names() == ["kept"]
    assert after.get("kept").application == APP


def test_scenario_name_at_the_maximum_length():
    assert MAX_NAME == 120 and MAX_NOTES == 5_000
    assert check_name("n" * MAX_NAME) == "n" * MAX_NAME
    assert check_name("  " + "n" * MAX_NAME + "  ") == "n" * MAX_NAME
    assert "is 121 characters long; at most 120 are allowed" in error_of(check_name, "n" * (MAX_NAME + 1))
    assert check_notes("x" * MAX_NOTES) == "x" * MAX_NOTES
    assert "is 5,001 characters long; at most 5,000 are allowed" in error_of(check_notes, "x" * (MAX_NOTES + 1))
    assert check_notes(None) == ""




def fill(store, n):
    rs = load()
    stamps = [f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}+00:00" for i in range(n)]
    store.import_scenarios([Scenario(f"Scenario {i:03d}", APP.replace(eligible_cost=100_000_000 + i * 100), rs.id,
                                     rs.version, rs.to_data(), "", stamps[i], stamps[i]) for i in range(n)])


def test_store_reads_pages_not_the_library(url):  # noqa: F811 (SQLite, and PostgreSQL where set)
    db = ScenarioStore(url)
    fill(db, 30)
    assert db.count() == 30 and db.count("scenario 02") == 10 and db.count("%") == 0
    assert [s.name for s in db.page("", 0, 3)] == ["Scenario 029", "Scenario 028", "Scenario 027"]
    assert [s.name for s in db.page("", 27, 25)] == ["Scenario 002", "Scenario 001", "Scenario 000"]
    assert [s.name for s in db.get_many(["Scenario 005", "gone", "Scenario 001"])] == ["Scenario 005", "Scenario 001"]
    assert [s["name"] for s in db.export(["Scenario 003"])["scenarios"]] == ["Scenario 003"]
    db.dispose()


def test_eight_processes_fifty_saves_each_keep_all_400(tmp_path):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    ScenarioStore(url).dispose()
    code = WRITER.format(root=str(ROOT), url=url, n=50)
    procs = [subprocess.Popen([sys.executable, "-c", code, str(p)], cwd=ROOT) for p in range(8)]
    assert [p.wait(300) for p in procs] == [0] * 8
    names = ScenarioStore(url).names()
    assert len(names) == 400 and len(set(names)) == 400


SAVER = """
import sys
from core.law.application import Application
from core.store.repository import ScenarioStore
s = ScenarioStore({url!r})
app = Application.from_dict({{"project_type": "renovation", "eligible_cost": 1000, "local_contribution": 10}})
i = 0
while True:
    s.save(f"save-{{i}}", app.replace(eligible_cost=1000 + i), notes="n" * 4000)
    print(f"save-{{i}}", flush=True)   # reported only once the transaction has committed
    i += 1
"""


def test_sigkill_in_the_middle_of_saves_loses_no_completed_save(tmp_path):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    ScenarioStore(url).dispose()
    proc = subprocess.Popen([sys.executable, "-c", SAVER.format(root=str(ROOT), url=url)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    done = []
    deadline = time.time() + 60
    while len(done) < 40 and time.time() < deadline:
        done.append(proc.stdout.readline().strip())
    proc.send_signal(signal.SIGKILL)     # no chance to clean up, mid-transaction most likely
    proc.wait(30)
    store = ScenarioStore(url)           # the database opens...
    saved = {s.name: s for s in store.list()}
    assert set(done) <= set(saved)       # ...with every completed save present
    for name, sc in saved.items():       # ...and no half-written scenario
        assert sc.application.eligible_cost == 1000 + int(name.split("-")[1]) and len(sc.notes) == 4000


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=12), c, max_size=5),
                           max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(json_values | st.fixed_dictionaries({"format": st.just("senior-center-grant-scenarios"),
                                             "version": st.just(1), "scenarios": st.lists(json_values, max_size=4)}))
def test_fuzz_scenario_json_gives_scenarios_or_messages(data):
    good, errors = parse_export(json.loads(json.dumps(data, default=str)) if data == data else data)
    assert all(isinstance(e, str) and e for e in errors)
