"""Compare's three charts (and the report's comparison): each scenario's award against every limit
on its route, the sources of funds stacked per scenario, and the change from the baseline."""
from __future__ import annotations

import plotly.graph_objects as go

from core.law.award import Award
from core.law.money import fmt
from core.law.provisions import CAP, Cap
from core.report.charts.colours import AWARD, GRID, SOURCES, TEXT, cap_colour
from core.report.charts.layout import FONT, LARGE, label, styled, usd, user_text


def compare_caps_figure(named: list[tuple[str, Award]], large: bool = False, focus: str | None = None,
                        height: int | None = None) -> go.Figure:
    """Each scenario's award (bar) against every cap on its route (markers). Each cap has its
    own row inside the scenario's band, so two caps at one value never hide each other; each
    award's amount stands in a column at the right of the plot, on its bar's row, away from the
    markers and the names. `focus` (a scenario's name: the one presented) is outlined and its
    name set in bold; `height` (pixels) overrides the height the rows ask for."""
    caps = [c for c in CAP.values() if any(c.id in a.caps for _, a in named)]
    offsets = {c.id: (k - (len(caps) - 1) / 2) * (0.6 / max(len(caps) - 1, 1)) for k, c in enumerate(caps)}
    ys = list(range(len(named)))
    fig = go.Figure(go.Bar(y=ys, x=[usd(a.amount) for _, a in named], orientation="h", name="State grant award",
                           marker=dict(color=AWARD, line=dict(color=TEXT, width=[4 if n == focus else 0
                                                                                 for n, _ in named])),
                           width=0.75,
                           customdata=[[label(n, 24), fmt(a.amount)] for n, a in named],
                           hovertemplate="%{customdata[0]}: award %{customdata[1]}<extra></extra>"))
    for cap in caps:
        fig.add_trace(_cap_markers(named, cap, offsets[cap.id], 18 if large else 13))
    top = max([a.amount for _, a in named] + [v for _, a in named for v in a.caps.values()] + [1])
    right = _amount_column(fig, named, ys, large)
    ticks = [f"<b>{label(n, 24)}</b>" if n == focus else label(n, 24) for n, _ in named]
    fig.update_yaxes(autorange="reversed", tickmode="array", tickvals=ys, ticktext=ticks,
                     range=[len(named) - 0.5, -0.5], zeroline=False, showgrid=False)
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero",
                     range=[0, usd(top) * 1.08])
    fig = styled(fig, "Award against every limit, by scenario", "Dollars", None,
                 height=170 + (90 if large else 70) * len(named), large=large)
    fig.update_layout(margin_r=right)
    if height:
        _on_a_screen(fig, height, large)
    return fig


def _cap_markers(named: list[tuple[str, Award]], cap: Cap, offset: float, size: int) -> go.Scatter:
    """One cap's markers, in its colour and symbol (the registry's), on its own row in each band."""
    rows = [(i, a.caps[cap.id], cap.id in a.binding) for i, (_, a) in enumerate(named) if cap.id in a.caps]
    return go.Scatter(
        y=[r[0] + offset for r in rows], x=[usd(r[1]) for r in rows], mode="markers",
        name=cap.title,
        marker=dict(symbol=cap.marker, size=size, color=cap_colour(cap.id), line=dict(width=1.5, color="white")),
        text=[fmt(r[1]) + (" (holds it down)" if r[2] else "") for r in rows],
        customdata=[label(named[r[0]][0], 24) for r in rows],
        hovertemplate=f"%{{customdata}}: {cap.label} %{{text}}<extra></extra>")


def _amount_column(fig: go.Figure, named: list[tuple[str, Award]], ys: list[int], large: bool) -> int:
    """Each award's amount in a column of its own at the right of the plot, on its bar's row, in the
    bar's colour: every amount in one place, however short its bar (issue 51: a short bar's amount
    set under its name read as part of the name; inside a bar or at its end it met the markers).
    Returns the right margin that holds the widest amount (bold: about 0.62 em a character) at the type used."""
    type_px = (LARGE if large else FONT)["size"]
    amounts = [fmt(a.amount) for _, a in named]
    for y, amount in zip(ys, amounts):
        fig.add_annotation(x=1, xref="paper", xanchor="left", xshift=10, y=y, yref="y", yanchor="middle",
                           text=f"<b>{amount}</b>", showarrow=False, font=dict(color=AWARD),
                           name="award amount")
    return 20 + round(max(len(t) for t in amounts) * 0.62 * type_px)


def _on_a_screen(fig: go.Figure, height: int, large: bool) -> None:
    """A set height (a screen of its own): two legend entries a row, short ticks ($200k). Each entry
    as wide as its words, as many to a row as fit (a share of the plot's width overlapped once long
    names on the axis narrowed it); Plotly makes room for more rows."""
    rows = -(-len(fig.data) // 2)
    fig.update_layout(height=height, legend_entrywidthmode="pixels", legend_entrywidth=0,
                      margin_t=fig.layout.margin.t - (30 if large else 20) * (len(fig.data) - rows))
    fig.update_xaxes(tickformat="~s", nticks=6, tickangle=0)


def funding_figure(named: list[tuple[str, Award]], large: bool = False) -> go.Figure:
    """Sources of funds stacked per scenario: federal, State, local, and the gap left."""
    names = [label(n) for n, _ in named]
    fig = go.Figure()
    for key, (source, color) in SOURCES.items():
        values = [a.funding[key] for _, a in named]
        top = key == "gap"   # the last of the stack: its label above the bar, where a thin one has no room inside
        fig.add_trace(go.Bar(x=names, y=[usd(v) for v in values], name=source,
                             marker=dict(color=color, line=dict(color="white", width=1.5)),
                             text=[fmt(v) if v else "" for v in values], textposition="outside" if top else "inside",
                             insidetextfont=dict(color="white"), outsidetextfont=dict(color=TEXT), cliponaxis=False,
                             hovertemplate=f"%{{x}}: {source} %{{text}}<extra></extra>"))
    fig.update_layout(barmode="stack")
    fig.update_xaxes(type="category", tickangle=0)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID)
    return styled(fig, "Sources of funds by scenario", None, "Dollars", height=480, large=large)


def change_figure(named: list[tuple[str, Award]], baseline: str, large: bool = False) -> go.Figure:
    """Change in the award and in the funding gap from the baseline scenario."""
    base = dict(named)[baseline]
    others = [(n, a) for n, a in named if n != baseline]
    names = [label(n) for n, _ in others]
    fig = go.Figure()
    for what, get, color in (("Change in State award", lambda a: a.amount - base.amount, AWARD),
                              ("Change in funding gap", lambda a: a.funding_gap - base.funding_gap, SOURCES["gap"][1])):
        values = [get(a) for _, a in others]
        fig.add_trace(go.Bar(x=names, y=[usd(v) for v in values], name=what, marker_color=color,
                             text=[("+" if v > 0 else "") + fmt(v) for v in values], textposition="outside",
                             cliponaxis=False, outsidetextfont=dict(color=TEXT),
                             hovertemplate=f"%{{x}}: {what} %{{text}}<extra></extra>"))
    fig.update_layout(barmode="group")
    fig.update_xaxes(type="category", tickangle=0)
    fig.update_yaxes(tickformat="$,.0f", gridcolor=GRID, zeroline=True, zerolinecolor="#555")   # -$200,000
    return styled(fig, f"Change from the baseline: {user_text(baseline)}", None, "Dollars", height=460, large=large)
