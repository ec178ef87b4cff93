"""The board report as HTML (core/report/html.py): content, citations, readings, escaping, and
offline rendering in Chromium."""


import html

import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.fields import FIELDS
from core.law.rulesets import load
from core.report.html import Item, Report, render
from tests.support.browser import chromium, require_chromium  # noqa: F401


BIG = Application.from_dict({"project_type": "renovation", "eligible_cost": 3_000_000, "local_contribution": 1_500_000})


SMALL = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})


EVIL = "<img src=x onerror=alert(1)> & <b>bold</b>"


def report(**kw):
    return Report([Item(EVIL, evaluate(BIG), "notes <script>alert(2)</script>"),
                   Item("Reduced scope", evaluate(SMALL, load("cap-800k")))], prepared_by="Grants <office>", **kw)


def test_html_holds_award_binding_citations_and_escapes_user_text():
    doc = render(report())
    assert "$600,000" in doc and "the program maximum ($600,000)" in doc
    assert "A grant for conversion, acquisition, renovation, equipment, or construction may not exceed $600,000." in doc
    assert "Interpretations applied" in doc and "Policy variant" in doc and load().version in doc
    assert EVIL not in doc and "&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in doc
    assert "<script>alert(2)" not in doc and "Grants &lt;office&gt;" in doc
    assert "<script src" not in doc and "<link" not in doc   # nothing fetched: plotly.js is inline
    assert doc.count("<section") == 4   # two scenarios, the comparison, the sources
    # one flow on paper: no page is forced (each scenario on a page of its own left pages 75% blank)
    assert "@media print" in doc and "break-before: page" not in doc and "page-break-before: always" not in doc
    assert "font-size: 10pt" in doc and "@page { size: Letter; margin: 0.5in; }" in doc


def _text(doc: str) -> str:
    import re
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", doc, flags=re.S)
    body = re.sub(r'<div class="chart">.*?</div>\s*</div>', " ", body, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


def test_each_scenario_lists_the_readings_that_would_change_its_award_in_words():
    exception = Application.from_dict({"project_type": "construction", "eligible_cost": "800000",
                                       "federal_grant": "200000", "bpw_exception": {"local_property_value": "1000000"}})
    short = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000,
                                   "local_contribution": 100_000})
    text = _text(render(Report([Item("Exception", evaluate(exception)), Item("Short match", evaluate(short)),
                                Item("Plain", evaluate(SMALL))])))
    assert ("Readings that would change this award What &quot;§F&quot; refers to: read as “§F is the top-up for "
            "earlier grantees”, the award would be $300,000 (the State&#x27;s share of the cost).") in text
    assert ("What a short local match does: read as “A condition of any award”, the award would be $0 (the local "
            "match requirement).") in text
    assert text.count("No single other reading of the regulation changes this award.") == 1


def test_one_citation_per_cap_on_every_surface_and_no_internal_ids_where_people_read():
    from core.law.provisions import source_words
    a = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000,
                                        "federal_grant": 400_000, "local_contribution": 300_000}))
    doc = render(Report([Item("With a federal grant", a)]))
    assert source_words(a) == ("§E State share of the cost remaining after the federal grant; What the project still lacks (not "
                               "a sentence of the regulation: this tool's reading of it as a whole)")
    text = _text(doc)
    assert "In the regulation: " + source_words(a).replace("'", "&#x27;") in text
    assert "§E State share of the cost remaining after the federal grant If a federal grant is applied" in text
    assert "§C" not in text.split("The regulation's sentences for the limits that hold the awards down")[1].split("Interpretations")[0]
    # ids only in the table of names the data files use, each beside its label
    people, programs = text.split("For programs: the names used in the data files")
    for internal in ("program_max", "cost_share", "funding_need", "f_reference", "board_exception", "bpw_exception",
                     "local_match_effect", "id regulation"):
        assert internal not in people, internal
    assert "State&#x27;s share of the cost cost_share" in programs and "What &quot;§F&quot; refers to f_reference" in programs
    assert people.count("the regulation as received carries none") == 1   # once, in the notes (issue 51)
    assert people.index("the regulation as received carries none") > people.index("Paragraph letters")
    assert "§E, with a federal grant applied, 50% of the cost remaining after it" in people


def test_report_renders_offline_with_no_failed_request(chromium, tmp_path):  # noqa: F811
    path = tmp_path / "report.html"
    path.write_text(render(report()), encoding="utf-8")
    page = chromium.new_page()
    failed, errors, external = [], [], []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def block(route):
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            external.append(route.request.url)
            route.abort()

    page.route("**/*", block)
    page.goto(path.as_uri())
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= 7", timeout=30_000)
    assert page.locator(".js-plotly-plot").count() == 7
    assert not failed and not errors and not external
    assert page.locator("img").count() == 0       # the name's <img> stayed text
    assert EVIL in page.inner_text("body")


def test_the_readings_are_labelled_default_or_not_as_they_are():
    """A survivor of issue 30: the report's readings labelled "the default" and "not the default"
    the wrong way round passed every test."""
    import html
    from core.law.readings import READING, READING_IDS, DEFAULT
    changed = DEFAULT.replace(local_match_effect="condition", funding_need_cap="none")
    doc = html.unescape(_text(render(Report([Item("Mine", evaluate(SMALL, readings=changed))]))))
    for rid in READING_IDS:
        r = READING[rid]
        alt = r.alternative(getattr(changed, rid))
        assert f"{r.title}: {alt.title} (" + ("not the default" if rid in ("local_match_effect", "funding_need_cap")
                                              else "the default") + ")" in doc, rid


@pytest.mark.parametrize("changed", [("local_match_effect", "condition"), ("f_reference", "prior_grant")])
def test_the_portfolio_packets_readings_are_labelled_default_or_not_as_they_are(changed):
    """Issue 36: the twin of the test above for the Portfolio packet (core/report/portfolio.py),
    whose labels could be the wrong way round with every test passing."""
    import html
    from core.law.portfolio import read_sample, run
    from core.law.readings import DEFAULT, READING, READING_IDS
    from core.law.rulesets import load
    from core.report.portfolio import portfolio_report, render as render_packet
    rid_changed, alt_changed = changed
    readings = DEFAULT.replace(**{rid_changed: alt_changed})
    weights = {"density": 1.0, "proximity": 1.0, "new_locality": 1.0}
    result = run(read_sample(), 400_000_000, "priority", weights, load(), readings)
    doc = html.unescape(_text(render_packet(portfolio_report(result, load(), weights, "priority", "sample.csv"))))
    for rid in READING_IDS:
        r = READING[rid]
        alt = r.alternative(getattr(readings, rid))
        said = "not the default" if rid == rid_changed else "the default"
        assert f"{r.title}: {alt.title} ({said})" in doc, rid


def test_user_text_in_the_report_shows_hidden_characters_as_their_code():
    """Finding 7: a right-to-left override, a zero-width space or NUL in "Prepared by", the title or
    a name reached the HTML and the PDF as they were; shown as their code, they cannot reorder it."""
    doc = render(Report([Item("Board\u202e plan\u200b", evaluate(SMALL), "notes\x00 and\nlines")],
                        title="Title \u202e000,005$", prepared_by="Ann\u2066 \u200bB"))
    for hidden in ("\u202e", "\u200b", "\u2066", "\x00"):
        assert hidden not in doc
    assert "Title [U+202E]000,005$" in doc and "Ann[U+2066] [U+200B]B" in doc and "Board[U+202E] plan[U+200B]" in doc
    assert "notes\u2400 and\nlines" in doc                                         # the notes keep their lines


def test_the_comparison_inputs_are_turned_four_scenarios_a_table_and_every_chart_has_its_sentence():
    """Issue 28: the inputs table, a column per input, ran off the printed page ("Rea…")."""
    import re

    from core.report import chart_text
    from core.report.compare import INPUTS
    awards = [evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000 + k * 100_000,
                                              "local_contribution": 500_000})) for k in range(6)]
    items = [Item(f"Scenario {k + 1}", a) for k, a in enumerate(awards)]
    doc = render(Report(items))
    tables = re.findall(r"<table class='turned keep'>(.*?)</table>", doc)
    assert len(tables) == 2
    for table, names in zip(tables, (["Scenario 1", "Scenario 2", "Scenario 3", "Scenario 4"],
                                     ["Scenario 5", "Scenario 6"])):
        head = re.search(r"<thead><tr>(.*?)</tr></thead>", table).group(1)
        assert re.findall(r"<th>(.*?)</th>", head) == ["Input", *names]
        rows = re.findall(r"<tr><th>(.*?)</th>", table.split("</thead>")[1])
        # what sets the scenarios apart first (here the cost), then the rest in the field table's order,
        # but for an input no scenario has (no request, no exception asked for): a page of empty rows before
        blank = {"Requested amount", *(f.title for f in FIELDS if f.group == "exception" and f.name != "bpw_exception_requested"),
                 *(f.title for f in FIELDS if f.law_param)}   # a question the regulation never asks (issue 47)
        assert rows == [html.escape(r, quote=True) for r in ["Total cost of eligible work",
                                                             *[i for i in INPUTS if i != "Total cost of eligible work"
                                                               and i not in blank]]]
    assert "<caption>Scenarios 1 to 4 of 6</caption>" in doc and "<caption>Scenarios 5 to 6 of 6</caption>" in doc
    assert "$1,500,000" in tables[1] and "Scenario 1" not in tables[1]
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", doc)
    named = [(i.name, i.award) for i in items]
    expected = [chart_text.compare_caps(named)[0], chart_text.funding(named)[0], chart_text.change(named, "Scenario 1")[0]] \
        + [s for a in awards for s in (chart_text.headroom(a)[0], chart_text.waterfall(a)[0])]   # the comparison first
    assert captions == [html.escape(s, quote=True) for s in expected]
    assert doc.count("<figure>") == doc.count("<div class=\"chart\">") == len(expected)


def test_no_forced_page_and_nothing_under_nine_points_in_the_print_styles():
    from core.report.page import CSS
    printed = CSS.split("@media print {")[1].split("\n}\n")[0]
    sizes = [float(s) for s in __import__("re").findall(r"font-size: ([\d.]+)pt", printed)]
    assert min(sizes) == 9 and "font-size: 10pt" in printed                 # body 10 pt, the least 9 pt
    assert "px" not in "".join(__import__("re").findall(r"font-size: [^;]+", printed))
    assert "break-before: page" not in CSS and "always" not in CSS
def test_the_comparison_keeps_the_order_given_and_is_drawn_against_the_baseline():
    """The Compare page's order (and the command line file's) is the report's: the scenarios in it,
    the comparison's tables, and the change chart against the baseline chosen, not the first."""
    import pytest
    from core.report.html import ReportError
    items = [Item("Smaller", evaluate(SMALL)), Item("As submitted", evaluate(BIG)), Item("Third", evaluate(SMALL))]
    doc = render(Report(items, baseline=1))
    assert doc.index("<h2>Smaller</h2>") < doc.index("<h2>As submitted</h2>") < doc.index("<h2>Third</h2>")
    comparison = doc[doc.index("Comparison of scenarios"):]
    assert comparison.index("<td>Smaller</td>") < comparison.index("<td>As submitted</td>") < comparison.index("<td>Third</td>")
    assert "Change from the baseline: As submitted" in doc
    assert "Change from the baseline: Smaller" not in doc
    with pytest.raises(ReportError, match="the baseline is scenario 4, but the report has 3"):
        render(Report(items, baseline=3))


def test_the_boards_discretion_and_what_is_not_yet_met_are_said_wherever_the_award_is_counted():
    """Issue 35: the funding plan and the comparison said "State grant award $550,000.01" with no
    "if the Board approves", and the award box showed $600,000 beside a failed local match."""
    from core.report.compare import table
    board = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000,
                                            "bpw_exception": {"local_property_value": "550000.01"}}))
    short = evaluate(Application.from_dict({"project_type": "construction", "eligible_cost": 2_400_000,
                                            "federal_grant": 300_000, "local_contribution": 900_000}))
    doc = render(Report([Item("Board", board), Item("Short", short)]))
    plan = doc.split("<h3>Funding plan</h3>")[1].split("</table>")[0]
    assert "$550,000.01 if the Board approves" in plan and "Without the Board&#x27;s approval" in plan
    assert "$500,000 (the standard route)" in plan
    assert ("<b>Not yet met:</b> $600,000 once the local match reaches $1,050,000: it is $150,000 short." in doc)
    people = table([("Board", board), ("Short", short)])
    assert list(people["State grant award"]) == ["$550,000.01 if the Board approves", "$600,000"]
    assert list(table([("Board", board)], machine=True)["State grant award"]) == ["550000.01"]
    d = board.to_dict()
    assert d["funding"]["if_board_approves"] is True and d["funding"]["state_without_board_approval"] == "500000.00"
    assert short.to_dict()["unmet"] == [{"id": "local_match", "required": "1050000.00", "short": "150000.00",
                                         "award_once_met": "600000.00",
                                         "text": "$600,000 once the local match reaches $1,050,000: it is $150,000 short."}]


def test_a_citation_is_lettered_as_its_reading_letters_the_text():
    """Issue 35: on the Board's route without a federal grant the State share was cited §E (it is
    §C); under f_reference=prior_grant a result named the seven-paragraph lettering but cited §G and §C."""
    from core.law.provisions import citation, citations
    from core.law.readings import parse
    board = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000,
                                            "bpw_exception": {"local_property_value": "550000.01"}}))
    assert board.route == "bpw_exception" and citation("cost_share", board).words == "§C State share of the cost"
    seven = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 900_000,
                                            "prior_program_funds": 250_000}), None, parse(["f_reference=prior_grant"]))
    assert [c.words for c in citations(seven)] == ["§F Top-up for earlier grantees"]
    assert citation("cost_share", seven).paragraph == "B" and citation("program_max", seven).paragraph == "A"
    assert seven.to_dict()["citations"][0]["paragraph"] == "F"
    doc = render(Report([Item("Seven", seven)]))
    assert "(§F Top-up for earlier grantees)" in doc and "(§G Top-up" not in doc
    assert "in seven paragraphs" in doc and "§E, the Board of Public Works exception" in doc


def test_the_largest_change_is_the_largest_by_size_and_names_every_tie():
    """Issue 35: '-$50,000.01' was called the largest change where others fell by $350,000.01 and
    $450,000.01, and one of several tied scenarios was named."""
    from core.report import chart_text
    base = evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": 1_200_000}))
    fall = lambda cost: evaluate(Application.from_dict({"project_type": "renovation", "eligible_cost": cost}))  # noqa: E731
    named = [("Base", base), ("A", fall("1099999.98")), ("B", fall("499999.98")), ("C", fall("299999.98")),
             ("D", fall("299999.98"))]
    alt, _ = chart_text.change(named, "Base")
    assert alt == "Against the baseline Base, the largest change in the State award is -$450,000.01 (C and D)."
