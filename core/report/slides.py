"""The deck's drawing kit (core/report/deck.py lays out the slides with it): the slide's size and
type, text boxes that say how much room their words take, tables whose columns fit their values,
and native PowerPoint bar charts with their labels past the bars and their text alternative.

Type is Arial (Liberation Sans where Arial is missing: the same widths), nothing under MIN points;
every colour is at least 4.5:1 on the white slide (core/report/charts/colours.py).
"""
from __future__ import annotations

from pptx.chart.data import CategoryChartData
from pptx.dml.color import RGBColor
from pptx.enum.chart import XL_CHART_TYPE, XL_LABEL_POSITION, XL_LEGEND_POSITION
from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
from pptx.util import Emu, Inches, Pt

from core.law.names import visible
from core.report.charts.colours import AWARD, TEXT

WIDTH, HEIGHT = Inches(13.333), Inches(7.5)   # 16:9
MARGIN = Inches(0.5)
FONT = "Arial"
BODY = 20            # points: the body's type; nothing on a slide under MIN
MIN = 18
TITLE_SIZE = 30
CHART_TEXT = 18
NAME_CHARS = 24      # a scenario's name in a table cell or on a chart's axis (in full in the title and notes)
AXIS_FORMAT = '[>=1000000]"$"0.0,,"M";[>=1000]"$"0,"k";"$"0'


def rgb(hex_colour: str) -> RGBColor:
    return RGBColor.from_string(hex_colour.lstrip("#").upper())


def short(name: str, chars: int = NAME_CHARS) -> str:
    name = visible(name)
    return name if len(name) <= chars else name[:chars - 1].rstrip() + "…"


def text_width(text: str, size: int, bold: bool = False) -> float:
    """Inches `text` takes on one line in Arial at `size` points (its widths, rounded up)."""
    ems = sum(0.56 if ch.isdigit() or ch in "$+-" else 0.28 if ch in ",. il'" else
              0.72 if ch.isupper() else 0.56 for ch in text)
    return ems * size * (1.08 if bold else 1.0) / 72


def lines_needed(text: str, width: Emu, size: int, bold: bool = False) -> int:
    """Lines `text` takes in a box `width` wide (less its margins) at `size` points, broken between words."""
    room, lines, line = width / 914400 - 0.1, 0, ""
    for part in text.split("\n"):
        lines, line = lines + 1, ""
        for word in part.split():
            wider = f"{line} {word}" if line else word
            if line and text_width(wider, size, bold) > room:
                lines, line = lines + 1, word
            else:
                line = wider
    return lines


def height_of(paragraphs: list[tuple[str, int, bool]], width: Emu) -> float:
    """Points the (text, size, bold) paragraphs take, at 1.2 lines and 6 pt after each."""
    return sum(lines_needed(t, width, s, b) * s * 1.2 + 6 for t, s, b in paragraphs)


def text_box(slide, left, top, width, height, paragraphs, anchor=MSO_ANCHOR.TOP):
    """A box of paragraphs: (text, size, bold, colour). Sizes under MIN are refused (a test's aid)."""
    box = slide.shapes.add_textbox(left, top, width, height)
    frame = box.text_frame
    frame.word_wrap, frame.vertical_anchor = True, anchor
    frame.margin_left = frame.margin_right = Inches(0.05)
    for k, (text, size, bold, colour) in enumerate(paragraphs):
        if size < MIN:
            raise ValueError(f"type under {MIN} pt: {text!r}")
        p = frame.paragraphs[0] if k == 0 else frame.add_paragraph()
        p.space_after = Pt(6)
        run = p.add_run()
        run.text = text
        run.font.size, run.font.bold, run.font.name = Pt(size), bold, FONT
        run.font.color.rgb = rgb(colour)
    return box


def describe(shape, words: str) -> None:
    """The shape's text alternative (alt text, `descr`), as PowerPoint's "Alt Text" pane sets it."""
    shape._element.xpath("./*[1]/p:cNvPr")[0].set("descr", visible(words))


def notes(slide, text: str) -> None:
    slide.notes_slide.notes_text_frame.text = visible(text, keep="\n")


def title(slide, words: str, size: int = TITLE_SIZE) -> None:
    """The slide's title, one line at 30 pt, or two at 24 (a long scenario name)."""
    if lines_needed(visible(words), WIDTH - 2 * MARGIN, size, True) > 1:
        size = 24
    text_box(slide, MARGIN, Inches(0.3), WIDTH - 2 * MARGIN, Inches(1.05),
             [(visible(words), size, True, AWARD)], anchor=MSO_ANCHOR.MIDDLE)


def style_chart(chart, legend: bool) -> None:
    chart.font.size, chart.font.name = Pt(CHART_TEXT), FONT
    chart.font.color.rgb = rgb(TEXT)
    chart.has_legend = legend
    if legend:
        chart.legend.position, chart.legend.include_in_layout = XL_LEGEND_POSITION.BOTTOM, False
        chart.legend.font.size = Pt(CHART_TEXT)


def money_format(cents: list[int]) -> str:
    return '"$"#,##0.00' if any(c % 100 for c in cents) else '"$"#,##0'


def labels_after(chart, texts: list[str]) -> None:
    """Each category's words just past the end of its bar: carried by the last series, all zeros, so
    that the label of a thin or dark bar never sits on it (stacked bars have no "outside end")."""
    carrier = chart.plots[0].series[-1]
    for k, text in enumerate(texts):
        label = carrier.points[k].data_label
        label.has_text_frame, label.position = True, XL_LABEL_POSITION.INSIDE_BASE
        label.text_frame.text = text
        run = label.text_frame.paragraphs[0].runs[0]
        run.font.size, run.font.color.rgb, run.font.name = Pt(CHART_TEXT), rgb(TEXT), FONT


def bar_chart(slide, box, categories, series, colours, labels, words, legend=False, number_format='"$"#,##0'):
    """A horizontal stacked bar chart of `series` ((name, values in dollars, visible)), each visible
    series' points in `colours` (one colour a series, or a list a point), labels past the bars."""
    # the categories from the last to the first: a bar chart draws the first at the bottom, and
    # reversing its axis (its "categories in reverse order") put the dollars at the top in LibreOffice
    data = CategoryChartData(number_format=number_format)
    data.categories = categories[::-1]
    for name, values, _ in series:
        data.add_series(name, values[::-1])
    data.add_series(" ", [0] * len(categories))   # the labels' carrier
    colours = [c[::-1] if isinstance(c, list) else c for c in colours]
    labels = labels[::-1]
    frame = slide.shapes.add_chart(XL_CHART_TYPE.BAR_STACKED, *box, data)
    chart = frame.chart
    style_chart(chart, legend)
    plot = chart.plots[0]
    for s, (_, _, shown), colour in zip(plot.series, series, colours):
        if not shown:
            s.format.fill.background()
            continue
        s.format.fill.solid()   # the legend's key
        s.format.fill.fore_color.rgb = rgb(colour[-1] if isinstance(colour, list) else colour)
        for k in range(len(categories)):
            fill = s.points[k].format.fill
            fill.solid()
            fill.fore_color.rgb = rgb(colour[k] if isinstance(colour, list) else colour)
    plot.series[-1].format.fill.background()
    labels_after(chart, labels)
    top = max([sum(v for _, vals, _ in series for v in [vals[k]] if v > 0) for k in range(len(categories))] + [1])
    low = min([sum(v for _, vals, _ in series for v in [vals[k]] if v < 0) for k in range(len(categories))] + [0])
    axes(chart, top * 1.5, low)   # room for the labels past the longest bar
    describe(frame, words)
    return frame


def axes(chart, top: float, low: float = 0) -> None:
    """The dollars along the bottom in three or four steps, written short ("$500k", "$1.5M")."""
    chart.category_axis.tick_labels.font.size = Pt(CHART_TEXT)
    value = chart.value_axis
    value.has_major_gridlines = False
    value.tick_labels.font.size = Pt(CHART_TEXT)
    value.tick_labels.number_format, value.tick_labels.number_format_is_linked = AXIS_FORMAT, False
    step = 10 ** max(len(str(int(max(top - low, 1) / 3))) - 1, 0)
    step *= next(m for m in (1, 2, 2.5, 5, 10) if (top - low) / (step * m) <= 3.5)
    value.major_unit = step
    value.maximum_scale = -(-top // step) * step
    value.minimum_scale = (low // step) * step if low < 0 else 0


def widths(head: list[str], rows: list[list[str]], words: set[int] = frozenset()) -> list[float]:
    """Each column's inches at 18 pt: as wide as its longest value (money never breaks), or for the
    first column and those in `words` (text that wraps), its longest word and at least 1.7 in."""
    out = []
    for c, name in enumerate(head):
        values = [r[c] for r in rows]
        longest = max(text_width(w, MIN, True) for w in name.split())
        if c == 0 or c in words:
            longest = max([longest, 1.7] + [text_width(w, MIN) for v in values for w in v.split()])
        else:
            longest = max([longest] + [text_width(v, MIN) for v in values])
        out.append(round(longest + 0.2, 2))
    return out


def table(slide, box, head: list[str], rows: list[list[str]], columns: list[float]) -> Emu:
    """A table at 18 pt, each column as wide as `columns` (inches), from the box's right edge back;
    returns its left edge."""
    right, top = box
    left = right - Inches(sum(columns))
    shape = slide.shapes.add_table(len(rows) + 1, len(head), left, top, Inches(sum(columns)), Inches(0.45) * (len(rows) + 1))
    grid = shape.table
    for k, w in enumerate(columns):
        grid.columns[k].width = Inches(w)
    for r, row in enumerate([head, *rows]):
        for c, value in enumerate(row):
            cell = grid.cell(r, c)
            cell.margin_left = cell.margin_right = Inches(0.05)
            cell.text = visible(str(value))
            p = cell.text_frame.paragraphs[0]
            p.alignment = PP_ALIGN.RIGHT if r and str(value)[:1] in "$+-" else PP_ALIGN.LEFT
            for run in p.runs:
                run.font.size, run.font.name, run.font.bold = Pt(MIN), FONT, r == 0
                run.font.color.rgb = rgb("#FFFFFF" if r == 0 else TEXT)
            cell.fill.solid()
            cell.fill.fore_color.rgb = rgb(AWARD if r == 0 else "#FFFFFF" if r % 2 else "#EEF3F8")
    return left
