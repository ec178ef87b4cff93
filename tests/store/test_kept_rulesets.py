"""Each ruleset kept once (core/store/kept_rulesets.py, migration 0003): scenarios and history
events name it by the hash of its data; a library whose history was written before reads alike."""
from __future__ import annotations

import dataclasses
import json
from datetime import date
import sqlite3
import threading
import time

import pytest
from alembic import command
from sqlalchemy import inspect, text
from sqlalchemy.exc import OperationalError

from core.law.rulesets import load
from core.store import db as store_db
from core.store.db import _alembic_config
from core.store.fileformat import parse_export
from core.store.kept_rulesets import Keeper, key_of, text_of
from core.store.repository import ScenarioStore
from tests.support.store import APP


def raw(store, query: str) -> list:
    with store.engine.connect() as c:
        return c.execute(text(query)).all()


def test_a_ruleset_shared_by_many_scenarios_is_kept_once(store):
    law, variant = load(), load("cap-800k")
    items, errors = parse_export([{"name": f"S {i}", "project_type": "renovation", "eligible_cost": 1_000 + i}
                                  for i in range(40)])
    assert errors == [] and store.import_scenarios(items) == 40
    store.save("Mine", APP)
    store.save("Under the variant", APP, rs=variant)
    kept = dict(raw(store, "SELECT key, data FROM rulesets"))
    assert sorted(kept) == sorted([key_of(text_of(law.to_data())), key_of(text_of(variant.to_data()))])
    assert {json.loads(data)["id"] for data in kept.values()} == {"regulation", "cap-800k"}
    # the rows and events name it; none holds its data again
    assert not any("parameters" in (b or "") + (a or "") for b, a in raw(store, "SELECT before, after FROM history"))
    assert {k for (k,) in raw(store, "SELECT ruleset_key FROM scenarios")} == set(kept)
    # as callers read them, scenarios and events carry the data as before
    assert store.get("S 7").ruleset_data == law.to_data() and store.get("Under the variant").award().amount == 50_000_000
    event = store.history("Under the variant")[0]
    assert event.after["ruleset"] == {"id": "cap-800k", "version": variant.version, "data": variant.to_data()}


def test_the_same_data_gives_the_same_key_whatever_its_order():
    data = load().to_data()
    backwards = dict(reversed(list(data.items())))
    keeper = Keeper()
    assert keeper.key(data) == keeper.key(backwards) == key_of(text_of(data)) and len(keeper.texts) == 1
    assert keeper.key(None) is None


def test_a_history_written_before_0003_is_read_alike_and_can_be_restored(url):
    """Going down to 0002 puts each ruleset's data back into the rows and the events; coming up
    again (the app opening the library) keeps those events as they are and reads them alike."""
    lib = ScenarioStore(url)
    lib.save("A", APP)
    lib.save("A", APP.replace(federal_grant=100_000_00), overwrite=True)
    lib.save("Variant", APP, rs=load("cap-800k"))
    lib.delete("Variant")
    # below 0004 a scenario's row keeps no day of its law (its history events still do)
    before = ([dataclasses.replace(sc, as_of="") for sc in lib.list()], lib.history(), lib.deleted())
    assert {sc.as_of for sc in lib.list()} == {date.today().isoformat()}
    with lib.engine.begin() as conn:
        command.downgrade(_alembic_config(conn), "0002")
    assert "rulesets" not in inspect(lib.engine).get_table_names()
    events = raw(lib, "SELECT after FROM history WHERE after IS NOT NULL")
    assert events and all(json.loads(a)["ruleset"]["data"]["parameters"] for (a,) in events)   # as 0002 wrote them
    lib.dispose()
    again = ScenarioStore(url)                       # upgraded on open; the old events stay as they were
    assert (again.list(), again.history(), again.deleted()) == before
    assert all("data" in json.loads(a)["ruleset"] for (a,) in raw(again, "SELECT after FROM history "
                                                                          "WHERE after IS NOT NULL"))
    first = again.history("A")[0]
    assert again.restore_version(first.id).application == APP                       # an old event restores
    back = again.restore_version(again.history("Variant")[0].id, name="Variant again")
    assert back.ruleset_id == "cap-800k" and back.award().amount == 50_000_000
    newest = raw(again, "SELECT after FROM history ORDER BY id DESC LIMIT 1")[0][0]
    assert set(json.loads(newest)["ruleset"]) == {"id", "version", "key"}           # new events name it by key
    again.dispose()


def test_a_sqlite_write_waits_for_another_and_gives_up_in_words_after_the_wait(tmp_path, monkeypatch):
    """The write lock is waited for in short steps (core/store/db.py): a save that comes while
    another holds it is made once it is free, and one that waits longer than LOCK_WAIT fails."""
    lib = ScenarioStore(f"sqlite:///{tmp_path / 'lib.db'}")
    monkeypatch.setattr(store_db, "LOCK_WAIT", 0.5)
    holder = lib.engine.connect()
    holder.begin()                                   # BEGIN IMMEDIATE: the write lock
    with pytest.raises(OperationalError, match="database is locked"):
        lib.save("Waited too long", APP)
    done = []
    waiter = threading.Thread(target=lambda: done.append(lib.save("Waited", APP).name))
    waiter.start()
    time.sleep(0.1)                                  # the waiter waits for the lock meanwhile
    holder.rollback()
    holder.close()
    waiter.join(10)
    assert done == ["Waited"] and lib.names() == ["Waited"]
    lib.dispose()


def test_opening_a_library_whose_write_lock_another_holds_waits_to_switch_it_to_wal(tmp_path):
    """A new library file is switched to WAL on first connect, which needs its exclusive lock;
    SQLite refuses that at once, busy timeout or not, while another process holds a write lock
    (servers starting together on an empty library). The open waits for the lock instead."""
    path = tmp_path / "lib.db"
    other = sqlite3.connect(path, isolation_level=None)      # another process, still in rollback mode
    other.execute("CREATE TABLE elsewhere (x)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO elsewhere VALUES (1)")
    opened = []
    opener = threading.Thread(target=lambda: opened.append(ScenarioStore(f"sqlite:///{path}")))
    opener.start()
    time.sleep(0.2)
    assert opened == []                               # waiting, not failed
    other.execute("COMMIT")
    other.close()
    opener.join(10)
    assert len(opened) == 1 and opened[0].names() == []
    with opened[0].engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    opened[0].dispose()
