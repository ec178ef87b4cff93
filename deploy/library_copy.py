"""Whole copies of the scenario library, by the database's own means, for deploy/backup and
deploy/restore: pg_dump and pg_restore for PostgreSQL (every table: scenarios, their history,
the schema revision), SQLite's online backup for a SQLite file. The JSON export
(`python -m core scenarios export`) carries the scenarios but not their history or owners; these
copies carry everything, as it was.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url


class CopyError(RuntimeError):
    pass


def kind(url: str) -> str:
    backend = make_url(url).get_backend_name()
    if backend not in ("postgresql", "sqlite"):
        raise CopyError(f"SCENARIO_DB_URL: {backend} libraries are not backed up by this script "
                        f"(PostgreSQL and SQLite are); use that database's own tools")
    return backend


def suffix(url: str) -> str:
    return {"postgresql": ".pgdump", "sqlite": ".sqlite"}[kind(url)]


def libpq_env(url: str) -> dict:
    """pg_dump's and pg_restore's connection in their environment (PGHOST, PGPASSWORD, ...):
    the password stays off the command line that every user of the machine can read."""
    u = make_url(url)
    env = dict(os.environ)
    for var, value in (("PGHOST", u.host), ("PGPORT", u.port), ("PGUSER", u.username),
                       ("PGPASSWORD", u.password), ("PGDATABASE", u.database)):
        if value is not None:
            env[var] = str(value)
    return env


def sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise CopyError(f"{url}: not a SQLite file")
    return Path(database)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise CopyError(f"{name} not found: install PostgreSQL's client programs (apt-get install postgresql-client)")
    return path


def dump(url: str, target: Path) -> None:
    """A whole copy of the library at `url` into `target`, written whole or not at all."""
    tmp = target.with_name(target.name + ".tmp")
    try:
        if kind(url) == "postgresql":
            run = subprocess.run([_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(tmp)],
                                 env=libpq_env(url), capture_output=True, text=True)
            if run.returncode:
                raise CopyError(f"pg_dump failed: {run.stderr.strip()}")
        else:
            source = sqlite_path(url)
            if not source.exists():
                raise CopyError(f"{source}: no such SQLite library")
            src, dst = sqlite3.connect(f"file:{source}?mode=ro", uri=True), sqlite3.connect(tmp)
            try:
                src.backup(dst)   # consistent even while the app writes (WAL)
            finally:
                src.close()
                dst.close()
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def is_empty(url: str) -> bool:
    from sqlalchemy import create_engine, inspect
    if kind(url) == "sqlite" and not sqlite_path(url).exists():
        return True
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return not inspect(conn).get_table_names()
    finally:
        engine.dispose()


def create_database(url: str) -> bool:
    """Make the PostgreSQL database of `url` if it does not exist (through the server's
    `postgres` database, as createdb does). True if made."""
    from sqlalchemy import create_engine, text
    u = make_url(url)
    admin = create_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": u.database}).first():
                return False
            conn.execute(text('CREATE DATABASE "%s"' % u.database.replace('"', '""')))
            return True
    finally:
        admin.dispose()


def restore(copy: Path, url: str) -> None:
    """Load a copy made by dump() into the empty library at `url` (a new database or file)."""
    if kind(url) == "postgresql":
        if copy.suffix != ".pgdump":
            raise CopyError(f"{copy}: a PostgreSQL library is restored from a .pgdump file (deploy/backup)")
        create_database(url)
        if not is_empty(url):
            raise CopyError(f"{make_url(url).database}: the database holds tables already; restore into a new one")
        run = subprocess.run([_tool("pg_restore"), "--no-owner", "--exit-on-error", "--single-transaction",
                              "--dbname", make_url(url).database, str(copy)],
                             env=libpq_env(url), capture_output=True, text=True)
        if run.returncode:
            raise CopyError(f"pg_restore failed: {run.stderr.strip()}")
    else:
        if copy.suffix != ".sqlite":
            raise CopyError(f"{copy}: a SQLite library is restored from a .sqlite file (deploy/backup)")
        target = sqlite_path(url)
        if target.exists() and target.stat().st_size:
            raise CopyError(f"{target}: exists already; restore into a new file")
        target.parent.mkdir(parents=True, exist_ok=True)
        src, dst = sqlite3.connect(f"file:{copy}?mode=ro", uri=True), sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            src.close()
            dst.close()
