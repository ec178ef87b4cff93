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
from core.report.charts import change_figure, compare_caps_figure, funding_figure, headroom_figure, waterfall_figure
from core.law.fields import FIELDS, PROJECT_TYPES
from core.law.provisions import CAP, ROUTES
from core.law.money import fmt
from core.law.explain import other_readings_words
from core.law.provisions import LETTERING, LETTERS_INFERRED, PROVISION, citation, citations, source_words
from core.law.rulesets import edition_words
from core.law.names import visible

STATUS = {"pass": "Pass", "fail": "Fail", "waived": "Would be waived", "warning": "Warning",
          "not_applicable": "Does not apply"}


class ReportError(RuntimeError):
    """The report cannot be made as asked; the message says what to do."""


@dataclass
class Item:
    name: str
    award: Award
    notes: str = ""


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
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 0 24px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 14px; }
th, td { border: 1px solid #d5dbe1; padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #f4f6f8; } td.num { text-align: right; white-space: nowrap; }
.pass { color: #1e8449; font-weight: 700; } .fail { color: var(--bind); font-weight: 700; }
.warning { color: #b9770e; font-weight: 700; } .waived { color: var(--muted); font-weight: 700; }
.chart { break-inside: avoid; page-break-inside: avoid; margin: 8px 0; }
.chart svg { max-width: 100%; height: auto; }
blockquote { margin: 6px 0 10px; padding: 6px 12px; border-left: 4px solid var(--accent); background: #f8f9fa; }
.cite { color: var(--muted); font-size: 13px; }
.notes { white-space: pre-wrap; color: var(--muted); }
footer { color: var(--muted); font-size: 12px; margin-top: 32px; border-top: 1px solid #d5dbe1; padding-top: 8px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; line-height: 1.35; }
  h2 { margin-top: 18px; } h3 { margin: 12px 0 4px; }
  /* Each scenario starts a page, and so does what follows the scenarios (the comparison, with
     the sources flowing on after it; or the sources alone). The binding caps close the
     explanation instead of standing alone: no page holds a line or two. */
  section.scenario, section.comparison, section.sources { break-before: page; page-break-before: always; }
  section.first { break-before: auto; page-break-before: auto; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  tr, li, .award, blockquote, .keep { break-inside: avoid; page-break-inside: avoid; }
  p, li { orphans: 3; widows: 3; }
  .award .amount { font-size: 34px; }
}
@page { size: Letter; margin: 14mm 12mm; }
"""


def esc(text, keep: str = "") -> str:
    """Text for the HTML: escaped, and every control, bidirectional or invisible character shown as
    its code (core.names.visible), so a name cannot reverse or hide the report's own words."""
    return html.escape(visible(str(text), keep=keep), quote=True)


class _Charts:
    """Draws figures either as interactive divs (plotly.js embedded once) or static SVG."""

    def __init__(self, static: bool):
        self.static = static
        self.count = 0

    def __call__(self, fig: go.Figure) -> str:
        self.count += 1
        if self.static:
            import plotly.io as pio
            svg = pio.to_image(fig, format="svg", width=1000, height=int(fig.layout.height or 450)).decode("utf-8")
            return f'<div class="chart">{svg}</div>'
        div = fig.to_html(full_html=False, include_plotlyjs=False, include_mathjax=False,
                          div_id=f"chart-{self.count}", config={"displaylogo": False, "responsive": True})
        return f'<div class="chart">{div}</div>'


def _inputs_table(award: Award) -> str:
    app = award.application
    rows = []
    for f in FIELDS:
        if f.group == "considerations":
            continue
        if f.group == "exception" and not app.bpw_exception_requested:
            continue
        value = getattr(app, f.name)
        if f.kind == "money":
            shown = "none" if value is None else fmt(value)
        elif f.kind == "bool":
            shown = "yes" if value else "no"
        else:
            shown = PROJECT_TYPES[value]
        rows.append(f"<tr><th>{esc(f.label)}</th><td class='num'>{esc(shown)}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def _scenario(item: Item, chart, first: bool) -> str:
    a = item.award
    binding = ", ".join(CAP[c].label for c in a.binding)
    provisions = source_words(a)
    parts = [f'<section class="scenario{" first" if first else ""}">', f"<h2>{esc(item.name)}</h2>"]
    if item.notes:
        parts.append(f'<p class="notes">{esc(item.notes, keep=chr(10))}</p>')
    if a.is_variant:
        parts.append(f'<p class="variant">Policy variant, not the regulation in force: {esc(a.ruleset_label)}</p>')
    parts.append(f'<div class="award"><div><div class="meta">State grant award</div>'
                 f'<div class="amount">{esc(fmt(a.amount))}</div></div><div class="why">'
                 f'<div>Binding: <span class="bind">{esc(a.binding_text)}</span></div>'
                 f"<div>Route: {esc(ROUTES[a.route])}</div><div>From: {esc(provisions)}</div>"
                 f'<div class="cite">{esc(edition_words(a.ruleset_label, a.ruleset_edition, a.ruleset_version))}; '
                 f'{esc(a.readings.describe())}</div></div></div>')
    parts.append("<p class='cite'>The award is the most the State may give under the regulation; the Department "
                 "sets the amount within it.</p>")
    others = other_readings_words(a)
    parts.append("<div class='keep readings'><h3>Readings that would change this award</h3>" + (
        "<ul>" + "".join(f"<li>{esc(t)}</li>" for t in others) + "</ul>" if others else
        "<p>No single other reading of the regulation changes this award.</p>") + "</div>")
    parts.append('<div class="pair keep"><div><h3>Inputs</h3>' + _inputs_table(a) + "</div>")
    parts.append("<div><h3>Funding plan</h3><table>" + "".join(
        f"<tr><th>{label}</th><td class='num'>{esc(fmt(a.funding[k]))}</td></tr>"
        for k, label in (("federal", "Federal grant"), ("state", "State grant award"),
                         ("local", "Local contribution"), ("gap", "Funding gap"))) + "</table></div></div>")
    parts.append(chart(headroom_figure(a)))
    parts.append(chart(waterfall_figure(a)))
    # The checks and the explanation stay together: moved whole to the next page if they do not
    # fit, never a table's header row or a heading left at the foot of a page.
    parts.append('<div class="keep"><h3>Checks</h3><table><tr><th>Check</th><th>Result</th><th>Detail</th></tr>' + "".join(
        f"<tr><td>{esc(c.label)}</td><td class='{c.status}'>{STATUS[c.status]}</td><td>{esc(c.message)}</td></tr>"
        for c in a.checks) + "</table>")
    # The caps that bind close the explanation as its last line, not as a paragraph of their own
    # that a page break could leave alone on a page.
    parts.append("<h3>How the award is worked out</h3><ol>" + "".join(
        f"<li>{esc(s.text)} <span class='cite'>({esc(citation(s.provision, a).words if s.provision in PROVISION else 'Result')})"
        f"</span></li>" for s in a.steps) + f"</ol><p class='cite'>Caps binding: {esc(binding)}.</p></div></section>")
    return "".join(parts)


def _comparison(items: list[Item], chart, baseline: str) -> str:
    from core.report.compare import ANSWER, INPUTS, table
    named = [(i.name, i.award) for i in items]
    df = table(named)

    def html_table(columns) -> str:
        head = "".join(f"<th>{esc(c)}</th>" for c in columns)
        body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>"
                       for row in df[list(columns)].itertuples(index=False))
        return f"<table><tr>{head}</tr>{body}</table>"

    out = ['<section class="comparison"><h2>Comparison of scenarios</h2>',
           '<div class="keep"><h3>The answer for each scenario</h3>' + html_table(("Scenario", *ANSWER)) + "</div>",
           '<div class="keep"><h3>The inputs behind it</h3>' + html_table(("Scenario", *INPUTS)) + "</div>",
           chart(compare_caps_figure(named)), chart(funding_figure(named)),
           chart(change_figure(named, baseline)), "</section>"]
    return "".join(out)


def _sources(items: list[Item]) -> str:
    from core.law.readings import READING
    used = dict.fromkeys(s.provision for i in items for s in i.award.steps if s.provision in PROVISION)
    cited = dict.fromkeys(c for i in items for c in citations(i.award))
    parts = ['<section class="sources"><h2>The regulation and the interpretations used</h2>',
             "<h3>The regulation's sentences for the caps that bind</h3>"]
    for c in cited:
        parts.append(f"<p><b>{esc(c.words)}</b></p>")
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
                 "(the State share) is rounded down, so no cap is exceeded by rounding; the required local "
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
    parts.append("</ul><h3>Paragraph letters</h3><p>This report letters the paragraphs in the order of the text "
                 "(an inference, as said under the title): " + esc("; ".join(f"§{k}, {w}" for k, w in LETTERING))
                 + ".</p>")
    parts.append(_glossary(items) + "</section>")
    return "".join(parts)


def _glossary(items: list[Item]) -> str:
    """For programs reading the JSON and CSV files: the names used there for what this report
    calls by its label (caps, routes and readings that appear in it)."""
    from core.law.readings import READINGS
    caps = dict.fromkeys(c for i in items for c in i.award.caps)
    routes = dict.fromkeys(i.award.route for i in items)
    rulesets = dict.fromkeys((i.award.ruleset_label, i.award.ruleset_id) for i in items)
    rows = ([(label, f"ruleset {rid}") for label, rid in rulesets] + [(CAP[c].label.capitalize(), c) for c in caps]
            + [(ROUTES[r], r) for r in routes] + [(r.title, r.id) for r in READINGS])
    return ("<div class='keep glossary'><h3>For programs: the names used in the data files</h3><table><tr><th>In this "
            "report</th><th>In JSON and CSV</th></tr>" + "".join(
                f"<tr><td>{esc(label)}</td><td><code>{esc(name)}</code></td></tr>" for label, name in rows)
            + "</table></div>")


def render(report: Report, static: bool = False) -> str:
    """The whole report as one HTML document. static=True draws SVG charts (for the PDF)."""
    if not report.items:
        raise ReportError("a report needs at least one scenario")
    if not 0 <= report.baseline < len(report.items):
        raise ReportError(f"the baseline is scenario {report.baseline + 1}, but the report has {len(report.items)}")
    chart = _Charts(static)
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
    head.append(f"<p class='meta'>{esc(LETTERS_INFERRED)} The letters used here are set out on the last page.</p>")
    body = ["<header>" + "".join(head) + "</header>"]
    body += [_scenario(item, chart, first=(k == 0)) for k, item in enumerate(report.items)]
    if len(report.items) > 1:
        body.append(_comparison(report.items, chart, report.items[report.baseline].name))
    body.append(_sources(report.items))
    body.append("<footer>Computed from the regulation's text as encoded in this tool; every number traceable to "
                "a provision. Amounts in US dollars.</footer>")
    script = ""
    if not static:
        from plotly.offline import get_plotlyjs
        script = f"<script>{get_plotlyjs()}</script>"
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{esc(report.title)}</title>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<style>{CSS}</style>{script}</head><body>{''.join(body)}</body></html>")
