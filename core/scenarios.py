"""The scenario library: named applications saved in a real database through SQLAlchemy.

`SCENARIO_DB_URL` (any SQLAlchemy URL, so several app servers can share one PostgreSQL),
else a SQLite file under data/ created on first use. Every write is one transaction;
SQLite runs in WAL mode with a busy timeout and takes the write lock up front
(BEGIN IMMEDIATE), so several processes saving at once lose nothing.

Every scenario has an owner (who saved it) and records who changed it last. Only its owner
or an administrator may overwrite, rename or delete it; anyone may duplicate it as their own.
Every change is appended to `history` in the same transaction as the change itself, with
the scenario before and after; the app never edits or deletes history. The schema is kept
by Alembic (core/migrations); a library made by the first release is upgraded in place on
first open, its scenarios owned by `local`.
"""
from __future__ import annotations

import getpass
import json
import os
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import (Column, Index, Integer, MetaData, String, Table, Text, create_engine, delete, event, func,
                        insert, inspect, select, text, update)
from sqlalchemy.exc import IntegrityError

from core.application import Application
from core.award import Award, evaluate
from core.money import ValidationError
from core.names import check_text
from core.readings import DEFAULT as DEFAULT_READINGS, ReadingError, Readings, from_dict as readings_from_dict
from core.verify import verified
from core.rulesets import Ruleset, RulesetError, available, from_data, load

ROOT = Path(__file__).resolve().parents[1]
EXPORT_FORMAT = "senior-center-grant-scenarios"
EXPORT_VERSION = 1
MAX_NAME = 120
MAX_NOTES = 5_000
MAX_IMPORT_SCENARIOS = 10_000
MAX_STAMP = 32          # characters of a saved date (the columns are String(32))
FUTURE_SLACK_HOURS = 24  # an imported date may be at most a day ahead of this server's clock
LOCAL = "local"   # the actor when nobody signs in: one person on their own machine
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
    Column("uid", String(32), nullable=False, unique=True),  # stays with the scenario through renames
    Column("owner", String(320), nullable=False, server_default=LOCAL),
    Column("changed_by", String(320), nullable=False, server_default=LOCAL),
)
# Most recent first, with the name beside it: a page of the library (and a search by name)
# walks this index and reads only the rows it shows, however large the library (issue 19).
# (Created by the migrations: core/migrations/versions/0002_owners_history.py.)
recent_index = Index("ix_scenarios_recent", scenarios.c.updated_at, scenarios.c.id, scenarios.c.name)
history = Table(
    "history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String(32), nullable=False),
    Column("actor", String(320), nullable=False),
    Column("action", String(16), nullable=False),
    Column("scenario", String(MAX_NAME), nullable=False),
    Column("scenario_uid", String(32), nullable=False),
    Column("before", Text, nullable=True),           # the scenario as JSON, None when it did not exist
    Column("after", Text, nullable=True),            # None after a delete
    Index("ix_history_scenario_uid", "scenario_uid"),
)
ACTIONS = ("save", "overwrite", "rename", "duplicate", "delete", "import", "restore")
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class ScenarioError(ValueError):
    """A request the library cannot honour; the message says why."""


class ScenarioExists(ScenarioError):
    pass


class NotAllowed(ScenarioError):
    """The actor may not make this change; the message says whose scenario it is and what they may do."""


def default_actor() -> str:
    """Who the command line acts as when not told: the operating-system user."""
    try:
        return getpass.getuser() or LOCAL
    except (KeyError, OSError):
        return LOCAL


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
    owner: str = LOCAL
    changed_by: str = LOCAL
    uid: str = ""

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
                "readings": self.readings.as_dict(), "owner": self.owner, "changed_by": self.changed_by}

    def snapshot(self) -> dict:
        """The scenario as history keeps it: everything, including who owns it and its uid."""
        return self.to_dict() | {"uid": self.uid}


def check_stamp(value, field: str, now_: datetime | None = None) -> str:
    """A saved date from a file: ISO 8601 with a time zone (or none, read as UTC), at most a
    day in the future, written back in UTC (so that dates sort as text). '' when not given.
    A date of 9999 would otherwise sort an imported scenario first in every listing."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        raise ValidationError(field, value, "must be a date and time written as text, such as "
                                            "2026-11-30T13:07:08+00:00")
    if len(value) > MAX_STAMP:
        raise ValidationError(field, value, f"is {len(value):,} characters long; a date and time has at most "
                                            f"{MAX_STAMP}, such as 2026-11-30T13:07:08+00:00")
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValidationError(field, value, "is not a date and time; write it as 2026-11-30T13:07:08+00:00") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    when = when.astimezone(timezone.utc)
    latest = (now_ or datetime.now(timezone.utc)) + timedelta(hours=FUTURE_SLACK_HOURS)
    if when > latest:
        raise ValidationError(field, value, f"is in the future (after {latest:%Y-%m-%d %H:%M} UTC); a saved "
                                            f"scenario cannot have been saved then")
    return when.isoformat(timespec="microseconds" if when.microsecond else "seconds")


def scenario_from_dict(item, where: str = "scenario", memo: dict | None = None) -> Scenario:
    """Validate one exported scenario (or a plain application carrying a `name`). `memo` keeps
    the rulesets and readings already read, for the many scenarios of one file that share them."""
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
    memo = {} if memo is None else memo
    try:
        key = ("ruleset", json.dumps(rs_info.get("data"), sort_keys=True, default=str) if rs_info.get("data")
               else str(rs_info.get("id", "regulation")))
    except (TypeError, ValueError):   # not JSON-like: from_data says what is wrong
        key = None
    if key is None or key not in memo:
        try:
            rs = from_data(rs_info["data"]) if rs_info.get("data") else load(rs_info.get("id", "regulation"))
        except RulesetError as err:
            raise ValidationError(f"{where}.ruleset", rs_info.get("id"), f"cannot be used ({err})") from None
        rs, _ = verified(rs)   # a ruleset claiming a shipped id or kind must equal it, else a labelled variant
        found = (rs, rs.to_data())
        if key is not None:
            memo[key] = found
    else:
        found = memo[key]
    rs, rs_data = found
    readings_in = item.get("readings")
    rkey = ("readings", json.dumps(readings_in, sort_keys=True, default=str)) if isinstance(readings_in, dict) else None
    if rkey is not None and rkey in memo:
        rd = memo[rkey]
    else:
        try:
            rd = readings_from_dict(readings_in)
        except ReadingError as err:
            raise ValidationError(f"{where}.readings", readings_in, f"cannot be used ({err})") from None
        if rkey is not None:
            memo[rkey] = rd
    return Scenario(name, app, rs.id, rs.version, rs_data, notes,
                    check_stamp(item.get("created_at"), f"{where}.created_at"),
                    check_stamp(item.get("updated_at"), f"{where}.updated_at"), rd)


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
    good, errors, seen, memo = [], [], set(), {}
    for i, item in enumerate(items):
        where = f"scenarios[{i}]"
        try:
            sc = scenario_from_dict(item, where, memo)
        except ValidationError as err:
            errors.append(str(err))
            continue
        if sc.name in seen:
            errors.append(f"{where}.name: {sc.name!r} appears twice in the file")
            continue
        seen.add(sc.name)
        good.append(sc)
    return good, errors


# A file larger than this is read in a child process (read_export_apart): reading 5,000 scenarios
# takes seconds of CPU, and in the server's own process that time is taken from every other session.
APART_BYTES = 256 * 1024


def read_export(raw: bytes, source: str) -> tuple[list[Scenario], list[str]]:
    """A library export (or a JSON array of applications with names) as bytes -> every valid
    scenario and an error per bad one; InputError when the file as a whole cannot be read."""
    from core.inputs import parse_json
    return parse_export(parse_json(raw, source))


def read_export_apart(raw: bytes, source: str, timeout: float = 300) -> tuple[list[Scenario], list[str]]:
    """read_export, in a child process at a lower priority when the file is large: the server's
    process (and its lock on Python) stays free for the other sessions meanwhile."""
    if len(raw) <= APART_BYTES:
        return read_export(raw, source)
    return _apart(["read-export", source], raw, source, timeout)


def import_export(raw: bytes, source: str, url: str, admins=(), overwrite: bool = False,
                  actor: str = LOCAL) -> int:
    """Read a file (read_export) and import its valid scenarios as `actor`: all or nothing."""
    good, _ = read_export(raw, source)
    store = ScenarioStore(url, admins=admins)
    try:
        return store.import_scenarios(good, overwrite=overwrite, actor=actor)
    finally:
        store.dispose()


def import_export_apart(raw: bytes, source: str, url: str, admins=(), overwrite: bool = False,
                        actor: str = LOCAL, timeout: float = 300) -> int:
    """import_export, in a child process at a lower priority when the file is large (writing
    10,000 scenarios and their history is a second of the process's time)."""
    if len(raw) <= APART_BYTES:
        return import_export(raw, source, url, admins, overwrite, actor)
    argv = ["import-export", source, url, actor, "overwrite" if overwrite else "keep", *admins]
    return _apart(argv, raw, source, timeout)


def _apart(argv: list[str], raw: bytes, source: str, timeout: float):
    """Run `python -m core.scenarios ARGV` with `raw` on its stdin; its answer, or its refusal raised
    here as the same kind of error."""
    import pickle
    import subprocess
    import sys
    from core.inputs import InputError
    child = subprocess.Popen([sys.executable, "-m", "core.scenarios", *argv], cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")})
    try:
        out, err = child.communicate(raw, timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise InputError(f"{source}: this took more than {timeout:.0f} seconds; split it into smaller files") from None
    if child.returncode != 0:
        lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
        raise InputError(f"{source}: could not be read ({(lines[-1] if lines else f'status {child.returncode}')[:200]})")
    kind, *payload = pickle.loads(out)   # written by our own child process, never by a user
    if kind == "refused":
        error = {"InputError": InputError, "ScenarioExists": ScenarioExists, "NotAllowed": NotAllowed,
                 "ValidationError": ScenarioError}.get(payload[0], ScenarioError)
        raise error(payload[1])
    return payload[0] if len(payload) == 1 else tuple(payload)


def _child_main(argv: list[str]) -> int:
    import pickle
    import sys
    from core.inputs import InputError
    if not argv or argv[0] not in ("read-export", "import-export") or (argv[0] == "read-export" and len(argv) != 2) \
            or (argv[0] == "import-export" and len(argv) < 5):
        print("usage: python -m core.scenarios read-export SOURCE < file\n"
              "       python -m core.scenarios import-export SOURCE URL ACTOR overwrite|keep [ADMIN...] < file",
              file=sys.stderr)
        return 2
    try:
        os.nice(10)   # below the server: the sessions it serves come first
    except OSError:
        pass
    from core import scenarios   # run as __main__: the objects sent back must be core.scenarios' own
    raw = sys.stdin.buffer.read()
    try:
        if argv[0] == "read-export":
            result = ("read", *scenarios.read_export(raw, argv[1]))
        else:
            _, source, url, actor, mode, *admins = argv
            result = ("imported", scenarios.import_export(raw, source, url, admins, mode == "overwrite", actor))
    except (InputError, scenarios.ScenarioError, ValidationError) as exc:
        result = ("refused", type(exc).__name__, str(exc))
    sys.stdout.buffer.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    return 0


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


def _alembic_config(connection=None):
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    from alembic.script import ScriptDirectory
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


def upgrade(engine) -> None:
    """Bring the library to the newest schema in one transaction, whatever it was:
    empty (created), made by the first release (stamped at 0001, then upgraded), or older.
    A library made by a newer app is refused, untouched."""
    from alembic import command
    from alembic.script import ScriptDirectory

    head = head_revision()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":      # servers starting at once migrate one at a time
            conn.execute(text("SELECT pg_advisory_xact_lock(4015)"))
        tables = set(inspect(conn).get_table_names())
        current = None
        if "alembic_version" in tables:
            current = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        if current == head:
            return
        cfg = _alembic_config(conn)
        if current is None and "scenarios" in tables:   # the first release's hand-written versioning
            found = (conn.execute(text("SELECT value FROM library_meta WHERE key = 'schema_version'")).scalar()
                     if "library_meta" in tables else "1")
            if int(found or 1) > 1:
                raise ScenarioError(f"the scenario library has schema version {found}; this app reads up to "
                                    f"version 1 of that numbering. Upgrade the app.")
            command.stamp(cfg, "0001")
        elif current is not None:
            try:
                ScriptDirectory.from_config(cfg).get_revision(current)
            except Exception:
                raise ScenarioError(f"the scenario library is at schema revision {current}, made by a newer "
                                    f"version of this app (this one knows up to {head}). Upgrade the app.") from None
        command.upgrade(cfg, "head")


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


class ScenarioStore:
    def __init__(self, url: str | None = None, admins=()):
        self.url = url or default_url()
        self.admins = frozenset(a.strip().lower() for a in admins if a and a.strip())
        is_sqlite = self.url.startswith("sqlite")
        self.engine = create_engine(self.url, connect_args={"timeout": 30} if is_sqlite else {},
                                    pool_pre_ping=not is_sqlite)
        if is_sqlite:
            _sqlite_pragmas(self.engine)
        upgrade(self.engine)

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
    def _row(row) -> Scenario:
        data = json.loads(row.application)
        rd = readings_from_dict(data.pop("readings", None))   # kept beside the inputs; absent = default
        return Scenario(row.name, Application.from_dict(data), row.ruleset_id,
                        row.ruleset_version, json.loads(row.ruleset_data), row.notes, row.created_at,
                        row.updated_at, rd, row.owner, row.changed_by, row.uid)

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

    def _get_for_update(self, conn, name: str) -> Scenario | None:
        row = conn.execute(select(scenarios).where(scenarios.c.name == name).with_for_update()).first()
        return self._row(row) if row else None

    # -- writing: every change and its history event in one transaction ----------------------
    @staticmethod
    def _values(sc: Scenario, ruleset_json: str | None = None) -> dict:
        app = sc.application.to_dict() | ({"readings": sc.readings.changed()} if sc.readings.changed() else {})
        return {"name": sc.name, "notes": sc.notes, "application": json.dumps(app),
                "ruleset_id": sc.ruleset_id, "ruleset_version": sc.ruleset_version,
                "ruleset_data": json.dumps(sc.ruleset_data) if ruleset_json is None else ruleset_json,
                "created_at": sc.created_at,
                "updated_at": sc.updated_at, "uid": sc.uid, "owner": sc.owner, "changed_by": sc.changed_by}

    @staticmethod
    def _event_row(actor: str, action: str, before: Scenario | None, after: Scenario | None) -> dict:
        subject = after or before
        return dict(at=_stamp(), actor=actor, action=action, scenario=subject.name, scenario_uid=subject.uid,
                    before=json.dumps(before.snapshot()) if before else None,
                    after=json.dumps(after.snapshot()) if after else None)

    @classmethod
    def _record(cls, conn, actor: str, action: str, before: Scenario | None, after: Scenario | None) -> None:
        conn.execute(insert(history).values(**cls._event_row(actor, action, before, after)))

    def _insert(self, conn, sc: Scenario) -> None:
        try:
            with conn.begin_nested():
                conn.execute(insert(scenarios).values(**self._values(sc)))
        except IntegrityError:  # another session saved the same name a moment ago
            raise ScenarioExists(f"a scenario named {sc.name!r} already exists") from None

    def save(self, name: str, app: Application, rs: Ruleset | None = None, notes: str = "",
             overwrite: bool = False, readings: Readings | None = None, actor: str = LOCAL) -> Scenario:
        """Save under `name`; an existing name is replaced only with overwrite=True, and only
        by its owner or an administrator. The replaced scenario keeps its owner."""
        rs = rs or load()
        name, notes = check_name(name), check_notes(notes)
        stamp = now()
        sc = Scenario(name, app, rs.id, rs.version, rs.to_data(), notes, stamp, stamp, readings or DEFAULT_READINGS,
                      owner=actor, changed_by=actor, uid=uuid.uuid4().hex)
        with self.engine.begin() as conn:
            old = self._get_for_update(conn, name)
            if old and not overwrite:
                raise ScenarioExists(f"a scenario named {name!r} already exists")
            if old:
                self._check(old, actor, "overwrite")
                sc = Scenario(**{**sc.__dict__, "created_at": old.created_at, "owner": old.owner, "uid": old.uid})
                conn.execute(update(scenarios).where(scenarios.c.uid == old.uid).values(**self._values(sc)))
                self._record(conn, actor, "overwrite", old, sc)
                return sc
            self._insert(conn, sc)
            self._record(conn, actor, "save", None, sc)
        return sc

    def rename(self, old: str, new: str, actor: str = LOCAL) -> Scenario:
        new = check_name(new)
        with self.engine.begin() as conn:
            sc = self._get_for_update(conn, old)
            if sc is None:
                raise ScenarioError(f"no scenario named {old!r}")
            self._check(sc, actor, "rename")
            if new != old and conn.execute(select(scenarios.c.id).where(scenarios.c.name == new)).first():
                raise ScenarioExists(f"a scenario named {new!r} already exists")
            after = Scenario(**{**sc.__dict__, "name": new, "updated_at": now(), "changed_by": actor})
            try:
                with conn.begin_nested():
                    conn.execute(update(scenarios).where(scenarios.c.uid == sc.uid).values(
                        name=new, updated_at=after.updated_at, changed_by=actor))
            except IntegrityError:
                raise ScenarioExists(f"a scenario named {new!r} already exists") from None
            self._record(conn, actor, "rename", sc, after)
        return after

    def duplicate(self, name: str, new: str, actor: str = LOCAL) -> Scenario:
        """Anyone may duplicate any scenario; the copy is theirs."""
        new = check_name(new)
        with self.engine.begin() as conn:
            sc = self._get_for_update(conn, name)
            if sc is None:
                raise ScenarioError(f"no scenario named {name!r}")
            stamp = now()
            copy = Scenario(**{**sc.__dict__, "name": new, "created_at": stamp, "updated_at": stamp,
                               "owner": actor, "changed_by": actor, "uid": uuid.uuid4().hex})
            if conn.execute(select(scenarios.c.id).where(scenarios.c.name == new)).first():
                raise ScenarioExists(f"a scenario named {new!r} already exists")
            self._insert(conn, copy)
            self._record(conn, actor, "duplicate", sc, copy)
        return copy

    def delete(self, name: str, actor: str = LOCAL) -> Scenario:
        """Delete and return the scenario, so the caller can offer an undo (`restore`).
        Its history stays, and it can be restored from there later too."""
        with self.engine.begin() as conn:
            sc = self._get_for_update(conn, name)
            if sc is None:
                raise ScenarioError(f"no scenario named {name!r}")
            self._check(sc, actor, "delete")
            conn.execute(delete(scenarios).where(scenarios.c.uid == sc.uid))
            self._record(conn, actor, "delete", sc, None)
        return sc

    def restore(self, sc: Scenario, actor: str = LOCAL) -> Scenario:
        """Bring back a deleted scenario as it was (same owner, same place in the history)."""
        with self.engine.begin() as conn:
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
        self._insert(conn, back)
        self._record(conn, actor, "restore", None, back)
        return back

    def restore_version(self, event_id: int, actor: str = LOCAL, name: str | None = None,
                        before: bool = False) -> Scenario:
        """Make a scenario as it was after history event `event_id` (before it, for a delete or
        with before=True: so even the version a first-release library held can come back).
        If the scenario still exists its current name and owner stay and only its contents go
        back; if it was deleted it comes back (under `name` if given). Recorded as a restore."""
        with self.engine.begin() as conn:
            row = conn.execute(select(history).where(history.c.id == event_id)).first()
            if row is None:
                raise ScenarioError(f"no history event {event_id}")
            ev = self._event(row)
            snap = ev.before if before else ev.state
            if snap is None:
                raise ScenarioError(f"history event {event_id} has no scenario before it (it was new then)")
            old_state = scenario_from_snapshot(snap | {"uid": ev.uid})
            cur = conn.execute(select(scenarios).where(scenarios.c.uid == ev.uid).with_for_update()).first()
            if cur is None:
                return self._restore_deleted(conn, old_state, actor, name)
            cur = self._row(cur)
            self._check(cur, actor, "restore")
            back = Scenario(**{**old_state.__dict__, "name": cur.name, "owner": cur.owner, "uid": cur.uid,
                               "created_at": cur.created_at, "updated_at": now(), "changed_by": actor})
            conn.execute(update(scenarios).where(scenarios.c.uid == cur.uid).values(**self._values(back)))
            self._record(conn, actor, "restore", cur, back)
            return back

    def export(self, names: list[str] | None = None) -> dict:
        chosen = self.list() if names is None else self.get_many(list(names))   # only what is asked for
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported_at": now(),
                "scenarios": [s.to_dict() for s in chosen]}

    def import_scenarios(self, items: list[Scenario], overwrite: bool = False, actor: str = LOCAL) -> int:
        """Import validated scenarios all-or-nothing, as the actor's own; a name clash aborts unless
        overwrite, and a replaced scenario must be the actor's (or the actor an administrator)."""
        # In bulk: one read of the names already taken and one multi-row insert each for the
        # scenarios and their history, so that the write lock is held for a moment, not for as
        # long as a statement per scenario takes (a 10,000-scenario import held another user's
        # save for 8.7 s). The rules are the same as one by one.
        stamp = now()
        dumped: dict[int, str] = {}   # scenarios of one file share their ruleset's data: written once as JSON

        def values(sc: Scenario) -> dict:
            key = id(sc.ruleset_data)
            if key not in dumped:
                dumped[key] = json.dumps(sc.ruleset_data)
            return self._values(sc, dumped[key])

        # Every row is made before the write lock is taken, as if each scenario were new: the lock
        # is held only to read which names are taken, to remake those rows, and to write.
        made = []
        for item in items:
            sc = Scenario(**{**item.__dict__, "created_at": item.created_at or stamp,
                             "updated_at": item.updated_at or stamp, "owner": actor, "changed_by": actor,
                             "uid": uuid.uuid4().hex})
            made.append((sc, values(sc), self._event_row(actor, "import", None, sc)))
        with self.engine.begin() as conn:
            existing: dict[str, Scenario] = {}
            names = [item.name for item in items]
            for start in range(0, len(names), 500):
                query = select(scenarios).where(scenarios.c.name.in_(names[start:start + 500])).with_for_update()
                existing.update((r.name, self._row(r)) for r in conn.execute(query))
            if existing and not overwrite:
                first = next(n for n in names if n in existing)
                raise ScenarioExists(f"a scenario named {first!r} already exists")
            new_rows, events = [], []
            for sc, row, event_row in made:
                old = existing.get(sc.name)
                if old:
                    self._check(old, actor, "overwrite")
                    sc = Scenario(**{**sc.__dict__, "owner": old.owner, "uid": old.uid})
                    conn.execute(update(scenarios).where(scenarios.c.uid == old.uid).values(**values(sc)))
                    event_row = self._event_row(actor, "import", old, sc)
                else:
                    new_rows.append(row)
                events.append(event_row)
            if new_rows:
                try:
                    with conn.begin_nested():
                        conn.execute(insert(scenarios), new_rows)
                except IntegrityError as err:
                    raise ScenarioExists(f"a scenario name clashed with one saved meanwhile ({err.orig})") from None
            if events:
                conn.execute(insert(history), events)
        return len(items)

    # -- history ------------------------------------------------------------------------------
    @staticmethod
    def _event(row) -> Event:
        return Event(row.id, row.at, row.actor, row.action, row.scenario, row.scenario_uid,
                     json.loads(row.before) if row.before else None, json.loads(row.after) if row.after else None)

    def history(self, name: str | None = None, uid: str | None = None) -> list[Event]:
        """Every event, oldest first; with `name`, the events of that scenario through all its
        names (the one now called so, else the one most recently called so before it was deleted);
        with `uid`, the events of the scenario of that uid."""
        with self.engine.connect() as conn:
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
            return [self._event(r) for r in conn.execute(query)]

    def deleted(self) -> list[Event]:
        """The delete event of every scenario that is deleted now, most recent first."""
        with self.engine.connect() as conn:
            live = select(scenarios.c.uid)
            last = (select(history.c.scenario_uid, func.max(history.c.id).label("last"))
                    .group_by(history.c.scenario_uid).subquery())
            rows = conn.execute(select(history).join(last, history.c.id == last.c.last)
                                .where(history.c.action == "delete", history.c.scenario_uid.not_in(live))
                                .order_by(history.c.id.desc()))
            return [self._event(r) for r in rows]


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

def scenario_from_snapshot(data: dict) -> Scenario:
    """A scenario as history recorded it (Scenario.snapshot)."""
    sc = scenario_from_dict(data, "history")
    return Scenario(**{**sc.__dict__, "created_at": data.get("created_at") or "", "owner": data.get("owner") or LOCAL,
                       "changed_by": data.get("changed_by") or LOCAL, "uid": data["uid"]})


if __name__ == "__main__":
    import sys
    sys.exit(_child_main(sys.argv[1:]))
