"""Plotly figures as pure functions (data in, go.Figure out), shared by the pages and
the exported report so both draw the very same charts."""
from __future__ import annotations

import html
import textwrap

import plotly.graph_objects as go

from core.award import Award
from core.fields import CAP, ROUTES
from core.money import fmt

BINDING = "#c0392b"      # a cap that holds the award down
SLACK = "#7f8c8d"        # a cap with headroom
AWARD = "#1f4e79"        # the State award
SOURCES = {"federal": ("Federal grant", "#2e86c1"), "state": ("State grant award", AWARD),
           "local": ("Local contribution", "#27ae60"), "gap": ("Funding gap", "#e67e22")}
FONT = dict(size=14)


def _usd(cents: int) -> float:
    return cents / 100  # display only: charts take numbers, the labels carry exact text


def label(name: str, width: int = 18) -> str:
    """User text as a chart label: escaped (Plotly reads a little HTML) and wrapped."""
    lines = textwrap.wrap(name, width, break_long_words=True) or [""]
    return "<br>".join(html.escape(line) for line in lines)  # names are at most 120 characters


def _layout_dict(title: str, x_title: str | None, y_title: str | None, height: int, legend: bool) -> dict:
    """The shared look of every chart, as one layout dict (one validation pass, not many)."""
    axis = dict(automargin=True, gridcolor="#eee")  # automargin: room for labels such as $1,000,000
    return dict(title=dict(text=title, font=dict(size=18), x=0.01, xanchor="left", xref="container"),
                font=FONT, height=height, separators=".,", plot_bgcolor="white",
                margin=dict(l=20, r=40, t=80, b=130 if legend else 50),
                legend=dict(orientation="h", yanchor="top", y=-0.22, x=0),
                xaxis=axis | ({"title": {"text": x_title}} if x_title else {}),
                yaxis=axis | ({"title": {"text": y_title}} if y_title else {}))


def _layout(fig: go.Figure, title: str, x_title: str | None = None, y_title: str | None = None, height=420):
    fig.update_layout(_layout_dict(title, x_title, y_title, height, legend=len(fig.data) > 1))
    return fig


def _money_axis(**extra) -> dict:
    return dict(tickprefix="$", tickformat=",.0f", gridcolor="#eee", automargin=True) | extra


def headroom_figure(award: Award, validate: bool = True) -> go.Figure:
    """Each cap on the chosen route against the award; binding caps in red.
    validate=False skips Plotly's checks (a third of the cost, redrawn on every slider move);
    a property test shows the unchecked figure is the very same."""
    caps = list(award.caps.items())
    text = [f"{fmt(v)}, binding" if c in award.binding else f"{fmt(v)} (+{fmt(v - award.amount)})"
            for c, v in caps]
    top = max(v for _, v in caps)
    layout = _layout_dict(f"Headroom on every cap: {ROUTES[award.route]}", "Amount of the cap ($)", None,
                          120 + 60 * len(caps), legend=False)
    layout["xaxis"] |= _money_axis(range=[0, _usd(top) * 1.6 or 1], rangemode="tozero")  # room for labels
    layout["yaxis"] |= dict(autorange="reversed")
    layout["shapes"] = [dict(type="line", xref="x", yref="paper", x0=_usd(award.amount), x1=_usd(award.amount),
                             y0=0, y1=1, line=dict(color=AWARD, width=3, dash="dash"))]
    layout["annotations"] = [dict(x=_usd(award.amount), y=1, xref="x", yref="paper", yanchor="bottom",
                                  showarrow=False, text=f"Award {fmt(award.amount)}")]
    bar = dict(type="bar", x=[_usd(v) for _, v in caps], y=[CAP[c].label.capitalize() for c, _ in caps],
               orientation="h", marker=dict(color=[BINDING if c in award.binding else SLACK for c, _ in caps]),
               text=text, textposition="outside", cliponaxis=False, name="Cap",
               hovertemplate="%{y}: %{text}<extra></extra>")
    return go.Figure(data=[bar], layout=layout, _validate=validate)


def waterfall_figure(award: Award, validate: bool = True) -> go.Figure:
    """From the cost of eligible work through each source of funds to the gap left
    (validate as for headroom_figure)."""
    f = award.funding
    cost = award.application.eligible_cost
    left = cost - f["federal"] - f["state"] - f["local"]
    end_label = "Funding gap" if left >= 0 else "Funded beyond the cost"
    steps = [("Cost of<br>eligible work", "absolute", cost), ("Federal<br>grant", "relative", -f["federal"]),
             ("State grant<br>award", "relative", -f["state"]), ("Local<br>contribution", "relative", -f["local"]),
             (end_label.replace(" ", "<br>", 1), "total", left)]
    layout = _layout_dict("Where the money comes from", None, "Dollars", 420, legend=False)
    layout["xaxis"] |= dict(tickangle=0)
    layout["yaxis"] |= _money_axis(rangemode="tozero")
    trace = dict(type="waterfall", x=[s[0] for s in steps], measure=[s[1] for s in steps],
                 y=[_usd(s[2]) for s in steps], text=[fmt(abs(s[2])) for s in steps], textangle=0,
                 cliponaxis=False, textposition=["outside" if s[2] == 0 else "inside" for s in steps],
                 connector=dict(line=dict(color="#bbb")), increasing=dict(marker=dict(color=SOURCES["gap"][1])),
                 decreasing=dict(marker=dict(color="#5dade2")),
                 totals=dict(marker=dict(color="#34495e")),  # Plotly colours the cost and the gap alike
                 hovertemplate="%{x}: %{text}<extra></extra>")
    return go.Figure(data=[trace], layout=layout, _validate=validate)


def compare_caps_figure(named: list[tuple[str, Award]]) -> go.Figure:
    """Each scenario's award (bar) against every cap on its route (markers)."""
    names = [label(n, 24) for n, _ in named]
    fig = go.Figure(go.Bar(y=names, x=[_usd(a.amount) for _, a in named], orientation="h", name="State grant award",
                           marker_color=AWARD, text=[fmt(a.amount) for _, a in named], textposition="inside",
                           hovertemplate="%{y}: award %{text}<extra></extra>"))
    symbols = ["diamond", "square", "triangle-up", "circle", "star", "x"]
    for i, cap in enumerate(CAP.values()):
        rows = [(label(n, 24), a.caps[cap.id], cap.id in a.binding) for n, a in named if cap.id in a.caps]
        if not rows:
            continue
        fig.add_trace(go.Scatter(
            y=[r[0] for r in rows], x=[_usd(r[1]) for r in rows], mode="markers", name=cap.label.capitalize(),
            marker=dict(symbol=symbols[i], size=14, line=dict(width=1, color="#333")),
            text=[fmt(r[1]) + (" (binding)" if r[2] else "") for r in rows],
            hovertemplate=f"%{{y}}: {cap.label} %{{text}}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee", rangemode="tozero")
    return _layout(fig, "Award against every cap, by scenario", "Dollars", None, height=160 + 70 * len(named))


def funding_figure(named: list[tuple[str, Award]]) -> go.Figure:
    """Sources of funds stacked per scenario: federal, State, local, and the gap left."""
    names = [label(n) for n, _ in named]
    fig = go.Figure()
    for key, (source, color) in SOURCES.items():
        values = [a.funding[key] for _, a in named]
        fig.add_trace(go.Bar(x=names, y=[_usd(v) for v in values], name=source, marker_color=color,
                             text=[fmt(v) if v else "" for v in values], textposition="inside",
                             hovertemplate=f"%{{x}}: {source} %{{text}}<extra></extra>"))
    fig.update_layout(barmode="stack")
    fig.update_xaxes(type="category", tickangle=0)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee")
    return _layout(fig, "Sources of funds by scenario", None, "Dollars", height=480)


def change_figure(named: list[tuple[str, Award]], baseline: str) -> go.Figure:
    """Change in the award and in the funding gap from the baseline scenario."""
    base = dict(named)[baseline]
    others = [(n, a) for n, a in named if n != baseline]
    names = [label(n) for n, _ in others]
    fig = go.Figure()
    for what, get, color in (("Change in State award", lambda a: a.amount - base.amount, AWARD),
                              ("Change in funding gap", lambda a: a.funding_gap - base.funding_gap, SOURCES["gap"][1])):
        values = [get(a) for _, a in others]
        fig.add_trace(go.Bar(x=names, y=[_usd(v) for v in values], name=what, marker_color=color,
                             text=[("+" if v > 0 else "") + fmt(v) for v in values], textposition="outside",
                             cliponaxis=False, hovertemplate=f"%{{x}}: {what} %{{text}}<extra></extra>"))
    fig.update_layout(barmode="group")
    fig.update_xaxes(type="category", tickangle=0)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee", zeroline=True, zerolinecolor="#555")
    return _layout(fig, f"Change from the baseline: {html.escape(baseline)}", None, "Dollars", height=460)


CAP_COLORS = {"program_max": "#c0392b", "cost_share": "#1f77b4", "property_value": "#8e44ad",
              "funding_need": "#27ae60", "prior_grant_room": "#e67e22", "requested_amount": "#7f8c8d"}


def sweep_figure(curves: list, field_label: str, current: int | None = None) -> go.Figure:
    """Award against one input. `curves`: [(name, Sweep)], the first drawn in segments
    coloured by the binding cap, the others (variants) as dashed overlays."""
    from core.analysis import binds, caps_words

    fig = go.Figure()
    shown = set()
    for k, (name, sw) in enumerate(curves):
        pts = sw.points
        if k == 0:
            for x0, a0, x1, a1, cap in sw.segments:
                key = ";".join(cap)   # one legend entry per binding set: its words match the breakpoint list
                fig.add_trace(go.Scatter(
                    x=[_usd(x0), _usd(x1)], y=[_usd(a0), _usd(a1)], mode="lines",
                    line=dict(color=CAP_COLORS.get(cap[0], "#333"), width=5),
                    name=f"{caps_words(cap).capitalize()} {binds(cap)}", legendgroup=key, showlegend=key not in shown,
                    hovertemplate=f"{field_label} %{{x:$,.2f}}: award %{{y:$,.2f}} ({caps_words(cap)})<extra></extra>"))
                shown.add(key)
            for bp in sw.breakpoints:
                fig.add_trace(go.Scatter(x=[_usd(bp.value)], y=[_usd(bp.award)], mode="markers",
                                         marker=dict(size=10, color="#222"), showlegend=False,
                                         hovertemplate=f"{fmt(bp.value)}: {caps_words(bp.binding_after)} "
                                                       f"{binds(bp.binding_after)}"
                                                       "<extra></extra>"))
        else:
            fig.add_trace(go.Scatter(x=[_usd(p[0]) for p in pts], y=[_usd(p[1]) for p in pts], mode="lines",
                                     line=dict(width=3, dash="dash"), name=html.escape(name),
                                     hovertemplate=f"{html.escape(name)}: award %{{y:$,.2f}}<extra></extra>"))
    if current is not None:
        fig.add_vline(x=_usd(current), line=dict(color="#555", dash="dot", width=2),
                      annotation_text=f"Now: {fmt(current)}", annotation_position="top left")
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee")
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee", rangemode="tozero")
    return _layout(fig, f"State grant award as the {field_label.lower()} changes", f"{field_label} ($)",
                   "State grant award ($)", height=520)


def map_figure(xs, ys, award, binding, x_label: str, y_label: str, current=None) -> go.Figure:
    """The award over two inputs as a heatmap, regions where each cap binds outlined and labelled."""
    import numpy as np

    from core.analysis import caps_words

    x = [_usd(v) for v in xs]
    y = [_usd(v) for v in ys]
    z = award / 100
    # A handful of distinct binding sets across the grid: translate each once, not per cell.
    kinds, inverse = np.unique(binding.ravel(), return_inverse=True)
    words = np.array([caps_words(k.split(";")) if k else "" for k in kinds], dtype=object)[inverse]
    fig = go.Figure(go.Heatmap(
        x=x, y=y, z=z, colorscale="Blues", colorbar=dict(title="Award", tickprefix="$", tickformat=",.0f"),
        customdata=words.reshape(binding.shape),
        hovertemplate=f"{x_label} %{{x:$,.0f}}<br>{y_label} %{{y:$,.0f}}<br>Award %{{z:$,.2f}}"
                      "<br>Binding: %{customdata}<extra></extra>"))
    # Region outlines: a contour line wherever the leading binding cap changes.
    leads = np.array([k.split(";")[0] if k else "" for k in kinds], dtype=object)
    lead = leads[inverse].reshape(binding.shape)
    codes = {c: i for i, c in enumerate(sorted(set(leads)))}
    coded = np.array([codes[c] for c in leads], dtype=float)[inverse].reshape(binding.shape)
    if len(codes) > 1:
        fig.add_trace(go.Contour(x=x, y=y, z=coded, showscale=False, hoverinfo="skip",
                                 contours=dict(coloring="none", start=0.5, end=len(codes) - 0.5, size=1),
                                 line=dict(color="#111", width=2), name="Region boundary", showlegend=False))
    for cap in codes:
        rows, cols = np.nonzero(lead == cap)
        if rows.size:
            fig.add_annotation(x=x[int(np.median(cols))], y=y[int(np.median(rows))], showarrow=False,
                               text=f"<b>{caps_words([cap])}</b>" if cap else "",
                               font=dict(size=15, color="#111"), bgcolor="rgba(255,255,255,0.75)")
    if current is not None:
        fig.add_trace(go.Scatter(x=[_usd(current[0])], y=[_usd(current[1])], mode="markers",
                                 marker=dict(symbol="x", size=16, color="#e74c3c", line=dict(width=2)),
                                 name="This application", hovertemplate="This application<extra></extra>"))
    fig.update_xaxes(tickprefix="$", tickformat=",.0f")
    fig.update_yaxes(tickprefix="$", tickformat=",.0f")
    return _layout(fig, "Which cap binds where", f"{x_label} ($)", f"{y_label} ($)", height=620)


def _lead_cap(binding: str) -> str:
    return binding.split(";")[0] if binding else ""


def ranked_figure(names, awards, allocated, binding, rank, limit: int = 60) -> go.Figure:
    """Applications in priority order (top `limit`): maximum award coloured by its binding
    cap, and the allocation over it."""
    order = sorted(range(len(names)), key=lambda i: rank[i])[:limit]
    ys = [f"#{rank[i]} {label(names[i], 40)}" for i in order]
    fig = go.Figure()
    for cap in dict.fromkeys(_lead_cap(binding[i]) for i in order):
        idx = [k for k, i in enumerate(order) if _lead_cap(binding[i]) == cap]
        fig.add_trace(go.Bar(
            y=[ys[k] for k in idx], x=[_usd(awards[order[k]]) for k in idx], orientation="h", opacity=0.45,
            marker_color=CAP_COLORS.get(cap, "#999"), name=f"Maximum award ({CAP[cap].label})" if cap else "Maximum award",
            customdata=[fmt(awards[order[k]]) for k in idx],
            hovertemplate="%{y}<br>Maximum award %{customdata}<extra></extra>"))
    fig.add_trace(go.Bar(y=ys, x=[_usd(allocated[i]) for i in order], orientation="h", name="Allocated",
                         marker_color=AWARD, width=0.4, text=[fmt(allocated[i]) for i in order],
                         textposition="outside", cliponaxis=False,
                         hovertemplate="%{y}<br>Allocated %{text}<extra></extra>"))
    fig.update_layout(barmode="overlay")
    fig.update_yaxes(type="category", autorange="reversed", categoryorder="array", categoryarray=ys)
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee", rangemode="tozero")
    title = "Awards in priority order: maximum and allocated"
    if len(names) > limit:
        title += f" (the {limit} highest priorities of {len(names):,})"
    return _layout(fig, title, "Dollars", None, height=200 + 30 * len(order))


def cumulative_figure(names, allocated, rank, budget: int) -> go.Figure:
    """Running total of allocations in priority order against the budget line."""
    order = sorted(range(len(names)), key=lambda i: rank[i])
    running, total = [], 0
    for i in order:
        total += allocated[i]
        running.append(total)
    xs = list(range(1, len(order) + 1))
    fig = go.Figure(go.Scatter(x=xs, y=[_usd(v) for v in running], mode="lines+markers", name="Allocated so far",
                               line=dict(color=AWARD, width=3), text=[label(names[i]) for i in order],
                               hovertemplate="#%{x} %{text}<br>Running total %{y:$,.2f}<extra></extra>"))
    fig.add_hline(y=_usd(budget), line=dict(color=BINDING, dash="dash", width=2),
                  annotation_text=f"Budget {fmt(budget)}", annotation_position="top left")
    fig.update_xaxes(title_text="Priority rank", dtick=max(1, len(xs) // 20))
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee", rangemode="tozero")
    return _layout(fig, "Cumulative allocation against the budget", None, "Dollars", height=460)


def priority_figure(names, scores_, awards, binding) -> go.Figure:
    """Priority score against maximum award, coloured by binding cap."""
    fig = go.Figure()
    groups: dict[str, list[int]] = {}
    for i, b in enumerate(binding):
        groups.setdefault(_lead_cap(b), []).append(i)
    for cap, idx in groups.items():
        fig.add_trace(go.Scatter(
            x=[scores_[i] for i in idx], y=[_usd(awards[i]) for i in idx], mode="markers",
            name=CAP[cap].label.capitalize() if cap else "None", marker=dict(size=13, color=CAP_COLORS.get(cap, "#999"),
                                                                             line=dict(width=1, color="#333")),
            text=[label(names[i]) for i in idx],
            hovertemplate="%{text}<br>Score %{x:.3f}<br>Maximum award %{y:$,.2f}<extra></extra>"))
    fig.update_xaxes(range=[-0.05, 1.05], gridcolor="#eee")
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee", rangemode="tozero")
    return _layout(fig, "Priority against award", "Priority score (0 to 1)", "Maximum award ($)", height=460)
