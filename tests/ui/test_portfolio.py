""""""
from streamlit.testing.v1 import AppTest

from tests.support import ROOT


def test_portfolio_page_sample_modes_and_weights():
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.switch_page("pages/portfolio.py").run()
    assert not at.exception
    assert any("ILLUSTRATIVE" in w.value for w in at.warning)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Allocated"] == "$4,000,000" and metrics["Budget"] == "$4,000,000"
    assert len(at.get("plotly_chart")) == 3
    from core.law.provisions import LAW_CAPTION
    # the caption names the law as the calculator does (the edition and fingerprint: Rules page, exports)
    assert at.caption[0].value.replace("\\", "").endswith(LAW_CAPTION)
    at.radio(key="w:pf_mode").set_value("pro-rata").run()
    at.slider(key="w:pf_w:density").set_value(3.0).run()
    at.selectbox(key="w:pf_variant").set_value("cap-800k").run()
    assert not at.exception
    assert any("more" in m.value and "Capital cap raised" in m.value for m in at.markdown)
    at.text_input(key="w:pf_budget").input("lots").run()
    assert any("Budget: ` lots ` is not a number" in e.value for e in at.error)


def test_the_portfolio_packet_is_made_at_the_click_for_what_the_page_shows():
    """Issue 28: a board document for the portfolio, beside the results download, made as the
    report files are (ui/reporting.py): for the budget, mode and weights on the screen then."""
    import base64
    import json

    from tests.support.panel import _nodes
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.switch_page("pages/portfolio.py").run()
    labels = [b.label for b in at.button]
    assert "Download the Portfolio packet (HTML)" in labels and "Make the Portfolio packet (PDF)" in labels
    at.text_input(key="w:pf_budget").input("2,500,000")
    at.radio(key="w:pf_mode").set_value("whole")
    at.slider(key="w:pf_w:proximity").set_value(2.0)
    at.text_input(key="w:pf:prepared").input("Grants office")
    at.button(key="w:pf:html").click().run()
    assert not at.exception
    node = next(n for n in _nodes(at) if n.key == "pf:file")
    got = json.loads(node.proto.bytes)
    assert got["name"] == "portfolio-allocation.html" and got["mime"] == "text/html"
    doc = base64.b64decode(got["b64"]).decode("utf-8")
    assert "<h1>Portfolio allocation</h1>" in doc and "Prepared by Grants office" in doc
    assert "ILLUSTRATIVE: a sample of fictional applications" in doc
    assert "In priority order, skipping awards that do not fit whole, against a budget of $2,500,000." in doc
    assert "Priority score = 25% × (denser senior population) + 50% × (farther from an existing senior center)" in doc
    assert "All 20 applications in priority order." in doc and "Held down by" in doc
    assert "Cumulative allocation against the budget" in doc


def test_the_portfolio_packet_refuses_a_preparer_with_hidden_characters():
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.switch_page("pages/portfolio.py").run()
    at.text_input(key="w:pf:prepared").input("Ann\u200b")
    at.button(key="w:pf:html").click().run()
    assert not at.exception
    said = next(e.value for e in at.error if "The packet cannot carry this" in e.value)
    assert "Prepared by: ` Ann[U+200B] ` contains an invisible formatting character" in said.replace("\\", "")
