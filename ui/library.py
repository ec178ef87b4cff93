"""The scenario library as the pages use it: one store per server process.

Not st.cache_resource: Streamlit empties its caches on a `clear_cache` message, which any
browser may send whatever the toolbar shows (issue 30: 15 messages made 15 stores, each with
its own open database connection, never closed, and 0.24-0.37 s of schema check each). The
store is kept here instead, one per database URL for the life of the process; a change of the
administrators (the secrets) replaces it and closes the one it replaces.
"""
from __future__ import annotations

import threading

from core.store.repository import ScenarioStore

_STORES: dict[str, ScenarioStore] = {}
_LOCK = threading.Lock()


def shared(url: str, admins: tuple[str, ...] = ()) -> ScenarioStore:
    """The process's store for `url`, made on first use (the schema checked once)."""
    with _LOCK:
        found = _STORES.get(url)
        if found is not None and found.admins == frozenset(a.strip().lower() for a in admins if a and a.strip()):
            return found
        made = ScenarioStore(url, admins=admins)
        _STORES[url] = made
    if found is not None:
        found.dispose()   # connections still in use close when they are returned
    return made


def store() -> ScenarioStore:
    from core.store.db import default_url
    from ui.auth import admins
    return shared(default_url(), admins())
