"""The application being explored, kept in session state and bound to the URL.

Canonical values live under "app:<field>" (cents for money). They outlive the widgets,
so values survive moving to other pages and back. A link's query parameters are
validated once per change of the URL; a bad one falls back with a visible message.
"""
from __future__ import annotations

import streamlit as st

from core.application import Application, parse_field
from core.fields import EXCEPTION_FIELDS, FIELD, FIELDS
from core.money import ValidationError
from core.rulesets import RulesetError, Ruleset, available, load

# The realistic example the dashboard opens on (ISSUE: renovation, $1,000,000, local $500,000).
EXAMPLE = {"project_type": "renovation", "eligible_cost": 100_000_000, "local_contribution": 50_000_000}
APP_FIELDS = tuple(f.name for f in FIELDS if f.group != "considerations")
ALWAYS_IN_URL = ("project_type", "eligible_cost", "federal_grant", "local_contribution", "prior_program_funds")
K = "app:"


def _defaults(example: bool) -> dict:
    values = {name: FIELD[name].default for name in APP_FIELDS}
    if example:
        values.update(EXAMPLE)
    return values


def url_value(name: str, value) -> str:
    if FIELD[name].kind == "money":
        whole, part = divmod(value, 100)
        return str(whole) if part == 0 else f"{whole}.{part:02d}"
    if FIELD[name].kind == "bool":
        return "true" if value else "false"
    return str(value)


def _from_url(params: dict) -> tuple[dict, list[str]]:
    """Values a link carries, and a message for each one that had to be ignored."""
    values, problems = {}, []
    for name in APP_FIELDS:
        if name not in params:
            continue
        try:
            values[name] = parse_field(name, params[name])
        except ValidationError as err:
            problems.append(f"The link's {FIELD[name].label.lower()} was ignored ({err}).")
    if "ruleset" in params:
        if params["ruleset"] in available() or params["ruleset"] in st.session_state.get("variants", {}):
            values["ruleset"] = params["ruleset"]
        else:
            problems.append(f"The link's ruleset {params['ruleset']!r} is unknown; the regulation is used.")
    return values, problems


def _ensure_navigation() -> None:
    """A fresh server whose first visitor opens a deep link (/compare) runs that page file
    on its own, the legacy pages/ folder mode, without dashboard.py's navigation and page
    config. Leave that mode and rerun, so dashboard.py routes the link like any other."""
    from streamlit.runtime.pages_manager import PagesManager  # pinned Streamlit; tested in the browser
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def init() -> None:
    """Call at the top of every run: seed from the URL or the example, once per change."""
    _ensure_navigation()
    params = st.query_params.to_dict()
    fresh = K + "eligible_cost" not in st.session_state
    if fresh:
        for name, value in _defaults(example=not params).items():
            st.session_state[K + name] = value
        st.session_state[K + "ruleset"] = "regulation"
    if params and params != st.session_state.get("_url_written"):
        values, problems = _from_url(params)
        if not fresh:  # a new link in a running session: fields it omits take their defaults
            for name, value in _defaults(example=False).items():
                st.session_state[K + name] = value
        for name, value in values.items():
            st.session_state[K + name] = value
        st.session_state["url_problems"] = problems


def get(name: str):
    return st.session_state[K + name]


def put(name: str, value) -> None:
    st.session_state[K + name] = value


def values() -> dict:
    return {name: st.session_state[K + name] for name in APP_FIELDS}


def application() -> Application:
    return Application(**values())


def ruleset() -> Ruleset:
    rid = st.session_state.get(K + "ruleset", "regulation")
    variants = st.session_state.get("variants", {})
    if rid in variants:
        return variants[rid]
    try:
        return load(rid)
    except RulesetError:
        return load()


def write_url() -> None:
    """Put the current inputs in the URL, so a copied link reproduces the scenario."""
    v = values()
    params = {name: url_value(name, v[name]) for name in ALWAYS_IN_URL}
    if v["requested_amount"] is not None:
        params["requested_amount"] = url_value("requested_amount", v["requested_amount"])
    if v["federal_law_contrary"]:
        params["federal_law_contrary"] = "true"
    if v["bpw_exception_requested"]:
        params["bpw_exception_requested"] = "true"
        for name in EXCEPTION_FIELDS:
            params[name] = url_value(name, v[name])
    if get("ruleset") != "regulation":
        params["ruleset"] = get("ruleset")
    if params != st.query_params.to_dict():
        st.query_params.from_dict(params)
    st.session_state["_url_written"] = params


def load_application(app: Application, ruleset_id: str | None = None) -> None:
    """Put a saved application into the calculator (and so into its URL)."""
    for name in APP_FIELDS:
        st.session_state[K + name] = getattr(app, name)
    if ruleset_id:
        st.session_state[K + "ruleset"] = ruleset_id
