"""core.plotly_send.prebuilt: the calculator's charts skip Plotly's object tree and deep copy when sent;
what reaches the browser must be byte for byte what the plain figure gives."""
import json

import plotly.io as pio
import plotly.tools
from hypothesis import given, settings

from core.application import Application
from core.award import evaluate
from core.charts import headroom_figure, waterfall_figure
from core.plotly_send import prebuilt
from tests.strategies import applications


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

    def plotly_chart(self, fig, **kwargs):
        self.sent.append((sent(fig), kwargs))

    def markdown(self, text):
        self.shown.append(text)

    def expander(self, label, **kwargs):
        self.shown.append(label)
        return _OpenExpander(self)

    def table(self, rows):
        self.shown.append(repr(rows))


class _OpenExpander:
    """An expander the user has opened: what is drawn in it is recorded with the rest."""

    open = True

    def __init__(self, recorder):
        self.recorder = recorder

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def markdown(self, text):
        self.recorder.markdown(text)

    def table(self, rows):
        self.recorder.table(rows)


@settings(max_examples=40, deadline=None)
@given(applications())
def test_chart_draws_a_plain_dict_as_it_draws_the_figure(app):
    """ui.charts.chart takes the calculator's figures as plain dicts (no Plotly object tree):
    the title above, the JSON sent, the alt text and the table are those of the go.Figure."""
    import ui.charts as charts
    from core import chart_text

    award = evaluate(app)
    for figure, text in ((headroom_figure, chart_text.headroom), (waterfall_figure, chart_text.waterfall)):
        for large in (False, True):
            drawn = []
            for fig in (figure(award, validate=False, large=large), figure(award, large=large, as_dict=True)):
                rec = _Recorder()
                real, charts.st = charts.st, rec
                try:
                    charts.chart(fig, "k", text(award))
                finally:
                    charts.st = real
                drawn.append((rec.shown, [(json.loads(j), kw) for j, kw in rec.sent]))
            (shown_fig, sent_fig), (shown_dict, sent_dict) = drawn
            assert sent_dict == sent_fig                 # the chart and its alt text
            assert shown_dict[:2] == shown_fig[:2]       # title above, expander's label
            rows = text(award)[1]
            assert shown_fig[2] == repr(charts.table(rows))
            assert shown_dict[2] == charts.table_markdown(rows)   # the same rows, as a Markdown table
            for row in charts.table(rows):                       # each cell as st.table would show it
                assert all(v in shown_dict[2] for v in row.values())
