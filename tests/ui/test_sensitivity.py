"""The Sensitivity and Rules pages through AppTest."""
from streamlit.testing.v1 import AppTest

from tests.support import ROOT


def page(path, params=None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    at.switch_page(path).run()
    assert not at.exception, at.exception
    return at


def texts(at):
    return [m.value.replace("\\", "") for m in at.markdown]


def test_sensitivity_breakpoints_and_charts():
    at = page("pages/sensitivity.py", {"project_type": "construction", "eligible_cost": "1000000",
                                       "local_contribution": "500000"})
    lines = texts(at)
    assert "- The program maximum holds the award down from $1,200,000 of total cost of eligible work: award $600,000" in lines
    assert "- The State's share of the cost holds the award down from $1,000,000 of total cost of eligible work: award $500,000" in lines
    assert len(at.get("plotly_chart")) == 2
    at.selectbox(key="w:sweep_field").set_value("local_contribution").run()
    assert not at.exception
    assert any("What the project still lacks holds the award down from $500,000 of local contribution" in t for t in texts(at))


def test_sensitivity_overlay_variant_and_map_axes():
    at = page("pages/sensitivity.py")
    at.multiselect(key="w:sweep_overlay").set_value(["cap-800k"]).run()
    at.selectbox(key="w:map_x").set_value("federal_grant").run()
    at.select_slider(key="w:map_cells").set_value(200).run()
    assert not at.exception and len(at.get("plotly_chart")) == 2


def test_rules_page_lists_every_parameter_with_citation():
    at = page("pages/rules.py")
    body = "\n".join(texts(at))
    for cite in ("may not exceed $600,000", "may not exceed $15,000", "50 percent of the total cost",
                 "At least 50 percent", "the difference between the prior grant and $300,000"):
        assert cite in body
    assert "Interpretation:" in body


def test_variant_editor_makes_a_labelled_variant_and_rejects_bad_values():
    at = page("pages/rules.py", {"project_type": "renovation", "eligible_cost": "3000000",
                                 "local_contribution": "1500000"})
    at.text_input[0].input("Cap at one million")
    at.text_input[1].input("1,000,000")
    at.button[0].click().run()
    assert any("Made the variant" in s.value for s in at.success)
    # the comparison of rulesets (the page's history tables of each number come before it)
    df = next(t.value for t in at.table if "State grant award" in t.value.columns)   # Markdown cells: amounts escaped
    assert "\\$1,000,000" in list(df["State grant award"])
    assert "` Cap at one million (variant, not the regulation in force) `" in list(df["Ruleset"])
    at.text_input[1].input("-5")
    at.button[0].click().run()
    assert any("Not made" in e.value and "negative" in e.value for e in at.error)
