"""Every chart of the pages shown one way: named by the sentence that states its finding
(st.plotly_chart's alt), its numbers in a real table right below it, its toolbar kept out of
the Tab order, and drawn in our own colours (Streamlit's chart theme greys the text to 3.7:1).

The chart's title is taken out of the drawing and shown as page text above it: page text
wraps at any width (reflow at 320 px), where a title inside the drawing was cut."""
from __future__ import annotations

import html
import re

import streamlit as st

from ui.text import md, table_cells

# No mode bar: its 16 buttons per chart came before the form in the Tab order (Save was the
# 61st stop). Zooming and panning remain with the mouse; every number is in the table.
CONFIG = {"displayModeBar": False, "displaylogo": False, "responsive": True}


def presenting() -> bool:
    """Presentation mode is on: charts take large type (core.charts builders' `large`)."""
    return bool(st.session_state.get("presentation", False))


def plain_title(fig) -> str:
    text = str(fig.layout.title.text or "")
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))).strip()


def chart(fig, key: str, text: tuple[str, list[dict]]) -> None:
    """Draw `fig` under its title as text, named by text[0], with the rows text[1] as a table."""
    alt, rows = text
    title = plain_title(fig)
    if title:
        lines = str(fig.layout.title.text).count("<br>") + 1
        size = fig.layout.title.font.size or 18
        fig.update_layout(title_text="", margin_t=max(20, fig.layout.margin.t - (24 if size < 24 else 30)
                                                       - (24 if size < 24 else 36) * lines + 20))
        st.markdown(f"**{md(title)}**")
    st.plotly_chart(fig, key=key, alt=alt, theme=None, config=CONFIG)
    with st.expander(f"Numbers behind “{title or 'this chart'}”"):
        st.table(table_cells(rows))   # st.table reads cells as Markdown: names literal, ours escaped
