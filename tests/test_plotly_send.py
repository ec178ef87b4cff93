"""core.plotly_send.unshared: the calculator's charts skip Plotly's deep copy when sent;
what reaches the browser must be byte for byte what the plain figure gives."""
import plotly.io as pio
import plotly.tools
from hypothesis import given, settings

from core.application import Application
from core.award import evaluate
from core.charts import headroom_figure, waterfall_figure
from core.plotly_send import unshared
from tests.strategies import applications


def sent(fig) -> str:
    """What st.plotly_chart puts on the wire for a figure (streamlit/elements/plotly_chart.py)."""
    return pio.to_json(plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True), validate=False)


@settings(max_examples=60, deadline=None)
@given(applications())
def test_unshared_figure_sends_the_same_json(app):
    award = evaluate(app)
    for figure in (headroom_figure, waterfall_figure):
        assert sent(unshared(figure(award, validate=False))) == sent(figure(award, validate=False))


def test_unshared_figure_keeps_its_template_and_data():
    award = evaluate(Application(project_type="renovation", eligible_cost=100_000_000, local_contribution=50_000_000))
    fig = unshared(headroom_figure(award, validate=False))
    d = fig.to_dict()
    assert d["data"][0]["type"] == "bar"
    assert "template" in d["layout"]
