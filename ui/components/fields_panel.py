"""The calculator's inputs as one element: a custom component (ui/components/fields_panel.js).

Why not Streamlit's own widgets: in a fragment every widget is sent again on each rerun, and
each is an element of its own (a container, a slider, an exact-amount box per amount). The
inputs column cost the server 3.2x a bare one-slider app per move before a single number
of the award was drawn (docs/performance.md, "The calculator's cost per move"). Here the whole column is
one element with one state value per field; the browser keeps its native controls.

An edit arrives as that field's state value, numbered by the browser: {"cents": 123400, "n": ...}
from a slider, {"text": "1,234.00", "n": ...} from an exact-amount box, {"value": ...} from a
select, switch or checkbox. The server checks it (this is an edge: the values are whatever the
browser sent), puts it in ui.state, and answers with each field's canonical value and the
number of the last edit it applied, so the browser takes the answer only once it has seen
every edit it sent (no snap-back while a key is held).
"""
from __future__ import annotations

import math
from typing import Callable

import orjson
import streamlit as st

from core.law.caps import given_or_presumed
from core.law.fields import FIELD, FIELDS, PROJECT_TYPES
from core.law.money import MAX_CENTS, ValidationError, fmt, to_cents
from ui import state
from ui.components import live_award
from ui.components.elements import element

PANEL = element("grant_fields", "fields_panel", "gf", scripts=("live_award",))

# Slider ceilings (dollars) by field, for capital projects and for master plans.
# Each amount's slider top, in dollars, from the field table: (capital project, master plan).
RANGES = {kind: {f.name: f.slider[i] for f in FIELDS if f.kind == "money"}
          for i, kind in enumerate(("capital", "master_plan"))}


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
    """(max, step) in dollars for the current project type, stretched to hold `cents`, so a
    typed or linked value is never clipped."""
    kind = "master_plan" if state.get("project_type") == "master_plan" else "capital"
    top = RANGES[kind][name]
    value = -(-cents // 100)
    if value > top:
        top = nice_ceiling(value)
    step = 100 if top <= 200_000 else 1_000
    return top, step


def entry_text(cents: int) -> str:
    return fmt(cents).lstrip("$")


def entry_problem(label: str, raw: str, err: ValidationError) -> str:
    """What is wrong with a typed amount, in a sentence that reads well even when nothing was typed."""
    if not str(raw).strip():
        return f"{label} is empty: enter dollars such as 1,250,000"
    shown = repr(raw[:40] + "…") if len(raw) > 40 else repr(raw)
    return f"{label}: {shown} {err.problem}"


# What an exact-amount box holds (its maxlength in ui/components/fields_panel.js): "$1,000,000,000,000.00"
# is 21 characters; a longer text is refused anyway, and a page other than ours is not echoed whole.
TEXT_MAX = 60


def _error_key(name: str) -> str:
    return f"err:{name}"


def _apply_money(name: str, edit: dict) -> None:
    label, raw, cents = FIELD[name].label, edit.get("text"), edit.get("cents")
    if isinstance(raw, str):
        try:
            state.put(name, to_cents(raw, name))
            st.session_state.pop(_error_key(name), None)
        except ValidationError as err:   # the typed text stays in the box (as much as it holds), with what is wrong beside it
            st.session_state[_error_key(name)] = (raw[:TEXT_MAX],
                                                  f"{entry_problem(label, raw, err)}. Kept {fmt(state.get(name))}.")
    elif isinstance(cents, int) and not isinstance(cents, bool) and 0 <= cents <= MAX_CENTS:
        state.put(name, cents)
        st.session_state.pop(_error_key(name), None)
        live_award.check(name, cents, edit.get("drawn"))   # what the browser drew while it moved, if it did
    else:   # only a page other than ours sends this: said, and nothing changed
        st.session_state[_error_key(name)] = (entry_text(state.get(name)),
                                              f"{label}: the page sent no usable amount. Kept {fmt(state.get(name))}.")


def _refused(name: str) -> None:
    """A value no page of ours sends (a forged one): said at the top of the page (dashboard.py), unused."""
    st.session_state["panel:refused"] = name


def _apply_choice(name: str, edit: dict) -> None:
    value = edit.get("value")
    if isinstance(value, str) and value in PROJECT_TYPES:   # a dict or list is not even hashable
        state.put(name, value)
    else:
        _refused(name)


def _apply_flag(name: str, edit: dict) -> None:
    if isinstance(edit.get("value"), bool):
        state.put(name, edit["value"])
    else:
        _refused(name)


APPLY = {"money": _apply_money, "select": _apply_choice, "switch": _apply_flag, "check": _apply_flag}


def money(name: str, given: tuple | None = None) -> dict:
    """A money field; `given`: live_award.inputs() of this run, read once for every slider."""
    cents = state.get(name)
    top, step = slider_range(name, cents)
    bad = st.session_state.get(_error_key(name))
    return {"id": name, "kind": "money", "label": FIELD[name].label, "help": FIELD[name].help,
            "cents": cents, "max": top, "step": step, "text": bad[0] if bad else entry_text(cents),
            "error": bad[1] if bad else None, "live": live_award.live(name, top, given)}


def choice(name: str) -> dict:
    return {"id": name, "kind": "select", "label": FIELD[name].label, "help": FIELD[name].help,
            "value": state.get(name), "options": list(PROJECT_TYPES.items())}


def flag(name: str, kind: str = "check", label: str | None = None, value: bool | None = None) -> dict:
    """A yes/no field of the application; with `label` and `value`, a switch of the page's own."""
    if value is not None:
        return {"id": name, "kind": kind, "label": label, "help": "", "value": value}
    return {"id": name, "kind": kind, "label": FIELD[name].label, "help": FIELD[name].help,
            "value": bool(given_or_presumed(FIELD[name], state.get(name)))}   # not given: as the law presumes it


def panel(key: str, fields: list[dict], title: str = "", on_edit: dict[str, Callable[[dict], None]] | None = None) -> None:
    """Draw `fields` as one element. An edit of field f runs on_edit[f] if given, else the
    field kind's handler, before the rest of the run, like a widget's on_change."""
    handlers = on_edit or {}

    def handler(f: dict) -> Callable[[], None]:
        fid, kind = f["id"], f["kind"]

        def run() -> None:
            edit = (st.session_state.get(key) or {}).get(fid)
            if not isinstance(edit, dict):
                if edit is not None:   # only a page other than ours sends a field's value as anything else
                    _refused(fid)
                return
            state.moving(edit.get("moving") is True)   # a drag still under way: drawn, not yet a step of history
            (handlers.get(fid) or (lambda e: APPLY[kind](fid, e)))(edit)
            # Echoed to the page: a number, or nothing from a page other than ours. Not NaN or
            # Infinity: Python reads them in JSON, but the page's JSON.parse would fail on its answer.
            n = edit.get("n")
            number = ((isinstance(n, int) and not isinstance(n, bool)) or (isinstance(n, float) and math.isfinite(n))) \
                and abs(n) <= 2**53   # what the page's numbers hold exactly
            st.session_state[f"applied:{key}:{fid}"] = n if number else None
        return run

    for f in fields:
        f["applied"] = st.session_state.get(f"applied:{key}:{f['id']}")
    # Sent as JSON bytes: Streamlit forwards bytes as they are, where a dict is walked for
    # dataframes and hashed again in canonical form on every run (~0.4 ms a move, measured).
    # orjson: the standard library's encoder was ~1.5% of a loaded replica's CPU (py-spy, issue 53).
    PANEL(key=key, data=orjson.dumps({"title": title, "fields": fields}),
          **{f"on_{f['id']}_change": handler(f) for f in fields})
