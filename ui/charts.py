"""Every chart of the pages shown one way: named by the sentence that states its finding
(st.plotly_chart's alt), its numbers in a real table right below it, its toolbar kept out of
the Tab order, and drawn in our own colours (Streamlit's chart theme greys the text to 3.7:1).

The chart's title is taken out of the drawing and shown as page text above it: page text
wraps at any width (reflow at 320 px), where a title inside the drawing was cut."""
from __future__ import annotations

import html
import re
import threading
from collections import OrderedDict
from collections.abc import Callable

import streamlit as st

from ui.text import cell, markup, md, table

# No mode bar: its 16 buttons per chart came before the form in the Tab order (Save was the
# 61st stop). Zooming and panning remain with the mouse; every number is in the table.
CONFIG = {"displayModeBar": False, "displaylogo": False, "responsive": True}


def presenting() -> bool:
    """Presentation mode is on: charts take large type (core.report.charts builders' `large`)."""
    return bool(st.session_state.get("presentation", False))


def plain_title(fig) -> str:
    text = str(fig.layout.title.text or "")
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))).strip()


def _top_margin(top: int, size: int, lines: int) -> int:
    """The top margin once the title leaves the drawing: what the title took is given back,
    but labels drawn above the plot ("Award $500,000") keep room for their own type size."""
    large = size >= 24
    return max(44 if large else 20, top - (30 if large else 24) - (36 if large else 24) * lines + 20)


def untitled(spec: dict) -> tuple[str, dict]:
    """For a plain {"data", "layout"} figure (core.report.charts' as_dict, drawn by ui/components/chart_panel): its
    title as text, and the figure without it, its top margin cut as chart() cuts a go.Figure's."""
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


def _untitle(fig) -> str:
    """Take the title out of `fig` (it is drawn as page text), giving back its top margin; the title."""
    title = plain_title(fig)
    if title:
        lines = str(fig.layout.title.text).count("<br>") + 1
        size = fig.layout.title.font.size or 18
        fig.update_layout(title_text="", margin_t=_top_margin(fig.layout.margin.t, size, lines))
    return title


# Figures made for the pages, by what they are made of (a Plotly figure costs 50-250 ms of the
# server to build, and every rerun of Compare built three: an import's runs held the other
# sessions back). Shared by every session: a figure is only read once it is made.
_MADE: OrderedDict[tuple, tuple[str, object]] = OrderedDict()
_MADE_LOCK = threading.Lock()
MADE_LIMIT = 64


def made(cache: tuple, build: Callable[[], object]) -> tuple[str, object]:
    """The figure `build` makes (untitled) and its title, made once per `cache` key."""
    with _MADE_LOCK:
        found = _MADE.get(cache)
        if found is not None:
            _MADE.move_to_end(cache)
            return found
    fig = build()
    found = (_untitle(fig), fig)
    with _MADE_LOCK:
        _MADE[cache] = found
        while len(_MADE) > MADE_LIMIT:
            _MADE.popitem(last=False)
    return found


def chart(fig, key: str, text: tuple[str, list[dict]], cache: tuple | None = None) -> None:
    """Draw `fig` under its title as text, named by text[0], with the rows text[1] as a table.
    With `cache` (a key of what the figure is made of), `fig` is a function that makes it, called
    only when no figure of that key is kept. (The calculator, redrawn on every slider move, draws
    its charts with ui/components/chart_panel.)"""
    alt, rows = text
    if cache is not None:
        title, fig = made(cache, fig)
    else:
        title = _untitle(fig)
    if title:
        st.markdown(markup("**{}**", title))   # a title may hold a name (a baseline): inert
    st.plotly_chart(fig, key=key, alt=alt, theme=None, config=CONFIG)
    with st.expander(md(f"Numbers behind “{title or 'this chart'}”")):
        shown = turned(rows) if presenting() else rows
        st.table(table(shown, header=md if shown is rows else cell))   # st.table reads cells as Markdown


TURN = 4   # while presenting, a table of a few rows and more columns than this is turned on its side


def turned(rows: list[dict]) -> list[dict]:
    """A few rows of many columns (two scenarios against every limit) as a row per column and a
    column per row: in presentation type, six columns scrolled sideways beside a chart."""
    if not rows or len(rows) > TURN or len(rows[0]) <= TURN:
        return rows
    label, *columns = rows[0]
    names = [str(r[label]) for r in rows]
    if len(set(names)) < len(names) or "Measure" in names:
        return rows
    return [{"Measure": c, **{n: r.get(c, "") for n, r in zip(names, rows)}} for c in columns]
