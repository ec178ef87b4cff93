"""The Calculator's "Reach an award" box: an award to reach and the input to move, answered in one
sentence by core.law.solve (exact, the same caps as the award), with a button that puts the value
in the inputs (ui.state, so the address and the panel follow). Asked, the same sentence goes in
the board report.

A lazy expander, as the Board exception's: closed, nothing in it is built on a slider move.
"""
from __future__ import annotations

import streamlit as st

from core.law.analysis import SWEEP_FIELDS, not_read
from core.law.fields import FIELD
from core.law.money import ValidationError, fmt, to_cents
from core.law.solve import Solution, solve
from ui import state
from ui.text import error_text, md, plain_text

TARGET, FIELD_KEY, REPORT = "w:reach:target", "w:reach:field", "w:reach:report"


def fields(app, rs) -> list[str]:
    """The amounts that can be moved: every money input; an amount of the Board's exception only with
    the exception asked for and only where this law's test reads it (analysis.not_read)."""
    return [f for f in SWEEP_FIELDS
            if FIELD[f].group != "exception" or (app.bpw_exception_requested and not not_read(f, rs))]


def asked(app, rs) -> tuple[str, int] | None:
    """The input and target the box holds (None while no good amount is typed)."""
    text = st.session_state.get(TARGET, "")
    field = st.session_state.get(FIELD_KEY)
    if not str(text).strip() or field not in fields(app, rs):
        return None
    try:
        return field, to_cents(text, "Award to reach")
    except ValidationError:
        return None


def _apply(field: str, value: int) -> None:
    state.put(field, value)


def _button(app, s: Solution) -> None:
    """'Use a local contribution of $X': the nearest value that reaches the target, or the value
    that gives the most when none does (and the most is more than now)."""
    to = s.nearest if s.nearest is not None else (s.max_award if s.max_award.award > s.current else None)
    if to is None or to.value == getattr(app, s.field):
        return
    label = FIELD[s.field].label.lower()
    st.button(md(f"Use {label} {fmt(to.value)}"), key="w:reach:apply", on_click=_apply, args=(s.field, to.value),
              help=md(f"Puts {fmt(to.value)} in “{FIELD[s.field].label}”; the award becomes {fmt(to.award)}."))


def reach_box(award, rs) -> None:
    """The box, under the inputs."""
    box = st.expander("Reach an award", key="reach_panel", on_change="rerun")
    if not box.open:
        return
    app = award.application
    with box:
        st.caption("What value of one input gives at least the award you name, the rest as it is; and the most "
                   "that input can give.")
        st.text_input("Award to reach", key=TARGET, max_chars=40, placeholder="for example: 600,000")
        st.selectbox("By moving", fields(app, rs), key=FIELD_KEY, format_func=lambda f: plain_text(FIELD[f].label))
        text = st.session_state.get(TARGET, "")
        if not str(text).strip():
            return
        try:
            target = to_cents(text, "Award to reach")
        except ValidationError as err:
            st.error(error_text(err), icon=":material/error:")
            return
        s = solve(app, st.session_state[FIELD_KEY], target, rs=rs, readings=award.readings)
        st.markdown(md(s.sentence))
        _button(app, s)
        st.checkbox("Put this answer in the board report", key=REPORT)


def for_report(app, rs, readings) -> tuple[str, ...]:
    """The box's sentence for the report, for the application the report is made of (empty
    unless the box asks for it)."""
    question = asked(app, rs)
    if not st.session_state.get(REPORT) or question is None:
        return ()
    return (solve(app, question[0], question[1], rs=rs, readings=readings).sentence,)
