"""The board deck (core/report/deck.py): made by `python -m core report --pptx` from the report's
own numbers; slide by slide, each award, limit and citation is `evaluate`'s; native charts with the
award in their data and the page's words as their alt text; notes on every slide; type of 18 pt
and up; nothing past the slide's edge; every colour AA on the white slide."""
import io
import json
import subprocess
import sys

import pytest
from pptx import Presentation
from pptx.util import Inches

from core.law.application import Application
from core.law.award import evaluate
from core.law.explain import award_words
from core.law.money import fmt
from core.law.provisions import CAP, citation
from core.report import chart_text
from core.report.charts.colours import SOURCES
from core.report.deck import deck
from core.report.slides import MIN, lines_needed
from core.report.html import Item, Report
from tests.support import ROOT

# The three applications a board sees most: a renovation held by the program maximum whose local
# match falls short, a construction at the 50% share, and a master plan.
BOARD = [
    {"name": "Elm Street renovation", "project_type": "renovation", "eligible_cost": 2_000_000,
     "local_contribution": 100_000, "notes": "Illustrative sample, not a real application."},
    {"name": "Riverside construction", "project_type": "construction", "eligible_cost": 900_000,
     "local_contribution": 450_000},
    {"name": "Northside master plan", "project_type": "master_plan", "eligible_cost": 80_000,
     "local_contribution": 40_000},
]


def awards(rows=BOARD):
    return [evaluate(Application.from_dict({k: v for k, v in r.items() if k not in ("name", "notes")})) for r in rows]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The deck as the command line writes it, with a question to reach, and the awards evaluated apart."""
    folder = tmp_path_factory.mktemp("deck")
    src = folder / "board.json"
    src.write_text(json.dumps(BOARD))
    r = subprocess.run([sys.executable, "-m", "core", "report", str(src), "-o", str(folder / "r.html"),
                        "--pptx", str(folder / "deck.pptx"), "--prepared-by", "Grants office",
                        "--reach", "local_contribution=600000"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return Presentation(str(folder / "deck.pptx")), folder / "deck.pptx"


def texts(slide) -> list[str]:
    return [p.text for s in slide.shapes if s.has_text_frame for p in s.text_frame.paragraphs]


def charts(slide):
    return [s for s in slide.shapes if s.has_chart]


def test_sixteen_by_nine_and_slides_in_order(made):
    prs, _ = made
    assert (prs.slide_width, prs.slide_height) == (Inches(13.333), Inches(7.5))
    firsts = [texts(s)[0] for s in prs.slides]
    assert firsts == ["State capital grant for a senior citizen activity center", "Comparison of scenarios",
                      "Where the money comes from", "Where the money comes from, in dollars",
                      "Elm Street renovation (illustrative)", "Riverside construction",
                      "Northside master plan"]


def test_title_slide_says_the_law_readings_who_and_illustrative(made):
    words = " ".join(texts(made[0].slides[0]))
    a = awards()[0]
    assert f"{a.ruleset_label}, {a.ruleset_edition}" in words
    assert "Readings in force: the default readings." in words
    assert f"The law: {a.ruleset_label}, {a.ruleset_edition}, as of " in words
    assert "Prepared by Grants office on " in words
    assert "Illustrative: 1 of 3 scenarios are samples, not real applications." in words
    assert "fingerprint" not in words   # a board reads the edition, not the hash (the notes keep it)


def test_each_scenario_slide_is_evaluates_answer(made):
    """Slide by slide: the award (the largest type), what holds it, every unmet condition beside it,
    and in the notes every limit's amount and citation, all as `evaluate` gives them."""
    prs, _ = made
    for slide, a, row in zip(list(prs.slides)[4:], awards(), BOARD):
        words = texts(slide)
        at = words.index("State grant award")
        assert words[at + 1] == award_words(a) == fmt(a.amount)   # each on the standard route
        sizes = {r.text: r.font.size.pt for s in slide.shapes if s.has_text_frame
                 for p in s.text_frame.paragraphs for r in p.runs}
        assert max(sizes, key=sizes.get) == fmt(a.amount)
        assert f"Held down by {a.binding_text}" in words
        for u in a.unmet:
            assert f"Not yet met: {u.text}" in words
        notes = slide.notes_slide.notes_text_frame.text
        for c, v in a.caps.items():
            assert f"{CAP[c].title}, {fmt(v)}" in notes
            assert citation(c, a).words in notes
            for sentence in citation(c, a).sentences:
                assert sentence in notes
        assert f"State grant award of {award_words(a)}" in notes


def test_failed_match_is_said_beside_the_award():
    a = awards()[0]
    assert a.unmet and a.local_shortfall == 90_000_000   # the renovation's match falls $900,000 short
    prs = Presentation(io.BytesIO(deck(Report([Item("Elm", a)]))))
    words = texts(prs.slides[-1])
    assert words.index("Not yet met: " + a.unmet[0].text) == words.index(fmt(a.amount)) + 1


def test_waterfall_is_a_native_chart_with_the_award_in_its_data(made):
    prs, _ = made
    for slide, a in zip(list(prs.slides)[4:], awards()):
        (frame,) = charts(slide)
        plot = frame.chart.plots[0]
        cats = list(plot.categories)
        amount = next(s for s in plot.series if s.name == "Amount")
        values = dict(zip(cats, amount.values))
        assert values["State grant award"] == a.amount / 100
        assert values["Cost of eligible work"] == a.application.eligible_cost / 100
        assert frame._element.xpath("./*[1]/p:cNvPr")[0].get("descr") == chart_text.waterfall(a)[0]


def test_comparison_in_the_presenters_order_with_awards_and_headroom(made):
    prs, _ = made
    slide = prs.slides[1]
    (frame,) = charts(slide)
    plot = frame.chart.plots[0]
    names = [r["name"] for r in BOARD]
    assert list(plot.categories)[::-1] == names   # drawn top down: the first scenario on top
    series = {s.name: list(s.values)[::-1] for s in plot.series}
    assert series["State grant award"] == [a.amount / 100 for a in awards()]
    assert series["Headroom to the next limit"] == [4_000_000 / 10, 1_500_000 / 10, 2_500_000 / 100]
    rows = [[c.text for c in r.cells] for r in next(s for s in slide.shapes if s.has_table).table.rows]
    assert rows == [["Scenario", "Award", "Held down by", "Headroom"],
                    ["Elm Street renovation", "$600,000", "Program maximum", "$400,000"],
                    ["Riverside construction", "$450,000", "State's share of the cost and What the project still lacks",
                     "$150,000"],
                    ["Northside master plan", "$15,000", "Program maximum", "$25,000"]]
    descr = frame._element.xpath("./*[1]/p:cNvPr")[0].get("descr")
    assert descr.startswith(chart_text.compare_caps(list(zip(names, awards())))[0])


def test_funding_slide_has_the_pages_words_and_numbers(made):
    prs, _ = made
    slide = prs.slides[2]
    (frame,) = charts(slide)
    named = list(zip([r["name"] for r in BOARD], awards()))
    assert frame._element.xpath("./*[1]/p:cNvPr")[0].get("descr") == chart_text.funding(named)[0]
    state = next(s for s in frame.chart.plots[0].series if s.name == "State grant award")
    assert list(state.values)[::-1] == [a.amount / 100 for _, a in named]


# Six scenarios, a slide's worth (PER_SLIDE), with every source of funds and long names (issue 51:
# the funding slide was cramped: a 4-inch chart beside the table, every other name dropped).
SIX = [("Elm Street renovation, as submitted", dict(project_type="renovation", eligible_cost=2_000_000,
                                                   local_contribution=100_000)),
       ("Elm Street with a federal grant of $400,000", dict(project_type="renovation", eligible_cost=2_000_000,
                                                            federal_grant=400_000, local_contribution=600_000)),
       ("Riverside construction", dict(project_type="construction", eligible_cost=900_000, local_contribution=450_000)),
       ("Northside master plan", dict(project_type="master_plan", eligible_cost=80_000, local_contribution=40_000)),
       ("Board exception asked for, with property the locality makes available",
        dict(project_type="renovation", eligible_cost=1_450_000, local_contribution=300_000,
             bpw_exception_requested=True, local_property_value=900_000)),
       ("Additional work after a $100,000 grant", dict(project_type="renovation", eligible_cost=1_450_000,
                                                       local_contribution=600_000, prior_program_funds=100_000))]


def six_deck():
    items = [Item(n, evaluate(Application.from_dict(f))) for n, f in SIX]
    return items, Presentation(io.BytesIO(deck(Report(items))))


def test_six_scenarios_funding_chart_has_the_slides_width_and_its_numbers_a_slide_of_their_own():
    from core.report.slides import NAME_CHARS, short, text_width
    items, prs = six_deck()
    heads = [texts(s)[0] for s in prs.slides]
    at = heads.index("Where the money comes from")
    assert heads[at + 1] == "Where the money comes from, in dollars"
    chart_slide, table_slide = prs.slides[at], prs.slides[at + 1]
    assert not [s for s in chart_slide.shapes if s.has_table]   # the chart alone on its slide
    (frame,) = charts(chart_slide)
    assert frame.width >= prs.slide_width - Inches(1.01) and frame.height >= Inches(5.5)
    plot = frame.chart.plots[0]
    assert list(plot.categories)[::-1] == [short(n) for n, _ in SIX]
    series = {s.name: list(s.values)[::-1] for s in plot.series}
    for key, (label, _) in SOURCES.items():   # every source some scenario has; none that no scenario has
        if any(i.award.funding[key] for i in items):
            assert series[label] == [i.award.funding[key] / 100 for i in items]
        else:
            assert label not in series
    assert frame.chart.has_legend and frame.chart.font.size.pt >= MIN
    carrier = plot.series[-1]   # each bar's total just past its end
    assert [carrier.points[k].data_label.text_frame.text for k in range(6)][::-1] == [
        "cost $2,000,000", "cost $2,000,000", "cost $900,000", "cost $80,000", "cost $1,450,000", "cost $1,450,000"]
    assert frame._element.xpath("./*[1]/p:cNvPr")[0].get("descr") == chart_text.funding(
        [(i.name, i.award) for i in items])[0]
    # the table: across the slide, every value on one line in its column, each heading in two lines at most
    (shape,) = [s for s in table_slide.shapes if s.has_table]
    assert shape.left >= Inches(0.5) and shape.left + shape.width <= prs.slide_width - Inches(0.5) + 1
    grid = shape.table
    rows = [[c.text for c in r.cells] for r in grid.rows]
    assert rows[0] == ["Scenario", "Federal grant", "State grant award", "Local contribution", "Funding gap",
                       "Cost of eligible work"]
    assert rows[2] == ["Elm Street with a federal grant of $400,000", "$400,000", "$600,000", "$600,000", "$400,000",
                       "$2,000,000"]
    assert [r[0] for r in rows[1:]] == [short(n, 2 * NAME_CHARS) for n, _ in SIX]
    for c, column in enumerate(grid.columns):
        room = column.width / 914400 - 0.1
        for r, row in enumerate(rows):
            if c and r:
                assert text_width(row[c], MIN) <= room, row[c]
        assert lines_needed(rows[0][c], column.width, MIN, True) <= 2, rows[0][c]
    # the rows as tall as their lines: the table ends above the slide's foot
    tall = sum(max(lines_needed(v, col.width, MIN, r == 0) for v, col in zip(row, grid.columns)) * MIN * 1.2 / 72 + 0.1
               for r, row in enumerate(rows))
    assert shape.top / 914400 + tall <= 7.5 - 0.4
    assert chart_slide.notes_slide.notes_text_frame.text == table_slide.notes_slide.notes_text_frame.text


def test_reach_sentence_where_asked(made):
    prs, _ = made
    from core.law.solve import solve
    for slide, a in zip(list(prs.slides)[4:], awards()):
        sentence = solve(a.application, "local_contribution", 60_000_000, rs=a.ruleset, readings=a.readings).sentence
        assert f"What it would take: {sentence}" in slide.notes_slide.notes_text_frame.text
    assert "What it would take: " + solve(awards()[2].application, "local_contribution", 60_000_000).sentence \
        in texts(prs.slides[6])


def test_every_slide_has_notes_every_chart_alt_text(made):
    for slide in made[0].slides:
        assert len(slide.notes_slide.notes_text_frame.text) > 40
        assert "[U+" not in slide.notes_slide.notes_text_frame.text   # lines kept as lines
        for frame in charts(slide):
            assert len(frame._element.xpath("./*[1]/p:cNvPr")[0].get("descr") or "") > 20


def _luminance(rgb) -> float:
    def part(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (int(str(rgb)[k:k + 2], 16) for k in (0, 2, 4))
    return 0.2126 * part(r) + 0.7152 * part(g) + 0.0722 * part(b)


def test_type_18_pt_and_up_aa_colours_and_nothing_past_the_edge(made):
    fits(made[0])


def fits(prs) -> None:
    """Type of 18 pt and up, AA colours, nothing past the slide's edge, the words within their boxes."""
    for slide in prs.slides:
        for shape in slide.shapes:
            assert shape.left >= 0 and shape.top >= 0
            assert shape.left + shape.width <= prs.slide_width and shape.top + shape.height <= prs.slide_height
            frames = [shape.text_frame] if shape.has_text_frame else \
                [c.text_frame for r in shape.table.rows for c in r.cells] if shape.has_table else []
            for frame in frames:
                for run in (r for p in frame.paragraphs for r in p.runs):
                    assert run.font.size.pt >= MIN, run.text
                    # white type on the table's navy head; every other on white or the rows' pale band
                    grounds = ["1F4E79"] if str(run.font.color.rgb) == "FFFFFF" else ["FFFFFF", "EEF3F8"]
                    for ground in grounds:
                        hi, lo = sorted((_luminance(run.font.color.rgb), _luminance(ground)), reverse=True)
                        assert (hi + 0.05) / (lo + 0.05) >= 4.5, (run.text, run.font.color.rgb, ground)
            if shape.has_text_frame:   # the words fit their box as Arial sets them
                used = sum(lines_needed(p.text, shape.width, int(p.runs[0].font.size.pt), bool(p.runs[0].font.bold))
                           * p.runs[0].font.size.pt * 1.2 + 6 for p in shape.text_frame.paragraphs if p.runs)
                assert used <= shape.height / 12700 + 1, [p.text for p in shape.text_frame.paragraphs]
            if shape.has_chart:
                assert shape.chart.font.size.pt >= MIN


def test_deck_for_one_scenario_has_no_comparison_and_many_are_split():
    a = awards()[0]
    prs = Presentation(io.BytesIO(deck(Report([Item("Only", a)]))))
    assert [texts(s)[0] for s in prs.slides] == ["State capital grant for a senior citizen activity center",
                                                 "Where the money comes from", "Where the money comes from, in dollars",
                                                 "Only"]
    many = Presentation(io.BytesIO(deck(Report([Item(f"Scenario {k}", a) for k in range(8)]))))
    heads = [texts(s)[0] for s in many.slides]
    assert heads[1:7] == ["Comparison of scenarios (1 of 2)", "Comparison of scenarios (2 of 2)",
                          "Where the money comes from (1 of 2)", "Where the money comes from, in dollars (1 of 2)",
                          "Where the money comes from (2 of 2)", "Where the money comes from, in dollars (2 of 2)"]
    assert len(heads) == 1 + 6 + 8


def test_user_text_is_shown_not_obeyed():
    name = "Evil\u202e name\x07 " + "x" * 110
    prs = Presentation(io.BytesIO(deck(Report([Item(name, awards()[0]), Item("B", awards()[1])],
                                              prepared_by="<b>me</b>"))))
    words = " ".join(t for s in prs.slides for t in texts(s))
    assert "\u202e" not in words and "\x07" not in words and "Prepared by <b>me</b>" in words


def test_the_report_opens_with_the_comparison_then_each_scenario():
    """Issue 51: the Compare report began with each scenario's detail, its comparison on page 6 of 9."""
    from core.report.html import render
    doc = render(Report([Item(r["name"], a) for r, a in zip(BOARD, awards())]))
    assert doc.index("<h2>Comparison of scenarios</h2>") < doc.index("<h2>Elm Street renovation</h2>") \
        < doc.index("<h2>Riverside construction</h2>") < doc.index("<h2>Northside master plan</h2>")



def where_of(a) -> str:
    from core.law.explain import source_line
    return ": ".join(source_line(a))


def test_an_amount_only_the_board_gives_is_said_so_on_its_slide_and_each_law_with_its_day():
    """Deck audit, 2026-12-06: the Board route's $550,000 was shown with no "if the Board approves" (the line
    was made after the slide's lines were fitted); a 441-character citation of ch. 125 left the slide with
    none of it; the comparison's award column, sized to "$550,000 if the Board approves" unbroken, squeezed
    its chart; the title slide lumped the laws and their days together; readings were codes."""
    from core.law.readings import Readings
    from core.law.rulesets import load
    board = evaluate(Application("renovation", eligible_cost=1_000_000_00, bpw_exception_requested=True,
                                 local_property_value=550_000_00))
    old_law = load("statute").as_of("1990-01-01")
    statute = evaluate(Application("renovation", eligible_cost=1_000_000_00, bpw_exception_requested=True,
                                   local_property_value=2_000_000_00, residual_value=1), old_law,
                       Readings(local_match_effect="condition"))
    assert (board.route, board.amount, board.routes["standard"].award) == ("bpw_exception", 550_000_00, 500_000_00)
    assert statute.route == "bpw_exception"
    prs = Presentation(io.BytesIO(deck(Report([Item("Board exception", board), Item("Statute 1990", statute)]))))
    fits(prs)
    title_words = " ".join(texts(prs.slides[0]))
    assert (f"The law: {board.ruleset_label}, {board.ruleset_edition}, as of " in title_words
            and f"; {statute.ruleset_label}, {statute.ruleset_edition}, as of January 1, 1990." in title_words)
    assert "Readings in force: the default readings; What a short local match does: a condition of any award." \
        in title_words
    for slide, a in zip(list(prs.slides)[-2:], (board, statute)):
        words = texts(slide)
        assert words[words.index(fmt(a.amount)) - 1] == "State grant award, if the Board approves"
        assert f"Without the Board's approval: {fmt(a.routes['standard'].award)} (the standard route)" in words
        said = next(w for w in words if w.startswith(("In the regulation:", "In the statute", "Under ")))
        assert said.endswith(" …") and words[-1] == "More in the speaker notes." or said == f"{where_of(a)}"
        assert any(w.startswith("The law applied: ") and ", as of " in w for w in words)
    notes = prs.slides[-1].notes_slide.notes_text_frame.text
    assert "Acts of 1986 (Session Laws vol. 768 p. 1691): $300,000" in notes and "“Acts of" not in notes   # not quoted
    last = texts(prs.slides[-1])
    assert "The law applied: " + f"{statute.ruleset_label}, as of January 1, 1990; " \
        "What a short local match does: a condition of any award" in last
    rows = [[c.text for c in r.cells] for r in next(s for s in prs.slides[1].shapes if s.has_table).table.rows]
    assert rows[1][1] == "$550,000 if the Board approves"
    (chart,) = charts(prs.slides[1])
    assert chart.width >= Inches(4.5)   # the chart keeps its room (2.85 in before): the award's words wrap
