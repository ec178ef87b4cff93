"""The Calculator's "Reach an award" box in AppTest: the sentence of core.law.solve, a button that
puts the value in the inputs (and the address), and the same sentence in the board report when asked."""
from core.law.application import Application
from core.law.fields import FIELDS
from core.law.solve import solve
from core.report.page import esc
from tests.support.pages import award, dashboard as app
from tests.support.panel import Panel
from ui.text import md


def opened():
    at = app()
    assert "w:reach:target" not in [t.key for t in at.text_input]   # closed: nothing in it is built
    at.session_state["reach_panel"] = True
    at.run()
    return at


EXAMPLE = Application(project_type="renovation", eligible_cost=100_000_000, local_contribution=50_000_000)


# The application's amounts, in the field table's order (a new money input joins them with no edit here);
# the five the regulation has always had among them, in their order.
AMOUNTS = [f.label for f in FIELDS if f.kind == "money" and f.group == "application"]
SHIPPED = ["Total cost of eligible work", "Federal grant", "Local contribution", "Prior program funds", "Requested amount"]


def test_the_box_answers_in_the_solvers_words_and_its_button_applies_the_value():
    at = opened()
    assert at.selectbox(key="w:reach:field").options == AMOUNTS
    assert [a for a in AMOUNTS if a in SHIPPED] == SHIPPED
    at.selectbox(key="w:reach:field").set_value("eligible_cost")
    at.text_input(key="w:reach:target").input("550,000").run()
    sentence = solve(EXAMPLE, "eligible_cost", 55_000_000).sentence
    assert sentence.startswith("A total cost of eligible work of $1,100,000 reaches an award of $550,000")
    assert md(sentence) in [m.value for m in at.markdown]
    assert at.button(key="w:reach:apply").label == md("Use total cost of eligible work $1,100,000")
    at.button(key="w:reach:apply").click().run()
    assert not at.exception
    assert award(at) == "$550,000" and at.query_params["eligible_cost"] == "1100000"
    assert Panel(at)["eligible_cost"]["cents"] == 110_000_000
    # the award is there now: no button, and the sentence says so
    assert "w:reach:apply" not in [b.key for b in at.button]
    assert any(m.value.startswith("The award is already \\$550,000") for m in at.markdown)


def test_an_unreachable_target_names_the_limit():
    at = opened()
    at.selectbox(key="w:reach:field").set_value("local_contribution")
    at.text_input(key="w:reach:target").input("700000").run()
    assert md("No local contribution reaches $700,000: the State's share of the cost and what the project still "
              "lacks hold the award at $500,000.") in [m.value for m in at.markdown]
    assert "w:reach:apply" not in [b.key for b in at.button]   # the most is the award now: nothing to apply


def test_a_bad_amount_is_named():
    at = opened()
    at.text_input(key="w:reach:target").input("lots").run()
    assert not at.exception
    assert any("Award to reach" in e.value and "is not a number" in e.value for e in at.error)


def test_the_report_carries_the_sentence_when_asked():
    import base64

    from tests.ui.test_calculator import handed_over

    at = opened()
    at.selectbox(key="w:reach:field").set_value("eligible_cost")
    at.text_input(key="w:reach:target").input("550000").run()
    at.button(key="w:calc:html").click().run()
    assert "What it takes to reach an award" not in base64.b64decode(handed_over(at)["b64"]).decode()
    at.checkbox(key="w:reach:report").check().run()
    at.button(key="w:calc:html").click().run()
    doc = base64.b64decode(handed_over(at)["b64"]).decode()
    assert "What it takes to reach an award" in doc and esc(solve(EXAMPLE, "eligible_cost", 55_000_000).sentence) in doc


def test_undo_puts_back_each_change_in_turn():
    at = app()
    assert at.button(key="w:undo").disabled
    Panel(at).move("eligible_cost", 3_000_000)
    Panel(at).move("eligible_cost", 2_000_000)
    assert at.query_params["eligible_cost"] == "2000000" and not at.button(key="w:undo").disabled
    at.button(key="w:undo").click().run()
    assert at.query_params["eligible_cost"] == "3000000" and award(at) == "$600,000"
    at.button(key="w:undo").click().run()
    assert at.query_params["eligible_cost"] == "1000000" and award(at) == "$500,000"
    assert Panel(at)["eligible_cost"]["cents"] == 100_000_000 and at.button(key="w:undo").disabled


def test_the_box_offers_only_amounts_the_law_reads():
    """A Board amount is offered only with the exception asked for and only under a law whose test
    reads it: the regulation never reads the residual value; the statute today reads it beside the property's value."""
    def options(params):
        at = app(params)
        at.session_state["reach_panel"] = True
        at.run()
        return at.selectbox(key="w:reach:field").options

    base = AMOUNTS
    whole = {"project_type": "renovation", "eligible_cost": "1000000"}   # a link gives the application whole
    assert options({"bpw_exception_requested": "true"} | whole) == base + ["Value of property made available locally"]
    statute = options({"bpw_exception_requested": "true", "ruleset": "statute"} | whole)
    assert statute == base + ["Value of property made available locally",
                              "Residual value of that property and its improvements", "Prior amounts used as matching funds",
                              "Outstanding State debt on it from another program", "Other tangible State investment in it"]


def test_prior_program_funds_are_said_in_english():
    """Issue 48: the box said "Prior program funds of $0 reaches an award of $500,000"."""
    at = app({"project_type": "renovation", "eligible_cost": "3000000", "local_contribution": "1500000",
              "prior_program_funds": "100000"})
    at.session_state["reach_panel"] = True
    at.run()
    at.selectbox(key="w:reach:field").set_value("prior_program_funds")
    at.text_input(key="w:reach:target").input("500,000").run()
    said = [m.value for m in at.markdown]
    assert md("With no prior program funds the award reaches $500,000 ($600,000 there: the program maximum).") in said
    assert not [s for s in said if "funds of \\$0" in s or "funds reaches" in s]
