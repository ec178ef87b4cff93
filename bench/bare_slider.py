"""The baseline for bench/ui_latency.py and bench/load.py --floor: one slider, one metric,
nothing else, opened from a link (?eligible_cost=...) like the dashboard, and served with
the same socket setting (ui/server.py), so a ratio measures the dashboard's own cost."""
import os
import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ui.server import disable_nagle, settle_heap  # noqa: E402

disable_nagle()
settle_heap()   # the same collector setting as the dashboard
start = st.query_params.get("eligible_cost", "1000000")


def slider_and_award() -> int:
    cost = st.slider("Total cost of eligible work", 0, 5_000_000, int(start) if start.isdigit() else 1_000_000,
                     step=1_000, format="$%,d", key="s:eligible_cost")
    st.metric("State grant award", f"${cost // 2:,}")
    return cost


def lines(n: int, cost: int) -> None:
    """bench/element_floor.py: more elements on each run, as a richer page draws its own."""
    for i in range(n):
        st.markdown(f"Line {i + 1}: **{cost // (i + 2):,}** dollars")


extra = int(os.environ.get("BENCH_EXTRA_ELEMENTS") or 0)
if os.environ.get("BENCH_OUTSIDE"):   # element_floor --outside: the lines outside a fragment, not resent on a move
    st.fragment(slider_and_award)()
    lines(extra, 1_000_000)
else:
    lines(extra, slider_and_award())
