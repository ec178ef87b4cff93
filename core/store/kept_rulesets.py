"""Each ruleset kept once, in the `rulesets` table, named by the hash of its data; scenarios and
history events name it by that key. A 10,000-scenario import used to write the same 2.3 KB of
ruleset twice per scenario (row and history event), 84 MB, and SQLite's one write lock was held
for it while another user's save waited (issue 30). A key's data never changes, so nothing that
names it can be left pointing at the wrong ruleset, and a kept ruleset is never deleted."""
from __future__ import annotations

import hashlib
import json

from sqlalchemy import insert, select

from core.store.model import rulesets

CHUNK = 500   # keys per IN (...) query


def text_of(data: dict) -> str:
    """The one way a ruleset's data is written: the same data always gives the same text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def key_of(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class Keeper:
    """The rulesets one write names, each written as JSON once however many scenarios share it."""

    def __init__(self):
        self._seen: dict[int, tuple[dict, str]] = {}   # id(data) -> (data, key); data held so the id stays its own
        self.texts: dict[str, str] = {}                # key -> text
        self._kept: set[str] = set()                   # keys known to be in the table (this transaction's)

    def key(self, data: dict | None) -> str | None:
        """The key of `data` (None when the scenario names a shipped ruleset by id alone)."""
        if data is None:
            return None
        seen = self._seen.get(id(data))
        if seen is None:
            text = text_of(data)
            seen = self._seen[id(data)] = (data, key_of(text))
            self.texts[seen[1]] = text
        return seen[1]

    def keep(self, conn) -> None:
        """Write the rulesets the table does not hold yet, in the caller's transaction."""
        keys = [k for k in self.texts if k not in self._kept]   # a second call looks only at what is new
        held = set()
        for start in range(0, len(keys), CHUNK):
            held.update(conn.execute(select(rulesets.c.key).where(rulesets.c.key.in_(keys[start:start + CHUNK])))
                        .scalars())
        missing = [{"key": k, "data": self.texts[k]} for k in keys if k not in held]
        if missing:
            conn.execute(_insert_new(conn.dialect.name), missing)
        self._kept.update(keys)


def _insert_new(dialect: str):
    """An insert that lets another session's identical ruleset, kept a moment ago, stand."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        return pg_insert(rulesets).on_conflict_do_nothing(index_elements=["key"])
    if dialect == "sqlite":   # (SQLite's write lock is taken up front: nobody can come between)
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert
        return sqlite_insert(rulesets).on_conflict_do_nothing(index_elements=["key"])
    return insert(rulesets)


def data_of(conn, keys) -> dict[str, dict]:
    """The data of each named ruleset, read and parsed once."""
    keys = sorted({k for k in keys if k})
    out: dict[str, dict] = {}
    for start in range(0, len(keys), CHUNK):
        rows = conn.execute(select(rulesets.c.key, rulesets.c.data).where(rulesets.c.key.in_(keys[start:start + CHUNK])))
        out.update((key, json.loads(data)) for key, data in rows)
    return out
