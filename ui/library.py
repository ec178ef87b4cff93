"""The scenario library as the pages use it: one store per server process."""
from __future__ import annotations

import streamlit as st

from core.store.repository import ScenarioStore


@st.cache_resource(show_spinner=False)
def _store(url: str | None, admins: tuple[str, ...] = ()) -> ScenarioStore:
    return ScenarioStore(url, admins=admins)


def store() -> ScenarioStore:
    from core.store.db import default_url
    from ui.auth import admins
    return _store(default_url(), admins())
