"""The award first (issue 53): a visitor's first run of the Calculator draws its title and answer
box, then this element, and stops. Once the browser has painted the award (the next frame after
the element appears), the element asks for the whole page: a run like any other, which draws the
inputs, charts, sidebar and the rest around the award already on screen.

Why: the browser loads the code of each kind of element the first time it meets one (the date
field, the select box, the text boxes...) and React shows what a run sent together, so on the
whole first run the award waited for the code of 40 elements: ~0.5 s after its message on a quiet
2-core machine where the bare one-slider app draws its number in ~0.12 s (docs/performance.md,
"The award first"). Drawn alone, it follows its message as the bare app's does.

Only in a real browser session (not AppTest, which runs no JavaScript); harness/stclient.py sends
the element's value as the page does."""
from __future__ import annotations

import streamlit as st
from streamlit import runtime

from ui.components.elements import element

ELEMENT = element("first_paint", "first_paint", "gf-first-paint")
KEY = "first_paint"
DONE, NOW = "first_paint:done", "first_paint:now"   # session state: a first run was had; this run draws the award alone


def begin(wanted: bool) -> bool:
    """dashboard.py, once per run: whether this run draws the award alone: a session's first run, in a
    browser, `wanted` (the Calculator with its inputs, nothing for the sidebar to say first)."""
    st.session_state[NOW] = now = wanted and _connected() and not st.session_state.get(DONE)
    st.session_state[DONE] = True   # a session's first run only: later ones find the code loaded
    return now


def _connected() -> bool:
    """A session over a real connection (a browser, or harness/stclient.py): its handshake's headers.
    AppTest's sessions have none, and run no JavaScript to ask for the rest."""
    return runtime.exists() and bool(st.context.headers)


def now() -> bool:
    return st.session_state.get(NOW, False)


def then_the_rest() -> None:
    """End this run after the answer box: the element asks for the next once the award is painted."""
    ELEMENT(key=KEY, data=b"{}", on_painted_change=lambda: None)
    st.stop()
