"""Compare's awards chart as Plotly.js draws it, in Chromium, measured with bounding boxes (issue 51:
the "$200,000" of a short bar dropped under its scenario's name, on screen and in the PDF). Each
award's amount is a text of its own, on its bar's row, inside the drawing, and covers no name,
legend entry, tick, marker, bar or other amount: on the page (normal and presentation type), on a
presented scenario's own chart (a set height), and on paper (the PDF packet's drawing)."""
from __future__ import annotations

import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.money import fmt
from core.report.charts.compare import compare_caps_figure
from core.report.charts.layout import label
from core.report.charts.paper import PRINT_WIDTH, for_print
from tests.browser.test_chart_text import plotly_page

# Every text and mark of the drawing, with its box; the amounts are the annotations.
BOXES = """() => {
  const gd = document.querySelector('.js-plotly-plot');
  const box = e => { const r = e.getBoundingClientRect();
                     return {x: r.left, y: r.top, r: r.right, b: r.bottom, text: e.textContent}; };
  const all = s => [...gd.querySelectorAll(s)].map(box).filter(b => b.r > b.x && b.b > b.y);
  return {svg: box(gd.querySelector('.main-svg')), amounts: all('.annotation-text-g text'),
          names: all('.ytick text'), ticks: all('.xtick text'), legend: all('.legend text'),
          title: all('.gtitle'), markers: all('.scatterlayer .point'), bars: all('.barlayer .point')};
}"""


def _named():
    """Four scenarios, one of them a $200,000 award beside $600,000 ones (issue 51's bar)."""
    def award(**fields):
        return evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": "1450000"} | fields))
    return [("As submitted", award(local_contribution="600000")),
            ("Additional work after a $100,000 grant", award(local_contribution="600000", prior_program_funds="100000")),
            ("With a federal grant", award(local_contribution="600000", federal_grant="400000")),
            ("Board exception asked for, with property the locality makes available",
             award(local_contribution="300000", bpw_exception_requested="true", local_property_value="900000"))]


def _figures():
    named = _named()
    return {"page": (compare_caps_figure(named), 1300),
            "presenting": (compare_caps_figure(named, large=True), 1300),
            "one scenario presented": (compare_caps_figure(named[:2], large=True, focus=named[1][0], height=400), 700),
            "paper": (for_print(compare_caps_figure(named), PRINT_WIDTH), 800)}


def _meet(a, b) -> bool:
    return a["x"] < b["r"] - 0.5 and b["x"] < a["r"] - 0.5 and a["y"] < b["b"] - 0.5 and b["y"] < a["b"] - 0.5


@pytest.mark.parametrize("kind", list(_figures()))
def test_each_award_amount_reads_on_its_bars_row_and_covers_nothing(chromium, tmp_path, kind):  # noqa: F811
    fig, width = _figures()[kind]
    named = _named()[:2] if kind == "one scenario presented" else _named()
    path = tmp_path / "chart.html"
    path.write_text(plotly_page({kind: fig}), encoding="utf-8")
    page = chromium.new_page(viewport={"width": width, "height": 1200})
    page.goto(path.as_uri())
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60_000)
    page.wait_for_timeout(300)
    got = page.evaluate(BOXES)
    page.close()
    amounts = got["amounts"]
    # every award has its amount drawn as a text of its own, in the order of the bars; no name carries one
    assert [a["text"] for a in amounts] == [fmt(a.amount) for _, a in named]
    assert [n["text"] for n in got["names"]] == [label(n, 24).replace("<br>", "") for n, _ in named]
    bars = sorted(got["bars"], key=lambda b: b["y"])
    assert len(bars) == len(named)
    for k, (amount, bar) in enumerate(zip(amounts, bars)):
        middle = (amount["y"] + amount["b"]) / 2
        assert bar["y"] <= middle <= bar["b"], (kind, amount, bar)          # on its bar's row
        assert got["svg"]["x"] <= amount["x"] and amount["r"] <= got["svg"]["r"], (kind, amount)   # not cut off
        others = [o for key in ("names", "ticks", "legend", "title", "markers", "bars") for o in got[key]]
        others += [o for j, o in enumerate(amounts) if j != k]
        assert not [o for o in others if _meet(amount, o)], (kind, amount)
    # the short bar's amount is as readable as the long ones': the same type, none smaller
    assert len({round(a["b"] - a["y"]) for a in amounts}) == 1
