"""Issue 51: the deck of the scenarios chosen, in the presenter's order, from the Compare page and
from presentation mode; each page's report and deck with a title and a file name of its own."""
import base64
import io
import re

from pptx import Presentation

from core.law.award import evaluate
from core.law.money import fmt
from tests.support.store import APP
from tests.ui.test_calculator import handed_over
from tests.ui.test_compare import three


def deck_of(at, key="cmp") -> tuple[str, list[str], Presentation]:
    got = handed_over(at, key)
    prs = Presentation(io.BytesIO(base64.b64decode(got["b64"])))
    heads = [next(s for s in slide.shapes if s.has_text_frame).text_frame.paragraphs[0].text for slide in prs.slides]
    return got["name"], heads, prs


def test_the_compare_pages_slides_are_the_chosen_in_the_presenters_order(db):
    at = three(db)
    at.selectbox(key="w:cmp_move").set_value("Smaller").run()
    at.button(key="w:cmp_up").click().run()
    at.button(key="w:cmp_up").click().run()   # the presenter's order: Smaller, As submitted, With a federal grant
    at.button(key="w:cmp:pptx").click().run()
    assert not at.exception
    name, heads, prs = deck_of(at)
    assert re.fullmatch(r"comparison-of-3-scenarios-smaller-as-submitted-and-with-a-fe-\d{4}-\d{2}-\d{2}\.pptx", name)
    assert heads == ["Comparison of 3 scenarios: Smaller, As submitted and With a federal grant",
                     "Comparison of scenarios", "Where the money comes from", "Where the money comes from, in dollars",
                     "Smaller", "As submitted", "With a federal grant"]
    smaller = evaluate(APP.replace(eligible_cost=80_000_000))
    words = [p.text for s in prs.slides[4].shapes if s.has_text_frame for p in s.text_frame.paragraphs]
    assert fmt(smaller.amount) in words


def test_presentation_mode_keeps_the_slides_at_hand(db):
    at = three(db)
    at.text_input(key="w:cmp:title").input("March board")
    at.text_input(key="w:cmp:prepared").input("Grants office").run()
    at.toggle(key="presentation").set_value(True).run()
    button = at.button(key="w:cmp:pptx_present")
    assert button.label == "Download the slides (PowerPoint)"
    button.click().run()
    assert not at.exception
    name, heads, prs = deck_of(at, "cmp_present")
    assert name == "march-board.pptx"
    assert heads[0] == "March board" and heads[4:] == ["As submitted", "With a federal grant", "Smaller"]
    assert "Prepared by Grants office on " in " ".join(
        p.text for s in prs.slides[0].shapes if s.has_text_frame for p in s.text_frame.paragraphs)


def test_each_pages_report_has_its_own_title_and_file_name(db):
    at = three(db)
    at.button(key="w:cmp:html").click().run()
    got = handed_over(at, "cmp")
    assert got["name"].startswith("comparison-of-3-scenarios-") and got["name"].endswith(".html")
    page = base64.b64decode(got["b64"]).decode("utf-8")
    assert "<title>Comparison of 3 scenarios: As submitted, With a federal grant and Smaller</title>" in page
    at.switch_page("pages/calculator.py").run()
    at.button(key="w:calc:html").click().run()
    got = handed_over(at, "calc")
    assert re.fullmatch(r"state-capital-grant-this-application-\d{4}-\d{2}-\d{2}\.html", got["name"])
    assert "<title>State capital grant: This application</title>" in base64.b64decode(got["b64"]).decode("utf-8")


def test_presenting_a_scenario_on_the_boards_route_says_so_beside_its_award(db):
    """Deck audit, 2026-12-06: presenting a scenario whose award only the Board's route gives showed "$550,000"
    with its route alone; it says what the exception gives and the award without it, as the Calculator does."""
    from tests.ui.test_compare import start
    board = APP.replace(local_contribution=0, bpw_exception_requested=True, local_property_value=550_000_00)
    a = evaluate(board)
    assert a.route == "bpw_exception" and a.routes["standard"].award == 500_000_00
    db.save("As submitted", APP)
    db.save("Board exception", board)
    at = start({"present": "1", "scenario": ["As submitted", "Board exception"]}, page="pages/compare.py")
    at.button(key="w:cmp_next").click().run()
    assert not at.exception
    card = " ".join(m.value for m in at.markdown if "Held down by" in m.value).replace("\\", "")
    assert "**Route:** Board of Public Works exception, if the Board approves ($500,000 without it)" in card
