"""The board report as one self-contained HTML file (plotly.js embedded, no network request);
with static charts it is also what the PDF packet prints (core.report.pdf).

All user text (names, notes, "prepared by") is escaped; nothing a user types becomes HTML.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import date

import plotly.graph_objects as go

from core.law.award import Award
from core.report import chart_text
from core.report.charts import (SOURCES, PRINT_HALF, PRINT_WIDTH, change_figure, compare_caps_figure, for_print, funding_figure,
                                  headroom_figure, waterfall_figure)
from core.law.fields import FIELDS, PROJECT_TYPES, asked, yes_no
from core.law.provisions import CAP, ROUTES
from core.law.money import fmt
from core.law.analysis import caps_words
from core.law.explain import STATUS_WORDS, award_words, exception_line, maximum_words, other_readings_words, source_line
from core.law.provisions import LETTERING_SEVEN, LETTERS_INFERRED, PROVISION, citation, citations, lettering
from core.law.rulesets import edition_words
from core.law.names import visible



class ReportError(RuntimeError):
    """The report cannot be made as asked; the message says what to do."""


@dataclass
class Item:
    name: str
    award: Award
    notes: str = ""
    reach: tuple = ()   # what it takes to reach an award (core.law.solve's sentences), when asked


@dataclass
class Report:
    """`items` in the order people present them (the screen's); `baseline`, the place in it of the
    scenario the comparison is drawn against (the first by default)."""
    items: list
    title: str = "State capital grant for a senior citizen activity center"
    prepared_by: str = ""
    on: date = field(default_factory=date.today)
    baseline: int = 0


CSS = """
:root { --ink:#1b2631; --muted:#5d6d7e; --accent:#1f4e79; --bind:#c0392b; }
* { box-sizing: border-box; }
body { font-family: -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink);
       margin: 0 auto; max-width: 1100px; padding: 24px 32px; line-height: 1.45; font-size: 15px; }
h1 { font-size: 30px; margin: 0 0 4px; } h2 { font-size: 24px; border-bottom: 2px solid var(--accent);
     padding-bottom: 4px; margin-top: 32px; } h3 { font-size: 18px; margin: 20px 0 6px; }
.meta { color: var(--muted); margin: 0; }
.variant { background: #fff3cd; border: 2px solid #e0a800; padding: 8px 12px; font-weight: 700; margin: 12px 0; }
.award { display: flex; gap: 32px; align-items: center; background: #eef3f8; border-radius: 8px; padding: 14px 18px; }
.award .amount { font-size: 44px; font-weight: 700; color: var(--accent); white-space: nowrap; }
.award .why { font-size: 16px; } .bind { color: var(--bind); font-weight: 700; }
.award .unmet { border-left: 4px solid #a04000; padding-left: 8px; margin-bottom: 4px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 0 24px; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 0 16px; } .charts > figure { min-width: 0; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 14px; }
th, td { border: 1px solid #d5dbe1; padding: 5px 8px; text-align: left; vertical-align: top; overflow-wrap: break-word; }
th { background: #f4f6f8; } td.num { text-align: right; white-space: nowrap; }
table.turned, table.ranking { table-layout: fixed; } table.turned td { text-align: right; }
table.turned caption { text-align: left; color: var(--muted); caption-side: top; }
.pass { color: #1e8449; font-weight: 700; } .fail { color: var(--bind); font-weight: 700; }
.warning { color: #b9770e; font-weight: 700; } .waived { color: var(--muted); font-weight: 700; }
figure { margin: 12px 0; } figcaption { color: var(--muted); font-size: 14px; margin-top: 2px; }
.chart { margin: 8px 0 0; }
.chart svg { max-width: 100%; height: auto; }
blockquote { margin: 6px 0 10px; padding: 6px 12px; border-left: 4px solid var(--accent); background: #f8f9fa; }
.cite { color: var(--muted); font-size: 13px; }
.notes { white-space: pre-wrap; color: var(--muted); }
.totals { display: grid; grid-template-columns: repeat(4, 1fr); gap: 12px; background: #eef3f8; border-radius: 8px;
          padding: 14px 18px; } .totals .amount { font-size: 28px; font-weight: 700; color: var(--accent); }
footer { color: var(--muted); font-size: 12px; margin-top: 32px; border-top: 1px solid #d5dbe1; padding-top: 8px; }
@media print {
  /* Sizes in points, as on paper: body 10 pt, tables 9 pt, nothing under 9 pt (the static
     charts are drawn at the column's width, core.report.charts.for_print, so their type is as
     set there). */
  body { max-width: none; padding: 0; font-size: 10pt; line-height: 1.3; }
  h1 { font-size: 18pt; } h2 { font-size: 14pt; margin: 14pt 0 6pt; } h3 { font-size: 11.5pt; margin: 10pt 0 4pt; }
  table { font-size: 9pt; margin: 4pt 0; } th, td { padding: 2pt 4pt; }
  .meta, .cite, figcaption { font-size: 9pt; } footer { font-size: 9pt; margin-top: 14pt; }
  .charts { gap: 0 12pt; }
  .award { padding: 8pt 12pt; gap: 18pt; } .award .amount { font-size: 26pt; } .award .why { font-size: 10pt; }
  .totals { padding: 8pt 12pt; } .totals .amount { font-size: 16pt; }
  figure { margin: 8pt 0; }
  /* One flow: no page is forced. A heading stays with what follows it; small blocks (a row, an
     item, the award box, a chart with its words, each well under half a page) are never split;
     long ones (the checks, the explanation, the tables) break between rows, their header row
     repeated. */
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  tr, li, .award, .totals, blockquote, .keep, figure { break-inside: avoid; page-break-inside: avoid; }
  /* the award box never ends a page alone: it goes on with the note and the readings under it */
  .award, .award + p.cite { break-after: avoid; page-break-after: avoid; }
  thead { display: table-header-group; }
  ol + p.cite { break-before: avoid; page-break-before: avoid; }   /* "Caps binding" with the last step */
  p.cited { break-after: avoid; page-break-after: avoid; }   /* a provision's name with its sentence */
  p, li { orphans: 3; widows: 3; }
}
@page { size: Letter; margin: 0.5in; }   /* a 7.5 in column: PRINT_WIDTH */
"""


def esc(text, keep: str = "") -> str:
    """Text for the HTML: escaped, and every control, bidirectional or invisible character shown as
    its code (core.names.visible), so a name cannot reverse or hide the report's own words."""
    return html.escape(visible(str(text), keep=keep), quote=True)


class Charts:
    """Draws figures either as interactive divs (plotly.js embedded once) or static SVG, each with
    its words (the chart's text alternative, core.report.chart_text) in one figure: on paper the
    chart never stands on a page without them."""

    def __init__(self, static: bool):
        self.static = static
        self.count = 0

    def __call__(self, fig: go.Figure, words: str = "", half: bool = False) -> str:
        """`half`: one of two side by side (a `<div class="charts">`)."""
        self.count += 1
        caption = f"<figcaption>{esc(words)}</figcaption>" if words else ""
        if self.static:
            import plotly.io as pio
            fig = for_print(fig, PRINT_HALF if half else PRINT_WIDTH)   # drawn as wide as printed: type as on paper
            svg = pio.to_image(fig, format="svg", width=fig.layout.width, height=fig.layout.height).decode("utf-8")
            return f'<figure><div class="chart">{svg}</div>{caption}</figure>'
        div = fig.to_html(full_html=False, include_plotlyjs=False, include_mathjax=False,
                          div_id=f"chart-{self.count}", config={"displaylogo": False, "responsive": True})
        return f'<figure><div class="chart">{div}</div>{caption}</figure>'


def _inputs_table(award: Award) -> str:
    app = award.application
    rows = []
    for f in FIELDS:
        if f.group == "considerations":
            continue
        if (f.group == "exception" and not app.bpw_exception_requested) or not asked(f, app, rs=award.ruleset):
            continue
        value = getattr(app, f.name)
        if f.kind == "money":
            shown = "none" if value is None else fmt(value)
        elif f.kind == "bool":
            shown = yes_no(f, value)
        else:
            shown = PROJECT_TYPES[value]
        rows.append(f"<tr><th>{esc(f.label)}</th><td class='num'>{esc(shown)}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def _scenario(item: Item, chart, first: bool) -> str:
    a = item.award
    binding = caps_words(a.binding) if a.binding else "no limit"
    where, provisions = source_line(a)
    parts = [f'<section class="scenario{" first" if first else ""}">', f"<h2>{esc(item.name)}</h2>"]
    if item.notes:
        parts.append(f'<p class="notes">{esc(item.notes, keep=chr(10))}</p>')
    if a.is_variant:
        parts.append(f'<p class="variant">Policy variant, not the regulation in force: {esc(a.ruleset_label)}</p>')
    unmet = "".join(f'<div class="unmet"><b>Not yet met:</b> {esc(u.text)}</div>' for u in a.unmet)
    parts.append(f'<div class="award"><div><div class="meta">State grant award</div>'
                 f'<div class="amount">{esc(fmt(a.amount))}</div></div><div class="why">{unmet}'
                 f'<div>Held down by <span class="bind">{esc(a.binding_text)}</span></div>'
                 f"<div>Route: {esc(ROUTES[a.route])}</div><div>{esc(where)}: {esc(provisions)}</div>"
                 + (f"<div>{esc(exception_line(a))}</div>" if exception_line(a) else "") +
                 "".join(f"<div>{esc(line)}</div>" for line in _law_lines(a)) +
                 f'<div class="cite">{esc(edition_words(a.ruleset_label, a.ruleset_edition, a.ruleset_version))}; '
                 f'the law as of {esc((a.as_of or date.today()).isoformat())}; '
                 f'{esc(a.readings.describe())}</div></div></div>')
    parts.append(f"<p class='cite'>{esc(maximum_words(a))}</p>")
    if item.reach:
        parts.append("<div class='keep reach'><h3>What it takes to reach an award</h3>"
                     + "".join(f"<p>{esc(t)}</p>" for t in item.reach) + "</div>")
    others = other_readings_words(a)
    parts.append("<div class='keep readings'><h3>Readings that would change this award</h3>" + (
        "<ul>" + "".join(f"<li>{esc(t)}</li>" for t in others) + "</ul>" if others else
        "<p>No single other reading of the regulation changes this award.</p>") + "</div>")
    parts.append('<div class="pair keep"><div><h3>Inputs</h3>' + _inputs_table(a) + "</div>")
    plan = tuple((label, award_words(a) if key == "state" else fmt(a.funding[key]))
                 for key, (label, _) in SOURCES.items())   # every source of funds, then the gap
    if a.route == "bpw_exception":
        plan += (("Without the Board's approval", f"{fmt(a.routes['standard'].award)} (the standard route)"),)
    parts.append("<div><h3>Funding plan</h3><table>" + "".join(
        f"<tr><th>{esc(label)}</th><td class='num'>{esc(value)}</td></tr>" for label, value in plan)
        + "</table></div></div>")
    parts.append('<div class="charts">' + chart(headroom_figure(a), chart_text.headroom(a)[0], half=True)
                 + chart(waterfall_figure(a, across=True), chart_text.waterfall(a)[0], half=True) + "</div>")
    # The checks (a few rows, kept whole) and the explanation (it breaks between its steps) are
    # no longer one block moved whole to the next page, which left most of a page blank.
    parts.append('<div class="checks keep"><h3>Checks</h3><table><thead><tr><th>Check</th><th>Result</th><th>Detail</th>'
                 '</tr></thead>' + "".join(
        f"<tr><td>{esc(c.label)}</td><td class='{c.status}'>{STATUS_WORDS[c.status]}</td><td>{esc(c.message)}</td></tr>"
        for c in a.checks) + "</table></div><div class='explained'>")
    # The caps that bind close the explanation as its last line, not as a paragraph of their own
    # that a page break could leave alone on a page.
    parts.append("<h3>How the award is worked out</h3><ol>" + "".join(
        f"<li>{esc(s.text)} <span class='cite'>({esc(citation(s.provision, a).words if s.provision in PROVISION else 'Result')})"
        f"</span></li>" for s in a.steps) + f"</ol><p class='cite'>Held down by {esc(binding)}.</p></div></section>")
    return "".join(parts)


def _comparison(items: list[Item], chart, baseline: str) -> str:
    from core.report.compare import ANSWER, inputs_in_order, table
    named = [(i.name, i.award) for i in items]
    df = table(named)

    def html_table(columns) -> str:
        head = "".join(f"<th>{esc(c)}</th>" for c in columns)
        body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>"
                       for row in df[list(columns)].itertuples(index=False))
        return f"<table><thead><tr>{head}</tr></thead>{body}</table>"

    # Words between the charts: on paper no page holds charts alone (each chart has its sentence,
    # and the two at the end the numbers they draw).
    small = " keep" if len(items) <= KEPT_ROWS else ""
    out = ['<section class="comparison"><h2>Comparison of scenarios</h2>',
           f"<div class='answer{small}'><h3>The answer for each scenario</h3>" + html_table(("Scenario", *ANSWER))
           + "</div>",
           chart(compare_caps_figure(named), chart_text.compare_caps(named)[0]),
           "<h3>The inputs behind it</h3>" + turned_tables(df, inputs_in_order(df, baseline, blank=False))]
    funding, change = chart_text.funding(named), chart_text.change(named, baseline)
    if len(items) <= SIDE_BY_SIDE:
        out.append('<div class="charts">' + chart(funding_figure(named), funding[0], half=True)
                   + chart(change_figure(named, baseline), change[0], half=True) + "</div>"
                   + _numbers(funding[1]) + _numbers(change[1]))
    else:
        out += [chart(funding_figure(named), funding[0]) + _numbers(funding[1]),
                chart(change_figure(named, baseline), change[0]) + _numbers(change[1])]
    return "".join(out) + "</section>"


SIDE_BY_SIDE = 2   # scenarios whose funding and change charts fit half a column each (three names collided)


KEPT_ROWS = 8   # a table of up to this many scenarios is never split (well under half a page)


def _numbers(rows: list[dict]) -> str:
    """The numbers a chart draws (its text alternative's table), under it."""
    if not rows:
        return ""
    head = "".join(f"<th>{esc(k)}</th>" for k in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" if k == next(iter(r)) else f"<td class='num'>{esc(v)}</td>"
                                    for k, v in r.items()) + "</tr>" for r in rows)
    return f"<table class='numbers keep'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


PER_TABLE = 4   # scenarios side by side in one turned table: each column at least 1.4 in on paper


def turned_tables(df, rows, per: int = PER_TABLE) -> str:
    """The table turned: a row per input, a column per scenario (the wide table of an input per
    column ran off the printed page), at most `per` scenarios a table, then another table."""
    names = df["Scenario"].tolist()
    out = []
    for start in range(0, len(names), per):
        part = df.iloc[start:start + per]
        caption = (f"<caption>Scenarios {start + 1} to {start + len(part)} of {len(names)}</caption>"
                   if len(names) > per else "")
        head = "".join(f"<th>{esc(n)}</th>" for n in part["Scenario"])
        body = "".join(f"<tr><th>{esc(r)}</th>" + "".join(f"<td>{esc(v)}</td>" for v in part[r]) + "</tr>"
                       for r in rows)
        out.append(f"<table class='turned keep'>{caption}<colgroup><col style='width:{_first_column(len(part))}%'>"
                   f"</colgroup><thead><tr><th>Input</th>{head}</tr></thead><tbody>{body}</tbody></table>")
    return "".join(out)


def _first_column(scenarios: int) -> int:
    return 34 if scenarios > 2 else 40


def _sources(items: list[Item], tail: str = "") -> str:
    from core.law.readings import READING
    used = dict.fromkeys(s.provision for i in items for s in i.award.steps if s.provision in PROVISION)
    cited = dict.fromkeys(c for i in items for c in citations(i.award))
    # under the statute or a variant, the law applied is not only the regulation: its own words are cited
    other = any(i.award.ruleset_id != "regulation" or i.award.is_variant for i in items)
    parts = ['<section class="sources"><h2>The regulation and the interpretations used</h2>',
             "<h3>The regulation's sentences for the limits that hold the awards down</h3>"] if not other else [
             '<section class="sources"><h2>The law and the interpretations used</h2>',
             "<h3>The law's sentences for the limits that hold the awards down (each of the law and day applied)</h3>"]
    for c in cited:
        parts.append(f"<p class='cited'><b>{esc(c.words)}</b></p>")
        if c.sentences:
            parts += [f"<blockquote>{esc(t)}</blockquote>" for t in c.sentences]
        else:
            parts.append("<p>No sentence of the regulation says this; it is an interpretation (below).</p>")
    parts.append("<h3>Interpretations applied</h3><ul>")
    for pid in used:
        p = PROVISION[pid]
        if p.interpretation:
            parts.append(f"<li><b>{esc(p.title)}:</b> {esc(p.interpretation)}</li>")
    parts.append("<li><b>Money:</b> amounts are exact to the cent; every limit taken as a percentage of an amount "
                 "(the State share) is rounded down, so no limit is exceeded by rounding; the required local "
                 "match is rounded up, so it is never understated.</li></ul>")
    readings = dict.fromkeys(i.award.readings for i in items)
    parts.append("<h3>Readings</h3><ul>")
    for rd in readings:
        who = ", ".join(esc(i.name) for i in items if i.award.readings == rd)
        for rid, alt in rd.as_dict().items():
            r = READING[rid]
            a = r.alternative(alt)
            note = "the default" if alt == r.default else "not the default"
            parts.append(f"<li><b>{esc(r.title)}: {esc(a.title)}</b> ({note})"
                         + (f" for {who}" if len(readings) > 1 else "") + f": {esc(a.meaning)}</li>")
    parts.append(f"</ul><h3>Paragraph letters</h3><p>{esc(LETTERS_INFERRED)}</p>")   # said once, here
    letterings = dict.fromkeys(lettering(i.award.readings) for i in items)
    for letters in letterings:
        who = ", ".join(esc(i.name) for i in items if lettering(i.award.readings) == letters)
        kind = "seven paragraphs, as the reading “§F is the top-up for earlier grantees” reads the text" \
            if letters == LETTERING_SEVEN else "eight paragraphs"
        parts.append(f"<p>This report letters the text in {kind} (an inference, as said above)"
                     + (f" for {who}" if len(letterings) > 1 else "")
                     + ": " + esc("; ".join(f"§{k}, {w}" for k, w in letters)) + ".</p>")
    parts.append(_glossary(items, tail) + "</section>")
    return "".join(parts)


def _glossary(items: list[Item], tail: str = "") -> str:
    """For programs reading the JSON and CSV files: the names used there for what this report
    calls by its label (caps, routes and readings that appear in it). `tail` (the footer) is kept
    with it: on its own the footer once made a last page of one line."""
    from core.law.readings import READINGS
    caps = dict.fromkeys(c for i in items for c in i.award.caps)
    routes = dict.fromkeys(i.award.route for i in items)
    rulesets = dict.fromkeys((i.award.ruleset_label, i.award.ruleset_id) for i in items)
    rows = ([(label, f"ruleset {rid}") for label, rid in rulesets] + [(CAP[c].title, c) for c in caps]
            + [(ROUTES[r], r) for r in routes] + [(r.title, r.id) for r in READINGS])
    return ("<div class='glossary'><h3>For programs: the names used in the data files</h3><table><tr><th>In this "
            "report</th><th>In JSON and CSV</th></tr>" + "".join(
                f"<tr><td>{esc(label)}</td><td><code>{esc(name)}</code></td></tr>" for label, name in rows)
            + "</table>" + tail + "</div>")


def _law_lines(a) -> list[str]:
    """Where the statute in force and the regulation disagree for this application (one line), then
    what the law applied leaves uncertain: the statute's (d), a day not found."""
    from core.law.award import law_differs
    differs = law_differs(a.application, a.readings, a.as_of, a) if a.ruleset_id in ("regulation", "statute") \
        and not a.is_variant else ""
    return ([differs] if differs else []) + list(a.law_notes)


def render(report: Report, static: bool = False) -> str:
    """The whole report as one HTML document. static=True draws SVG charts (for the PDF)."""
    if not report.items:
        raise ReportError("a report needs at least one scenario")
    if not 0 <= report.baseline < len(report.items):
        raise ReportError(f"the baseline is scenario {report.baseline + 1}, but the report has {len(report.items)}")
    chart = Charts(static)
    rulesets = dict.fromkeys((i.award.ruleset_label, i.award.ruleset_id, i.award.ruleset_version, i.award.is_variant,
                              i.award.ruleset_edition) for i in report.items)
    head = [f"<h1>{esc(report.title)}</h1>",
            f"<p class='meta'>{esc(report.on.strftime('%B %-d, %Y'))}"
            + (f" · Prepared by {esc(report.prepared_by)}" if report.prepared_by.strip() else "") + "</p>"]
    for label, rid, version, variant, edition in rulesets:
        head.append(f"<p class='meta'>Ruleset: {esc(edition_words(label, edition, version))}</p>")
        if variant:
            head.append(f"<p class='variant'>Policy variant: {esc(label)}. These figures are a what-if, "
                        f"not the regulation in force.</p>")
    body = ["<header>" + "".join(head) + "</header>"]
    if len(report.items) > 1:   # a board reads the comparison first, then each scenario's detail
        body.append(_comparison(report.items, chart, report.items[report.baseline].name))
    body += [_scenario(item, chart, first=(k == 0)) for k, item in enumerate(report.items)]
    body.append(_sources(report.items, "<footer>Computed from the regulation's text as encoded in this tool; every "
                                       "number traceable to a provision. Amounts in US dollars.</footer>"))
    return document(report.title, body, static)


# Printed from a browser, the interactive charts keep the width they were drawn at on screen
# (up to the 1,100 px column), wider than the printed 7.5 in column: they were cut at its edge.
# Before printing, each is drawn again at its share of the printed column; after, at the screen's.
PRINT_SCRIPT = """
(function () {
  var column = %d;
  function plots() { return Array.prototype.slice.call(document.querySelectorAll('.js-plotly-plot')); }
  window.addEventListener('beforeprint', function () {
    var body = document.body.clientWidth - 64;   /* the screen's column, less its padding */
    plots().forEach(function (el) {
      var width = Math.min(el.clientWidth, Math.floor(el.parentElement.clientWidth * column / body));
      Plotly.relayout(el, {width: width});
    });
  });
  window.addEventListener('afterprint', function () {
    plots().forEach(function (el) { Plotly.relayout(el, {width: null, autosize: true}); Plotly.Plots.resize(el); });
  });
})();
""" % PRINT_WIDTH


def document(title: str, body: list[str], static: bool) -> str:
    """One HTML file of `body`'s parts under `title`, with the print styles; Plotly.js inlined
    unless the charts are static (the PDF's), so that it opens without a network."""
    script = ""
    if not static:
        from plotly.offline import get_plotlyjs
        script = f"<script>{get_plotlyjs()}</script><script>{PRINT_SCRIPT}</script>"
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{esc(title)}</title>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<style>{CSS}</style>{script}</head><body>{''.join(body)}</body></html>")
