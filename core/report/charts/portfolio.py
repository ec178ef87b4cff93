"""The Portfolio's three charts (and its packet's): the applications in priority order with their
maximum and allocated awards, the running total against the budget, priority against award. Each
draws at most a few hundred marks, however large the portfolio."""
from __future__ import annotations

import plotly.graph_objects as go

from core.law.money import fmt
from core.law.provisions import CAP
from core.report.charts.colours import AWARD, BINDING, GRID, TEXT, cap_colour
from core.report.charts.layout import hatch, label, styled, usd

# How much of a portfolio each chart draws (and its table lists): a 20,000-row portfolio drew
# 20,000 points in two charts and 60,000 rows in their tables, which froze the browser (issue 30).
RANKED_LIMIT = 60       # bars: the highest priorities
POINTS_LIMIT = 200      # points of the cumulative line (every k-th rank) and of the priority scatter (the highest)


def in_rank_order(rank) -> list[int]:
    return sorted(range(len(rank)), key=lambda i: rank[i])


def every_kth(n: int, limit: int = POINTS_LIMIT) -> tuple[list[int], int]:
    """Positions 0..n-1 to draw when at most `limit` are drawn: every k-th, always the last; and k."""
    if n <= limit:
        return list(range(n)), 1
    k = -(-n // limit)
    picked = list(range(k - 1, n, k))
    if picked[-1] != n - 1:
        picked.append(n - 1)
    return picked, k


def highest(scores_, limit: int = POINTS_LIMIT) -> list[int]:
    """The `limit` highest scores' indices (ties: the earlier row), highest first."""
    return sorted(range(len(scores_)), key=lambda i: (-scores_[i], i))[:limit]


def _lead_cap(binding: str) -> str:
    return binding.split(";")[0] if binding else ""


def ranked_figure(names, awards, allocated, binding, rank, limit: int = RANKED_LIMIT, large: bool = False) -> go.Figure:
    """Applications in priority order (top `limit`): maximum award coloured by its binding
    cap, and the allocation over it."""
    order = in_rank_order(rank)[:limit]
    ys = [f"#{rank[i]} {label(names[i], 40)}" for i in order]
    fig = go.Figure()
    for cap in dict.fromkeys(_lead_cap(binding[i]) for i in order):
        idx = [k for k, i in enumerate(order) if _lead_cap(binding[i]) == cap]
        fig.add_trace(go.Bar(
            y=[ys[k] for k in idx], x=[usd(awards[order[k]]) for k in idx], orientation="h",
            marker=dict(color=cap_colour(cap), pattern=hatch([True] * len(idx), [cap_colour(cap)] * len(idx))),
            name=f"Maximum award, held down by {CAP[cap].label}" if cap else "Maximum award",
            customdata=[fmt(awards[order[k]]) for k in idx],
            # the label sits past the end of the longer bar, never over the other bar
            text=[f"{fmt(allocated[order[k]])} of {fmt(awards[order[k]])}" for k in idx], textposition="outside",
            cliponaxis=False, outsidetextfont=dict(color=TEXT),
            hovertemplate="%{y}<br>Maximum award %{customdata}<extra></extra>"))
    fig.add_trace(go.Bar(y=ys, x=[usd(allocated[i]) for i in order], orientation="h", name="Allocated",
                         marker=dict(color=AWARD, line=dict(color="white", width=2)), width=0.4,
                         customdata=[fmt(allocated[i]) for i in order],
                         hovertemplate="%{y}<br>Allocated %{customdata}<extra></extra>"))
    fig.update_layout(barmode="overlay")
    fig.update_yaxes(type="category", autorange="reversed", categoryorder="array", categoryarray=ys)
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero",
                     range=[0, usd(max([awards[i] for i in order] + [1])) * 1.45])   # room for "$x of $y"
    title = "Awards in priority order: maximum and allocated"
    if len(names) > limit:
        title += f" (the {limit} highest priorities of {len(names):,})"
    return styled(fig, title, "Dollars", None, height=200 + (40 if large else 30) * len(order), large=large)


def cumulative_figure(names, allocated, rank, budget: int, large: bool = False, limit: int = POINTS_LIMIT) -> go.Figure:
    """Running total of allocations in priority order against the budget line (at most `limit`
    points: every k-th rank of a large portfolio, and the last)."""
    order = in_rank_order(rank)
    running, total = [], 0
    for i in order:
        total += allocated[i]
        running.append(total)
    picked, k = every_kth(len(order), limit)
    xs = [p + 1 for p in picked]
    fig = go.Figure(go.Scatter(x=xs, y=[usd(running[p]) for p in picked], mode="lines+markers",
                               name="Allocated so far", line=dict(color=AWARD, width=3),
                               text=[label(names[order[p]]) for p in picked],
                               hovertemplate="#%{x} %{text}<br>Running total %{y:$,.2f}<extra></extra>"))
    fig.add_hline(y=usd(budget), line=dict(color=BINDING, dash="dash", width=2),
                  annotation_text=f"Budget {fmt(budget)}", annotation_position="top left",
                  annotation_font=dict(color=BINDING))
    fig.update_xaxes(title_text="Priority rank", dtick=max(1, -(-len(order) // 8)))   # ticks that do not touch
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero")
    title = "Cumulative allocation against the budget"
    if k > 1:
        title += f" (a point every {k} ranks, of {len(order):,})"
    return styled(fig, title, None, "Dollars", height=460, large=large)


def priority_figure(names, scores_, awards, binding, large: bool = False, limit: int = POINTS_LIMIT) -> go.Figure:
    """Priority score against maximum award, coloured by binding cap (the `limit` highest priorities)."""
    fig = go.Figure()
    groups: dict[str, list[int]] = {}
    for i in sorted(highest(scores_, limit)):
        groups.setdefault(_lead_cap(binding[i]), []).append(i)
    for cap, idx in groups.items():
        fig.add_trace(go.Scatter(
            x=[scores_[i] for i in idx], y=[usd(awards[i]) for i in idx], mode="markers",
            name=CAP[cap].title if cap else "None",
            marker=dict(size=16 if large else 13, color=cap_colour(cap), line=dict(width=1.5, color="white")),
            text=[label(names[i]) for i in idx],
            hovertemplate="%{text}<br>Score %{x:.3f}<br>Maximum award %{y:$,.2f}<extra></extra>"))
    fig.update_xaxes(range=[-0.05, 1.05], gridcolor=GRID)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero")
    title = "Priority against award"
    if len(names) > limit:
        title += f" (the {limit} highest priorities of {len(names):,})"
    return styled(fig, title, "Priority score (0 to 1)", "Maximum award ($)", height=460, large=large)
