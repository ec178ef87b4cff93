"""The history: every change appended with the scenario before and after, in the same
transaction as the change; the app never edits or deletes it. The one exception is an
administrator's, for a retention rule: `redact` replaces the people's addresses in the events
before a date by pseudonyms, keeping every figure, and records that it did."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from datetime import date, datetime, timezone

from sqlalchemy import func, insert, select, text, update

from core.store.kept_rulesets import Keeper, data_of
from core.store.model import LOCAL, Scenario, ScenarioError, history, scenarios

REDACTED = "redacted-"   # a pseudonym's prefix: redacted-<10 hex digits>
_IDENTITIES = ("owner", "changed_by")   # who, inside a scenario's snapshot


@dataclass(frozen=True)
class Event:
    """One change in the history: when, who, what, and the scenario before and after."""
    id: int
    at: str
    actor: str
    action: str
    scenario: str
    uid: str
    before: dict | None
    after: dict | None

    def to_dict(self) -> dict:
        return {"id": self.id, "at": self.at, "actor": self.actor, "action": self.action,
                "scenario": self.scenario, "before": self.before, "after": self.after}

    @property
    def state(self) -> dict:
        """The scenario as this event left it (as it was before, for a delete)."""
        return self.after if self.after is not None else self.before


def _stamp() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _stored(sc: Scenario, keeper: Keeper) -> str:
    """The scenario as an event keeps it: its ruleset named by key, kept once in `rulesets`."""
    snap = sc.snapshot()
    snap["ruleset"] = {"id": sc.ruleset_id, "version": sc.ruleset_version, "key": keeper.key(sc.ruleset_data)}
    return json.dumps(snap)


def event_row(actor: str, action: str, before: Scenario | None, after: Scenario | None, keeper: Keeper) -> dict:
    """One event's row (made before a bulk write takes its lock); the caller keeps `keeper`'s rulesets."""
    subject = after or before
    return dict(at=_stamp(), actor=actor, action=action, scenario=subject.name, scenario_uid=subject.uid,
                before=_stored(before, keeper) if before else None,
                after=_stored(after, keeper) if after else None)


def record(conn, actor: str, action: str, before: Scenario | None, after: Scenario | None) -> None:
    """Append one event, in the caller's transaction."""
    keeper = Keeper()
    row = event_row(actor, action, before, after, keeper)
    keeper.keep(conn)
    conn.execute(insert(history).values(**row))


def _with_data(snap, data: dict[str, dict]):
    """A snapshot as callers read it: its ruleset's data in it (as every event held it before 0003)."""
    rs = snap.get("ruleset") if isinstance(snap, dict) else None
    if isinstance(rs, dict) and "key" in rs:
        snap["ruleset"] = {"id": rs.get("id"), "version": rs.get("version"), "data": data.get(rs["key"])}
    return snap


def events_of(conn, rows) -> list[Event]:
    """The events of these history rows, their rulesets read in one query."""
    loaded = [(row, json.loads(row.before) if row.before else None, json.loads(row.after) if row.after else None)
              for row in rows]
    keys = {snap["ruleset"].get("key") for _, *snaps in loaded for snap in snaps
            if isinstance(snap, dict) and isinstance(snap.get("ruleset"), dict)}
    data = data_of(conn, keys)
    return [Event(row.id, row.at, row.actor, row.action, row.scenario, row.scenario_uid,
                  _with_data(before, data), _with_data(after, data)) for row, before, after in loaded]


def events(conn, name: str | None = None, uid: str | None = None) -> list[Event]:
    """Every event, oldest first; with `name`, the events of that scenario through all its
    names (the one now called so, else the one most recently called so before it was deleted);
    with `uid`, the events of the scenario of that uid."""
    query = select(history).order_by(history.c.id)
    if uid is not None:
        query = query.where(history.c.scenario_uid == uid)
    elif name is not None:
        uid = conn.execute(select(scenarios.c.uid).where(scenarios.c.name == name)).scalar()
        if uid is None:
            uid = conn.execute(select(history.c.scenario_uid).where(history.c.scenario == name)
                               .order_by(history.c.id.desc()).limit(1)).scalar()
        if uid is None:
            raise ScenarioError(f"no scenario named {name!r}, now or in the history")
        query = query.where(history.c.scenario_uid == uid)
    return events_of(conn, conn.execute(query).all())


def deleted(conn) -> list[Event]:
    """The delete event of every scenario that is deleted now, most recent first: a delete with
    no later event of its scenario, whose uid no saved scenario has. Found through the index of
    actions, so a view of the library costs what its deletes cost, not what the whole history
    does (40,000 events took 0.16 s at every view of Compare)."""
    later = history.alias("later")
    rows = conn.execute(select(history).where(
        history.c.action == "delete", history.c.scenario_uid.not_in(select(scenarios.c.uid)),
        ~select(later.c.id).where(later.c.scenario_uid == history.c.scenario_uid, later.c.id > history.c.id).exists(),
    ).order_by(history.c.id.desc()))
    return events_of(conn, rows.all())


def versions(conn, uids) -> dict[str, int]:
    """Each scenario's version: the id of its last history event (every change appends one, in
    the change's transaction); 0 for one that has none (a library of the first release)."""
    uids = list(uids)
    found: dict[str, int] = {}
    for start in range(0, len(uids), 500):
        query = (select(history.c.scenario_uid, func.max(history.c.id))
                 .where(history.c.scenario_uid.in_(uids[start:start + 500])).group_by(history.c.scenario_uid))
        found.update((uid, last) for uid, last in conn.execute(query))
    return {uid: found.get(uid, 0) for uid in uids}


MAX_EVENT_ID = 2 ** 63 - 1   # the largest id a database keeps (a bigger number overflowed SQLite's driver)


def event_by_id(conn, event_id: int) -> Event:
    missing = ScenarioError(f"no history event {str(event_id)[:30]}; the history lists every event by its number")
    if isinstance(event_id, bool) or not isinstance(event_id, int) or not 1 <= event_id <= MAX_EVENT_ID:
        raise missing
    row = conn.execute(select(history).where(history.c.id == event_id)).first()
    if row is None:
        raise missing
    return events_of(conn, [row])[0]


# --- retention: the people's addresses in old events replaced by pseudonyms ---------------------

@dataclass(frozen=True)
class Redaction:
    """What `redact` did (or, not applied, would do): events changed, people in them."""
    before: str
    events: int
    people: int
    applied: bool
    event_id: int | None = None

    def to_dict(self) -> dict:
        return {"redacted_before": self.before, "events": self.events, "people": self.people,
                "applied": self.applied, "event_id": self.event_id}


def is_pseudonym(who) -> bool:
    return isinstance(who, str) and re.fullmatch(re.escape(REDACTED) + r"[0-9a-f]{10}", who) is not None


def _pseudonyms():
    """A pseudonym for each person, the same for every event of one redaction: an HMAC of the
    address under a random key that is used once and never stored, so nobody can find whose a
    pseudonym was by hashing a guess."""
    key, made = secrets.token_bytes(32), {}

    def pseudonym(who):
        if not isinstance(who, str) or not who.strip() or who == LOCAL or is_pseudonym(who):
            return who
        norm = who.strip().lower()
        if norm not in made:
            made[norm] = REDACTED + hmac.new(key, norm.encode(), hashlib.sha256).hexdigest()[:10]
        return made[norm]
    return pseudonym, made


def _redacted_snapshot(text_value, pseudonym):
    if not text_value:
        return text_value
    data = json.loads(text_value)
    if isinstance(data, dict):
        for key in _IDENTITIES:
            if key in data:
                data[key] = pseudonym(data[key])
    return json.dumps(data)


def check_retention_date(value) -> date:
    """A retention date: an ISO date (YYYY-MM-DD), not after today (UTC). ValueError says why."""
    if isinstance(value, datetime) or not isinstance(value, (date, str)):
        raise ValueError(f"{value!r} is not a date; write it as YYYY-MM-DD, such as 2025-01-31")
    if isinstance(value, str):
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
            raise ValueError(f"{value[:40]!r} is not a date; write it as YYYY-MM-DD, such as 2025-01-31")
        try:
            value = date.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"{value!r} is not a date of the calendar; write it as YYYY-MM-DD, "
                             f"such as 2025-01-31") from None
    today = datetime.now(timezone.utc).date()
    if value > today:
        raise ValueError(f"{value.isoformat()} is in the future (today is {today.isoformat()}, UTC); "
                         f"give the retention date, today at the latest")
    return value


def _lift_append_only(conn, table: str = "history"):
    """Lift `table`'s append-only triggers inside this transaction; returns what puts them back (in
    the same transaction: no other session ever sees the table without them). `table` is ours:
    "history" or "variant_history" (migration 0005), never a user's text."""
    if conn.dialect.name == "postgresql":
        found = conn.execute(text(f"SELECT 1 FROM pg_trigger WHERE tgrelid = '{table}'::regclass "
                                  f"AND tgname = '{table}_append_only'")).first()
        if found:
            conn.execute(text(f"ALTER TABLE {table} DISABLE TRIGGER {table}_append_only"))
        return lambda: found and conn.execute(text(f"ALTER TABLE {table} ENABLE TRIGGER {table}_append_only"))
    if conn.dialect.name == "sqlite":
        kept = conn.execute(text("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                                 "AND tbl_name = :t AND name = :n"), {"t": table, "n": f"{table}_no_update"}).all()
        for name, _ in kept:
            conn.execute(text(f'DROP TRIGGER "{name}"'))
        return lambda: [conn.execute(text(sql)) for _, sql in kept]
    return lambda: None


def _redact_table(conn, table, cutoff: date, pseudonym, apply: bool) -> int:
    """In one append-only history table (the scenarios' or the kept variants'), the people (actor;
    owner and changed_by in the snapshot before and after) of every event dated before `cutoff`
    replaced by pseudonyms; the events changed."""
    restore = _lift_append_only(conn, table.name) if apply else None
    rows = conn.execute(select(table).where(table.c.at < cutoff.isoformat()).order_by(table.c.id)).all()
    changed = 0
    for row in rows:
        new = {"actor": pseudonym(row.actor), "before": _redacted_snapshot(row.before, pseudonym),
               "after": _redacted_snapshot(row.after, pseudonym)}
        if (new["actor"], new["before"], new["after"]) == (row.actor, row.before, row.after):
            continue
        changed += 1
        if apply:
            conn.execute(update(table).where(table.c.id == row.id).values(**new))
    if apply:
        restore()
    return changed


def redact(conn, cutoff: date, actor: str, apply: bool) -> Redaction:
    """Replace the people (actor; owner and changed_by in the scenario before and after) in every
    event dated before `cutoff` by pseudonyms, in the caller's transaction; with apply, recorded
    as an event of its own (action `redact`). `local` and earlier pseudonyms stay."""
    from core.store.model import variant_history
    pseudonym, made = _pseudonyms()
    # (PostgreSQL: each table is locked until the end of the caller's transaction)
    changed = _redact_table(conn, history, cutoff, pseudonym, apply)
    changed += _redact_table(conn, variant_history, cutoff, pseudonym, apply)   # the kept variants' too (0005)
    done = Redaction(cutoff.isoformat(), changed, len(made), apply)
    if not apply:
        return done
    if not changed:
        return done
    event_id = conn.execute(insert(history).values(
        at=_stamp(), actor=actor, action="redact", scenario=f"(history before {cutoff.isoformat()})",
        scenario_uid="", before=None, after=json.dumps(done.to_dict() | {"applied": True}))
    ).inserted_primary_key[0]
    return Redaction(cutoff.isoformat(), changed, len(made), True, event_id)
