"""Plotly figures as pure functions (data in, go.Figure out), shared by the pages and
the exported report so both draw the very same charts."""
from __future__ import annotations

import plotly.graph_objects as go

from core.award import Award
from core.fields import CAP, ROUTES
from core.money import fmt

BINDING = "#c0392b"      # a cap that holds the award down
SLACK = "#7f8c8d"        # a cap with headroom
AWARD = "#1f4e79"        # the State award
SOURCES = {"federal": ("Federal grant", "#2e86c1"), "state": ("State grant award", AWARD),
           "local": ("Local contribution", "#27ae60"), "gap": ("Funding gap", "#e67e22")}
FONT = dict(size=16)


def _usd(cents: int) -> float:
    return cents / 100  # display only: charts take numbers, the labels carry exact text


def _layout(fig: go.Figure, title: str, x_title: str | None = None, y_title: str | None = None, height=420):
    fig.update_layout(title=dict(text=title, font=dict(size=20)), font=FONT, height=height,
                      margin=dict(l=20, r=30, t=70, b=50), separators=".,", plot_bgcolor="white",
                      legend=dict(orientation="h", yanchor="bottom", y=-0.3))
    if x_title:
        fig.update_xaxes(title_text=x_title)
    if y_title:
        fig.update_yaxes(title_text=y_title)
    return fig


def headroom_figure(award: Award) -> go.Figure:
    """Each cap on the chosen route against the award; binding caps in red."""
    caps = list(award.caps.items())
    labels = [CAP[c].label.capitalize() for c, _ in caps]
    colors = [BINDING if c in award.binding else SLACK for c, _ in caps]
    text = [f"{fmt(v)}" + (" — binding" if c in award.binding else f" — {fmt(v - award.amount)} above the award")
            for c, v in caps]
    fig = go.Figure(go.Bar(
        x=[_usd(v) for _, v in caps], y=labels, orientation="h", marker_color=colors, text=text,
        textposition="auto", insidetextanchor="start", cliponaxis=False, name="Cap",
        hovertemplate="%{y}: %{text}<extra></extra>"))
    fig.add_vline(x=_usd(award.amount), line=dict(color=AWARD, width=3, dash="dash"),
                  annotation_text=f"Award {fmt(award.amount)}", annotation_position="top")
    fig.update_yaxes(autorange="reversed", gridcolor="#eee")
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee", rangemode="tozero")
    return _layout(fig, f"Headroom on every cap: {ROUTES[award.route]}", "Amount of the cap ($)", None,
                   height=120 + 60 * len(caps))


def waterfall_figure(award: Award) -> go.Figure:
    """From the cost of eligible work through each source of funds to the gap left."""
    f = award.funding
    cost = award.application.eligible_cost
    left = cost - f["federal"] - f["state"] - f["local"]
    end_label = "Funding gap" if left >= 0 else "Funded beyond the cost"
    steps = [("Cost of<br>eligible work", "absolute", cost), ("Federal<br>grant", "relative", -f["federal"]),
             ("State grant<br>award", "relative", -f["state"]), ("Local<br>contribution", "relative", -f["local"]),
             (end_label.replace(" ", "<br>", 1), "total", left)]
    fig = go.Figure(go.Waterfall(
        x=[s[0] for s in steps], measure=[s[1] for s in steps], y=[_usd(s[2]) for s in steps],
        text=[fmt(abs(s[2])) for s in steps], textposition="outside", cliponaxis=False,
        connector=dict(line=dict(color="#bbb")),
        increasing=dict(marker_color=SOURCES["gap"][1]), decreasing=dict(marker_color="#5dade2"),
        totals=dict(marker_color=AWARD if left == 0 else SOURCES["gap"][1]),
        hovertemplate="%{x}: %{text}<extra></extra>"))
    fig.update_xaxes(tickangle=0)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor="#eee", rangemode="tozero")
    return _layout(fig, "Where the money comes from", None, "Dollars")
