"""Plotly figures as pure functions (data in, go.Figure out), shared by the pages and the exported
report so both draw the very same charts. Each figure is its own builder, in the module of the page
that shows it:

- `calculator.py`: the headroom under every limit, and the waterfall of the sources of funds;
- `compare.py`: each scenario's award against every limit, their sources of funds, the change from
  the baseline;
- `sensitivity.py`: the award along one input (sweep) and over two (map);
- `portfolio.py`: the ranking, the running total against the budget, priority against award.

They share `colours.py` (what each source of funds and each cap is drawn in: a cap's colour, marker
and curve colour are the registry's, core/law/provisions.toml, so a cap added there is drawn in its
own in every chart with no edit here), `layout.py` (type, legend, axes, chart text made inert) and
`paper.py` (`for_print`: the PDF packets' type sizes). This file imports nothing: import the
builder's module (`from core.report.charts.compare import funding_figure`), so that the colours
load without Plotly.
"""
