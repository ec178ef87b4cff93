"""Sensitivity's charts: the award along one input (its curve coloured by the cap that holds it
down there, other rulesets dashed over it) and over two (a map of where each cap holds it)."""
from __future__ import annotations

import plotly.graph_objects as go

from core.law.money import fmt
from core.report.charts.colours import GRID, OVERLAYS, TEXT, cap_colour, cap_line
from core.report.charts.layout import styled, usd, user_text


def sweep_figure(curves: list, field_label: str, current: int | None = None, large: bool = False) -> go.Figure:
    """Award against one input. `curves`: [(name, Sweep)], the first drawn in segments
    coloured by the binding cap, the others (variants) as dashed overlays."""
    fig = go.Figure()
    for k, (name, sw) in enumerate(curves):
        if k == 0:
            _binding_segments(fig, sw, field_label, large)
        else:
            pts = sw.points
            fig.add_trace(go.Scatter(x=[usd(p[0]) for p in pts], y=[usd(p[1]) for p in pts], mode="lines",
                                     line=dict(width=3, dash="dash", color=OVERLAYS[(k - 1) % len(OVERLAYS)]),
                                     name=user_text(name),   # the name in the template by reference: a
                                     hovertemplate="%{fullData.name}: award %{y:$,.2f}<extra></extra>"))  # %{ in it stays text
    if current is not None:
        _now(fig, curves, current)
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero")
    return styled(fig, f"State grant award as the {field_label.lower()} changes", f"{field_label} ($)",
                  "State grant award ($)", height=520, large=large)


def _binding_segments(fig: go.Figure, sw, field_label: str, large: bool) -> None:
    """The first curve, each stretch in the colour of the cap that holds the award there (the
    registry's curve colour), one legend entry per binding set; a dot at each breakpoint."""
    from core.law.analysis import binds, caps_words, first_up

    shown = set()
    for x0, a0, x1, a1, cap in sw.segments:
        key = ";".join(cap)   # one legend entry per binding set: its words match the breakpoint list
        fig.add_trace(go.Scatter(
            x=[usd(x0), usd(x1)], y=[usd(a0), usd(a1)], mode="lines",
            line=dict(color=cap_line(cap[0]), width=7 if large else 5),
            name=f"{first_up(caps_words(cap))} {binds(cap)}", legendgroup=key, showlegend=key not in shown,
            hovertemplate=f"{field_label} %{{x:$,.2f}}: award %{{y:$,.2f}} ({caps_words(cap)})<extra></extra>"))
        shown.add(key)
    for bp in sw.breakpoints:
        fig.add_trace(go.Scatter(x=[usd(bp.value)], y=[usd(bp.award)], mode="markers",
                                 marker=dict(size=14 if large else 10, color=TEXT), showlegend=False,
                                 hovertemplate=f"{fmt(bp.value)}: {caps_words(bp.binding_after)} "
                                               f"{binds(bp.binding_after)}"
                                               "<extra></extra>"))


def _now(fig: go.Figure, curves: list, current: int) -> None:
    """The current value: a dotted line, and "Now: $X" on it, not beside it: centred on the line's x,
    on white so the dotted line runs into the label and out of it; inside the plot (above it, it
    covered the legend there: "The program maximum holds the award" cut off), at the bottom where
    the curve is high there, else the top."""
    fig.add_vline(x=usd(current), line=dict(color="#555", dash="dot", width=2))
    level = next((a0 + (a1 - a0) * (current - x0) / (x1 - x0) if x1 != x0 else a1
                  for x0, a0, x1, a1, _ in curves[0][1].segments if x0 <= current <= x1), 0) if curves else 0
    top_award = max((p[1] for _, sw in curves for p in sw.points), default=0)
    low = level * 2 > top_award
    fig.add_annotation(x=usd(current), xref="x", y=0 if low else 1, yref="paper", xanchor="center",
                       yanchor="bottom" if low else "top",
                       text=f"Now: {fmt(current)}", showarrow=False, bgcolor="white", bordercolor="#555",
                       borderwidth=1, borderpad=3, font=dict(color=TEXT), name="now")


def map_figure(xs, ys, award, binding, x_label: str, y_label: str, current=None, large: bool = False) -> go.Figure:
    """The award over two inputs as a heatmap, regions where each cap binds outlined and labelled."""
    import numpy as np

    from core.law.analysis import caps_words

    x = [usd(v) for v in xs]
    y = [usd(v) for v in ys]
    # A handful of distinct binding sets across the grid: translate each once, not per cell.
    kinds, inverse = np.unique(binding.ravel(), return_inverse=True)
    words = np.array([caps_words(k.split(";")) if k else "" for k in kinds], dtype=object)[inverse]
    fig = go.Figure(go.Heatmap(
        x=x, y=y, z=award / 100, colorscale="Blues", colorbar=dict(title="Award", tickprefix="$", tickformat=",.0f"),
        customdata=words.reshape(binding.shape),
        hovertemplate=f"{x_label} %{{x:$,.0f}}<br>{y_label} %{{y:$,.0f}}<br>Award %{{z:$,.2f}}"
                      "<br>Held down by %{customdata}<extra></extra>"))
    _regions(fig, x, y, kinds, inverse, binding.shape, large)
    if current is not None:
        fig.add_trace(go.Scatter(x=[usd(current[0])], y=[usd(current[1])], mode="markers",
                                 marker=dict(symbol="x", size=16, color=cap_colour("program_max"),
                                             line=dict(width=2, color="white")),
                                 name="This application", hovertemplate="This application<extra></extra>"))
    fig.update_xaxes(tickprefix="$", tickformat=",.0f")
    fig.update_yaxes(tickprefix="$", tickformat=",.0f")
    return styled(fig, "Which limit holds the award down where", f"{x_label} ($)", f"{y_label} ($)", height=620, large=large)


def _regions(fig: go.Figure, x: list, y: list, kinds, inverse, shape: tuple, large: bool) -> None:
    """Region outlines, a contour line wherever the leading binding cap changes, each region
    labelled with its cap's words."""
    import numpy as np

    from core.law.analysis import caps_words

    leads = np.array([k.split(";")[0] if k else "" for k in kinds], dtype=object)
    lead = leads[inverse].reshape(shape)
    codes = {c: i for i, c in enumerate(sorted(set(leads)))}
    coded = np.array([codes[c] for c in leads], dtype=float)[inverse].reshape(shape)
    if len(codes) > 1:
        fig.add_trace(go.Contour(x=x, y=y, z=coded, showscale=False, hoverinfo="skip",
                                 contours=dict(coloring="none", start=0.5, end=len(codes) - 0.5, size=1),
                                 line=dict(color="#111", width=2), name="Region boundary", showlegend=False))
    for cap in codes:
        rows, cols = np.nonzero(lead == cap)
        if rows.size:
            fig.add_annotation(x=x[int(np.median(cols))], y=y[int(np.median(rows))], showarrow=False,
                               text=f"<b>{caps_words([cap])}</b>" if cap else "",
                               font=dict(size=22 if large else 15, color="#111"), bgcolor="rgba(255,255,255,0.85)")
