"""core.report.plotly_send.prebuilt: the calculator's charts skip Plotly's object tree and deep copy when sent;
what reaches the browser must be byte for byte what the plain figure gives."""
import json

import plotly.io as pio
import plotly.tools
from hypothesis import given, settings

from core.law.application import Application
from core.law.award import evaluate
from core.report.charts.calculator import headroom_figure, waterfall_figure
from core.report.plotly_send import prebuilt
from tests.support.strategies import applications
from ui.text import md


def sent(fig) -> str:
    """What st.plotly_chart puts on the wire for a figure (streamlit/elements/plotly_chart.py)."""
    return pio.to_json(plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True), validate=False)


@settings(max_examples=60, deadline=None)
@given(applications())
def test_prebuilt_figure_sends_the_same_json(app):
    award = evaluate(app)
    for figure in (headroom_figure, waterfall_figure):
        plain = json.loads(sent(figure(award, validate=False)))
        assert json.loads(sent(prebuilt(figure(award, as_dict=True)))) == plain
        assert plain == json.loads(sent(figure(award)))   # and the validated figure is the same too


def test_prebuilt_figure_keeps_its_template_and_data():
    award = evaluate(Application(project_type="renovation", eligible_cost=100_000_000, local_contribution=50_000_000))
    fig = prebuilt(headroom_figure(award, as_dict=True))
    d = fig.to_dict()
    assert d["data"][0]["type"] == "bar"
    assert "template" in d["layout"]


class _Recorder:
    """Stands in for streamlit inside ui.charts.chart: records what would be drawn."""

    def __init__(self):
        self.sent, self.shown = [], []
        self.session_state = {}   # not presenting: ui.charts reads the mode from it

    def plotly_chart(self, fig, **kwargs):
        self.sent.append((sent(fig), kwargs))

    def markdown(self, text):
        self.shown.append(text)

    def expander(self, label, **kwargs):
        self.shown.append(label)
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def table(self, rows):
        self.shown.append(rows)


@settings(max_examples=40, deadline=None)
@given(applications())
def test_the_calculators_chart_element_draws_what_st_plotly_chart_drew(app):
    """ui.components.chart_panel takes the calculator's figures as plain dicts (no Plotly object tree):
    the title above, the figure sent (template included), the sentence naming it and its
    numbers are those ui.charts.chart draws for the go.Figure on the other pages."""
    import ui.charts as charts
    from core.report import chart_text
    from ui.components.chart_panel import chart_data

    award = evaluate(app)
    for figure, text in ((headroom_figure, chart_text.headroom), (waterfall_figure, chart_text.waterfall)):
        for large in (False, True):
            rec = _Recorder()
            real, charts.st = charts.st, rec
            try:
                charts.chart(figure(award, validate=False, large=large), "k", text(award))
            finally:
                charts.st = real
            [(spec, kwargs)] = rec.sent
            data = json.loads(json.dumps(chart_data(figure(award, large=large, as_dict=True), "k", text(award))))
            assert data["figure"] == json.loads(spec)                       # the figure, byte for byte in JSON
            assert data["alt"] == kwargs["alt"] == text(award)[0]          # the sentence that names it
            assert rec.shown[0] == f"**{md(data['title'])}**"               # the title above it
            assert rec.shown[1] == md(f"Numbers behind “{data['title']}”")   # the label, as Markdown made inert
            assert data["rows"] == text(award)[1]                          # its numbers, cell for cell
            assert rec.shown[2] == charts.table(data["rows"])
