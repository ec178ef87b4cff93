"""Chart text as Plotly.js draws it, in Chromium: a name with quotation marks, an apostrophe, an
ampersand and a tag reads as typed in every chart on screen, in the board report and in the
Portfolio packet (issue 36: html.escape's &quot; is not Plotly's, and every chart label read
`Option &quot;B&quot;`). The PDF packets' text is checked in tests/report/test_pdf.py."""
from __future__ import annotations

import pytest

from harness.serve import wait_ready
from tests.support import ROOT
from tests.support.browser import library_server, no_error_on
from tests.support.figures import QUOTED, every_figure

ARTIFACTS = ROOT / "test-artifacts"

# What each chart's drawing says: the text of its SVG (a wrapped label's lines run together), and
# the hover label of each of its points (where some charts put the names), as Plotly.js draws them.
# (Plotly.js draws at most one hover a 50 ms: each is waited for.)
DRAWN = """async () => {
  const out = [];
  for (const gd of document.querySelectorAll('.js-plotly-plot')) {
    const said = [...gd.querySelectorAll('.main-svg text')].map(t => t.textContent);
    for (const [c, trace] of gd.data.entries()) {
      for (let i = 0; i < (trace.x || trace.y || []).length; i++) {
        Plotly.Fx.hover(gd, [{curveNumber: c, pointNumber: i}]);
        await new Promise(r => setTimeout(r, 120));
        said.push(...[...gd.querySelectorAll('.hoverlayer text')].map(t => t.textContent));
      }
    }
    Plotly.Fx.unhover(gd);
    out.push(said.join(' | '));
  }
  return out;
}"""


def assert_as_typed(drawn: str) -> None:
    for piece in ('Option "B"', "(board's", "<b>co</b>", "&"):
        assert piece in drawn, (piece, drawn[:400])
    for entity in ("&quot;", "&#x27;", "&#39;", "&amp;", "&lt;"):
        assert entity not in drawn, (entity, drawn[:400])


def plotly_page(figures: dict) -> str:
    import plotly
    from pathlib import Path
    js = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text(encoding="utf-8")
    divs = "".join(f.to_html(full_html=False, include_plotlyjs=False) for f in figures.values())
    return f"<!doctype html><html><head><meta charset='utf-8'><script>{js}</script></head><body>{divs}</body></html>"


def _drawn(chromium, html: str, tmp_path, name: str, count: int):  # noqa: F811
    path = tmp_path / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    page = chromium.new_page(viewport={"width": 1300, "height": 2000})
    page.goto(path.as_uri())
    page.wait_for_function(f"() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= {count}",
                           timeout=60_000)
    drawn = page.evaluate(DRAWN)
    page.close()
    return drawn


@pytest.mark.parametrize("chart", list(every_figure("x")))
def test_every_chart_draws_a_quoted_name_as_typed(chromium, tmp_path, chart):  # noqa: F811
    drawn = _drawn(chromium, plotly_page({chart: every_figure(QUOTED)[chart]}), tmp_path, "chart", 1)
    assert_as_typed(drawn[0])


def test_the_board_report_and_the_portfolio_packet_draw_a_quoted_name_as_typed(chromium, tmp_path):  # noqa: F811
    from core.law.application import Application
    from core.law.award import evaluate
    from core.law.portfolio import read_sample, run
    from core.law.rulesets import load
    from core.report.html import Item, Report, render
    from core.report.portfolio import portfolio_report, render as render_packet
    a = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000,
                                        "local_contribution": 500_000}))
    b = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 2_000_000,
                                        "local_contribution": 500_000}))
    report = render(Report([Item("As submitted", a), Item(QUOTED, b)], baseline=1))
    drawn = _drawn(chromium, report, tmp_path, "report", 3)
    assert_as_typed(" ".join(d for d in drawn if 'Option "B"' in d or "&quot;" in d))
    assert len([d for d in drawn if 'Option "B"' in d]) >= 3     # the comparison's charts, titled by the baseline
    frame = read_sample()
    frame.loc[frame.index[0], "name"] = QUOTED
    rs = load()
    weights = {"density": 1.0, "proximity": 1.0, "new_locality": 1.0}
    result = run(frame, 200_000_000, "priority", weights, rs)
    packet = render_packet(portfolio_report(result, rs, weights, "priority", "sample.csv"))
    drawn = _drawn(chromium, packet, tmp_path, "packet", 1)
    assert_as_typed(" ".join(drawn))


def test_the_compare_page_draws_a_quoted_name_as_typed(chromium, tmp_path_factory):  # noqa: F811
    scenarios = [("As submitted", dict(project_type="renovation", eligible_cost=100_000_000,
                                       local_contribution=50_000_000)),
                 (QUOTED, dict(project_type="renovation", eligible_cost=200_000_000, local_contribution=50_000_000))]
    with library_server(tmp_path_factory, scenarios) as (url, _):
        page = chromium.new_page(viewport={"width": 1400, "height": 2400})
        from urllib.parse import urlencode
        page.goto(f"{url}/compare?" + urlencode([("scenario", "As submitted"), ("scenario", QUOTED)]))
        wait_ready(page, 60_000)
        page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= 3",
                               timeout=60_000)
        drawn = page.evaluate(DRAWN)
        assert len(drawn) == 3
        for chart in drawn:
            assert_as_typed(chart)
        page.screenshot(path=str(ARTIFACTS / "compare-quoted-name.png"), full_page=True)
        no_error_on(page)
