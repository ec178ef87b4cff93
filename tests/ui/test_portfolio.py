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
