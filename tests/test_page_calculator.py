"""The calculator page through Streamlit's AppTest: inputs in, award and binding cap out."""
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT


def app(params=None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    return at.run()


def award(at) -> str:
    return next(m.value for m in at.metric if m.label == "State grant award")


def binding(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Binding:**"))


def test_opens_on_the_default_example():
    at = app()
    assert not at.exception
    assert award(at) == "$500,000"
    assert "State share limit and funding need \\(both \\$500,000\\)" in binding(at)
    assert at.slider(key="s:eligible_cost").label == "Total cost of eligible work"
    assert at.slider(key="s:eligible_cost").value == 1_000_000
    assert at.selectbox(key="w:project_type").value == "renovation"
    assert at.text_input(key="w:scenario_name").label == "Scenario name"
    assert dict(at.query_params) == {"project_type": "renovation", "eligible_cost": "1000000",
                                     "federal_grant": "0", "local_contribution": "500000",
                                     "prior_program_funds": "0"}


def test_cost_slider_changes_award_and_binding():
    at = app()
    at.slider(key="s:eligible_cost").set_value(3_000_000).run()
    assert award(at) == "$600,000"
    assert "program maximum \\(\\$600,000\\)" in binding(at)
    assert at.text_input(key="t:eligible_cost").value == "3,000,000"
    assert at.query_params["eligible_cost"] == "3000000"


def test_exact_entry_with_cents_and_separators():
    at = app()
    at.text_input(key="t:eligible_cost").input("$1,100,000.01").run()
    assert award(at) == "$550,000"          # 50% of $1,100,000.01 rounded down
    assert at.query_params["eligible_cost"] == "1100000.01"
    at.text_input(key="t:eligible_cost").input("lots").run()
    assert award(at) == "$550,000"          # the last good value is kept
    errors = [e.value.replace("\\", "") for e in at.error]
    assert "Total cost of eligible work: 'lots' is not a number; enter dollars such as 1250000 or " \
           "1,250,000.50. Kept $1,100,000.01." in errors
    at.text_input(key="t:eligible_cost").input("  ").run()   # emptied: says so, instead of "is not a number"
    errors = [e.value.replace("\\", "") for e in at.error]
    assert "Total cost of eligible work is empty: enter dollars such as 1,250,000. Kept $1,100,000.01." in errors
    assert award(at) == "$550,000"


def test_typed_value_beyond_the_slider_is_not_clipped():
    at = app()
    at.text_input(key="t:eligible_cost").input("12,345,678").run()
    s = at.slider(key="s:eligible_cost")
    assert s.value == 12_345_678 and s.max >= 12_345_678
    assert at.query_params["eligible_cost"] == "12345678"


@pytest.mark.parametrize("key,value,expected,words", [
    ("s:federal_grant", 400_000, "$300,000", "State share limit and funding need"),
    ("s:local_contribution", 900_000, "$100,000", "funding need \\(\\$100,000\\)"),
    ("s:prior_program_funds", 250_000, "$50,000", "prior\\-grant room \\(\\$50,000\\)"),
])
def test_each_input_changes_award(key, value, expected, words):
    at = app()
    if key != "s:local_contribution":
        at.slider(key="s:local_contribution").set_value(300_000 if key == "s:federal_grant" else 0).run()
    at.slider(key=key).set_value(value).run()
    assert award(at) == expected
    assert words in binding(at)


def test_master_plan_range_and_cap():
    at = app({"project_type": "master_plan", "eligible_cost": "40000", "local_contribution": "20000"})
    assert award(at) == "$15,000"
    assert at.slider(key="s:eligible_cost").max == 100_000


def test_requested_amount_toggle():
    at = app()
    at.toggle(key="w:has_request").set_value(True).run()
    assert at.text_input(key="t:requested_amount").value == "500,000"
    at.text_input(key="t:requested_amount").input("123,456.78").run()
    assert award(at) == "$123,456.78"
    assert "requested amount" in binding(at)
    assert at.query_params["requested_amount"] == "123456.78"


def test_federal_law_contrary():
    at = app({"project_type": "renovation", "eligible_cost": "1000000", "federal_grant": "200000"})
    assert award(at) == "$400,000"
    at.checkbox(key="w:federal_law_contrary").check().run()
    assert award(at) == "$500,000"


def test_query_params_seed_the_inputs():
    at = app({"project_type": "renovation", "eligible_cost": "1000000", "local_contribution": "100000",
              "bpw_exception_requested": "true", "local_property_value": "700000"})
    assert award(at) == "$600,000"
    assert "Board of Public Works exception" in binding(at)
    assert at.slider(key="s:local_property_value").value == 700_000


@pytest.mark.parametrize("flag", ["w:state_funds_in_property", "w:state_bonded_debt"])
def test_each_exception_condition_flips_the_route(flag):
    at = app({"project_type": "renovation", "eligible_cost": "1000000", "local_contribution": "100000",
              "bpw_exception_requested": "true", "local_property_value": "700000"})
    at.checkbox(key=flag).check().run()
    assert award(at) == "$500,000"
    assert "Standard route" in binding(at)
    assert any(":red[:material/cancel: Fail]" in m.value for m in at.markdown)


def test_exception_panel_shows_each_condition_with_its_sentence():
    at = app({"project_type": "acquisition", "eligible_cost": "1000000", "bpw_exception_requested": "true",
              "local_property_value": "700000"})
    texts = [m.value.replace("\\", "") for m in at.markdown]
    assert any("Fail]" in t and "Project type qualifies" in t and "The grant is for conversion, renovation" in t
               for t in texts)
    assert any("Pass]" in t and "No State bonded debt on it" in t and "bonded indebtedness" in t for t in texts)


def test_type_and_value_conditions_flip_the_route():
    at = app({"project_type": "renovation", "eligible_cost": "1000000", "local_contribution": "100000",
              "bpw_exception_requested": "true", "local_property_value": "700000"})
    at.selectbox(key="w:project_type").set_value("acquisition").run()
    assert "Standard route" in binding(at) and award(at) == "$500,000"
    at.selectbox(key="w:project_type").set_value("renovation").run()
    at.slider(key="s:local_property_value").set_value(400_000).run()
    assert "Standard route" in binding(at) and award(at) == "$500,000"


@pytest.mark.parametrize("params,message", [
    ({"eligible_cost": "-5"}, "“Total cost of eligible work” (eligible_cost=` -5 `) is negative"),
    ({"eligible_cost": "lots"}, "“Total cost of eligible work” (eligible_cost=` lots `) is not a number"),
    ({"eligible_cost": ""}, "“Total cost of eligible work” (eligible_cost) is empty"),
    ({"project_type": "castle", "eligible_cost": "1000000"}, "“Project type” (project_type=` castle `) is not a project type"),
    ({"eligible_cost": "1000000", "ruleset": "nope"}, "the ruleset ` nope ` is unknown"),
    ({"eligible_cost": "1000000", "federal_law_contrary": "perhaps"},
     "“Federal law requires otherwise” (federal_law_contrary=` perhaps `) is not yes or no"),
])
def test_bad_url_values_fall_back_with_a_message(params, message):
    at = app(params)
    assert not at.exception
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert any(message in w and "showing the example instead" in w for w in warnings), warnings
    assert award(at) == "$500,000"          # the example's award, whole


@pytest.mark.parametrize("params", [
    {"eligible_cost": "abc", "federal_grant": "400000"},          # a mix would give $300,000
    {"eligible_cost": "1800000", "local_contribution": "-1", "federal_grant": "400000"},
    {"project_type": "master_plan", "eligible_cost": "1000000", "federal_law_contrary": "maybe"},
])
def test_a_bad_link_never_mixes_its_values_with_the_example(params):
    """Any bad value: none of the link's values are used; the example is shown whole."""
    at = app(params)
    assert award(at) == "$500,000"
    assert at.slider(key="s:eligible_cost").value == 1_000_000
    assert at.slider(key="s:federal_grant").value == 0
    assert at.slider(key="s:local_contribution").value == 500_000
    assert at.selectbox(key="w:project_type").value == "renovation"
    assert at.query_params["eligible_cost"] == "1000000"    # the link now says what is shown


def test_a_bad_link_on_another_page_says_so():
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60)
    at.query_params["eligible_cost"] = "oops"
    at.switch_page("pages/sensitivity.py").run()
    assert not at.exception
    assert any("(eligible_cost=` oops `) is not a number" in w.value.replace("\\", "") for w in at.warning)


def test_explanation_and_what_would_change():
    at = app()
    texts = [m.value.replace("\\", "") for m in at.markdown]
    assert any("\n5. The award is the least of these limits: $500,000." in t for t in texts)
    assert any("Each extra $1 of total cost of eligible work adds $0.50 of award until $1,200,000" in t for t in texts)
    quoted = "“A grant for conversion"
    assert not any(quoted in m.value.replace("\\", "") for m in at.markdown)
    at.toggle(key="w:show_quotes").set_value(True).run()
    assert any("“A grant for conversion" in m.value.replace("\\", "") for m in at.markdown)


def test_variant_ruleset_is_labelled():
    at = app({"project_type": "renovation", "eligible_cost": "3000000", "local_contribution": "1500000",
              "ruleset": "cap-800k"})
    assert award(at) == "$800,000"
    assert any("not the regulation in force" in w.value for w in at.warning)


def test_presentation_mode_hides_inputs_and_comes_back():
    at = app()
    at.toggle(key="presentation").set_value(True).run()
    assert not at.exception
    assert award(at) == "$500,000"
    assert not [s for s in at.slider if s.key == "s:eligible_cost"]
    at.button(key="w:exit_presentation").click().run()
    assert at.slider(key="s:eligible_cost").value == 1_000_000


def test_report_buttons_present():
    at = app()
    labels = [b.label for b in at.get("download_button")]
    assert "Download the report (HTML, works offline)" in labels


def test_values_survive_moving_to_other_pages_and_back():
    at = app()
    at.slider(key="s:eligible_cost").set_value(2_000_000).run()
    at.switch_page("pages/rules.py").run()
    at.switch_page("pages/calculator.py").run()
    assert not at.exception
    assert at.slider(key="s:eligible_cost").value == 2_000_000 and award(at) == "$600,000"
