"""The scenario library for tests: a store on SQLite and, where TEST_POSTGRES_URL is set, on a
PostgreSQL database of its own (the `url` and `store` fixtures run each test on both); `db`, a
SQLite store the pages under test use too (SCENARIO_DB_URL); one application to save."""
from __future__ import annotations

import os
import uuid

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


def postgres_url() -> str | None:
    """A new, empty PostgreSQL database on the server at TEST_POSTGRES_URL (None without one)."""
    base = os.environ.get("TEST_POSTGRES_URL")
    if not base:
        return None
    name = f"t_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lib.db'}"
    pg = postgres_url()
    if pg is None:
        if os.environ.get("CI"):
            pytest.fail("TEST_POSTGRES_URL is not set in CI; .ci/run must start PostgreSQL")
        pytest.skip("TEST_POSTGRES_URL not set: no PostgreSQL to test against")
    return pg


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
