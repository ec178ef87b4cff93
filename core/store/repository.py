"""The scenario library: named applications saved in a real database through SQLAlchemy.

`SCENARIO_DB_URL` (any SQLAlchemy URL, so several app servers can share one PostgreSQL),
else a SQLite file under data/ created on first use (core/store/db.py). Every write is one
transaction, recorded in the history in that same transaction (core/store/history.py).

Every scenario has an owner (who saved it) and records who changed it last. Only its owner
or an administrator may overwrite, rename or delete it; anyone may duplicate it as their own.
A library made by the first release is upgraded in place on first open, its scenarios owned
by `local`.
"""
from __future__ import annotations

import json
import uuid
from datetime import date

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from core.law.application import Application
from core.law.readings import DEFAULT as DEFAULT_READINGS, Readings, from_dict as readings_from_dict
from core.law.rulesets import Ruleset, load
from core.store import history as hist, unread as unread_inputs
from core.store.db import default_url, open_engine
from core.store.fileformat import export_document, scenario_from_snapshot
from core.store.kept_rulesets import Keeper
from core.store.model import (LOCAL, NotAllowed, Pick, Scenario, ScenarioError, ScenarioExists, check_name,
                              check_notes, now, rulesets, scenarios)
from core.store.history import Event


class ScenarioStore:
    def __init__(self, url: str | None = None, admins=()):
        self.url = url or default_url()
        self.admins = frozenset(a.strip().lower() for a in admins if a and a.strip())
        self.engine = open_engine(self.url)

    def dispose(self) -> None:
        self.engine.dispose()

    # -- who may do what -------------------------------------------------------------------
    def is_admin(self, actor: str) -> bool:
        return actor.strip().lower() in self.admins

    def may_change(self, sc: Scenario, actor: str) -> bool:
        return sc.owner.lower() == actor.strip().lower() or self.is_admin(actor)

    def _check(self, sc: Scenario, actor: str, verb: str) -> None:
        if not self.may_change(sc, actor):
            raise NotAllowed(f"“{sc.name}” belongs to {sc.owner}; only its owner or an administrator may {verb} "
                             f"it. You may duplicate it as your own.")

    # -- reading ---------------------------------------------------------------------------
    @staticmethod
    def _select():
        """Scenario rows with their ruleset's data beside them."""
        return (select(scenarios, rulesets.c.data.label("ruleset_data"))
                .select_from(scenarios.outerjoin(rulesets, scenarios.c.ruleset_key == rulesets.c.key)))

    @staticmethod
    def _row(row, parsed: dict | None = None) -> Scenario:
        """The scenario of one row; `parsed` holds the rulesets already read, shared by the rows of one query."""
        data = json.loads(row.application)
        rd = readings_from_dict(data.pop("readings", None))   # kept beside the inputs; absent = default
        parsed = {} if parsed is None else parsed
        if row.ruleset_key not in parsed:
            parsed[row.ruleset_key] = json.loads(row.ruleset_data) if row.ruleset_data else None
        data, unread = unread_inputs.split(data)   # a newer release's inputs: set aside, kept (rollback)
        return Scenario(row.name, Application.from_dict(data), row.ruleset_id,
                        row.ruleset_version, parsed[row.ruleset_key], row.notes, row.created_at,
                        row.updated_at, rd, row.owner, row.changed_by, row.uid, row.as_of or "", unread)

    def _rows(self, rows) -> list[Scenario]:
        parsed: dict = {}
        return [self._row(r, parsed) for r in rows]

    def list(self) -> list[Scenario]:
        """Every scenario, most recently updated first."""
        with self.engine.connect() as conn:
            rows = conn.execute(self._select().order_by(scenarios.c.updated_at.desc(), scenarios.c.id.desc()))
            return self._rows(rows)

    def names(self) -> list[str]:
        return [s.name for s in self.list()]

    def get(self, name: str) -> Scenario | None:
        with self.engine.connect() as conn:
            row = conn.execute(self._select().where(scenarios.c.name == name)).first()
            return self._row(row) if row else None

    def _get_for_update(self, conn, name: str) -> Scenario | None:
        row = conn.execute(self._select().where(scenarios.c.name == name).with_for_update(of=scenarios)).first()
        return self._row(row) if row else None

    # -- a scenario as someone picked it: its uid and version (model.Pick) -----------------------
    def versions(self, uids) -> dict[str, int]:
        with self.engine.connect() as conn:
            return hist.versions(conn, uids)

    def picks(self, listed: list[Scenario]) -> dict[str, Pick]:
        """The Pick of each scenario listed (by uid), for actions that must act on what was shown."""
        version = self.versions(sc.uid for sc in listed)
        return {sc.uid: Pick(sc.uid, version[sc.uid], sc.name) for sc in listed}

    def _target(self, conn, target: str | Pick) -> Scenario | None:
        """The scenario an action names, locked: by name, or as picked (ScenarioStale when it was
        deleted or changed since)."""
        if not isinstance(target, Pick):
            return self._get_for_update(conn, target)
        row = conn.execute(self._select().where(scenarios.c.uid == target.uid).with_for_update(of=scenarios)).first()
        sc = self._row(row) if row else None
        if target.deleted or sc is None or hist.versions(conn, [target.uid])[target.uid] != target.version:
            raise target.stale(sc is not None, sc.name if sc else None)
        return sc

    def pick_of(self, name: str) -> Pick | None:
        """The Pick of the scenario now called `name` (None when there is none)."""
        sc = self.get(name)
        return self.picks([sc])[sc.uid] if sc else None

    def picked(self, pick: Pick) -> Scenario:
        """The scenario as it was picked (to open it), or ScenarioStale."""
        with self.engine.connect() as conn:
            return self._target(conn, pick)

    # -- writing: every change and its history event in one transaction ----------------------
    @staticmethod
    def _values(sc: Scenario, keeper: Keeper) -> dict:
        """The scenario's row; the caller keeps `keeper`'s rulesets before writing it."""
        app = (unread_inputs.merged(sc.application.to_dict(), sc.unread)
               | ({"readings": sc.readings.changed()} if sc.readings.changed() else {}))
        return {"name": sc.name, "notes": sc.notes, "application": json.dumps(app),
                "ruleset_id": sc.ruleset_id, "ruleset_version": sc.ruleset_version,
                "ruleset_key": keeper.key(sc.ruleset_data), "created_at": sc.created_at,
                "updated_at": sc.updated_at, "uid": sc.uid, "owner": sc.owner, "changed_by": sc.changed_by,
                "as_of": sc.as_of or None}

    def _write(self, conn, sc: Scenario, uid: str | None = None) -> None:
        """Insert the scenario's row, or with `uid` replace that row with it."""
        keeper = Keeper()
        values = self._values(sc, keeper)
        keeper.keep(conn)
        if uid is not None:
            conn.execute(update(scenarios).where(scenarios.c.uid == uid).values(**values))
            return
        try:
            with conn.begin_nested():
                conn.execute(insert(scenarios).values(**values))
        except IntegrityError:  # another session saved the same name a moment ago
            raise ScenarioExists(f"a scenario named {sc.name!r} already exists") from None

    def save(self, name: str, app: Application, rs: Ruleset | None = None, notes: str = "",
             overwrite: bool = False, readings: Readings | None = None, actor: str = LOCAL,
             replacing: Pick | None = None) -> Scenario:
        """Save under `name`; an existing name is replaced only with overwrite=True, and only
        by its owner or an administrator. The replaced scenario keeps its owner. With `replacing`
        (the scenario of that name as the user was asked about it: `pick_of`), only that one in
        that version is replaced, else ScenarioStale: one renamed to `name` meanwhile, or changed,
        is never overwritten unseen."""
        rs = rs or load()
        name, notes = check_name(name), check_notes(notes)
        stamp = now()
        day = (rs.as_of_date or date.today()).isoformat()   # the day whose law it is made under: kept with it
        sc = Scenario(name, app, rs.id, rs.version, rs.to_data(), notes, stamp, stamp, readings or DEFAULT_READINGS,
                      owner=actor, changed_by=actor, uid=uuid.uuid4().hex, as_of=day)
        with self.engine.begin() as conn:
            old = self._get_for_update(conn, name)
            if replacing is not None:
                now_there = self._target(conn, replacing)   # deleted, renamed or changed since: ScenarioStale
                if old is None or old.uid != now_there.uid:    # (a rename is a change: never reached, kept as a guard)
                    raise replacing.stale(True, now_there.name)
            if old and not overwrite:
                raise ScenarioExists(f"a scenario named {name!r} already exists")
            if old:
                self._check(old, actor, "overwrite")
                sc = Scenario(**{**sc.__dict__, "created_at": old.created_at, "owner": old.owner, "uid": old.uid,
                                 "unread": old.unread})   # what a newer release saved stays
                self._write(conn, sc, uid=old.uid)
                hist.record(conn, actor, "overwrite", old, sc)
                return sc
            self._write(conn, sc)
            hist.record(conn, actor, "save", None, sc)
        return sc

    def rename(self, old: str | Pick, new: str, actor: str = LOCAL) -> Scenario:
        new = check_name(new)
        with self.engine.begin() as conn:
            sc = self._target(conn, old)
            if sc is None:
                raise ScenarioError(f"no scenario named {old!r}")
            self._check(sc, actor, "rename")
            if new != sc.name and conn.execute(select(scenarios.c.id).where(scenarios.c.name == new)).first():
                raise ScenarioExists(f"a scenario named {new!r} already exists")
            after = Scenario(**{**sc.__dict__, "name": new, "updated_at": now(), "changed_by": actor})
            try:
                with conn.begin_nested():
                    conn.execute(update(scenarios).where(scenarios.c.uid == sc.uid).values(
                        name=new, updated_at=after.updated_at, changed_by=actor))
            except IntegrityError:
                raise ScenarioExists(f"a scenario named {new!r} already exists") from None
            hist.record(conn, actor, "rename", sc, after)
        return after

    def duplicate(self, name: str | Pick, new: str, actor: str = LOCAL) -> Scenario:
        """Anyone may duplicate any scenario; the copy is theirs."""
        new = check_name(new)
        with self.engine.begin() as conn:
            sc = self._target(conn, name)
            if sc is None:
                raise ScenarioError(f"no scenario named {name!r}")
            stamp = now()
            copy = Scenario(**{**sc.__dict__, "name": new, "created_at": stamp, "updated_at": stamp,
                               "owner": actor, "changed_by": actor, "uid": uuid.uuid4().hex})
            if conn.execute(select(scenarios.c.id).where(scenarios.c.name == new)).first():
                raise ScenarioExists(f"a scenario named {new!r} already exists")
            self._write(conn, copy)
            hist.record(conn, actor, "duplicate", sc, copy)
        return copy

    def delete(self, name: str | Pick, actor: str = LOCAL) -> Scenario:
        """Delete and return the scenario, so the caller can offer an undo (`restore`).
        Its history stays, and it can be restored from there later too."""
        with self.engine.begin() as conn:
            sc = self._target(conn, name)
            if sc is None:
                raise ScenarioError(f"no scenario named {name!r}")
            self._check(sc, actor, "delete")
            conn.execute(delete(scenarios).where(scenarios.c.uid == sc.uid))
            hist.record(conn, actor, "delete", sc, None)
        return sc

    def restore(self, sc: Scenario, actor: str = LOCAL, picked: Pick | None = None) -> Scenario:
        """Bring back a deleted scenario as it was (same owner, same place in the history); with
        `picked` (the deleted one as shown), only if nobody restored or changed it since."""
        with self.engine.begin() as conn:
            if picked is not None:
                self._still(conn, picked)
            return self._restore_deleted(conn, sc, actor)

    def _restore_deleted(self, conn, sc: Scenario, actor: str, name: str | None = None) -> Scenario:
        self._check(sc, actor, "restore")
        if conn.execute(select(scenarios.c.id).where(scenarios.c.uid == sc.uid)).first():
            raise ScenarioError(f"“{sc.name}” has not been deleted; restore one of its versions instead")
        back = Scenario(**{**sc.__dict__, "name": check_name(name) if name else sc.name,
                           "updated_at": now(), "changed_by": actor})
        if conn.execute(select(scenarios.c.id).where(scenarios.c.name == back.name)).first():
            raise ScenarioExists(f"a scenario named {back.name!r} already exists; rename that one first "
                                 f"or restore under another name")
        self._write(conn, back)
        hist.record(conn, actor, "restore", None, back)
        return back

    def restore_version(self, event_id: int, actor: str = LOCAL, name: str | None = None,
                        before: bool = False, picked: Pick | None = None) -> Scenario:
        """Make a scenario as it was after history event `event_id` (before it, for a delete or
        with before=True: so even the version a first-release library held can come back).
        If the scenario still exists its current name and owner stay and only its contents go
        back; if it was deleted it comes back (under `name` if given). Recorded as a restore.
        With `picked` (the scenario, or the deleted one, as the history was shown for it), only
        if it is still as it was then (else ScenarioStale)."""
        with self.engine.begin() as conn:
            ev = hist.event_by_id(conn, event_id)
            if picked is not None:
                if ev.uid != picked.uid:
                    raise ScenarioError(f"history event {event_id} is not of “{picked.name}”")
                self._still(conn, picked)
            if ev.action == "redact":
                raise ScenarioError(f"history event {event_id} is a redaction of the history, not a version "
                                    f"of a scenario")
            snap = ev.before if before else ev.state
            if snap is None:
                raise ScenarioError(f"history event {event_id} has no scenario before it (it was new then)")
            old_state = scenario_from_snapshot(snap | {"uid": ev.uid})
            cur = conn.execute(self._select().where(scenarios.c.uid == ev.uid).with_for_update(of=scenarios)).first()
            if cur is None:
                return self._restore_deleted(conn, old_state, actor, name)
            cur = self._row(cur)
            self._check(cur, actor, "restore")
            back = Scenario(**{**old_state.__dict__, "name": cur.name, "owner": cur.owner, "uid": cur.uid,
                               "created_at": cur.created_at, "updated_at": now(), "changed_by": actor})
            self._write(conn, back, uid=cur.uid)
            hist.record(conn, actor, "restore", cur, back)
            return back

    @staticmethod
    def _still(conn, picked: Pick) -> None:
        """The scenario is as `picked` saw it (there, or deleted, and in that version): else ScenarioStale."""
        row = conn.execute(select(scenarios.c.name).where(scenarios.c.uid == picked.uid)
                           .with_for_update(of=scenarios)).first()
        if (row is None) != picked.deleted or hist.versions(conn, [picked.uid])[picked.uid] != picked.version:
            raise picked.stale(row is not None, row.name if row else None)

    def export(self, names: list[str] | None = None) -> dict:
        """The library as a file: every scenario and kept variant, or the scenarios named (each
        carries its own ruleset's data)."""
        chosen = self.list() if names is None else self.get_many(list(names))   # only what is asked for
        return export_document(chosen, self.variants().exported() if names is None else None)

    def variants(self):
        """The policy variants kept in this library (core/store/variants.py)."""
        from core.store.variants import VariantLibrary
        return VariantLibrary(self)

    def import_scenarios(self, items: list[Scenario], overwrite: bool = False, actor: str = LOCAL,
                         variants=()) -> int:
        """Import validated scenarios all-or-nothing, as the actor's own; a name clash aborts unless
        overwrite, and a replaced scenario must be the actor's (or the actor an administrator).
        `variants` (checked rulesets: variants.parse_variants) are kept in the same transaction.
        In bulk, one transaction: core/store/bulk_import.py."""
        from core.store.bulk_import import import_all
        return import_all(self, items, overwrite, actor, variants)

    # -- history ------------------------------------------------------------------------------
    def history(self, name: str | None = None, uid: str | None = None) -> list[Event]:
        """Every event, oldest first; of one scenario (through its renames) by `name` or `uid`."""
        with self.engine.connect() as conn:
            return hist.events(conn, name, uid)

    def redact_history(self, before, actor: str = LOCAL, apply: bool = False) -> hist.Redaction:
        """Retention: the people in every history event dated before `before` (a date, UTC)
        replaced by pseudonyms, keeping the rest of each event as it was (core.store.history.redact).
        Only an administrator may (anyone, when none are named). With apply=False nothing is
        written: the counts say what would be."""
        cutoff = hist.check_retention_date(before)
        if self.admins and not self.is_admin(actor):
            raise NotAllowed(f"{actor} is not an administrator; only an administrator ([library] administrators) "
                             f"may redact the history")
        with (self.engine.begin() if apply else self.engine.connect()) as conn:
            return hist.redact(conn, cutoff, actor, apply)

    def deleted(self) -> list[Event]:
        """The delete event of every scenario that is deleted now, most recent first."""
        with self.engine.connect() as conn:
            return hist.deleted(conn)

    # -- bounded reads for pages (issue 19): a page's cost does not grow with the library --------

    @staticmethod
    def _matching(search: str):
        """Names containing `search` (any case); LIKE's own wildcards in it are taken literally."""
        query = ScenarioStore._select()
        if search.strip():
            pattern = search.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            query = query.where(scenarios.c.name.ilike(f"%{pattern}%", escape="\\"))
        return query

    def count(self, search: str = "") -> int:
        query = select(func.count(scenarios.c.id))
        if search.strip():
            query = query.where(self._matching(search).whereclause)
        with self.engine.connect() as conn:
            return conn.execute(query).scalar_one()

    def page(self, search: str = "", offset: int = 0, limit: int = 25) -> list[Scenario]:
        """One page of the scenarios whose names contain `search`, most recently updated first."""
        query = (self._matching(search).order_by(scenarios.c.updated_at.desc(), scenarios.c.id.desc())
                 .offset(max(0, offset)).limit(max(0, limit)))
        with self.engine.connect() as conn:
            return self._rows(conn.execute(query))

    def get_many(self, names: list[str]) -> list[Scenario]:
        """The named scenarios that exist, in the order given."""
        if not names:
            return []
        with self.engine.connect() as conn:
            rows = {sc.name: sc for sc in self._rows(conn.execute(self._select().where(scenarios.c.name.in_(names))))}
        return [rows[n] for n in names if n in rows]

