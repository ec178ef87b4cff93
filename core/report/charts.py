"""Plotly figures as pure functions (data in, go.Figure out), shared by the pages and
the exported report so both draw the very same charts."""
from __future__ import annotations

import textwrap

import plotly.graph_objects as go

from core.law.award import Award
from core.law.fields import FUNDING_PLAN
from core.law.provisions import CAP, CAPS, ROUTES
from core.law.money import fmt
from core.law.names import visible

# One colour per source of funds and per cap, on every page, in the report and in the PDF.
# Each is at least 4.5:1 against white (so white labels inside the bars read, and the bars
# stand out 3:1 from the page); binding is never shown by colour alone: it is written out
# ("holds it down") and drawn hatched.
AWARD = "#1f4e79"        # the State award (navy, 8.7:1)
COST = "#4a4a4a"         # the cost of eligible work (8.9:1)
# The sources are the field table's (`funds`, core/law/fields.py) in the funding plan's order
# (core.law.award.funding_plan), each labelled as its field; a source without a colour here takes
# the next of EXTRA_SOURCE_COLORS.
SOURCE_COLOR = {"federal": "#00707a", "state": AWARD, "local": "#1e7b45", "gap": "#b35900"}
EXTRA_SOURCE_COLORS = ("#6a3d9a", "#7a5c00", "#2f4f6f")   # each at least 4.5:1 on white
_extra = iter(EXTRA_SOURCE_COLORS)
SOURCES = {key: (label, SOURCE_COLOR.get(key) or next(_extra)) for key, label, _ in FUNDING_PLAN} | {
    "gap": ("Funding gap", SOURCE_COLOR["gap"])}
SOURCE_COLORS = {key: color for key, (_, color) in SOURCES.items()}
CAP_COLORS = {c.id: c.colour for c in CAPS}   # from the registry, core/law/provisions.toml
BINDING = CAP_COLORS["program_max"]   # the budget line and other "a limit here" marks
SLACK = "#555555"
TEXT = "#222222"         # chart text, 15.9:1 (Streamlit's theme drew it #808495, 3.7:1)
GRID = "#e6e6e6"
FONT = dict(size=14, color=TEXT)
OVERLAYS = ["#222222", "#8a4b00", "#3b5b92"]   # other rulesets' dashed curves (each 4.5:1 or more)
# Okabe and Ito's palette, whose colours stay apart for colour-blind readers (deuteranopia,
# protanopia, tritanopia): the lines of a chart, one colour each (Sensitivity's curve, by the cap
# that holds the award there). The registry's colours (CAP_COLORS, 4.5:1 on white) stay for bars and text.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")
_ORANGE, _SKY, _GREEN, _YELLOW, _BLUE, _VERMILLION, _PINK, _BLACK = OKABE_ITO
# The caps most often seen together on one curve get the colours furthest apart; yellow, faint on
# white, goes to the request, a cap seldom on a curve with others.
LINE_COLORS = {"program_max": _VERMILLION, "cost_share": _BLUE, "local_match": _GREEN, "funding_need": _ORANGE,
               "property_value": _PINK, "full_cost": _BLACK, "prior_grant_room": _SKY, "requested_amount": _YELLOW}
LARGE = dict(size=22, color=TEXT)       # presentation mode: type a room can read


# The PDF packet's static charts (core.report.html with static=True) are drawn at the width they
# are printed: the 7.5-inch column of a Letter page (96 px an inch), or half of it for two charts
# side by side, so one px of the drawing is 0.75 pt on paper. Drawn 1000 px wide and scaled down,
# their type came out near 6.5 pt. Every size is set here, none left to a default: 13 px is 9.75 pt.
PRINT_WIDTH = 700        # one chart across the column
PRINT_HALF = 344         # two side by side, a 16 px gap between them
PRINT_TEXT = 13          # ticks, axis titles, legends, bar labels, annotations
PRINT_TITLE = 16         # 12 pt
LEGEND_THIRD = 18         # characters of a legend entry that fit a third of the printed column at PRINT_TEXT
PRINT_HEIGHT = {PRINT_WIDTH: 360, PRINT_HALF: 300}   # with its words, well under half a page (10 in, 960 px)


def for_print(fig: go.Figure, width: int = PRINT_WIDTH) -> go.Figure:
    """The figure for paper: `width` px wide, its type at the PRINT_ sizes, its title wrapped to
    that width, a label that would have to shrink below PRINT_TEXT - 1 hidden rather than drawn
    unreadably (its number is in the chart's words and the tables), and no taller than
    PRINT_HEIGHT unless it needs the room (many scenarios: a fifth shorter)."""
    height = int(fig.layout.height or 420)
    height = min(height, PRINT_HEIGHT[width]) if height <= 480 else round(height * 0.8)
    title = fig.layout.title.text or ""
    before = title.count("<br>") + 1
    lines = textwrap.wrap(title.replace("<br>", " "), int(width / (PRINT_TITLE * 0.56)), break_long_words=False)
    top = (fig.layout.margin.t or 80) + 20 * (max(len(lines), 1) - before)   # room for the lines added
    fig.update_layout(width=width, height=height, font=dict(size=PRINT_TEXT), margin=dict(t=top),
                      title=dict(text="<br>".join(lines), font=dict(size=PRINT_TITLE)),
                      legend=dict(font=dict(size=PRINT_TEXT)), uniformtext=dict(minsize=PRINT_TEXT - 1, mode="hide"))
    axis = dict(tickfont=dict(size=PRINT_TEXT), title=dict(font=dict(size=PRINT_TEXT)))
    fig.update_xaxes(**axis)
    fig.update_yaxes(**axis)
    if width == PRINT_HALF:
        fig.update_xaxes(nticks=4)   # "$0 $200k $400k $600k $800k" touched at half width
    named = [t.name or "" for t in fig.data if t.showlegend is not False and t.type not in ("heatmap", "contour")]
    entries = len(named)
    if fig.layout.showlegend and width == PRINT_WIDTH and entries > 2:
        # three entries a line across the column, not one (six lines took a third of a chart); two
        # where a name would not fit a third ("State's share of the cost" was cut to "...of the c")
        per_line = 3 if max(len(n) for n in named) <= LEGEND_THIRD else 2
        lines = -(-entries // per_line)
        fig.update_layout(legend=dict(entrywidth=1 / per_line), margin=dict(t=top - 20 * (entries - lines)))
    fig.update_annotations(font=dict(size=PRINT_TEXT))
    fig.update_traces(textfont=dict(size=PRINT_TEXT), selector=lambda t: "textfont" in t)
    return fig


def _hatch(on: list[bool], colors: list[str]) -> dict:
    """White stripes over the bar's own colour where `on`: binding caps are marked by more
    than their colour, and the colour underneath stays the cap's own."""
    return dict(shape=["/" if x else "" for x in on], bgcolor=colors, fgcolor="white", fgopacity=0.55,
                size=10, solidity=0.3, fillmode="overlay")


def _title(text: str, large: bool) -> tuple[str, int]:
    """The title wrapped to fit a half-page column (it was cut at 1280 px), and its line count."""
    lines = textwrap.wrap(text, 30 if large else 46) or [""]
    return "<br>".join(lines), len(lines)


def _usd(cents: int) -> float:
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


def _layout_dict(title: str, x_title: str | None, y_title: str | None, height: int, legend: bool | int,
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


def _layout(fig: go.Figure, title: str, x_title: str | None = None, y_title: str | None = None, height=420,
            large: bool = False):
    fig.update_layout(_layout_dict(title, x_title, y_title, height,
                                   legend=sum(1 for t in fig.data if t.showlegend is not False
                                              and t.type not in ("heatmap", "contour")), large=large))
    return fig


def _money_axis(**extra) -> dict:
    return dict(tickprefix="$", tickformat=",.0f", gridcolor=GRID, automargin=True) | extra


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
    layout = _layout_dict(f"Headroom under every limit: {ROUTES[award.route]}", "Amount of the limit ($)", None,
                          120 + 60 * len(caps), legend=False, large=large)
    layout["xaxis"] |= _money_axis(range=[0, _usd(top) * (1.9 if large else 1.6) or 1], rangemode="tozero",
                                   nticks=5, tickangle=0, tickformat="~s")   # $200k: room between ticks
    layout["yaxis"] |= dict(autorange="reversed")
    layout["shapes"] = [dict(type="line", xref="x", yref="paper", x0=_usd(award.amount), x1=_usd(award.amount),
                             y0=0, y1=1, line=dict(color=AWARD, width=3, dash="dash"))]
    layout["annotations"] = [dict(x=_usd(award.amount), y=1, xref="x", yref="paper", yanchor="bottom",
                                  showarrow=False, text=f"Award {fmt(award.amount)}",
                                  font=dict(color=AWARD, size=(LARGE if large else FONT)["size"]))]
    bar = dict(type="bar", x=[_usd(v) for _, v in caps], y=[CAP[c].title for c, _ in caps],
               orientation="h",
               marker=dict(color=[CAP_COLORS.get(c, SLACK) for c, _ in caps], line=dict(color=TEXT, width=1),
                           pattern=_hatch([c in award.binding for c, _ in caps],
                                          [CAP_COLORS.get(c, SLACK) for c, _ in caps])),
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
    low = _usd(min(0, min(s[2] for s in steps)))
    names = ["<br>".join(textwrap.wrap(s[0], 16 if across else 9, break_long_words=False)) for s in steps]
    trace = dict(type="bar", base=[_usd(s[2]) for s in steps],
                 marker=dict(color=colors, line=dict(color="white", width=1)), name="Funds",
                 text=[fmt(s[3]) for s in steps], textangle=0, cliponaxis=False, constraintext="none",
                 textposition="outside",   # beside each bar: a label inside a thin bar was cut
                 insidetextfont=dict(color="white"), outsidetextfont=dict(color=TEXT))
    if across:
        layout = _layout_dict("Where the money comes from", "Dollars", None, 300, legend=False, large=large)
        layout["yaxis"] |= dict(type="category", autorange="reversed")
        layout["xaxis"] |= _money_axis(range=[low, _usd(top) * 1.6 or 1], nticks=4, tickformat="~s")
        trace |= dict(orientation="h", y=names, x=[_usd(s[3]) for s in steps],
                      hovertemplate="%{y}: %{text}<extra></extra>")
    else:
        layout = _layout_dict("Where the money comes from", None, "Dollars", 420, legend=False, large=large)
        layout["xaxis"] |= dict(tickangle=0, type="category")
        layout["yaxis"] |= _money_axis(range=[low, _usd(top) * 1.12 or 1])
        trace |= dict(x=names, y=[_usd(s[3]) for s in steps], hovertemplate="%{x}: %{text}<extra></extra>")
    spec = dict(data=[trace], layout=layout)
    return spec if as_dict else go.Figure(**spec, _validate=validate)


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
    fig = go.Figure(go.Bar(y=ys, x=[_usd(a.amount) for _, a in named], orientation="h", name="State grant award",
                           marker=dict(color=AWARD, line=dict(color=TEXT, width=[4 if n == focus else 0
                                                                                 for n, _ in named])),
                           width=0.75,
                           customdata=[[label(n, 24), fmt(a.amount)] for n, a in named],
                           hovertemplate="%{customdata[0]}: award %{customdata[1]}<extra></extra>"))
    size = 18 if large else 13
    for cap in caps:
        rows = [(i, a.caps[cap.id], cap.id in a.binding) for i, (_, a) in enumerate(named) if cap.id in a.caps]
        fig.add_trace(go.Scatter(
            y=[r[0] + offsets[cap.id] for r in rows], x=[_usd(r[1]) for r in rows], mode="markers",
            name=cap.title,
            marker=dict(symbol=cap.marker, size=size, color=CAP_COLORS.get(cap.id, SLACK),
                        line=dict(width=1.5, color="white")),
            text=[fmt(r[1]) + (" (holds it down)" if r[2] else "") for r in rows],
            customdata=[label(named[r[0]][0], 24) for r in rows],
            hovertemplate=f"%{{customdata}}: {cap.label} %{{text}}<extra></extra>"))
    top = max([a.amount for _, a in named] + [v for _, a in named for v in a.caps.values()] + [1])
    # Each award's amount in a column of its own at the right of the plot, on its bar's row, in the
    # bar's colour: every amount in one place, however short its bar (issue 51: a short bar's amount
    # set under its name read as part of the name; inside a bar or at its end it met the markers).
    # The margin holds the widest amount (bold: about 0.62 em a character) at the type used.
    type_px = (LARGE if large else FONT)["size"]
    amounts = [fmt(a.amount) for _, a in named]
    for y, amount in zip(ys, amounts):
        fig.add_annotation(x=1, xref="paper", xanchor="left", xshift=10, y=y, yref="y", yanchor="middle",
                           text=f"<b>{amount}</b>", showarrow=False, font=dict(color=AWARD),
                           name="award amount")
    right = 20 + round(max(len(t) for t in amounts) * 0.62 * type_px)
    ticks = [f"<b>{label(n, 24)}</b>" if n == focus else label(n, 24) for n, _ in named]
    fig.update_yaxes(autorange="reversed", tickmode="array", tickvals=ys, ticktext=ticks,
                     range=[len(named) - 0.5, -0.5], zeroline=False, showgrid=False)
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero",
                     range=[0, _usd(top) * 1.08])
    fig = _layout(fig, "Award against every limit, by scenario", "Dollars", None,
                  height=170 + (90 if large else 70) * len(named), large=large)
    fig.update_layout(margin_r=right)
    if height:   # a set height (a screen of its own): two legend entries a row, short ticks ($200k)
        rows = -(-len(fig.data) // 2)
        # each entry as wide as its words, as many to a row as fit (a share of the plot's width
        # overlapped once long names on the axis narrowed it); Plotly makes room for more rows
        fig.update_layout(height=height, legend_entrywidthmode="pixels", legend_entrywidth=0,
                          margin_t=fig.layout.margin.t - (30 if large else 20) * (len(fig.data) - rows))
        fig.update_xaxes(tickformat="~s", nticks=6, tickangle=0)
    return fig


def funding_figure(named: list[tuple[str, Award]], large: bool = False) -> go.Figure:
    """Sources of funds stacked per scenario: federal, State, local, and the gap left."""
    names = [label(n) for n, _ in named]
    fig = go.Figure()
    for key, (source, color) in SOURCES.items():
        values = [a.funding[key] for _, a in named]
        top = key == "gap"   # the last of the stack: its label above the bar, where a thin one has no room inside
        fig.add_trace(go.Bar(x=names, y=[_usd(v) for v in values], name=source,
                             marker=dict(color=color, line=dict(color="white", width=1.5)),
                             text=[fmt(v) if v else "" for v in values], textposition="outside" if top else "inside",
                             insidetextfont=dict(color="white"), outsidetextfont=dict(color=TEXT), cliponaxis=False,
                             hovertemplate=f"%{{x}}: {source} %{{text}}<extra></extra>"))
    fig.update_layout(barmode="stack")
    fig.update_xaxes(type="category", tickangle=0)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID)
    return _layout(fig, "Sources of funds by scenario", None, "Dollars", height=480, large=large)


def change_figure(named: list[tuple[str, Award]], baseline: str, large: bool = False) -> go.Figure:
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
                             cliponaxis=False, outsidetextfont=dict(color=TEXT),
                             hovertemplate=f"%{{x}}: {what} %{{text}}<extra></extra>"))
    fig.update_layout(barmode="group")
    fig.update_xaxes(type="category", tickangle=0)
    fig.update_yaxes(tickformat="$,.0f", gridcolor=GRID, zeroline=True, zerolinecolor="#555")   # -$200,000
    return _layout(fig, f"Change from the baseline: {user_text(baseline)}", None, "Dollars", height=460, large=large)


def sweep_figure(curves: list, field_label: str, current: int | None = None, large: bool = False) -> go.Figure:
    """Award against one input. `curves`: [(name, Sweep)], the first drawn in segments
    coloured by the binding cap, the others (variants) as dashed overlays."""
    from core.law.analysis import binds, caps_words, first_up

    fig = go.Figure()
    shown = set()
    for k, (name, sw) in enumerate(curves):
        pts = sw.points
        if k == 0:
            for x0, a0, x1, a1, cap in sw.segments:
                key = ";".join(cap)   # one legend entry per binding set: its words match the breakpoint list
                fig.add_trace(go.Scatter(
                    x=[_usd(x0), _usd(x1)], y=[_usd(a0), _usd(a1)], mode="lines",
                    line=dict(color=LINE_COLORS.get(cap[0], TEXT), width=7 if large else 5),
                    name=f"{first_up(caps_words(cap))} {binds(cap)}", legendgroup=key, showlegend=key not in shown,
                    hovertemplate=f"{field_label} %{{x:$,.2f}}: award %{{y:$,.2f}} ({caps_words(cap)})<extra></extra>"))
                shown.add(key)
            for bp in sw.breakpoints:
                fig.add_trace(go.Scatter(x=[_usd(bp.value)], y=[_usd(bp.award)], mode="markers",
                                         marker=dict(size=14 if large else 10, color=TEXT), showlegend=False,
                                         hovertemplate=f"{fmt(bp.value)}: {caps_words(bp.binding_after)} "
                                                       f"{binds(bp.binding_after)}"
                                                       "<extra></extra>"))
        else:
            fig.add_trace(go.Scatter(x=[_usd(p[0]) for p in pts], y=[_usd(p[1]) for p in pts], mode="lines",
                                     line=dict(width=3, dash="dash", color=OVERLAYS[(k - 1) % len(OVERLAYS)]),
                                     name=user_text(name),   # the name in the template by reference: a
                                     hovertemplate="%{fullData.name}: award %{y:$,.2f}<extra></extra>"))  # %{ in it stays text
    if current is not None:
        fig.add_vline(x=_usd(current), line=dict(color="#555", dash="dot", width=2))
        # On its line, not beside it: centred on the line's x, on white so the dotted line runs into
        # the label and out of it; inside the plot (above it, it covered the legend there: "The program
        # maximum holds the award" cut off), at the bottom where the curve is high there, else the top.
        level = next((a0 + (a1 - a0) * (current - x0) / (x1 - x0) if x1 != x0 else a1
                      for x0, a0, x1, a1, _ in curves[0][1].segments if x0 <= current <= x1), 0) if curves else 0
        top_award = max((p[1] for _, sw in curves for p in sw.points), default=0)
        low = level * 2 > top_award
        fig.add_annotation(x=_usd(current), xref="x", y=0 if low else 1, yref="paper", xanchor="center",
                           yanchor="bottom" if low else "top",
                           text=f"Now: {fmt(current)}", showarrow=False, bgcolor="white", bordercolor="#555",
                           borderwidth=1, borderpad=3, font=dict(color=TEXT), name="now")
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero")
    return _layout(fig, f"State grant award as the {field_label.lower()} changes", f"{field_label} ($)",
                   "State grant award ($)", height=520, large=large)


def map_figure(xs, ys, award, binding, x_label: str, y_label: str, current=None, large: bool = False) -> go.Figure:
    """The award over two inputs as a heatmap, regions where each cap binds outlined and labelled."""
    import numpy as np

    from core.law.analysis import caps_words

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
                      "<br>Held down by %{customdata}<extra></extra>"))
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
                               font=dict(size=22 if large else 15, color="#111"), bgcolor="rgba(255,255,255,0.85)")
    if current is not None:
        fig.add_trace(go.Scatter(x=[_usd(current[0])], y=[_usd(current[1])], mode="markers",
                                 marker=dict(symbol="x", size=16, color=CAP_COLORS["program_max"],
                                             line=dict(width=2, color="white")),
                                 name="This application", hovertemplate="This application<extra></extra>"))
    fig.update_xaxes(tickprefix="$", tickformat=",.0f")
    fig.update_yaxes(tickprefix="$", tickformat=",.0f")
    return _layout(fig, "Which limit holds the award down where", f"{x_label} ($)", f"{y_label} ($)", height=620, large=large)


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
            y=[ys[k] for k in idx], x=[_usd(awards[order[k]]) for k in idx], orientation="h",
            marker=dict(color=CAP_COLORS.get(cap, SLACK),
                        pattern=_hatch([True] * len(idx), [CAP_COLORS.get(cap, SLACK)] * len(idx))), name=f"Maximum award, held down by {CAP[cap].label}" if cap else "Maximum award",
            customdata=[fmt(awards[order[k]]) for k in idx],
            # the label sits past the end of the longer bar, never over the other bar
            text=[f"{fmt(allocated[order[k]])} of {fmt(awards[order[k]])}" for k in idx], textposition="outside",
            cliponaxis=False, outsidetextfont=dict(color=TEXT),
            hovertemplate="%{y}<br>Maximum award %{customdata}<extra></extra>"))
    fig.add_trace(go.Bar(y=ys, x=[_usd(allocated[i]) for i in order], orientation="h", name="Allocated",
                         marker=dict(color=AWARD, line=dict(color="white", width=2)), width=0.4,
                         customdata=[fmt(allocated[i]) for i in order],
                         hovertemplate="%{y}<br>Allocated %{customdata}<extra></extra>"))
    fig.update_layout(barmode="overlay")
    fig.update_yaxes(type="category", autorange="reversed", categoryorder="array", categoryarray=ys)
    fig.update_xaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero",
                     range=[0, _usd(max([awards[i] for i in order] + [1])) * 1.45])   # room for "$x of $y"
    title = "Awards in priority order: maximum and allocated"
    if len(names) > limit:
        title += f" (the {limit} highest priorities of {len(names):,})"
    return _layout(fig, title, "Dollars", None, height=200 + (40 if large else 30) * len(order), large=large)


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
    fig = go.Figure(go.Scatter(x=xs, y=[_usd(running[p]) for p in picked], mode="lines+markers",
                               name="Allocated so far", line=dict(color=AWARD, width=3),
                               text=[label(names[order[p]]) for p in picked],
                               hovertemplate="#%{x} %{text}<br>Running total %{y:$,.2f}<extra></extra>"))
    fig.add_hline(y=_usd(budget), line=dict(color=BINDING, dash="dash", width=2),
                  annotation_text=f"Budget {fmt(budget)}", annotation_position="top left",
                  annotation_font=dict(color=BINDING))
    fig.update_xaxes(title_text="Priority rank", dtick=max(1, -(-len(order) // 8)))   # ticks that do not touch
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero")
    title = "Cumulative allocation against the budget"
    if k > 1:
        title += f" (a point every {k} ranks, of {len(order):,})"
    return _layout(fig, title, None, "Dollars", height=460, large=large)


def priority_figure(names, scores_, awards, binding, large: bool = False, limit: int = POINTS_LIMIT) -> go.Figure:
    """Priority score against maximum award, coloured by binding cap (the `limit` highest priorities)."""
    fig = go.Figure()
    groups: dict[str, list[int]] = {}
    for i in sorted(highest(scores_, limit)):
        groups.setdefault(_lead_cap(binding[i]), []).append(i)
    for cap, idx in groups.items():
        fig.add_trace(go.Scatter(
            x=[scores_[i] for i in idx], y=[_usd(awards[i]) for i in idx], mode="markers",
            name=CAP[cap].title if cap else "None", marker=dict(size=16 if large else 13,
                                                                             color=CAP_COLORS.get(cap, SLACK),
                                                                             line=dict(width=1.5, color="white")),
            text=[label(names[i]) for i in idx],
            hovertemplate="%{text}<br>Score %{x:.3f}<br>Maximum award %{y:$,.2f}<extra></extra>"))
    fig.update_xaxes(range=[-0.05, 1.05], gridcolor=GRID)
    fig.update_yaxes(tickprefix="$", tickformat=",.0f", gridcolor=GRID, rangemode="tozero")
    title = "Priority against award"
    if len(names) > limit:
        title += f" (the {limit} highest priorities of {len(names):,})"
    return _layout(fig, title, "Priority score (0 to 1)", "Maximum award ($)", height=460, large=large)
