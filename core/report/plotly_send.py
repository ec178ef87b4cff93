"""Hand a figure to a renderer (st.plotly_chart, or the calculator's chart element
ui/components/chart_panel.py, which sends its to_dict()) without Plotly's per-call overhead.

`st.plotly_chart` turns every figure into a dict with `Figure.to_dict()`, which deep-copies
the whole figure, template included, and walks it for numpy arrays; building the
`go.Figure` first costs as much again (its template alone is validated and copied per
figure). For the calculator's two charts that was about a sixth of the server's CPU per
slider move (docs/performance.md, "The calculator's cost per move").

`prebuilt(spec)` makes a figure straight from a plain {"data", "layout"} dict (as
core/report/charts/calculator.py's `as_dict=True` gives), with Plotly's default template added once per
process, so the browser receives what `go.Figure(**spec)` would have sent.

Use it only for a figure made for this one call (nothing else keeps or changes it) and of
plain lists, not numpy arrays (Plotly would turn those into base64):
tests/report/test_plotly_send.py checks that the JSON sent is the same.
"""
from __future__ import annotations

from functools import cache

import plotly.graph_objects as go
import plotly.io as pio


class _Unshared(go.Figure):
    """A figure whose to_dict() is the figure's own dicts, not a copy."""

    def to_dict(self):
        res = {"data": self._data, "layout": self._layout}
        if self._frame_objs:
            res["frames"] = [frame._props for frame in self._frame_objs]
        return res


@cache
def _template(name: str) -> dict:
    """Plotly's template as go.Figure would put it in layout.template (built once)."""
    return go.Figure().to_dict()["layout"]["template"] if name else {}


def prebuilt(spec: dict) -> go.Figure:
    """A figure for rendering, from {"data": [trace dicts], "layout": dict}, without
    building Plotly's object tree (its to_dict() is `spec` plus the default template)."""
    fig = object.__new__(_Unshared)          # no BaseFigure.__init__: nothing to validate or copy
    layout = dict(spec["layout"])
    if "template" not in layout and pio.templates.default:
        layout["template"] = _template(pio.templates.default)
    object.__setattr__(fig, "_data", spec["data"])
    object.__setattr__(fig, "_layout", layout)
    object.__setattr__(fig, "_frame_objs", ())
    return fig
