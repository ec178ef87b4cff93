"""The scenario library against real databases: SQLite files, and PostgreSQL when
TEST_POSTGRES_URL is set (CI starts one on loopback)."""
import json
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from sqlalchemy import create_engine, text

from core.law.application import Application
from core.law.money import ValidationError
from core.law.rulesets import load
from core.store.fileformat import EXPORT_FORMAT, parse_export
from core.store.model import ScenarioError, ScenarioExists
from core.store.repository import ScenarioStore
from tests.conftest import ROOT

APP = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})


def _postgres_url():
    base = os.environ.get("TEST_POSTGRES_URL")
    if not base:
        return None
    name = f"t_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lib.db'}"
    pg = _postgres_url()
    if pg is None:
        if os.environ.get("CI"):
            pytest.fail("TEST_POSTGRES_URL is not set in CI; .ci/run must start PostgreSQL")
        pytest.skip("TEST_POSTGRES_URL not set: no PostgreSQL to test against")
    return pg


@pytest.fixture
def store(url):
    s = ScenarioStore(url)
    yield s
    s.dispose()


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


WRITER = """
import sys
sys.path.insert(0, {root!r})
from core.law.application import Application
from core.store.repository import ScenarioStore
s = ScenarioStore({url!r})
app = Application.from_dict({{"project_type": "renovation", "eligible_cost": 1000}})
for i in range({n}):
    s.save(f"p{{sys.argv[1]}}-{{i}}", app.replace(eligible_cost=1000 + i))
"""


def test_concurrent_processes_lose_nothing(url):
    ScenarioStore(url).dispose()
    code = WRITER.format(root=str(ROOT), url=url, n=25)
    procs = [subprocess.Popen([sys.executable, "-c", code, str(p)]) for p in range(4)]
    assert [p.wait(180) for p in procs] == [0, 0, 0, 0]
    s = ScenarioStore(url)
    names = s.names()
    assert len(names) == 100 and len(set(names)) == 100


IMPORTER = """
import sys
sys.path.insert(0, {root!r})
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
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "start"
    time.sleep(1.5)                     # well into the 200,000 inserts
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    s.dispose()
    after = ScenarioStore(url)
    assert after.names() == ["kept"]
    assert after.get("kept").application == APP
