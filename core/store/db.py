"""The library's database: its URL, the engine (SQLite in WAL mode with the write lock taken up
front, so several processes saving at once lose nothing), and the Alembic migrations run on open."""
from __future__ import annotations

import os
import re
import sqlite3
import time
from pathlib import Path

from sqlalchemy import create_engine, event, insert, inspect, text
from sqlalchemy.exc import OperationalError

from core.store.model import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
LOCK_WAIT = 30   # seconds a SQLite write waits for another's before it gives up


def default_url() -> str:
    url = os.environ.get("SCENARIO_DB_URL")
    if url:
        return url
    (ROOT / "data").mkdir(exist_ok=True)
    return f"sqlite:///{ROOT / 'data' / 'scenarios.db'}"


def _until_unlocked(statement) -> None:
    """Run `statement` again every 2 ms while SQLite answers that the database is locked, for up to
    LOCK_WAIT seconds; any other error, or the lock still held then, is raised."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            statement()
            return
        except (OperationalError, sqlite3.OperationalError) as err:
            if "locked" not in str(getattr(err, "orig", err)) or time.monotonic() >= deadline:
                raise
            time.sleep(0.002)


def _sqlite_pragmas(engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None          # transactions are begun below, not by the driver
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={int(LOCK_WAIT * 1000)}")
        # Switching a new file to WAL needs its exclusive lock, and SQLite answers "locked" at once,
        # without its busy handler, while another process starting on the same empty library
        # holds a write lock (CI, six servers at once): waited for here instead.
        _until_unlocked(lambda: cur.execute("PRAGMA journal_mode=WAL"))
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        # The write lock taken up front (no upgrade deadlocks), and waited for here in steps of
        # 2 ms rather than by SQLite's busy handler, whose sleeps grow to 100 ms: a save that
        # waited for an import resumed up to 100 ms after the import let go (issue 30).
        conn.exec_driver_sql("PRAGMA busy_timeout=0")
        try:
            _until_unlocked(lambda: conn.exec_driver_sql("BEGIN IMMEDIATE"))
        finally:
            conn.exec_driver_sql(f"PRAGMA busy_timeout={int(LOCK_WAIT * 1000)}")


def _alembic_config(connection=None):
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    from alembic.script import ScriptDirectory
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


_REVISION = re.compile(r'^revision = "([^"]+)"$', re.M)
_DOWN = re.compile(r'^down_revision = (?:None|"([^"]+)")$', re.M)


def listed_head() -> str | None:
    """The newest migration as the files in migrations/versions name it (each file's `revision` and
    `down_revision` lines), without importing Alembic (~0.1-0.5 s, before a first visitor's award:
    issue 53); None where the files do not read as one plain chain (then Alembic decides).
    tests/store check that it equals `head_revision()`."""
    revisions, downs = set(), set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        if path.name == "__init__.py":
            continue
        source = path.read_text()
        rev, down = _REVISION.findall(source), _DOWN.findall(source)
        if len(rev) != 1 or len(down) != 1:
            return None
        revisions.add(rev[0])
        downs.add(down[0])
    heads = revisions - downs
    return heads.pop() if len(heads) == 1 and len(revisions) == len(downs) else None


def upgrade(engine) -> None:
    """Bring the library to the newest schema in one transaction, whatever it was:
    empty (created), made by the first release (stamped at 0001, then upgraded), or older.
    A library made by a newer app is refused, untouched. A library already at the newest
    migration that the files name (`listed_head`) is left as it is without loading Alembic."""
    listed = listed_head()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":      # servers starting at once migrate one at a time
            conn.execute(text("SELECT pg_advisory_xact_lock(4015)"))
        tables = set(inspect(conn).get_table_names())
        current = None
        if "alembic_version" in tables:
            current = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        if current is not None and current == listed:
            return
        from alembic import command
        from alembic.script import ScriptDirectory

        head = head_revision()
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


def open_engine(url: str):
    """An engine for the library at `url`, its schema brought to the newest."""
    is_sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"timeout": LOCK_WAIT} if is_sqlite else {}, pool_pre_ping=not is_sqlite)
    if is_sqlite:
        _sqlite_pragmas(engine)
    upgrade(engine)
    return engine


def bulk_insert(dialect, table, rows: list[dict]):
    """What inserts `rows` into `table` in one executemany, laid out now, before a write lock is
    taken: call it with the connection. On SQLite the statement (compiled by SQLAlchemy for it)
    goes straight to the driver with its rows as tuples; SQLAlchemy's own handling of 20,000 rows
    took 0.35 s of the one write lock while other users' saves waited (issue 30). Elsewhere
    SQLAlchemy's own executemany, which batches rows for PostgreSQL."""
    if dialect.name != "sqlite" or not rows:
        return lambda conn: rows and conn.execute(insert(table), rows)
    compiled = insert(table).compile(dialect=dialect, column_keys=list(rows[0]))
    statement, order = str(compiled), compiled.positiontup
    params = [tuple(row[key] for key in order) for row in rows]
    return lambda conn: conn.exec_driver_sql(statement, params)
