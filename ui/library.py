"""The scenario library as the pages use it: one store per server process."""
from __future__ import annotations

import streamlit as st

from core.scenarios import ScenarioStore


@st.cache_resource(show_spinner=False)
def _store(url: str | None) -> ScenarioStore:
    return ScenarioStore(url)


def store() -> ScenarioStore:
    from core.scenarios import default_url
    return _store(default_url())
