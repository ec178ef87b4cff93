"""The charts and their sentences (core/report/charts/, chart_text.py): colours that read,
one per source and per cap, binding caps marked by more than colour, presentation type."""
import json

import pytest
from hypothesis import given, settings

from core.law.application import Application
from core.law.award import evaluate
from core.law.fields import FUNDING_PLAN
from core.law.provisions import CAP
from core.report import chart_text
from core.report.charts import calculator, colours, compare, layout, paper, portfolio, sensitivity
from tests.support.figures import QUOTED, every_figure as _every_figure
from tests.support.strategies import applications


def _contrast(a: str, b: str = "#ffffff") -> float:
    def lum(h):
        c = [int(h.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("name,color", sorted({**colours.SOURCE_COLORS, **{c: colours.cap_colour(c) for c in CAP},
                                                "cost": colours.COST, "text": colours.TEXT}.items()))
def test_every_chart_colour_reads_on_white_and_under_white_labels(name, color):
    assert _contrast(color) >= 4.5, (name, color, round(_contrast(color), 2))


def test_colours_are_one_per_source_and_one_per_cap():
    # one colour per source of the funding plan (the field table's, the State's) and the gap
    assert set(colours.SOURCE_COLORS) == {key for key, _, _ in FUNDING_PLAN} | {"gap"}
    assert len(set(colours.SOURCE_COLORS.values())) == len(colours.SOURCE_COLORS) >= 4
    assert [colours.cap_colour(c) for c in CAP] == [c.colour for c in CAP.values()]   # the registry's
    assert len({colours.cap_colour(c) for c in CAP}) == len(CAP)
    assert colours.COST not in colours.SOURCE_COLORS.values()


AWARD = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": "3000000",
                                        "federal_grant": "200000", "local_contribution": "1000000"}))


def test_waterfall_and_funding_draw_each_source_in_its_own_colour():
    bar = calculator.waterfall_figure(AWARD).data[0]
    plan = [key for key, _, _ in FUNDING_PLAN]   # the sources in the plan's order: federal, State, local, ...
    assert plan[:3] == ["federal", "state", "local"]
    assert list(bar.marker.color) == [colours.COST, *(colours.SOURCE_COLORS[k] for k in plan),
                                      colours.SOURCE_COLORS["gap"]]
    fund = compare.funding_figure([("A", AWARD)])
    assert [t.marker.color for t in fund.data] == [colours.SOURCE_COLORS[k] for k in (*plan, "gap")]


def test_headroom_colours_each_cap_and_hatches_the_binding_one():
    bar = calculator.headroom_figure(AWARD).data[0]
    assert list(bar.marker.color) == [CAP[c].colour for c in AWARD.caps]
    assert list(bar.marker.pattern.shape) == ["/" if c in AWARD.binding else "" for c in AWARD.caps]
    assert [t for t in bar.text if t.endswith("holds it down")] == ["$600,000<br>holds it down"]


def test_two_caps_at_one_value_are_drawn_apart():
    tie = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": "1000000",
                                          "local_contribution": "500000"}))   # cost share = need = $500,000
    fig = compare.compare_caps_figure([("Tie", tie)])
    ys = {t.name: t.y[0] for t in fig.data[1:]}
    assert len(set(ys.values())) == len(ys)
    assert not fig.data[0].text          # the award's amount is not in its bar, among the markers at its end
    assert fig.layout.legend.yanchor == "bottom" and fig.layout.legend.y >= 1   # above the plot


def test_presentation_type_is_large():
    small, large = calculator.headroom_figure(AWARD), calculator.headroom_figure(AWARD, large=True)
    assert small.layout.font.size == 14 and large.layout.font.size == 22
    assert large.layout.title.font.size > small.layout.title.font.size


def test_chart_sentences():
    assert chart_text.headroom(AWARD)[0] == ("The program maximum holds the award down: award $600,000, $800,000 below the State's share "
                                             "of the cost. Route: Standard route (50% State share).")
    # each source of the plan in its order, and any this application leaves at nothing at $0
    said = {"federal": "the federal grant $200,000", "state": "the State grant $600,000",
            "local": "the local contribution $1,000,000"}
    parts = [said.get(key) or f"the {label.lower()} $0" for key, label, _ in FUNDING_PLAN]
    assert chart_text.waterfall(AWARD)[0] == (
        "Of the $3,000,000 cost of eligible work, " + ", ".join(parts[:-1]) + " and " + parts[-1]
        + " leave a funding gap of $1,200,000.")
    assert parts[:3] == list(said.values())
    rows = chart_text.headroom(AWARD)[1]
    assert rows[0] == {"Limit": "Program maximum", "Amount": "$600,000", "Headroom above the award": "$0",
                       "Holds the award down": "yes"}


@settings(max_examples=60, deadline=None)
@given(applications())
def test_calculator_charts_unchecked_are_the_checked_figures(app):
    """The calculator skips Plotly's validation on every slider move: what it sends must be
    exactly what the validated figure would be."""
    import plotly.io as pio

    from core.report.charts.calculator import headroom_figure, waterfall_figure
    award = evaluate(app)
    for figure in (headroom_figure, waterfall_figure):
        checked = json.loads(pio.to_json(figure(award), validate=False))
        unchecked = json.loads(pio.to_json(figure(award, validate=False), validate=False))
        assert unchecked == checked


def _print_figures():
    other = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": "1450000",
                                            "local_contribution": "725000"}))
    named = [("As submitted", AWARD), ("Another", other)]
    return [(calculator.headroom_figure(AWARD), paper.PRINT_HALF),
            (calculator.waterfall_figure(AWARD, across=True), paper.PRINT_HALF),
            (compare.compare_caps_figure(named), paper.PRINT_WIDTH), (compare.funding_figure(named), paper.PRINT_WIDTH),
            (compare.change_figure(named, "As submitted"), paper.PRINT_HALF),
            (portfolio.cumulative_figure(["A", "B"], [60_000_000, 10_000_000], [1, 2], 65_000_000), paper.PRINT_WIDTH)]


@pytest.mark.parametrize("k", range(6))
def test_a_chart_for_paper_is_drawn_as_wide_as_printed_with_every_type_size_set(k):
    """Issue 28: drawn 1000 px wide and scaled into a 7-inch column, chart text was ~6.5 pt. On paper
    one px is 0.75 pt: 13 px is 9.75 pt, 16 px 12 pt; a label is hidden rather than shrunk under 12 px."""
    fig, width = _print_figures()[k]
    tall = fig.layout.height
    fig = paper.for_print(fig, width)
    lay = fig.layout
    assert lay.width == width and lay.height == min(tall, paper.PRINT_HEIGHT[width])
    assert lay.font.size == 13 and lay.title.font.size == 16 and lay.legend.font.size == 13
    assert lay.uniformtext.minsize == 12 and lay.uniformtext.mode == "hide"
    for axis in (lay.xaxis, lay.yaxis):
        assert axis.tickfont.size == 13 and axis.title.font.size == 13
    assert all(a.font.size == 13 for a in lay.annotations)
    assert all(t.textfont.size == 13 for t in fig.data if "textfont" in t)
    # the title wrapped to the width, and the room above the plot grown with it
    lines = lay.title.text.split("<br>")
    assert all(len(line) <= width / (16 * 0.56) for line in lines)


def test_a_full_width_legend_on_paper_takes_three_entries_a_line_or_two_where_a_name_is_long():
    """Three short names a line; "State's share of the cost" did not fit a third and was cut
    ("State's share of the c", issue 35): then two a line."""
    named = [("A", AWARD)]
    fig = compare.compare_caps_figure(named)
    top = fig.layout.margin.t
    names = [t.name for t in fig.data if t.showlegend is not False]
    fig = paper.for_print(fig)
    assert len(names) == 4 and max(map(len, names)) > paper.LEGEND_THIRD
    assert fig.layout.legend.entrywidth == 1 / 2 and fig.layout.margin.t == top - 20 * (4 - 2)
    short = compare.compare_caps_figure(named)
    for t in short.data:
        t.name = t.name[:10]
    assert paper.for_print(short).layout.legend.entrywidth == 1 / 3


def test_every_award_amount_stands_in_a_column_right_of_the_plot_on_its_bars_row():
    """Issue 35: a $50,000 award beside $600,000 ones was a bar without its label; issue 51: set
    under its scenario's name, the amount read as part of the name. Each amount is now on its
    bar's row, right of the plot, in a margin wide enough for it; the names are names only
    (tests/browser/test_chart_labels.py measures the drawing)."""
    from core.law.application import Application
    from core.law.award import evaluate
    small = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 900_000,
                                            "prior_program_funds": 250_000}))
    for large, px in ((False, 14), (True, 22)):
        fig = compare.compare_caps_figure([("Big", AWARD), ("Small", small)], large=large)
        assert list(fig.layout.yaxis.ticktext) == ["Big", "Small"]
        notes = [(a.text, a.y, a.xref, a.x, a.xanchor, a.yref) for a in fig.layout.annotations]
        assert notes == [("<b>$600,000</b>", 0, "paper", 1, "left", "y"), ("<b>$50,000</b>", 1, "paper", 1, "left", "y")]
        assert all(a.font.color == colours.AWARD and a.xshift == 10 for a in fig.layout.annotations)
        assert fig.layout.margin.r == 20 + round(len("$600,000") * 0.62 * px)


def test_the_waterfall_across_runs_left_to_right_with_the_same_bars():
    down, across = calculator.waterfall_figure(AWARD).data[0], calculator.waterfall_figure(AWARD, across=True).data[0]
    assert across.orientation == "h" and list(across.x) == list(down.y) and list(across.base) == list(down.base)
    assert [y.replace("<br>", " ") for y in across.y] == [x.replace("<br>", " ") for x in down.x]
    assert across.marker.color == down.marker.color and across.text == down.text


def test_the_funding_gap_is_labelled_above_its_bar_where_a_thin_one_has_no_room_inside():
    """Issue 35: a thin gap at the top of a stack lost its label (hidden where it did not fit inside)."""
    from core.law.application import Application
    from core.law.award import evaluate
    from core.report.charts.compare import funding_figure
    a = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_450_000,
                                        "local_contribution": 725_000}))
    fig = funding_figure([("One", a)])
    gap = next(t for t in fig.data if t.name == "Funding gap")
    assert gap.textposition == "outside" and gap.cliponaxis is False and list(gap.text) == ["$125,000"]
    assert all(t.textposition == "inside" for t in fig.data if t.name != "Funding gap")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@pytest.mark.parametrize("chart", list(_every_figure("x")))
def test_a_name_with_quotation_marks_is_escaped_for_plotly_only(chart):
    """Issue 36: html.escape turned `"` into &quot;, which Plotly does not decode: `Option &quot;B&quot;`
    on every chart label. Only Plotly's own markup (& < >) is escaped, as the entities it decodes."""
    fig = _every_figure(QUOTED)[chart]
    texts = list(_strings(json.loads(fig.to_json())))
    assert not [t for t in texts if "&quot;" in t or "&#x27;" in t or "&#39;" in t]
    joined = " ".join(t.replace("<br>", " ") for t in texts)
    assert 'Option "B" (board\'s pick) &amp; &lt;b&gt;co&lt;/b&gt;' in joined     # wrapped at spaces, if at all
    assert "<b>co</b>" not in joined                                                # never markup


def test_plotly_text_escapes_what_plotly_decodes_and_nothing_else():
    assert layout.plotly_text("a & b <br> \"c\" 'd' &amp; %{y}") == "a &amp; b &lt;br&gt; \"c\" 'd' &amp;amp; %{y}"
    # a name in a hover template goes by reference, so a %{...} in it is not filled in
    fig = _every_figure("50%{y} off")["sweep"]
    overlay = [t for t in fig.data if t.name == "50%{y} off"]
    assert overlay and overlay[0].hovertemplate == "%{fullData.name}: award %{y:$,.2f}<extra></extra>"


# Okabe and Ito's palette, whose colours stay apart for colour-blind readers: the registry's curve
# colours (`line`) of the shipped caps.
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")


def test_every_cap_has_a_curve_colour_of_its_own_from_the_registry():
    """The eight caps of the regulation each one of Okabe and Ito's colours (the registry's `line`);
    a cap without one (the statute's surplus-building certification) is drawn in its colour, not in
    the text's near-black as when the curve colours were a list of eight beside the registry (issue 50)."""
    lines = {c: colours.cap_line(c) for c in CAP}
    assert sorted(lines[c] for c in CAP if CAP[c].line) == sorted(OKABE_ITO)
    assert lines["surplus_building"] == CAP["surplus_building"].colour != colours.TEXT
    assert len(set(lines.values())) == len(CAP)   # every cap its own


def test_sensitivity_lines_are_okabe_itos_colours_and_now_sits_on_its_line():
    """Sensitivity: each segment in the colour-blind-safe palette's colour of its cap (the
    registry's), and "Now: $X" centred on the dotted line at the current value."""
    from core.law.analysis import sweep
    app = Application(project_type="renovation", eligible_cost=200_000_000, local_contribution=60_000_000)
    sw = sweep(app, "local_contribution", 0, 300_000_000)
    fig = sensitivity.sweep_figure([("The regulation in force", sw)], "Local contribution", current=60_000_000)
    lines = {t.name: t.line.color for t in fig.data if t.mode == "lines" and t.showlegend is not False}
    assert lines == {"What the project still lacks holds the award down": "#E69F00",   # Okabe-Ito orange
                     "The program maximum holds the award down": "#D55E00"}, lines      # and vermillion
    assert all(t.line.color in OKABE_ITO for t in fig.data if t.mode == "lines")
    now = [a for a in fig.layout.annotations if a.text.startswith("Now:")]
    assert len(now) == 1 and now[0].text == "Now: $600,000" and now[0].x == 600_000.0
    assert (now[0].xref, now[0].xanchor, now[0].yref) == ("x", "center", "paper")
    # inside the plot, never over the legend above it (issue 51): at its foot, the curve being high there
    assert (now[0].y, now[0].yanchor) == (0, "bottom") and fig.layout.legend.y == 1.0
    low = sensitivity.sweep_figure([("The regulation in force", sw)], "Local contribution", current=300_000_000)   # award $0
    assert [(a.y, a.yanchor) for a in low.layout.annotations if a.text.startswith("Now:")] == [(1, "top")]
    marker = [s for s in fig.layout.shapes if s.type == "line" and s.x0 == s.x1]
    assert len(marker) == 1 and marker[0].x0 == now[0].x   # on the line, not beside it
