"""The calculator's charts as one element: a custom component (ui/components/chart_panel.js) that draws
each chart once with Plotly.js and then updates it in place.

Why not st.plotly_chart here: its element id hashes the figure (and the sentence that names
it), so on every slider move the browser dropped both charts and drew them again from
nothing: ~100 ms of the page's main thread per move, the charts on screen ~200 ms after the
key press (docs/performance.md, "The calculator's cost per move"). Here each chart keeps its drawing and
Plotly.react changes what moved, after the award is on screen. Each chart's title, its
sentence (the figure's accessible name) and its numbers (a table in a native disclosure) travel
in the same element: one element instead of six per move. So do the amounts above them (cost
after the federal grant, funding gap, local match shortfall): one element instead of four.

Plotly.js is the copy that ships with the plotly package (the same version that built the
figure), served by Streamlit's route for component files and loaded once per browser page.
Other pages, drawn once per visit, keep st.plotly_chart (ui/charts.py).
"""
from __future__ import annotations

from pathlib import Path

import orjson
import plotly
import streamlit.components.v1 as components

from core.report.plotly_send import prebuilt
from ui.charts import CONFIG, untitled
from ui.components.elements import element

PLOTLY_JS = "plotly.min.js"
# Registered only so that Streamlit serves the file at component/<name>/plotly.min.js; never drawn.
_PLOTLY_FILES = components.declare_component("plotly_js", path=str(Path(plotly.__file__).parent / "package_data"))
PANEL = element("grant_charts", "chart_panel", "gc")


def plotly_path() -> str:
    """Where Plotly.js is served, relative to the app's base URL. The version in the query lets
    a proxy have browsers keep the file for a year (deploy/nginx-team.conf.in serves it itself)."""
    return f"component/{_PLOTLY_FILES.name}/{PLOTLY_JS}?v={plotly.__version__}"


def chart_data(spec: dict, key: str, text: tuple[str, list[dict]]) -> dict:
    """One chart as the element draws it: title as page text, the sentence that names the
    figure, its numbers (rows of text), and the figure without its title."""
    alt, rows = text
    title, figure = untitled(spec)
    figure = prebuilt(figure).to_dict()   # with Plotly's default template, as st.plotly_chart sends it
    return {"id": key, "title": title, "alt": alt, "rows": [{str(k): str(v) for k, v in r.items()} for r in rows],
            "figure": figure}


def charts(items: list[dict], amounts: list[tuple[str, str]] = (), key: str = "charts") -> None:
    """Draw `items` (chart_data) as one element, one chart under the other, below `amounts`
    ((label, value) pairs: the sums the charts break down, in a row)."""
    # Bytes: Streamlit forwards them as they are (a dict is walked and hashed on every run).
    PANEL(key=key, data=orjson.dumps({"plotly": plotly_path(), "config": CONFIG, "charts": items,
                                      "amounts": [{"label": label, "value": value} for label, value in amounts]}))
