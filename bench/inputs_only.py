"""The calculator's inputs column alone (bench/rerun_cost.py's third line): drawn by the very
code the calculator uses (ui.widgets.application_inputs, one element: ui/components/fields_panel.py) in a
fragment, with the award computed and the URL written as the calculator does, and nothing
shown of the result. What a move costs before a single number of the award is drawn."""
import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from core.law.award import evaluate  # noqa: E402
from ui import server, state  # noqa: E402
from ui.widgets import application_inputs  # noqa: E402

server.disable_nagle()
server.settle_heap()   # the same collector setting as the dashboard
st.set_page_config(layout="wide")


@st.fragment
def calculator() -> None:
    rs = state.ruleset()
    evaluate(state.application(), rs, state.readings())
    col_in, _ = st.columns([5, 7], gap="large")
    with col_in:
        application_inputs(rs)
    state.write_url()


with state.routed():
    state.init()
    calculator()
