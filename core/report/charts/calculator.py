"""The Calculator's two charts (and the report's, for each scenario): the headroom under every
limit on the route, each cap in its own colour, and the waterfall from the cost of eligible work
through each source of funds to the gap left."""
from __future__ import annotations

import textwrap

import plotly.graph_objects as go

from core.law.award import Award
from core.law.money import fmt
from core.law.provisions import CAP, ROUTES
from core.report.charts.colours import AWARD, COST, SOURCE_COLORS, SOURCES, TEXT, cap_colour
from core.report.charts.layout import FONT, LARGE, hatch, layout_dict, money_axis, usd


def headroom_figure(award: Award, validate: bool = True, large: bool = False,
                    as_dict: bool = False) -> go.Figure | dict:
    """Each cap on the chosen route against the award, in the cap's own colour; binding caps
    hatched and labelled "holds it down". validate=False skips Plotly's checks (a third of the cost,
    redrawn on every slider move); a property test shows the unchecked figure is the very same."""
    caps = list(award.caps.items())
    # The headroom (and "holds it down") on a line of its own: on one line the longest bar's label
    # ran past a narrow column's edge and was cut ("$1,500,000 (+$1,000,0", "$600,000, holds it dow").
    text = [f"{fmt(v)}<br>holds it down" if c in award.binding else f"{fmt(v)}<br>(+{fmt(v - award.amount)})"
            for c, v in caps]
    top = max(v for _, v in caps)
    layout = layout_dict(f"Headroom under every limit: {ROUTES[award.route]}", "Amount of the limit ($)", None,
                         120 + 60 * len(caps), legend=False, large=large)
    layout["xaxis"] |= money_axis(range=[0, usd(top) * (1.9 if large else 1.6) or 1], rangemode="tozero",
                                  nticks=5, tickangle=0, tickformat="~s")   # $200k: room between ticks
    layout["yaxis"] |= dict(autorange="reversed")
    layout["shapes"] = [dict(type="line", xref="x", yref="paper", x0=usd(award.amount), x1=usd(award.amount),
                             y0=0, y1=1, line=dict(color=AWARD, width=3, dash="dash"))]
    layout["annotations"] = [dict(x=usd(award.amount), y=1, xref="x", yref="paper", yanchor="bottom",
                                  showarrow=False, text=f"Award {fmt(award.amount)}",
                                  font=dict(color=AWARD, size=(LARGE if large else FONT)["size"]))]
    colours = [cap_colour(c) for c, _ in caps]
    bar = dict(type="bar", x=[usd(v) for _, v in caps], y=[CAP[c].title for c, _ in caps],
               orientation="h",
               marker=dict(color=colours, line=dict(color=TEXT, width=1),
                           pattern=hatch([c in award.binding for c, _ in caps], list(colours))),
               text=text, textposition="outside", cliponaxis=False, name="Limit",
               outsidetextfont=dict(color=TEXT), hovertemplate="%{y}: %{text}<extra></extra>")
    spec = dict(data=[bar], layout=layout)   # as_dict: the figure's data and layout, for core.report.plotly_send
    return spec if as_dict else go.Figure(**spec, _validate=validate)


def waterfall_steps(award: Award) -> list[tuple[str, str, int, int]]:
    """(label, colour key, base, amount) in cents for each bar: the cost, each source of funds
    taken off it, and the gap left (or the funding beyond the cost, drawn below zero)."""
    f = award.funding
    cost = award.application.eligible_cost
    steps, level = [("Cost of eligible work", "cost", 0, cost)], cost
    for key in (k for k in f if k != "gap"):   # each source of funds, in the funding plan's order
        steps.append((SOURCES[key][0], key, level - f[key], f[key]))
        level -= f[key]
    steps.append(("Funding gap" if level >= 0 else "Funded beyond the cost", "gap", min(level, 0), abs(level)))
    return steps


def waterfall_figure(award: Award, validate: bool = True, large: bool = False,
                     as_dict: bool = False, across: bool = False) -> go.Figure | dict:
    """From the cost of eligible work through each source of funds to the gap left, each
    bar in its source's own colour (the same as on Compare, in the report and the PDF)
    (validate as for headroom_figure). `across`: the bars run left to right, one under the other,
    for a half-page column of the PDF packet (five columns of "$1,450,000" did not fit in it)."""
    steps = waterfall_steps(award)
    colors = [COST if k == "cost" else SOURCE_COLORS[k] for _, k, _, _ in steps]
    top = max(s[2] + s[3] for s in steps)
    low = usd(min(0, min(s[2] for s in steps)))
    names = ["<br>".join(textwrap.wrap(s[0], 16 if across else 9, break_long_words=False)) for s in steps]
    trace = dict(type="bar", base=[usd(s[2]) for s in steps],
                 marker=dict(color=colors, line=dict(color="white", width=1)), name="Funds",
                 text=[fmt(s[3]) for s in steps], textangle=0, cliponaxis=False, constraintext="none",
                 textposition="outside",   # beside each bar: a label inside a thin bar was cut
                 insidetextfont=dict(color="white"), outsidetextfont=dict(color=TEXT))
    if across:
        layout = layout_dict("Where the money comes from", "Dollars", None, 300, legend=False, large=large)
        layout["yaxis"] |= dict(type="category", autorange="reversed")
        layout["xaxis"] |= money_axis(range=[low, usd(top) * 1.6 or 1], nticks=4, tickformat="~s")
        trace |= dict(orientation="h", y=names, x=[usd(s[3]) for s in steps],
                      hovertemplate="%{y}: %{text}<extra></extra>")
    else:
        layout = layout_dict("Where the money comes from", None, "Dollars", 420, legend=False, large=large)
        layout["xaxis"] |= dict(tickangle=0, type="category")
        layout["yaxis"] |= money_axis(range=[low, usd(top) * 1.12 or 1])
        trace |= dict(x=names, y=[usd(s[3]) for s in steps], hovertemplate="%{x}: %{text}<extra></extra>")
    spec = dict(data=[trace], layout=layout)
    return spec if as_dict else go.Figure(**spec, _validate=validate)
