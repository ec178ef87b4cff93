"""The shared look of every chart: its type, its title and legend above the plot, its money axes,
the hatching that marks a binding cap, and user text made safe for Plotly's markup."""
from __future__ import annotations

import textwrap

from core.law.names import visible
from core.report.charts.colours import GRID, TEXT

FONT = dict(size=14, color=TEXT)
LARGE = dict(size=22, color=TEXT)       # presentation mode: type a room can read


def hatch(on: list[bool], colors: list[str]) -> dict:
    """White stripes over the bar's own colour where `on`: binding caps are marked by more
    than their colour, and the colour underneath stays the cap's own."""
    return dict(shape=["/" if x else "" for x in on], bgcolor=colors, fgcolor="white", fgopacity=0.55,
                size=10, solidity=0.3, fillmode="overlay")


def _title(text: str, large: bool) -> tuple[str, int]:
    """The title wrapped to fit a half-page column (it was cut at 1280 px), and its line count."""
    lines = textwrap.wrap(text, 30 if large else 46) or [""]
    return "<br>".join(lines), len(lines)


def usd(cents: int) -> float:
    return cents / 100  # display only: charts take numbers, the labels carry exact text


# Plotly's own markup in chart text: a few tags (<br>, <b>, <a href=...>: a link among them) and the
# entities it decodes (&amp; &lt; &gt;, a few names, numeric ones). Only & < > are written as entities,
# those it shows as the characters; html.escape's &quot; and &#x27; are not Plotly's, and a name
# with a quotation mark showed as `Option &quot;B&quot;` in every chart (issue 36).
_PLOTLY_MARKUP = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def plotly_text(text) -> str:
    """Text Plotly shows as typed: its markup characters made inert, nothing else changed."""
    return str(text).translate(_PLOTLY_MARKUP)


def user_text(text) -> str:
    """User text for a chart: its hidden characters shown as their code (core.names.visible), and
    Plotly's markup made inert (a link among it)."""
    return plotly_text(visible(text))


def label(name: str, width: int = 18) -> str:
    """User text as a chart label: hidden characters shown, Plotly's markup inert, and wrapped."""
    lines = textwrap.wrap(visible(name), width, break_long_words=True) or [""]
    return "<br>".join(plotly_text(line) for line in lines)  # names are at most 120 characters


def layout_dict(title: str, x_title: str | None, y_title: str | None, height: int, legend: bool | int,
                large: bool = False) -> dict:
    """The shared look of every chart, as one layout dict (one validation pass, not many).

    The legend sits above the plot, under the title, one entry a line, with the room for it
    counted here: it cannot cover the axis labels or the axis title (it used to sit under the
    x axis and cover both), nor the title (a wrapped horizontal legend grew into it on narrow
    charts). `legend` is the number of entries. `large` is the presentation-mode type:
    ticks, labels and titles a room can read."""
    font = LARGE if large else FONT
    axis = dict(automargin=True, gridcolor=GRID, linecolor=TEXT, tickfont=dict(color=TEXT),
                title=dict(font=dict(color=TEXT)))  # automargin: room for labels such as $1,000,000
    rows = int(legend) if legend and legend > 1 else 0
    title, lines = _title(title, large)
    top = (30 + 36 * lines if large else 24 + 24 * lines) + ((30 if large else 20) * rows + 12 if rows else 0)
    return dict(title=dict(text=title, font=dict(size=30 if large else 18, color=TEXT), x=0.01, xanchor="left",
                           xref="container", y=1, yanchor="top", yref="container", pad=dict(t=12)),
                font=font, height=int(height * (1.3 if large else 1)), separators=".,", plot_bgcolor="white",
                paper_bgcolor="white", hoverlabel=dict(font=dict(size=font["size"])),
                margin=dict(l=20, r=40, t=top, b=50, autoexpand=True),
                showlegend=bool(rows),
                # horizontal (a vertical legend pushed the plot aside), each entry the full width: one a line
                legend=dict(orientation="h", entrywidthmode="fraction", entrywidth=1, yanchor="bottom", y=1.0,
                            yref="paper", x=0, xanchor="left",
                            xref="paper", traceorder="normal", itemclick=False, itemdoubleclick=False,
                            font=dict(size=font["size"], color=TEXT)),
                xaxis=axis | ({"title": {"text": x_title, "font": {"color": TEXT}}} if x_title else {}),
                yaxis=axis | ({"title": {"text": y_title, "font": {"color": TEXT}}} if y_title else {}))


def legend_entries(fig) -> int:
    """The entries a figure's legend lists: its traces but those hidden from it, heatmaps and contours."""
    return sum(1 for t in fig.data if t.showlegend is not False and t.type not in ("heatmap", "contour"))


def styled(fig, title: str, x_title: str | None = None, y_title: str | None = None, height=420,
           large: bool = False):
    """`fig` in the shared look (layout_dict), its legend as long as its entries."""
    fig.update_layout(layout_dict(title, x_title, y_title, height, legend=legend_entries(fig), large=large))
    return fig


def money_axis(**extra) -> dict:
    return dict(tickprefix="$", tickformat=",.0f", gridcolor=GRID, automargin=True) | extra
