"""Undo beside the Calculator's inputs: each committed change of the inputs is a step, and Undo
goes back one, as the browser's Back does (ui.state reads the address on a history step), for
those who do not think of Back. The steps are this session's, up to STEPS of them."""
from __future__ import annotations

import streamlit as st

from core.law.readings import Readings
from ui import state

STEPS = 50
KEY = "undo:steps"


def _now() -> tuple:
    return tuple(state.values().items()), tuple(state.readings().as_dict().items()), state.get("ruleset"), state.law_day()


def _undo() -> None:
    steps = st.session_state.get(KEY, [])
    if len(steps) < 2:
        return
    steps.pop()
    values, readings, ruleset, day = steps[-1]
    for name, value in values:
        state.put(name, value)
    state.put_readings(Readings(**dict(readings)))
    state.put("ruleset", ruleset)
    state.put("as_of", day)


def undo_button() -> None:
    """Record the inputs as they are now (a step when they changed) and draw Undo."""
    steps = st.session_state.setdefault(KEY, [])
    now = _now()
    if (not steps or steps[-1] != now) and not state.is_moving():   # a drag is one step: its release
        steps.append(now)
        del steps[:-STEPS]
    st.button("Undo", key="w:undo", icon=":material/undo:", on_click=_undo, disabled=len(steps) < 2,
              help="Put back the inputs as they were before the last change (the browser's Back does the same).")
