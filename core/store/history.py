"""The history: every change appended with the scenario before and after, in the same
transaction as the change; the app never edits or deletes it."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import func, insert, select

from core.store.model import Scenario, ScenarioError, history, scenarios


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


def record(conn, actor: str, action: str, before: Scenario | None, after: Scenario | None) -> None:
    """Append one event, in the caller's transaction."""
    subject = after or before
    conn.execute(insert(history).values(
        at=_stamp(), actor=actor, action=action, scenario=subject.name, scenario_uid=subject.uid,
        before=json.dumps(before.snapshot()) if before else None,
        after=json.dumps(after.snapshot()) if after else None))


def event_of(row) -> Event:
    return Event(row.id, row.at, row.actor, row.action, row.scenario, row.scenario_uid,
                 json.loads(row.before) if row.before else None, json.loads(row.after) if row.after else None)


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
    return [event_of(r) for r in conn.execute(query)]


def deleted(conn) -> list[Event]:
    """The delete event of every scenario that is deleted now, most recent first."""
    live = select(scenarios.c.uid)
    last = (select(history.c.scenario_uid, func.max(history.c.id).label("last"))
            .group_by(history.c.scenario_uid).subquery())
    rows = conn.execute(select(history).join(last, history.c.id == last.c.last)
                        .where(history.c.action == "delete", history.c.scenario_uid.not_in(live))
                        .order_by(history.c.id.desc()))
    return [event_of(r) for r in rows]


def event_by_id(conn, event_id: int) -> Event:
    row = conn.execute(select(history).where(history.c.id == event_id)).first()
    if row is None:
        raise ScenarioError(f"no history event {event_id}")
    return event_of(row)
