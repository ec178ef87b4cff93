"""The scenario library: named applications saved in a real database through SQLAlchemy.

`SCENARIO_DB_URL` (any SQLAlchemy URL, so several app servers can share one PostgreSQL),
else a SQLite file under data/ created on first use. Every write is one transaction;
SQLite runs in WAL mode with a busy timeout and takes the write lock up front
(BEGIN IMMEDIATE), so several processes saving at once lose nothing.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import (Column, Index, Integer, MetaData, String, Table, Text, create_engine, delete, event, insert,
                        select, update)
from sqlalchemy.exc import IntegrityError

from core.application import Application
from core.award import Award, evaluate
from core.money import ValidationError
from core.names import check_text
from core.readings import DEFAULT as DEFAULT_READINGS, ReadingError, Readings, from_dict as readings_from_dict
from core.verify import verified
from core.rulesets import Ruleset, RulesetError, available, from_data, load

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_VERSION = 1
EXPORT_FORMAT = "senior-center-grant-scenarios"
EXPORT_VERSION = 1
MAX_NAME = 120
MAX_NOTES = 5_000
MAX_IMPORT_SCENARIOS = 10_000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

metadata = MetaData()
scenarios = Table(
    "scenarios", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(MAX_NAME), nullable=False, unique=True),
    Column("notes", Text, nullable=False, default=""),
    Column("application", Text, nullable=False),     # Application.to_dict() as JSON
    Column("ruleset_id", String(64), nullable=False),
    Column("ruleset_version", String(12), nullable=False),
    Column("ruleset_data", Text, nullable=False),    # the ruleset itself, so variants can be recomputed
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)
# Most recent first, with the name beside it: a page of the library (and a search by name)
# walks this index and reads only the rows it shows, however large the library (issue 19).
recent_index = Index("ix_scenarios_recent", scenarios.c.updated_at, scenarios.c.id, scenarios.c.name)
meta = Table("library_meta", metadata, Column("key", String(64), primary_key=True), Column("value", Text))


class ScenarioError(ValueError):
    """A request the library cannot honour; the message says why."""


class ScenarioExists(ScenarioError):
    pass


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def check_name(name, field: str = "name") -> str:
    if not isinstance(name, str):
        raise ValidationError(field, name, "must be text")
    name = name.strip()
    if not name:
        raise ValidationError(field, name, "is empty; give the scenario a name")
    if len(name) > MAX_NAME:
        raise ValidationError(field, name, f"is {len(name):,} characters long; at most {MAX_NAME} are allowed")
    return check_text(name, field, MAX_NAME, what="scenario")   # no controls, bidi overrides, zero-width


def check_notes(notes, field: str = "notes") -> str:
    if notes is None:
        return ""
    if not isinstance(notes, str):
        raise ValidationError(field, notes, "must be text")
    if len(notes) > MAX_NOTES:
        raise ValidationError(field, notes, f"is {len(notes):,} characters long; at most {MAX_NOTES:,} are allowed")
    check_text(notes, field, MAX_NOTES, multiline=True, required=False)
    return notes


@dataclass(frozen=True)
class Scenario:
    name: str
    application: Application
    ruleset_id: str = "regulation"
    ruleset_version: str = ""
    ruleset_data: dict | None = None
    notes: str = ""
    created_at: str = ""
    updated_at: str = ""
    readings: Readings = DEFAULT_READINGS   # the readings of the regulation it was saved under

    def saved_ruleset(self) -> Ruleset:
        """The ruleset exactly as it was when the scenario was saved."""
        if self.ruleset_data:
            return from_data(self.ruleset_data)
        return load(self.ruleset_id)

    def current_ruleset(self) -> Ruleset | None:
        """The ruleset of the same id as it stands now (None for a variant made in a session)."""
        return load(self.ruleset_id) if self.ruleset_id in available() else None

    @property
    def outdated(self) -> bool:
        current = self.current_ruleset()
        return current is not None and current.version != self.ruleset_version

    def award(self) -> Award:
        return evaluate(self.application, self.saved_ruleset(), self.readings)

    def to_dict(self) -> dict:
        return {"name": self.name, "notes": self.notes, "application": self.application.to_dict(),
                "ruleset": {"id": self.ruleset_id, "version": self.ruleset_version, "data": self.ruleset_data},
                "created_at": self.created_at, "updated_at": self.updated_at,
                "readings": self.readings.as_dict()}


def scenario_from_dict(item, where: str = "scenario") -> Scenario:
    """Validate one exported scenario (or a plain application carrying a `name`)."""
    if not isinstance(item, dict):
        raise ValidationError(where, item, "must be a JSON object")
    name = check_name(item.get("name"), f"{where}.name")
    notes = check_notes(item.get("notes"), f"{where}.notes")
    if "application" in item:
        try:
            app = Application.from_dict(item["application"])
        except ValidationError as err:
            raise ValidationError(f"{where}.application.{err.field}", err.value, err.problem) from None
        rs_info = item.get("ruleset") or {}
        if not isinstance(rs_info, dict):
            raise ValidationError(f"{where}.ruleset", rs_info, "must be an object with id, version and data")
    else:  # a plain application with a name (and perhaps notes and a ruleset id)
        try:
            app = Application.from_dict({k: v for k, v in item.items() if k not in ("name", "notes", "ruleset")})
        except ValidationError as err:
            raise ValidationError(f"{where}.{err.field}", err.value, err.problem) from None
        rs_info = {"id": item["ruleset"]} if isinstance(item.get("ruleset"), str) else {}
    try:
        rs = from_data(rs_info["data"]) if rs_info.get("data") else load(rs_info.get("id", "regulation"))
    except RulesetError as err:
        raise ValidationError(f"{where}.ruleset", rs_info.get("id"), f"cannot be used ({err})") from None
    rs, _ = verified(rs)   # a ruleset claiming a shipped id or kind must equal it, else a labelled variant
    try:
        rd = readings_from_dict(item.get("readings"))
    except ReadingError as err:
        raise ValidationError(f"{where}.readings", item.get("readings"), f"cannot be used ({err})") from None
    return Scenario(name, app, rs.id, rs.version, rs.to_data(), notes,
                    str(item.get("created_at") or ""), str(item.get("updated_at") or ""), rd)


def parse_export(data) -> tuple[list[Scenario], list[str]]:
    """Every valid scenario of an export file (or plain array), and an error per bad one."""
    if isinstance(data, dict):
        if data.get("format") != EXPORT_FORMAT:
            return [], [f"format: {data.get('format')!r} is not a scenario library export "
                        f"(expected {EXPORT_FORMAT!r})"]
        if data.get("version") != EXPORT_VERSION:
            return [], [f"version: {data.get('version')!r} is not supported (this app reads version {EXPORT_VERSION})"]
        items = data.get("scenarios")
        if not isinstance(items, list):
            return [], ["scenarios: must be a list"]
    elif isinstance(data, list):
        items = data
    else:
        return [], ["the file must hold a scenario export or a JSON array of applications with a name"]
    if len(items) > MAX_IMPORT_SCENARIOS:
        return [], [f"scenarios: {len(items):,} scenarios; at most {MAX_IMPORT_SCENARIOS:,} at once"]
    good, errors, seen = [], [], set()
    for i, item in enumerate(items):
        where = f"scenarios[{i}]"
        try:
            sc = scenario_from_dict(item, where)
        except ValidationError as err:
            errors.append(str(err))
            continue
        if sc.name in seen:
            errors.append(f"{where}.name: {sc.name!r} appears twice in the file")
            continue
        seen.add(sc.name)
        good.append(sc)
    return good, errors


def default_url() -> str:
    url = os.environ.get("SCENARIO_DB_URL")
    if url:
        return url
    (ROOT / "data").mkdir(exist_ok=True)
    return f"sqlite:///{ROOT / 'data' / 'scenarios.db'}"


def _sqlite_pragmas(engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None          # transactions are begun below, not by the driver
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")    # take the write lock up front: no upgrade deadlocks


class ScenarioStore:
    def __init__(self, url: str | None = None):
        self.url = url or default_url()
        is_sqlite = self.url.startswith("sqlite")
        self.engine = create_engine(self.url, connect_args={"timeout": 30} if is_sqlite else {},
                                    pool_pre_ping=not is_sqlite)
        if is_sqlite:
            _sqlite_pragmas(self.engine)
        self._migrate()

    def _migrate(self) -> None:
        """Create the schema on first use and refuse a library written by a newer app."""
        with self.engine.begin() as conn:
            metadata.create_all(conn)
            recent_index.create(conn, checkfirst=True)   # a library made before the index existed
            found = conn.execute(select(meta.c.value).where(meta.c.key == "schema_version")).scalar()
            if found is None:
                try:
                    conn.execute(insert(meta).values(key="schema_version", value=str(SCHEMA_VERSION)))
                except IntegrityError:
                    pass
            elif int(found) > SCHEMA_VERSION:
                raise ScenarioError(f"the scenario library has schema version {found}; this app reads up to "
                                    f"{SCHEMA_VERSION}. Upgrade the app.")

    def dispose(self) -> None:
        self.engine.dispose()

    @staticmethod
    def _row(row) -> Scenario:
        data = json.loads(row.application)
        rd = readings_from_dict(data.pop("readings", None))   # kept beside the inputs; absent = default
        return Scenario(row.name, Application.from_dict(data), row.ruleset_id,
                        row.ruleset_version, json.loads(row.ruleset_data), row.notes, row.created_at,
                        row.updated_at, rd)

    def list(self) -> list[Scenario]:
        """Every scenario, most recently updated first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(scenarios).order_by(scenarios.c.updated_at.desc(), scenarios.c.id.desc()))
            return [self._row(r) for r in rows]

    def names(self) -> list[str]:
        return [s.name for s in self.list()]

    def get(self, name: str) -> Scenario | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(scenarios).where(scenarios.c.name == name)).first()
            return self._row(row) if row else None

    @staticmethod
    def _values(sc: Scenario) -> dict:
        app = sc.application.to_dict() | ({"readings": sc.readings.changed()} if sc.readings.changed() else {})
        return {"name": sc.name, "notes": sc.notes, "application": json.dumps(app),
                "ruleset_id": sc.ruleset_id, "ruleset_version": sc.ruleset_version,
                "ruleset_data": json.dumps(sc.ruleset_data), "created_at": sc.created_at,
                "updated_at": sc.updated_at}

    def save(self, name: str, app: Application, rs: Ruleset | None = None, notes: str = "",
             overwrite: bool = False, readings: Readings | None = None) -> Scenario:
        """Save under `name`; an existing name is replaced only with overwrite=True."""
        rs = rs or load()
        name, notes = check_name(name), check_notes(notes)
        stamp = now()
        sc = Scenario(name, app, rs.id, rs.version, rs.to_data(), notes, stamp, stamp, readings or DEFAULT_READINGS)
        with self.engine.begin() as conn:
            old = conn.execute(select(scenarios.c.created_at).where(scenarios.c.name == name)).first()
            if old and not overwrite:
                raise ScenarioExists(f"a scenario named {name!r} already exists")
            if old:
                values = self._values(sc) | {"created_at": old.created_at}
                conn.execute(update(scenarios).where(scenarios.c.name == name).values(**values))
                return Scenario(**{**sc.__dict__, "created_at": old.created_at})
            try:
                conn.execute(insert(scenarios).values(**self._values(sc)))
            except IntegrityError:  # another session saved the same name a moment ago
                raise ScenarioExists(f"a scenario named {name!r} already exists") from None
        return sc

    def rename(self, old: str, new: str) -> None:
        new = check_name(new)
        with self.engine.begin() as conn:
            if conn.execute(select(scenarios.c.id).where(scenarios.c.name == new)).first() and new != old:
                raise ScenarioExists(f"a scenario named {new!r} already exists")
            done = conn.execute(update(scenarios).where(scenarios.c.name == old).values(name=new, updated_at=now()))
            if done.rowcount == 0:
                raise ScenarioError(f"no scenario named {old!r}")

    def duplicate(self, name: str, new: str) -> Scenario:
        sc = self.get(name)
        if sc is None:
            raise ScenarioError(f"no scenario named {name!r}")
        new = check_name(new)
        stamp = now()
        copy = Scenario(**{**sc.__dict__, "name": new, "created_at": stamp, "updated_at": stamp})
        self._insert_all([copy])
        return copy

    def delete(self, name: str) -> Scenario:
        """Delete and return the scenario, so the caller can offer an undo (`restore`)."""
        sc = self.get(name)
        if sc is None:
            raise ScenarioError(f"no scenario named {name!r}")
        with self.engine.begin() as conn:
            conn.execute(delete(scenarios).where(scenarios.c.name == name))
        return sc

    def restore(self, sc: Scenario) -> None:
        self._insert_all([sc])

    def _insert_all(self, items: list[Scenario], overwrite: bool = False) -> None:
        """Insert every scenario in one transaction: all land or none do."""
        with self.engine.begin() as conn:
            for sc in items:
                stamp = now()
                values = self._values(sc) | {"created_at": sc.created_at or stamp, "updated_at": sc.updated_at or stamp}
                exists = conn.execute(select(scenarios.c.id).where(scenarios.c.name == sc.name)).first()
                if exists and not overwrite:
                    raise ScenarioExists(f"a scenario named {sc.name!r} already exists")
                if exists:
                    conn.execute(update(scenarios).where(scenarios.c.name == sc.name).values(**values))
                else:
                    conn.execute(insert(scenarios).values(**values))

    def export(self, names: list[str] | None = None) -> dict:
        chosen = self.list() if names is None else self.get_many(list(names))   # only what is asked for
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported_at": now(),
                "scenarios": [s.to_dict() for s in chosen]}

    def import_scenarios(self, items: list[Scenario], overwrite: bool = False) -> int:
        """Import validated scenarios all-or-nothing; a name clash aborts unless overwrite."""
        try:
            self._insert_all(items, overwrite)
        except IntegrityError as err:
            raise ScenarioExists(f"a scenario name clashed with one saved meanwhile ({err.orig})") from None
        return len(items)

    # -- bounded reads for pages (issue 19): a page's cost does not grow with the library --------

    @staticmethod
    def _matching(search: str):
        """Names containing `search` (any case); LIKE's own wildcards in it are taken literally."""
        query = select(scenarios)
        if search.strip():
            pattern = search.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            query = query.where(scenarios.c.name.ilike(f"%{pattern}%", escape="\\"))
        return query

    def count(self, search: str = "") -> int:
        from sqlalchemy import func
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
            return [self._row(r) for r in conn.execute(query)]

    def get_many(self, names: list[str]) -> list[Scenario]:
        """The named scenarios that exist, in the order given."""
        if not names:
            return []
        with self.engine.connect() as conn:
            rows = {r.name: self._row(r) for r in conn.execute(select(scenarios).where(scenarios.c.name.in_(names)))}
        return [rows[n] for n in names if n in rows]
