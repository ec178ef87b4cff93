"""An import into the scenario library (ScenarioStore.import_scenarios): validated scenarios
written all or nothing, as the importer's own, in one transaction with their history events
and any policy variants the file keeps.

In bulk: one read of the names already taken and one multi-row insert each for the scenarios
and their history, so that the write lock is held for a moment, not for as long as a statement
per scenario takes (a 10,000-scenario import held another user's save for 8.7 s). The rules are
the same as one by one (core/store/repository.py: a name clash aborts unless overwrite, and a
replaced scenario must be the importer's or the importer an administrator). Every row is made
before the lock is taken, as if each scenario were new: the lock is held to read which names
are taken, to remake those rows, and to write.
"""
from __future__ import annotations

import uuid

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError

from core.store import history as hist
from core.store.db import bulk_insert
from core.store.kept_rulesets import Keeper
from core.store.model import Scenario, ScenarioExists, now, scenarios

CHUNK = 500   # names per IN (...) when reading which are taken


def import_all(store, items: list[Scenario], overwrite: bool, actor: str, variants) -> int:
    """`store` is the ScenarioStore imported into: its rows, checks and variant library are used."""
    stamp, keeper = now(), Keeper()   # the scenarios of one file share their ruleset: kept once
    made = []
    for item in items:
        sc = Scenario(**{**item.__dict__, "created_at": item.created_at or stamp,
                         "updated_at": item.updated_at or stamp, "owner": actor, "changed_by": actor,
                         "uid": uuid.uuid4().hex})
        made.append((sc, store._values(sc, keeper), hist.event_row(actor, "import", None, sc, keeper)))
    dialect = store.engine.dialect
    write_rows = bulk_insert(dialect, scenarios, [row for _, row, _ in made])
    write_events = bulk_insert(dialect, hist.history, [event for _, _, event in made])
    with store.engine.begin() as conn:
        existing = _taken(store, conn, [sc.name for sc, _, _ in made])
        if existing and not overwrite:
            raise ScenarioExists(f"a scenario named {next(n for n in existing)!r} already exists")
        keeper.keep(conn)   # before the rows that name them
        if variants:
            store.variants().import_variants(conn, list(variants), actor, overwrite)
        if existing:
            write_rows, write_events = _replacing(store, conn, made, existing, actor, keeper)
        try:
            with conn.begin_nested():
                write_rows(conn)
        except IntegrityError as err:
            raise ScenarioExists(f"a scenario name clashed with one saved meanwhile ({err.orig})") from None
        write_events(conn)
    return len(items)


def _taken(store, conn, names: list[str]) -> dict[str, Scenario]:
    """The saved scenarios of these names, in the order of `names`, locked for the import."""
    found, parsed = {}, {}
    for start in range(0, len(names), CHUNK):
        query = store._select().where(scenarios.c.name.in_(names[start:start + CHUNK])).with_for_update(of=scenarios)
        found.update((r.name, store._row(r, parsed)) for r in conn.execute(query))
    return {name: found[name] for name in names if name in found}


def _replacing(store, conn, made, existing: dict[str, Scenario], actor: str, keeper: Keeper):
    """An import that overwrites: the taken names' rows replaced here (each keeps its owner and
    uid, and must be the actor's to replace); what writes the new rows and every event."""
    new_rows, events = [], []
    for sc, row, event in made:
        old = existing.get(sc.name)
        if old:
            store._check(old, actor, "overwrite")
            sc = Scenario(**{**sc.__dict__, "owner": old.owner, "uid": old.uid})
            event = hist.event_row(actor, "import", old, sc, keeper)
            conn.execute(update(scenarios).where(scenarios.c.uid == old.uid).values(**store._values(sc, keeper)))
        else:
            new_rows.append(row)
        events.append(event)
    keeper.keep(conn)
    return bulk_insert(conn.dialect, scenarios, new_rows), bulk_insert(conn.dialect, hist.history, events)
