"""Every chart of the pages shown one way: named by the sentence that states its finding
(st.plotly_chart's alt), its numbers in a real table right below it, its toolbar kept out of
the Tab order, and drawn in our own colours (Streamlit's chart theme greys the text to 3.7:1)."""
from __future__ import annotations

import html
import re

import streamlit as st

# No mode bar: its 16 buttons per chart came before the form in the Tab order (Save was the
# 61st stop). Zooming and panning remain with the mouse; every number is in the table.
CONFIG = {"displayModeBar": False, "displaylogo": False, "responsive": True}


def presenting() -> bool:
    """Presentation mode is on: charts take large type (core.charts builders' `large`)."""
    return bool(st.session_state.get("presentation", False))


def chart(fig, key: str, text: tuple[str, list[dict]]) -> None:
    """Draw `fig` named by text[0], with the rows text[1] as a table beside it."""
    alt, rows = text
    st.plotly_chart(fig, key=key, alt=alt, theme=None, config=CONFIG)
    title = html.unescape(re.sub(r"<[^>]+>", " ", str(fig.layout.title.text or "this chart")))
    with st.expander(f"Numbers behind “{title}”"):
        st.table(rows)
