"""The scenario library for tests: a store on SQLite and, where TEST_POSTGRES_URL is set, on a
PostgreSQL database of its own, dropped when the test ends (the `url` and `store` fixtures run
each test on both); `db`, a SQLite store the pages under test use too (SCENARIO_DB_URL); one
application to save."""
from __future__ import annotations

import os
import uuid
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text

from core.law.application import Application
from core.store.repository import ScenarioStore

APP = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})

# Saves n scenarios from a process of its own (several at once: nothing may be lost).
WRITER = """
import sys
from core.law.application import Application
from core.store.repository import ScenarioStore
s = ScenarioStore({url!r})
app = Application.from_dict({{"project_type": "renovation", "eligible_cost": 1000}})
for i in range({n}):
    s.save(f"p{{sys.argv[1]}}-{{i}}", app.replace(eligible_cost=1000 + i))
"""


# The PostgreSQL databases this process made and has not dropped yet (tests/conftest.py checks,
# when the session ends, that every one of them is gone).
MADE: set[str] = set()


def _admin(base: str, sql: str) -> None:
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(text(sql))
    finally:
        admin.dispose()


@contextmanager
def postgres_database():
    """A new, empty PostgreSQL database `t_<uuid>` on the server at TEST_POSTGRES_URL, its URL
    yielded (None without a server), dropped when the block ends, whether the test passed or
    failed; WITH (FORCE) ends a connection a failed test left open."""
    base = os.environ.get("TEST_POSTGRES_URL")
    if not base:
        yield None
        return
    name = f"t_{uuid.uuid4().hex[:10]}"
    _admin(base, f'CREATE DATABASE "{name}"')
    MADE.add(name)
    try:
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        _admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        MADE.discard(name)


def left_behind() -> list[str]:
    """The databases this process made that are still on the server (none, once every test's
    teardown has run)."""
    base = os.environ.get("TEST_POSTGRES_URL")
    if not base or not MADE:
        return []
    admin = create_engine(base)
    try:
        with admin.connect() as c:
            names = {row[0] for row in c.execute(text("SELECT datname FROM pg_database"))}
    finally:
        admin.dispose()
    return sorted(MADE & names)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'lib.db'}"
        return
    with postgres_database() as pg:
        if pg is None:
            if os.environ.get("CI"):
                pytest.fail("TEST_POSTGRES_URL is not set in CI; .ci/run must start PostgreSQL")
            pytest.skip("TEST_POSTGRES_URL not set: no PostgreSQL to test against")
        yield pg


@pytest.fixture
def store(url):
    s = ScenarioStore(url)
    yield s
    s.dispose()


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A SQLite library of the test's own, which the pages run in this test use too."""
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    monkeypatch.setenv("SCENARIO_DB_URL", url)
    s = ScenarioStore(url)
    yield s
    s.dispose()
