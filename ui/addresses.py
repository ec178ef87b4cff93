"""The address a visitor asked for: kept through sign-in, and an unknown page said in words.

Streamlit 1.67's sign-in (st.login) keeps nothing of where the visitor was: its callback
(`/oauth2callback`) always answers with a redirect to the app's root, `/`, and the browser opens
a new session there. So the address travels in a cookie of ours, `grants_return_to`:
- On the sign-in screen, the page and its known query parameters are signed on the server
  (itsdangerous, with the auth cookie secret and a salt of its own) and handed to a small
  element (ui/components/return_to.js) that writes the cookie when **Sign in** is pressed (in that tab:
  another tab's sign-in screen does not overwrite it), for 10 minutes, on this app's path only.
- The first run of a signed-in session that opens at the bare `/` (where the callback lands)
  reads it, checks the signature and its age, checks the address again (one of this app's
  own pages, or an unknown name said in words; only query parameters the app knows, each
  short), and goes there with st.switch_page, the query parameters with it. The element
  then deletes the cookie. Nothing in it can name another host: it holds a page name, never a URL.

An address whose page is not one of the app's gets a hidden page of that name (so Streamlit
does not cover the screen with its "Page not found" box): before sign-in it is the sign-in
screen, after it a sentence naming the address with a link to the Calculator.
"""
from __future__ import annotations

import json
import re

import streamlit as st

from core.law.readings import READING_IDS
from ui.components.elements import element
from ui.state import APP_FIELDS, LIST_PARAMS, PAGE_PARAMS
from ui.text import message

COOKIE = "grants_return_to"
MAX_AGE = 600                 # seconds: time enough to sign in at the identity provider
KNOWN_PARAMS = frozenset(APP_FIELDS + READING_IDS + ("ruleset", "as_of") + PAGE_PARAMS)   # a link's whole state
MAX_VALUE = 200               # characters of one query parameter's value kept
MAX_VALUES = 12               # values of a parameter given once per value (Compare's scenarios) kept
# An unknown page name that can have a page of its own: one path segment (Streamlit's url_path
# cannot hold a "/"; /a/b gets Streamlit's own "Page not found" box), no control characters.
PAGE_NAME = re.compile(r"[^/\x00-\x1f\x7f]{1,100}")
_MISSING = "_missing_pages"   # session state: unknown page names seen in this session
_CHECKED = "_return_to_checked"
_FORGET = "_return_to_forget"

ELEMENT = element("return_to", "return_to", "rt")


# -- the page asked for ---------------------------------------------------------------------
def _intent() -> tuple[str, str]:
    """(page script hash, page name) the browser asked this run for: the name is the page part of
    the address on a first load (`compare` for /compare), the hash is set on later runs.
    Streamlit keeps them on the session's pages manager (1.67); absent, nothing is known."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx()
    pm = getattr(ctx, "pages_manager", None)
    return (getattr(pm, "intended_page_script_hash", "") or "", getattr(pm, "intended_page_name", "") or "")


def requested_unknown(known: set[str]) -> str | None:
    """The page name of this run's address when it is none of `known` (url paths) and can have a
    page of its own; remembered for the session (st.switch_page and later runs come by hash)."""
    page_hash, name = _intent()
    name = name.strip("/")
    if not page_hash and name and name not in known and PAGE_NAME.fullmatch(name):
        seen = st.session_state.setdefault(_MISSING, [])
        if name not in seen:
            seen.append(name)
            del seen[:-20]
        return name
    return None


def missing_names(known: set[str]) -> list[str]:
    requested_unknown(known)
    return [n for n in st.session_state.get(_MISSING, []) if n not in known]


def not_found_screen(name: str, home) -> None:
    """What an address naming no page of the dashboard shows: the address in words, the Calculator offered."""
    st.title("There is no such page")
    st.markdown(message("This dashboard has no page at the address {}: the link may be mistyped, cut "
                        "short or out of date.", "/" + name))
    st.page_link(home, label="Open the Calculator", icon=":material/calculate:")
    st.caption("The other pages are listed in the sidebar.")


def missing_pages(known: set[str], home=None, screen=None, title: str = "Page not found") -> list:
    """A hidden page for each unknown page name of this session: `screen` on it (the sign-in
    screen, the refusal), else the sentence of not_found_screen."""
    pages = []
    for name in missing_names(known):
        fn = screen or (lambda name=name: not_found_screen(name, home))
        pages.append(st.Page(fn, title=title, url_path=name, visibility="hidden"))
    return pages


# -- keeping it through sign-in ---------------------------------------------------------------
def _secret() -> str:
    from streamlit.web.server.server_util import get_cookie_secret
    return str(get_cookie_secret())


def _serializer():
    from itsdangerous import URLSafeTimedSerializer
    return URLSafeTimedSerializer(_secret(), salt=COOKIE)


def _cookie_path() -> str:
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return "/" + base if base else "/"


def _short(value, listed: bool) -> bool:
    """A text of at most MAX_VALUE characters; for a list parameter, a list of at most MAX_VALUES such texts."""
    if listed and isinstance(value, list):
        return len(value) <= MAX_VALUES and all(isinstance(v, str) and len(v) <= MAX_VALUE for v in value)
    return isinstance(value, str) and len(value) <= MAX_VALUE


def clean(address, known: set[str]) -> dict | None:
    """The address if it is one this app may go to: {"page": one of `known`} or {"missing": a page
    name}, and "query": only parameters the app knows, each a short text. Else None."""
    if not isinstance(address, dict) or set(address) - {"page", "missing", "query"}:
        return None
    query = address.get("query", {})
    if not isinstance(query, dict) or len(query) > len(KNOWN_PARAMS):
        return None
    if any(k not in KNOWN_PARAMS or not _short(v, k in LIST_PARAMS) for k, v in query.items()):
        return None
    if "page" in address and "missing" not in address and address["page"] in known:
        return {"page": address["page"], "query": dict(query)}
    if "missing" in address and "page" not in address and isinstance(address["missing"], str) \
            and PAGE_NAME.fullmatch(address["missing"]) and address["missing"] not in known:
        return {"missing": address["missing"], "query": dict(query)}
    return None


def here(url_path: str, missing: bool) -> dict:
    """This run's address: the page (its url path, "" for the default; or an unknown name) and
    the query parameters the app knows (others are dropped: they mean nothing to it)."""
    query = {k: [v[:MAX_VALUE] for v in st.query_params.get_all(k)[:MAX_VALUES]] if k in LIST_PARAMS
             else st.query_params.get(k)[:MAX_VALUE] for k in st.query_params if k in KNOWN_PARAMS}
    return {"missing" if missing else "page": url_path, "query": query}


def remember(url_path: str, missing: bool = False) -> None:
    """On the sign-in screen: the element that keeps this address when Sign in is pressed."""
    value = _serializer().dumps(here(url_path, missing))
    ELEMENT(key="return_to", data=json.dumps({"write": {"name": COOKIE, "value": value, "maxAge": MAX_AGE,
                                                        "path": _cookie_path()},
                                             "button": "st-key-w-sign_in"}).encode())


def _read(known: set[str]) -> dict | None:
    return kept_address(st.context.cookies.get(COOKIE), known)


def kept_address(raw: str | None, known: set[str]) -> dict | None:
    """The address a `grants_return_to` cookie holds, if this server signed it within MAX_AGE
    seconds and it is one this app may go to (clean); else None."""
    from itsdangerous import BadData
    if not raw:
        return None
    try:
        address = _serializer().loads(raw, max_age=MAX_AGE)
    except BadData:   # altered, signed with another secret, or older than MAX_AGE
        return None
    return clean(address, known)


def comeback(known: set[str]) -> dict | None:
    """Once per session, on its first run: the address kept through sign-in, if the session opened
    at the bare `/` (where sign-in lands: an address the visitor opened themselves wins)."""
    if st.session_state.get(_CHECKED):
        return None
    st.session_state[_CHECKED] = True
    if not st.context.cookies.get(COOKIE):
        return None
    st.session_state[_FORGET] = True
    page_hash, name = _intent()
    if page_hash or name or st.query_params.to_dict():
        return None
    address = _read(known)
    if address and "missing" in address:
        seen = st.session_state.setdefault(_MISSING, [])
        if address["missing"] not in seen:
            seen.append(address["missing"])
    if address == {"page": "", "query": {}}:
        return None
    return address


def go(address: dict | None, pages: list) -> None:
    """Switch to the kept address (a no-op without one)."""
    if not address:
        return
    want = address.get("page", address.get("missing"))
    target = next((p for p in pages if p.url_path == want), None)
    if target is not None:
        st.switch_page(target, query_params=address["query"] or None)


def forget(now: bool = False) -> None:
    """Delete the cookie in the browser once it has been read (in the run after the switch), or
    `now` if the browser holds one (a refused user: nothing to go back to)."""
    if st.session_state.pop(_FORGET, False) or (now and st.context.cookies.get(COOKIE)):
        ELEMENT(key="return_to_forget", data=json.dumps({"forget": {"name": COOKIE,
                                                                    "path": _cookie_path()}}).encode())
