"""Hand a freshly built figure to a renderer without Plotly's defensive copy.

`st.plotly_chart` turns every figure into a dict with `Figure.to_dict()`, which deep-copies
the whole figure, template included, and walks it for numpy arrays; for the calculator's
two charts that was about a sixth of the server's CPU per slider move (bench/profile_move.py).
`unshared(fig)` gives a figure whose `to_dict()` returns the figure's own data and layout
instead. Use it only for a figure built for this one call (nothing else keeps or changes it)
and made of plain lists, not numpy arrays (the walk would turn those into base64):
core/charts.py builds the calculator's figures that way.
"""
from __future__ import annotations

import plotly.graph_objects as go


class _Unshared(go.Figure):
    """A figure whose to_dict() is the figure's own dicts, not a copy."""

    def to_dict(self):
        res = {"data": self._data, "layout": self._layout}
        if self._frame_objs:
            res["frames"] = [frame._props for frame in self._frame_objs]
        return res


def unshared(fig: go.Figure) -> go.Figure:
    """The same figure, re-classed so that rendering it does not deep-copy it."""
    fig.__class__ = _Unshared
    return fig
