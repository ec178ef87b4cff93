"""The baseline for bench/ui_latency.py: one slider, one metric, nothing else."""
import streamlit as st

cost = st.slider("Total cost of eligible work", 0, 5_000_000, 1_000_000, step=1_000, format="$%,d")
st.metric("State grant award", f"${cost // 2:,}")
