"""Undo and Redo beside the Calculator's inputs: each committed change of the session's state (the
inputs, the readings, the ruleset and the day whose law applies, read and put back whole) is a
step, and Undo goes back one, as the browser's Back does (ui.state reads the address on a history
step), for those who do not think of Back. The steps are this session's, up to STEPS of them.

The steps are a list with a place in it, as the browser's history is: Undo and Back move the
place back, Redo and Forward move it on, and a new change drops the steps after the place. So
after Back three times and Forward three times, three Undos come back to where Back began, and a
fourth does nothing (it never goes forward). Ctrl+Z (Cmd+Z) presses Undo and Ctrl+Shift+Z
(Cmd+Shift+Z) presses Redo outside text boxes (ui/components/keys.js)."""
from __future__ import annotations

import streamlit as st

from core.law.readings import Readings
from ui import state

STEPS = 50
KEY = "undo:steps"
AT = "undo:at"   # the place in the steps of the state on screen


def now() -> tuple:
    """The session's state, whole: the inputs, the readings, the ruleset, the day (None: today)."""
    return tuple(state.values().items()), tuple(state.readings().as_dict().items()), state.get("ruleset"), state.law_day()


def _put(step: tuple) -> None:
    values, readings, ruleset, day = step
    for name, value in values:
        state.put(name, value)
    state.put_readings(Readings(**dict(readings)))
    state.put("ruleset", ruleset)
    state.put("as_of", day)


def _at(steps: list) -> int:
    return min(st.session_state.get(AT, len(steps) - 1), len(steps) - 1)


def _go(by: int) -> None:
    steps = st.session_state.get(KEY, [])
    at = _at(steps) + by
    if 0 <= at < len(steps):
        st.session_state[AT] = at
        _put(steps[at])


def _undo() -> None:
    _go(-1)


def _redo() -> None:
    _go(+1)


def record() -> list:
    """Take the state as it is now as a step when it changed (not while a drag is under way: a
    drag is one step, its release). A run of the browser's Back or Forward whose state is the
    step before or after the place moves the place there, as Undo and Redo do."""
    steps = st.session_state.setdefault(KEY, [])
    history = state.took_history_step()
    if state.is_moving():
        return steps
    here, at = now(), _at(steps)
    if steps and steps[at] == here:
        return steps
    if history and at > 0 and steps[at - 1] == here:
        st.session_state[AT] = at - 1
    elif history and at + 1 < len(steps) and steps[at + 1] == here:
        st.session_state[AT] = at + 1
    else:   # a new change: the steps after the place are dropped, as the browser drops its Forward
        del steps[at + 1:]
        steps.append(here)
        del steps[:-STEPS]
        st.session_state[AT] = len(steps) - 1
    return steps


def undo_button() -> None:
    """Record the state as it is now (a step when it changed) and draw Undo and Redo."""
    steps = record()
    at = _at(steps)
    row = st.container(horizontal=True, gap="small")
    row.button("Undo", key="w:undo", icon=":material/undo:", on_click=_undo, disabled=at < 1,
               help="Put back the inputs as they were before the last change (the browser's Back does the same; "
                    "Ctrl+Z or Cmd+Z outside a text box).")
    row.button("Redo", key="w:redo", icon=":material/redo:", on_click=_redo, disabled=at + 1 >= len(steps),
               help="Bring back the change Undo took away (the browser's Forward does the same; "
                    "Ctrl+Shift+Z or Cmd+Shift+Z outside a text box).")
