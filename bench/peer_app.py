"""The peer for bench/first_visit.py, bench/ui_latency.py and bench/load.py (issue 53): what a
capable Streamlit user would build instead of the dashboard's Calculator, over the same law.

The money inputs as `st.slider`s, the project type as an `st.selectbox`, the award as an
`st.metric`, and one Plotly chart (the limits of the route taken against the award), with the
award worked out by the same `core.law.award.evaluate` the dashboard calls. Nothing exotic: no
fragment, no custom element, no cache; the whole script runs on every move, as Streamlit's own
examples do. It opens from a link (?project_type=...&eligible_cost=...) like the dashboard, and is
served with the same socket, runtime and collector settings as the dashboard and the bare app
(ui/server.py), so that a ratio measures the apps, not the server's settings.

    streamlit run bench/peer_app.py
"""
import plotly.graph_objects as go
import streamlit as st

from core.law.application import Application
from core.law.award import evaluate
from core.law.fields import FIELD, PROJECT_TYPES
from core.law.money import fmt
from core.law.provisions import CAP, ROUTES
from ui.server import serving_settings, settle_heap

serving_settings()   # the dashboard's socket and runtime settings
settle_heap()   # the same collector setting as the dashboard and the bare app

MONEY = ("eligible_cost", "federal_grant", "local_contribution", "prior_program_funds")
TYPES = tuple(PROJECT_TYPES)


def dollars(name: str, default: int) -> int:
    """The link's whole dollars for `name`, or `default`."""
    text = st.query_params.get(name, "")
    return int(text) if text.isdigit() else default


st.title("State grant calculator")
kind = st.query_params.get("project_type", "renovation")
project_type = st.selectbox("Project type", TYPES, index=TYPES.index(kind) if kind in TYPES else 0,
                            format_func=PROJECT_TYPES.get, key="s:project_type")
values = {}
for name in MONEY:
    f = FIELD[name]
    top = f.slider[0]
    values[name] = st.slider(f.label, 0, top, min(dollars(name, 1_000_000 if name == "eligible_cost" else 0), top),
                             step=1_000, format="$%,d", help=f.help, key=f"s:{name}")

award = evaluate(Application.from_dict({"project_type": project_type, **values}))
st.metric("State grant award", fmt(award.amount))
st.write(f"Held down by {award.binding_text}. Route: {ROUTES[award.route]}.")

caps = award.caps
names = [CAP[c].title for c in caps]
fig = go.Figure(go.Bar(x=[v / 100 for v in caps.values()], y=names, orientation="h", name="Limit",
                       hovertemplate="%{y}: $%{x:,.0f}<extra></extra>"))
fig.add_vline(x=award.amount / 100, line_dash="dash", annotation_text=f"Award {fmt(award.amount)}")
fig.update_layout(title="Each limit on the award", xaxis_title="Dollars", yaxis_title="Limit",
                  xaxis_tickprefix="$", xaxis_tickformat=",.0f", height=320, margin={"l": 10, "r": 10})
st.plotly_chart(fig, key="chart")
