"""Every chart of the pages shown one way: named by the sentence that states its finding
(st.plotly_chart's alt), its numbers in a real table right below it, its toolbar kept out of
the Tab order, and drawn in our own colours (Streamlit's chart theme greys the text to 3.7:1).

The chart's title is taken out of the drawing and shown as page text above it: page text
wraps at any width (reflow at 320 px), where a title inside the drawing was cut."""
from __future__ import annotations

import html
import re

import streamlit as st

from core.plotly_send import prebuilt
from ui.text import cell, md, table

# No mode bar: its 16 buttons per chart came before the form in the Tab order (Save was the
# 61st stop). Zooming and panning remain with the mouse; every number is in the table.
CONFIG = {"displayModeBar": False, "displaylogo": False, "responsive": True}


def presenting() -> bool:
    """Presentation mode is on: charts take large type (core.charts builders' `large`)."""
    return bool(st.session_state.get("presentation", False))


def plain_title(fig) -> str:
    text = str(fig.layout.title.text or "")
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))).strip()


def table_markdown(rows: list[dict]) -> str:
    """Rows as one Markdown table, cells shown as written (ui.text.cell, as st.table's):
    drawn as an HTML table like st.table's, without the dataframe and Arrow conversion
    st.table makes on every slider move (~0.7 ms each)."""
    if not rows:
        return ""
    pipe = lambda c: re.sub(r"(?<!\\)\|", r"\\|", c)  # noqa: E731  a | would end the cell
    head = list(rows[0])
    lines = ["| " + " | ".join(pipe(md(str(h))) for h in head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(pipe(cell(r.get(h, ""))) for h in head) + " |" for r in rows]
    return "\n".join(lines)


def _top_margin(top: int, size: int, lines: int) -> int:
    """The top margin once the title leaves the drawing: what the title took is given back,
    but labels drawn above the plot ("Award $500,000") keep room for their own type size."""
    large = size >= 24
    return max(44 if large else 20, top - (30 if large else 24) - (36 if large else 24) * lines + 20)


def _untitled(spec: dict) -> tuple[str, dict]:
    """For a plain {"data", "layout"} figure (core.charts' as_dict): its title as text, and
    the figure without it, its top margin cut as chart() cuts a go.Figure's."""
    layout = spec["layout"]
    t = layout.get("title") or {}
    text = str(t.get("text") or "")
    title = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))).strip()
    if not title:
        return "", spec
    lines = text.count("<br>") + 1
    size = (t.get("font") or {}).get("size") or 18
    margin = layout.get("margin") or {}
    top = _top_margin(margin.get("t") or 0, size, lines)
    return title, {**spec, "layout": {**layout, "title": {**t, "text": ""}, "margin": {**margin, "t": top}}}


def chart(fig, key: str, text: tuple[str, list[dict]]) -> None:
    """Draw `fig` under its title as text, named by text[0], with the rows text[1] as a table.
    `fig` may be a plain {"data", "layout"} dict (core.charts' as_dict=True): it is then sent
    without building Plotly's object tree (core.plotly_send, the calculator on every move)."""
    alt, rows = text
    if isinstance(fig, dict):
        title, spec = _untitled(fig)
        if title:
            st.markdown(f"**{md(title)}**")
        st.plotly_chart(prebuilt(spec), key=key, alt=alt, theme=None, config=CONFIG)
        # Drawn only while open (Streamlit's lazy expander): a closed table is not built and
        # resent on every slider move; opened, it is drawn at once and follows every move.
        numbers = st.expander(f"Numbers behind “{title or 'this chart'}”", key=f"numbers:{key}", on_change="rerun")
        if numbers.open:
            numbers.markdown(table_markdown(rows))   # the same HTML table as st.table, without a dataframe
        return
    title = plain_title(fig)
    if title:
        lines = str(fig.layout.title.text).count("<br>") + 1
        size = fig.layout.title.font.size or 18
        fig.update_layout(title_text="", margin_t=_top_margin(fig.layout.margin.t, size, lines))
        st.markdown(f"**{md(title)}**")
    st.plotly_chart(fig, key=key, alt=alt, theme=None, config=CONFIG)
    with st.expander(f"Numbers behind “{title or 'this chart'}”"):
        st.table(table(rows))   # st.table reads cells as Markdown
