"""An HTML packet as one page, the board report's (core/report/html.py) and the Portfolio
packet's (core/report/portfolio.py) alike: the styles (on screen and on paper), user text escaped,
the charts drawn as interactive divs or as static SVG for the PDF, and the document around them.
"""
from __future__ import annotations

import html

import plotly.graph_objects as go

from core.law.names import visible
from core.report.charts.paper import PRINT_HALF, PRINT_WIDTH, for_print

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
