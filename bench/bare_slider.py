"""The baseline for bench/ui_latency.py and bench/load.py --floor: one slider, one metric,
nothing else, opened from a link (?eligible_cost=...) like the dashboard, and served with
the same socket, runtime and collector settings (ui/server.py), so a ratio measures the
dashboard's own cost."""
import streamlit as st

from ui.server import serving_settings, settle_heap

serving_settings()   # the dashboard's socket and runtime settings
settle_heap()   # the same collector setting as the dashboard
start = st.query_params.get("eligible_cost", "1000000")


def slider_and_award() -> int:
    cost = st.slider("Total cost of eligible work", 0, 5_000_000, int(start) if start.isdigit() else 1_000_000,
                     step=1_000, format="$%,d", key="s:eligible_cost")
    st.metric("State grant award", f"${cost // 2:,}")
    return cost


slider_and_award()
