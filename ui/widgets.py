"""The calculator's inputs: the application's fields (ui/components/fields_panel.py draws them as one
element), and `show` for the few Streamlit widgets that mirror a canonical value.

The canonical value (cents for money) lives in ui.state; the controls are views of it."""
from __future__ import annotations

import streamlit as st

from core.law.fields import EXCEPTION_FIELDS, FIELD, FIELDS, asked
from core.law.fields import asked as field_asked   # in the application panel, whose loop names a local `asked`
from ui import server, state
from ui.components import live_award
from ui.components.fields_panel import choice, flag, money, panel
from ui.text import md

CODE_CSS = """<style>
[data-testid="stTable"] td code, [data-testid="stTable"] th code
  { font-family: inherit; font-size: inherit; color: inherit; background: none; padding: 0; white-space: normal; }
[data-testid="stCaptionContainer"] code { color: inherit; background: none; }
[data-testid="stLayoutWrapper"]:has(> .st-key-calc_answer), [data-testid="stElementContainer"]:has(> .st-key-calc_answer),
.st-key-calc_answer { position: sticky; top: 3.75rem; z-index: 5; background: #ffffff; }   /* under the 3.75rem header */
.st-key-calc_answer [data-testid="stMetricValue"] { font-size: 3.25rem; color: #1f4e79; line-height: 1.15; }
</style>"""
# The Calculator's answer box stays in view while the inputs beside it are edited (sticky at the top of
# its column: editing the local contribution at 1280 x 720 scrolled it away), its award the largest number.
# A name in st.table is a code span (ui.text.table_cells: shown as typed); in a table it reads as plain text.
# In a caption a name's code span takes the caption's colour (5.7:1), not a grey that fails 4.5:1.


def show(key: str, value) -> None:
    """Hand a widget the canonical value only when it differs from what the widget holds.

    Any assignment to a widget's key, even of the value it already has, makes Streamlit send
    that value back to the browser with orders to adopt it: a needless message each run."""
    if key not in st.session_state or st.session_state[key] != value:
        st.session_state[key] = value


def application_inputs(rs) -> None:
    """The calculator's inputs column: project type, the money fields, the request, federal law."""
    def toggle_request(edit: dict) -> None:   # switched on, the request starts at the award the screen shows
        if isinstance(edit.get("value"), bool):
            on = edit["value"]
            state.put("requested_amount", state.award(rs).amount if on else None)

    given = live_award.inputs()   # read once for every money slider's pieces
    fields = []
    law = state.ruleset()
    for f in FIELDS:   # the application's own fields, in the field table's order
        if f.group != "application":
            continue
        if f.law_param and not field_asked(f, state.values(), rs=law):   # a question of one law (the statute's ch. 125)
            continue
        if f.ask:   # an amount the applicant may name: a switch, then the amount while it is on
            asked = state.get(f.name) is not None
            fields.append(flag("has_request", "switch", f.ask, asked))
            fields += [money(f.name, given)] if asked else []
        elif f.kind == "money":
            fields.append(money(f.name, given))
        else:
            fields.append({"choice": choice, "bool": flag}[f.kind](f.name))
    panel("application", fields, title="The application", on_edit={"has_request": toggle_request})


def exception_switch() -> bool:
    """The Board exception's switch (a Streamlit toggle: one small element, where a panel of
    its own resent the panel's script with every move); says whether the exception is asked for."""
    key, name = "w:bpw_exception_requested", "bpw_exception_requested"
    show(key, bool(state.get(name)))
    st.toggle(md(FIELD[name].label), key=key, help=md(FIELD[name].help),
              on_change=lambda: state.put_from_widget(name, key))
    return bool(state.get(name))


def exception_inputs() -> None:
    """What the exception's conditions ask about the property, once the exception is asked for;
    where the prior program funds went only when there are some (a fact the law presumes otherwise)."""
    test = state.ruleset().number("bpw_test")   # the Board's test of the law picked
    names = [n for n in EXCEPTION_FIELDS if asked(FIELD[n], state.values(), test)]
    panel("exception_property", [money(name) if FIELD[name].kind == "money" else flag(name) for name in names])


def refused_warning() -> None:
    """Where a forged value of a control came in (the page's top on a full run, the calculator's
    fragment on its own run), say that it was refused: not a page later."""
    if server.refused_values() or st.session_state.pop("panel:refused", None):
        st.warning(md("The page sent a value for one of its controls that could not be used (not a value this "
                      "page sends), so nothing was changed. Reload the page if the controls look wrong."),
                   icon=":material/block:")
