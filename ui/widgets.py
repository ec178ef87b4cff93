"""Money inputs: a slider for exploring and an exact entry beside it, kept in sync.

The canonical value (cents) lives in ui.state; the widgets are views of it. A slider's
range adapts to the project type and always stretches to hold the value, so a typed or
linked value is never clipped.
"""
from __future__ import annotations

import math

import streamlit as st

from core.award import evaluate
from core.fields import FIELD, PROJECT_TYPES
from core.money import ValidationError, fmt, to_cents
from ui import state
from ui.text import md

# Slider ceilings (dollars) by field, for capital projects and for master plans.
RANGES = {"capital": {"eligible_cost": 5_000_000, "federal_grant": 3_000_000, "local_contribution": 3_000_000,
                      "prior_program_funds": 600_000, "requested_amount": 1_000_000,
                      "local_property_value": 3_000_000},
          "master_plan": {"eligible_cost": 100_000, "federal_grant": 60_000, "local_contribution": 60_000,
                          "prior_program_funds": 600_000, "requested_amount": 30_000,
                          "local_property_value": 100_000}}


# A slider track under ~280 px cannot resolve $0-$5M: the exact entry wraps below it instead.
ROW_CSS = """<style>
[class*="st-key-moneyrow_"] > [data-testid="stElementContainer"]:has([data-testid="stSlider"])
  { min-width: 280px; flex: 1 1 280px; }
[data-testid="stTable"] td code, [data-testid="stTable"] th code
  { font-family: inherit; font-size: inherit; color: inherit; background: none; padding: 0; white-space: normal; }
[data-testid="stCaptionContainer"] code { color: inherit; background: none; }
</style>"""
# A name in st.table is a code span (ui.text.table_cells: shown as typed); in a table it reads as plain text.
# In a caption a name's code span takes the caption's colour (5.7:1), not a grey that fails 4.5:1.


def nice_ceiling(dollars: int) -> int:
    """The next 1-2-5 round number at or above `dollars`."""
    if dollars <= 0:
        return 100
    exp = 10 ** int(math.floor(math.log10(dollars)))
    for m in (1, 2, 5, 10):
        if m * exp >= dollars:
            return m * exp
    return 10 * exp


def slider_range(name: str, cents: int) -> tuple[int, int]:
    """(max, step) in dollars for the current project type, stretched to hold `cents`."""
    kind = "master_plan" if state.get("project_type") == "master_plan" else "capital"
    top = RANGES[kind][name]
    value = -(-cents // 100)
    if value > top:
        top = nice_ceiling(value)
    step = 100 if top <= 200_000 else 1_000
    return top, step


def show(key: str, value) -> None:
    """Hand a widget the canonical value only when it differs from what the widget holds.

    Any assignment to a widget's key, even of the value it already has, makes Streamlit send
    that value back to the browser with orders to adopt it. While a key is held down, the
    browser is already several steps ahead of the run that sent it: adopting it moved the
    slider back (the snap-back) and the presses made in between were lost."""
    if key not in st.session_state or st.session_state[key] != value:
        st.session_state[key] = value


def entry_text(cents: int) -> str:
    return fmt(cents).lstrip("$")


def _from_slider(name: str) -> None:
    state.put(name, st.session_state[f"s:{name}"] * 100)
    st.session_state.pop(f"err:{name}", None)


def entry_problem(label: str, raw: str, err: ValidationError) -> str:
    """What is wrong with a typed amount, in a sentence that reads well even when nothing was typed."""
    if not str(raw).strip():
        return f"{label} is empty: enter dollars such as 1,250,000"
    shown = repr(raw[:40] + "…") if len(raw) > 40 else repr(raw)
    return f"{label}: {shown} {err.problem}"


def _from_entry(name: str) -> None:
    raw = st.session_state[f"t:{name}"]
    if st.session_state[f"s:{name}"] != st.session_state.get(f"drawn:s:{name}") and \
            raw in st.session_state.get(f"drawn:t:{name}", ()):
        # An echo, not an edit: every rerun carries every widget's value as the browser has
        # it, and the slider moved again before the browser took the box's last text. That
        # stale text, taken for an edit, put the older amount back after the slider's newer
        # one (the snap-back, and a key press lost each time). The box is redrawn below.
        return
    try:
        state.put(name, to_cents(raw, name))
        st.session_state.pop(f"err:{name}", None)
    except ValidationError as err:
        st.session_state[f"err:{name}"] = f"{entry_problem(FIELD[name].label, raw, err)}. Kept {fmt(state.get(name))}."


def money_input(name: str, label: str | None = None) -> None:
    """Slider + exact entry for one money field of the application."""
    cents = state.get(name)
    top, step = slider_range(name, cents)
    label = label or FIELD[name].label
    show(f"s:{name}", min(cents // 100, top))
    if f"err:{name}" not in st.session_state:  # keep a bad entry on screen until it is fixed
        show(f"t:{name}", entry_text(cents))
    # What this run gives the browser, to tell a stale echo from an edit (_from_entry).
    st.session_state[f"drawn:s:{name}"] = st.session_state[f"s:{name}"]
    drawn = st.session_state.setdefault(f"drawn:t:{name}", [])
    if st.session_state[f"t:{name}"] not in drawn[-1:]:
        drawn.append(st.session_state[f"t:{name}"])
        del drawn[:-50]
    # one element, not three; keyed so that the page's style gives the slider a usable track (ROW_CSS)
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="medium", key=f"moneyrow_{name}")
    row.slider(label, min_value=0, max_value=top, step=step, format="$%,d", key=f"s:{name}",
               on_change=_from_slider, args=(name,), help=FIELD[name].help)
    row.text_input("Exact amount", key=f"t:{name}", on_change=_from_entry, args=(name,), width=160,
                   help="Type an exact amount: 1234567, 1,234,567 or $1,234,567.89")
    if f"err:{name}" in st.session_state:
        st.error(md(st.session_state[f"err:{name}"]), icon=":material/error:")


def flag_input(name: str, widget=st.checkbox, label: str | None = None, **kwargs) -> bool:
    """A yes/no field of the application."""
    key = f"w:{name}"
    show(key, bool(state.get(name)))
    widget(label or FIELD[name].label, key=key, help=FIELD[name].help or None,
           on_change=lambda: state.put(name, st.session_state[key]), **kwargs)
    return state.get(name)


def application_inputs(rs) -> None:
    """The calculator's inputs column: project type, the money fields, the request, federal law."""
    st.header("The application")
    show("w:project_type", state.get("project_type"))
    st.selectbox("Project type", list(PROJECT_TYPES), key="w:project_type", format_func=PROJECT_TYPES.get,
                 on_change=lambda: state.put("project_type", st.session_state["w:project_type"]),
                 help=FIELD["project_type"].help)
    for name in ("eligible_cost", "federal_grant", "local_contribution", "prior_program_funds"):
        money_input(name)
    show("w:has_request", state.get("requested_amount") is not None)

    def toggle_request():   # switched on, the request starts at the award the screen shows
        on = st.session_state["w:has_request"]
        state.put("requested_amount", evaluate(state.application(), rs, state.readings()).amount if on else None)

    st.toggle("The applicant requests a specific amount", key="w:has_request", on_change=toggle_request)
    if state.get("requested_amount") is not None:
        money_input("requested_amount")
    flag_input("federal_law_contrary")
