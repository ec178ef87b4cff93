"""The PDF packets' charts on paper (core.report.page draws them so for the static packets).

They are drawn at the width they are printed: the 7.5-inch column of a Letter page (96 px an
inch), or half of it for two charts side by side, so one px of the drawing is 0.75 pt on paper.
Drawn 1000 px wide and scaled down, their type came out near 6.5 pt. Every size is set here, none
left to a default: 13 px is 9.75 pt.
"""
from __future__ import annotations

import textwrap

import plotly.graph_objects as go

PRINT_WIDTH = 700        # one chart across the column
PRINT_HALF = 344         # two side by side, a 16 px gap between them
PRINT_TEXT = 13          # ticks, axis titles, legends, bar labels, annotations
PRINT_TITLE = 16         # 12 pt
LEGEND_THIRD = 18         # characters of a legend entry that fit a third of the printed column at PRINT_TEXT
PRINT_HEIGHT = {PRINT_WIDTH: 360, PRINT_HALF: 300}   # with its words, well under half a page (10 in, 960 px)


def for_print(fig: go.Figure, width: int = PRINT_WIDTH) -> go.Figure:
    """The figure for paper: `width` px wide, its type at the PRINT_ sizes, its title wrapped to
    that width, a label that would have to shrink below PRINT_TEXT - 1 hidden rather than drawn
    unreadably (its number is in the chart's words and the tables), and no taller than
    PRINT_HEIGHT unless it needs the room (many scenarios: a fifth shorter)."""
    height = int(fig.layout.height or 420)
    height = min(height, PRINT_HEIGHT[width]) if height <= 480 else round(height * 0.8)
    title = fig.layout.title.text or ""
    before = title.count("<br>") + 1
    lines = textwrap.wrap(title.replace("<br>", " "), int(width / (PRINT_TITLE * 0.56)), break_long_words=False)
    top = (fig.layout.margin.t or 80) + 20 * (max(len(lines), 1) - before)   # room for the lines added
    fig.update_layout(width=width, height=height, font=dict(size=PRINT_TEXT), margin=dict(t=top),
                      title=dict(text="<br>".join(lines), font=dict(size=PRINT_TITLE)),
                      legend=dict(font=dict(size=PRINT_TEXT)), uniformtext=dict(minsize=PRINT_TEXT - 1, mode="hide"))
    axis = dict(tickfont=dict(size=PRINT_TEXT), title=dict(font=dict(size=PRINT_TEXT)))
    fig.update_xaxes(**axis)
    fig.update_yaxes(**axis)
    if width == PRINT_HALF:
        fig.update_xaxes(nticks=4)   # "$0 $200k $400k $600k $800k" touched at half width
    _legend_across(fig, width, top)
    fig.update_annotations(font=dict(size=PRINT_TEXT))
    fig.update_traces(textfont=dict(size=PRINT_TEXT), selector=lambda t: "textfont" in t)
    return fig


def _legend_across(fig: go.Figure, width: int, top: int) -> None:
    """Across the whole column, three legend entries a line, not one (six lines took a third of a
    chart); two where a name would not fit a third ("State's share of the cost" was cut to "...of the c")."""
    named = [t.name or "" for t in fig.data if t.showlegend is not False and t.type not in ("heatmap", "contour")]
    entries = len(named)
    if fig.layout.showlegend and width == PRINT_WIDTH and entries > 2:
        per_line = 3 if max(len(n) for n in named) <= LEGEND_THIRD else 2
        lines = -(-entries // per_line)
        fig.update_layout(legend=dict(entrywidth=1 / per_line), margin=dict(t=top - 20 * (entries - lines)))
