"""The board's slides: the report (core.report.html.Report) as a 16:9 PowerPoint deck.

One computation: the deck is made of the report's own items, their awards as evaluated for the
report, and writes their numbers with the same words (core.law.explain, core.report.chart_text);
it works nothing out again. Its charts are native PowerPoint charts (the numbers inside them, so
a clerk can restyle them in PowerPoint or LibreOffice), each with its text alternative (the
page's words for the chart) as its description; every slide carries speaker notes with the
explanation and the regulation's sentences, so a presenter can answer "says who?".

Type is Arial (Liberation Sans where Arial is missing: the same widths), 18 pt and up in the body;
every colour is at least 4.5:1 on the white slide. Text that would not fit its box is never cut:
what does not fit the slide goes to the notes, and the slide says so.
"""
from __future__ import annotations

import io
from datetime import date

from pptx import Presentation
from pptx.util import Inches

from core.law.analysis import caps_words
from core.law.explain import award_words, other_readings_words, source_line
from core.law.money import fmt
from core.law.names import visible
from core.law.provisions import CAP, LETTERS_INFERRED, PROVISION, ROUTES, citation
from core.law.readings import READING
from core.law.rulesets import edition_words
from core.report import chart_text
from core.report.charts.calculator import waterfall_steps
from core.report.charts.colours import AWARD, COST, SLACK, SOURCES, TEXT
from core.report.html import Report, ReportError
from core.report.slides import (BODY, HEIGHT, MARGIN, MIN, NAME_CHARS, WIDTH, bar_chart, height_of, money_format, notes,
                                short, table, text_box, text_width, title, widths)

AWARD_SIZE = 54      # the award: the largest type of its slide ("$1,000,000.00" fits its 6.1 in)
UNMET = "#a04000"    # "Not yet met" (5.6:1 on white), as the report's box
PER_SLIDE = 6        # scenarios in one comparison chart and table at 18 pt
MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation"


def waterfall(slide, box, a) -> None:
    """From the cost of eligible work through each source of funds to the gap: floating bars, each
    drawn from its start (an unseen series) to its end, split at zero where funds exceed the cost."""
    steps = waterfall_steps(a)
    spans = [(b, b + v) if k else (0, v) for k, (_, _, b, v) in enumerate(steps)]
    cats = [name for name, _, _, _ in steps]
    colours = [COST if key == "cost" else SOURCES[key][1] for _, key, _, _ in steps]
    d = 100
    series = [("Start", [max(lo, 0) / d for lo, _ in spans], False),
              ("Amount", [(max(hi, 0) - max(lo, 0)) / d for lo, hi in spans], True),
              ("Start below zero", [min(hi, 0) / d for lo, hi in spans], False),
              ("Amount below zero", [(min(lo, 0) - min(hi, 0)) / d for lo, hi in spans], True)]
    if all(lo >= 0 for lo, _ in spans):
        series = series[:2]
    bar_chart(slide, box, cats, series, [None, colours, None, colours], [fmt(v) for _, _, _, v in steps],
              chart_text.waterfall(a)[0], number_format=money_format([v for _, _, _, v in steps]))


def headroom(a) -> int:
    """Cents from the award up to the nearest limit that does not hold it (0: every one holds it)."""
    slack = [v - a.amount for c, v in a.caps.items() if c not in a.binding]
    return min(slack) if slack else 0


def title_slide(prs, report: Report) -> None:
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    awards = [i.award for i in report.items]
    # each law with its own day ("the regulation ..., as of December 6, 2026; the statute ..., as of January 1,
    # 1990"): the two lumped together read as if the regulation were read as of 1990
    laws = dict.fromkeys(f"{law_words(a, report.on)}" for a in awards)
    readings = dict.fromkeys(readings_words(a.readings) for a in awards)
    lines = [(visible(report.title), 40, True, AWARD),
             ("The law: " + "; ".join(laws) + ".", 22, False, TEXT),
             ("Readings in force: " + "; ".join(readings) + ".", 22, False, TEXT),
             ("Prepared " + (f"by {visible(report.prepared_by)} " if report.prepared_by.strip() else "")
              + f"on {report.on.strftime('%B %-d, %Y')}.", 22, False, TEXT)]
    if any(a.is_variant for a in awards):
        lines.append(("Policy variant: these figures are a what-if, not the regulation in force.", 22, True, UNMET))
    shown = [i.name for i in report.items if "illustrative" in (i.name + " " + i.notes).lower()]
    if shown:
        lines.append((f"Illustrative: {len(shown)} of {len(report.items)} scenarios are samples, not real "
                      "applications.", 22, True, UNMET))
    text_box(slide, MARGIN, Inches(1.2), WIDTH - 2 * MARGIN, HEIGHT - Inches(1.7), lines)
    notes(slide, f"{report.title}. Scenarios, in the order presented: "
          + "; ".join(i.name for i in report.items) + f".\n{LETTERS_INFERRED}\n"
          + "Every number in this deck is the tool's, from the text of the law applied to each scenario, as "
            "encoded; every limit's source is in the notes of its slide. Amounts in US dollars.")


def law_words(a, on, edition: bool = True) -> str:
    """A scenario's law and the day it is read as of: "The statute (...), edition 3 ..., as of January 1, 1990"."""
    return (", ".join(filter(None, (a.ruleset_label, a.ruleset_edition if edition else "")))
            + f", as of {(a.as_of or on).strftime('%B %-d, %Y')}")


def readings_words(rd) -> str:
    """The readings in words, as the HTML report gives them: "the default readings", or each other one."""
    return "; ".join(f"{READING[r].title}: {READING[r].alternative(alt).title.lower()}"
                     for r, alt in rd.changed().items()) or "the default readings"


def scenario_slide(prs, item, illustrative: bool) -> None:
    a = item.award
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    title(slide, item.name + (" (illustrative)" if illustrative and "illustrative" not in item.name.lower() else ""))
    where, provisions = source_line(a)
    left_w = Inches(6.1)
    # An amount only the Board's route gives is said so first, with the award without it (it was built after
    # the lines were fitted, and so never shown: a board read $550,000 as the award, unconditional)
    board = a.route == "bpw_exception"
    lines = [(f"Without the Board's approval: {fmt(a.routes['standard'].award)} (the standard route)", BODY, True,
              UNMET)] if board else []
    lines += [(f"Not yet met: {u.text}", BODY, True, UNMET) for u in a.unmet]
    lines += [(f"Held down by {a.binding_text}", BODY + 2, True, TEXT),
              (f"Route: {ROUTES[a.route]}", MIN, False, TEXT),
              (f"The law applied: {law_words(a, date.today(), edition=False)}"   # its edition: title slide, notes
               + ("" if a.readings.is_default else f"; {readings_words(a.readings)}"), MIN, False, TEXT),
              (f"{where}: {provisions}", MIN, False, TEXT)]
    lines += [(f"What it would take: {t}", MIN, False, TEXT) for t in item.reach]
    if a.is_variant:
        lines.insert(0, (f"Policy variant: {a.ruleset_label}", BODY, True, UNMET))
    kept = fitted(lines, left_w, (HEIGHT - Inches(3.4)) / 12700)   # points under the award, above the bottom margin
    text_box(slide, MARGIN, Inches(1.4), left_w, Inches(1.6),
             [("State grant award" + (", if the Board approves" if board else ""), BODY, False, TEXT),
              (fmt(a.amount), AWARD_SIZE, True, AWARD)])
    text_box(slide, MARGIN, Inches(3.0), left_w, HEIGHT - Inches(3.4), [(visible(t), s, b, c) for t, s, b, c in kept])
    waterfall(slide, (Inches(6.8), Inches(1.45), Inches(6.05), Inches(5.6)), a)
    cites = [citation(c, a) for c in a.caps]
    said = "\n".join(f"- {CAP[c].title}, {fmt(v)}{' (holds the award down)' if c in a.binding else ''}: "
                     f"{cite.words}. " + ("" if cite.law else " ".join(f"“{s}”" for s in cite.sentences))
                     for (c, v), cite in zip(a.caps.items(), cites))
    steps = "\n".join(f"- {s.text} ({citation(s.provision, a).words if s.provision in PROVISION else 'Result'})"
                      for s in a.steps)
    others = other_readings_words(a)
    notes(slide, f"{item.name}: a State grant award of {award_words(a)}, held down by "
          f"{caps_words(a.binding) if a.binding else 'no limit'}; route: {ROUTES[a.route]}.\n"
          + "".join(f"Not yet met: {u.text}\n" for u in a.unmet)
          + "".join(f"What it would take: {t}\n" for t in item.reach)
          + f"How the award is worked out:\n{steps}\nEach limit, and the law that sets it:\n{said}\n"
          + "".join(f"{c.label}: {c.message}\n" for c in a.checks)
          + ("Readings that would change this award: " + " ".join(others) if others
             else "No single other reading of the regulation changes this award.")
          + f"\nThe law applied: {edition_words(a.ruleset_label, a.ruleset_edition, a.ruleset_version)}, as of "
          + f"{(a.as_of or date.today()).isoformat()}; {readings_words(a.readings)}." + "".join(f"\n{t}" for t in a.law_notes)
          + (f"\nNotes: {item.notes}" if item.notes else ""))


def fitted(lines: list, width, room: float) -> list:
    """The lines that fit `room` points, in order of weight; a line too long for what is left is cut at a
    word, ending "…" (a 441-character citation left the slide with none of it); what does not fit, and the
    whole of a line cut, is in the notes, and the slide says so."""
    more = ("More in the speaker notes.", MIN, False, TEXT)
    kept = []
    for k, (text, size, bold, colour) in enumerate(lines):
        tail = [more] if k < len(lines) - 1 else []
        if height_of([(t, s, b) for t, s, b, _ in kept + [(text, size, bold, colour)] + tail], width) <= room:
            kept.append((text, size, bold, colour))
            continue
        words, cut = text.split(), None
        lo, hi = 1, len(words) - 1   # the most words that fit, with the mark of the cut
        while lo <= hi:
            mid = (lo + hi) // 2
            trial = " ".join(words[:mid]) + " …"
            if height_of([(t, s, b) for t, s, b, _ in kept + [(trial, size, bold, colour), more]], width) <= room:
                cut, lo = trial, mid + 1
            else:
                hi = mid - 1
        if cut and lo > 4:   # a line cut to a few words says nothing: left to the notes whole
            kept.append((cut, size, bold, colour))
        return kept + [more]
    return kept


def parts(prs, items, heading: str):
    """A slide (titled `heading`, "(1 of 2)" when more) and its scenarios, PER_SLIDE at a time."""
    pages = -(-len(items) // PER_SLIDE)
    for start in range(0, len(items), PER_SLIDE):
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        title(slide, heading + (f" ({start // PER_SLIDE + 1} of {pages})" if pages > 1 else ""))
        yield slide, [(i.name, i.award) for i in items[start:start + PER_SLIDE]]


def comparison_slides(prs, items) -> None:
    for slide, named in parts(prs, items, "Comparison of scenarios"):
        cats = [short(n) for n, _ in named]
        series = [("State grant award", [a.amount / 100 for _, a in named], True),
                  ("Headroom to the next limit", [headroom(a) / 100 for _, a in named], True)]
        words = chart_text.compare_caps(named)[0] + " Headroom: " + "; ".join(
            f"{n}, {fmt(headroom(a))}" for n, a in named) + "."
        head = ["Scenario", "Award", "Held down by", "Headroom"]
        rows = [[short(n, 24), award_words(a), " and ".join(CAP[c].title for c in a.binding) or "no limit",
                 fmt(headroom(a))] for n, a in named]
        # the award's words wrap ("$550,000 / if the Board approves"): sized to its whole, it squeezed the chart
        left = table(slide, (WIDTH - MARGIN, Inches(1.45)), head, rows, widths(head, rows, {1, 2}))
        bar_chart(slide, (MARGIN, Inches(1.45), left - MARGIN - Inches(0.2), Inches(5.6)), cats, series,
                  [AWARD, SLACK], [fmt(a.amount) for _, a in named], words, legend=True,
                  number_format=money_format([a.amount for _, a in named] + [headroom(a) for _, a in named]))
        notes(slide, "The award of each scenario, in the order presented, and the headroom to the nearest limit "
              "that does not hold it.\n" + "\n".join(
                  f"- {n}: {award_words(a)}, held down by {a.binding_text}; "
                  + "; ".join(citation(c, a).words for c in a.binding) + f"; headroom {fmt(headroom(a))}."
                  for n, a in named))


def funding_slides(prs, items) -> None:
    """The sources of funds, PER_SLIDE scenarios at a time, on two slides: the stacked bars across the
    whole slide (the legend below them, each bar's total past its end), then their numbers as a table
    across the slide. Side by side, at 18 pt, the chart was left 4 inches: LibreOffice dropped every
    other name and the bars were slivers; the table's headings broke in three (issue 51)."""
    pages = -(-len(items) // PER_SLIDE)
    for number, (slide, named) in enumerate(parts(prs, items, "Where the money comes from")):
        words, rows = chart_text.funding(named)
        keys = [k for k in SOURCES if any(a.funding[k] for _, a in named)] or ["state"]
        series = [(SOURCES[k][0], [a.funding[k] / 100 for _, a in named], True) for k in keys]
        totals = [sum(a.funding[k] for k in SOURCES) for _, a in named]
        bar_chart(slide, (MARGIN, Inches(1.45), WIDTH - 2 * MARGIN, Inches(5.6)), [short(n) for n, _ in named],
                  series, [SOURCES[k][1] for k in keys], [f"cost {fmt(t)}" for t in totals], words, legend=True,
                  number_format=money_format([a.funding[k] for _, a in named for k in SOURCES]))
        said = words + "\n" + "\n".join(
            f"- {r['Scenario']}: " + "; ".join(f"{k} {v}" for k, v in r.items() if k != "Scenario") for r in rows)
        notes(slide, said)
        # the numbers: a slide of their own, the table across it (the names as long as NAME_CHARS * 2)
        table_slide = prs.slides.add_slide(prs.slide_layouts[6])
        title(table_slide, "Where the money comes from, in dollars"
              + (f" ({number + 1} of {pages})" if pages > 1 else ""))
        head = ["Scenario", *[SOURCES[k][0] for k in keys], "Cost of eligible work"]
        cells = [[short(row["Scenario"], 2 * NAME_CHARS), *[row[SOURCES[k][0]] for k in keys], fmt(t)]
                 for row, t in zip(rows, totals)]
        columns = widths(head, cells)
        columns[0] = max(columns[0], min(3.4, max(text_width(c[0], MIN) for c in cells) + 0.2))   # a name on one line where it fits
        room = (WIDTH - 2 * MARGIN) / 914400
        if sum(columns) > room:   # the names give way: they wrap
            columns[0] = max(room - sum(columns[1:]), 1.7)
        # the room left widens the headings toward one line each, shared in proportion to what each lacks
        lack = [max(text_width(head[c], MIN, True) + 0.25 - columns[c], 0) if c else 0 for c in range(len(head))]
        share = min(1, max(room - sum(columns), 0) / (sum(lack) or 1))
        columns = [round(w + d * share - 0.005, 2) for w, d in zip(columns, lack)]
        table(table_slide, (MARGIN + Inches(sum(columns)), Inches(1.45)), head, cells, columns)
        notes(table_slide, said)


def deck(report: Report) -> bytes:
    """The report's scenarios as a PowerPoint deck: a title slide, the comparison and the funding
    sources (more than one scenario), then a slide per scenario, in the report's order."""
    if not report.items:
        raise ReportError("a deck needs at least one scenario")
    prs = Presentation()
    prs.slide_width, prs.slide_height = WIDTH, HEIGHT
    prs.core_properties.title = visible(report.title)
    prs.core_properties.author = visible(report.prepared_by) or "State capital grant tool"
    title_slide(prs, report)
    if len(report.items) > 1:
        comparison_slides(prs, report.items)
    funding_slides(prs, report.items)
    for item in report.items:
        scenario_slide(prs, item, "illustrative" in (item.name + " " + item.notes).lower())
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()
