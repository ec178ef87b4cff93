"""Every page is drawn through dashboard.py: its navigation, sign-in, sidebar and the session's
state from the address come first, then the page (`routed()`, around `page.run()`).

Streamlit does not always start there. With a pages/ folder beside dashboard.py, it runs a page
file on its own when a fresh server's first visitor opens a deep link (/compare), and AppTest
does so on every rerun. So each page file begins with `ensure_dashboard()`: in a run that did not
come through dashboard.py it runs dashboard.py itself, in this same run (a rerun would drop the
click that started it), which draws this page in its place, and then stops the page's own run.

Why here, named, and not inside `ui.state.init()`: the guard is about how a page is run, not
about the session's state; a page that forgot it would be drawn bare on a deep link, so every
page calls it in its first lines, where a reader sees it (tests/ui/test_routing.py checks each does).
"""
from __future__ import annotations

import runpy
import threading
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

DASHBOARD = Path(__file__).resolve().parents[1] / "dashboard.py"

_run = threading.local()   # per script thread: did dashboard.py route this run?


@contextmanager
def routed():
    """dashboard.py runs the chosen page inside this."""
    _run.routed = True
    try:
        yield
    finally:
        _run.routed = False


def ensure_dashboard() -> None:
    """The first call of every page file: nothing when dashboard.py is drawing the page; else run
    dashboard.py now (it draws this page) and stop this run of the page file on its own."""
    if getattr(_run, "routed", False):
        return
    runpy.run_path(str(DASHBOARD), run_name="__main__")
    st.stop()
