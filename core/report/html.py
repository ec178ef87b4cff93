"""The board report as one self-contained HTML file (plotly.js embedded, no network request);
with static charts it is also what the PDF packet prints (core.report.pdf).

All user text (names, notes, "prepared by") is escaped; nothing a user types becomes HTML.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from core.law.analysis import caps_words
from core.law.award import Award
from core.law.explain import STATUS_WORDS, award_words, exception_line, maximum_words, other_readings_words, source_line
from core.law.fields import FIELDS, PROJECT_TYPES, asked, yes_no
from core.law.money import fmt
from core.law.provisions import PROVISION, ROUTES, citation
from core.law.rulesets import edition_words
from core.report import chart_text
from core.report.charts.calculator import headroom_figure, waterfall_figure
from core.report.charts.colours import SOURCES
from core.report.charts.compare import change_figure, compare_caps_figure, funding_figure
from core.report.law_used import law_section
from core.report.page import Charts, document, esc


class ReportError(RuntimeError):
    """The report cannot be made as asked; the message says what to do."""


@dataclass
class Item:
    name: str
    award: Award
    notes: str = ""
    reach: tuple = ()   # what it takes to reach an award (core.law.solve's sentences), when asked


@dataclass
class Report:
    """`items` in the order people present them (the screen's); `baseline`, the place in it of the
    scenario the comparison is drawn against (the first by default)."""
    items: list
    title: str = "State capital grant for a senior citizen activity center"
    prepared_by: str = ""
    on: date = field(default_factory=date.today)
    baseline: int = 0


def _inputs_table(award: Award) -> str:
    app = award.application
    rows = []
    for f in FIELDS:
        if f.group == "considerations":
            continue
        if (f.group == "exception" and not app.bpw_exception_requested) or not asked(f, app, rs=award.ruleset):
            continue
        value = getattr(app, f.name)
        if f.kind == "money":
            shown = "none" if value is None else fmt(value)
        elif f.kind == "bool":
            shown = yes_no(f, value)
        else:
            shown = PROJECT_TYPES[value]
        rows.append(f"<tr><th>{esc(f.label)}</th><td class='num'>{esc(shown)}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def _scenario(item: Item, chart, first: bool) -> str:
    a = item.award
    binding = caps_words(a.binding) if a.binding else "no limit"
    where, provisions = source_line(a)
    parts = [f'<section class="scenario{" first" if first else ""}">', f"<h2>{esc(item.name)}</h2>"]
    if item.notes:
        parts.append(f'<p class="notes">{esc(item.notes, keep=chr(10))}</p>')
    if a.is_variant:
        parts.append(f'<p class="variant">Policy variant, not the regulation in force: {esc(a.ruleset_label)}</p>')
    unmet = "".join(f'<div class="unmet"><b>Not yet met:</b> {esc(u.text)}</div>' for u in a.unmet)
    parts.append(f'<div class="award"><div><div class="meta">State grant award</div>'
                 f'<div class="amount">{esc(fmt(a.amount))}</div></div><div class="why">{unmet}'
                 f'<div>Held down by <span class="bind">{esc(a.binding_text)}</span></div>'
                 f"<div>Route: {esc(ROUTES[a.route])}</div><div>{esc(where)}: {esc(provisions)}</div>"
                 + (f"<div>{esc(exception_line(a))}</div>" if exception_line(a) else "") +
                 "".join(f"<div>{esc(line)}</div>" for line in _law_lines(a)) +
                 f'<div class="cite">{esc(edition_words(a.ruleset_label, a.ruleset_edition, a.ruleset_version))}; '
                 f'the law as of {esc((a.as_of or date.today()).isoformat())}; '
                 f'{esc(a.readings.describe())}</div></div></div>')
    parts.append(f"<p class='cite'>{esc(maximum_words(a))}</p>")
    if item.reach:
        parts.append("<div class='keep reach'><h3>What it takes to reach an award</h3>"
                     + "".join(f"<p>{esc(t)}</p>" for t in item.reach) + "</div>")
    others = other_readings_words(a)
    parts.append("<div class='keep readings'><h3>Readings that would change this award</h3>" + (
        "<ul>" + "".join(f"<li>{esc(t)}</li>" for t in others) + "</ul>" if others else
        "<p>No single other reading of the regulation changes this award.</p>") + "</div>")
    parts.append('<div class="pair keep"><div><h3>Inputs</h3>' + _inputs_table(a) + "</div>")
    plan = tuple((label, award_words(a) if key == "state" else fmt(a.funding[key]))
                 for key, (label, _) in SOURCES.items())   # every source of funds, then the gap
    if a.route == "bpw_exception":
        plan += (("Without the Board's approval", f"{fmt(a.routes['standard'].award)} (the standard route)"),)
    parts.append("<div><h3>Funding plan</h3><table>" + "".join(
        f"<tr><th>{esc(label)}</th><td class='num'>{esc(value)}</td></tr>" for label, value in plan)
        + "</table></div></div>")
    parts.append('<div class="charts">' + chart(headroom_figure(a), chart_text.headroom(a)[0], half=True)
                 + chart(waterfall_figure(a, across=True), chart_text.waterfall(a)[0], half=True) + "</div>")
    # The checks (a few rows, kept whole) and the explanation (it breaks between its steps) are
    # no longer one block moved whole to the next page, which left most of a page blank.
    parts.append('<div class="checks keep"><h3>Checks</h3><table><thead><tr><th>Check</th><th>Result</th><th>Detail</th>'
                 '</tr></thead>' + "".join(
        f"<tr><td>{esc(c.label)}</td><td class='{c.status}'>{STATUS_WORDS[c.status]}</td><td>{esc(c.message)}</td></tr>"
        for c in a.checks) + "</table></div><div class='explained'>")
    # The caps that bind close the explanation as its last line, not as a paragraph of their own
    # that a page break could leave alone on a page.
    parts.append("<h3>How the award is worked out</h3><ol>" + "".join(
        f"<li>{esc(s.text)} <span class='cite'>({esc(citation(s.provision, a).words if s.provision in PROVISION else 'Result')})"
        f"</span></li>" for s in a.steps) + f"</ol><p class='cite'>Held down by {esc(binding)}.</p></div></section>")
    return "".join(parts)


def _comparison(items: list[Item], chart, baseline: str) -> str:
    from core.report.compare import ANSWER, inputs_in_order, table
    named = [(i.name, i.award) for i in items]
    df = table(named)

    def html_table(columns) -> str:
        head = "".join(f"<th>{esc(c)}</th>" for c in columns)
        body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>"
                       for row in df[list(columns)].itertuples(index=False))
        return f"<table><thead><tr>{head}</tr></thead>{body}</table>"

    # Words between the charts: on paper no page holds charts alone (each chart has its sentence,
    # and the two at the end the numbers they draw).
    small = " keep" if len(items) <= KEPT_ROWS else ""
    out = ['<section class="comparison"><h2>Comparison of scenarios</h2>',
           f"<div class='answer{small}'><h3>The answer for each scenario</h3>" + html_table(("Scenario", *ANSWER))
           + "</div>",
           chart(compare_caps_figure(named), chart_text.compare_caps(named)[0]),
           "<h3>The inputs behind it</h3>" + turned_tables(df, inputs_in_order(df, baseline, blank=False))]
    funding, change = chart_text.funding(named), chart_text.change(named, baseline)
    if len(items) <= SIDE_BY_SIDE:
        out.append('<div class="charts">' + chart(funding_figure(named), funding[0], half=True)
                   + chart(change_figure(named, baseline), change[0], half=True) + "</div>"
                   + _numbers(funding[1]) + _numbers(change[1]))
    else:
        out += [chart(funding_figure(named), funding[0]) + _numbers(funding[1]),
                chart(change_figure(named, baseline), change[0]) + _numbers(change[1])]
    return "".join(out) + "</section>"


SIDE_BY_SIDE = 2   # scenarios whose funding and change charts fit half a column each (three names collided)


KEPT_ROWS = 8   # a table of up to this many scenarios is never split (well under half a page)


def _numbers(rows: list[dict]) -> str:
    """The numbers a chart draws (its text alternative's table), under it."""
    if not rows:
        return ""
    head = "".join(f"<th>{esc(k)}</th>" for k in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" if k == next(iter(r)) else f"<td class='num'>{esc(v)}</td>"
                                    for k, v in r.items()) + "</tr>" for r in rows)
    return f"<table class='numbers keep'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


PER_TABLE = 4   # scenarios side by side in one turned table: each column at least 1.4 in on paper


def turned_tables(df, rows, per: int = PER_TABLE) -> str:
    """The table turned: a row per input, a column per scenario (the wide table of an input per
    column ran off the printed page), at most `per` scenarios a table, then another table."""
    names = df["Scenario"].tolist()
    out = []
    for start in range(0, len(names), per):
        part = df.iloc[start:start + per]
        caption = (f"<caption>Scenarios {start + 1} to {start + len(part)} of {len(names)}</caption>"
                   if len(names) > per else "")
        head = "".join(f"<th>{esc(n)}</th>" for n in part["Scenario"])
        body = "".join(f"<tr><th>{esc(r)}</th>" + "".join(f"<td>{esc(v)}</td>" for v in part[r]) + "</tr>"
                       for r in rows)
        out.append(f"<table class='turned keep'>{caption}<colgroup><col style='width:{_first_column(len(part))}%'>"
                   f"</colgroup><thead><tr><th>Input</th>{head}</tr></thead><tbody>{body}</tbody></table>")
    return "".join(out)


def _first_column(scenarios: int) -> int:
    return 34 if scenarios > 2 else 40


def _law_lines(a) -> list[str]:
    """Where the statute in force and the regulation disagree for this application (one line), then
    what the law applied leaves uncertain: the statute's (d), a day not found."""
    from core.law.award import law_differs
    differs = law_differs(a.application, a.readings, a.as_of, a) if a.ruleset_id in ("regulation", "statute") \
        and not a.is_variant else ""
    return ([differs] if differs else []) + list(a.law_notes)


def render(report: Report, static: bool = False) -> str:
    """The whole report as one HTML document. static=True draws SVG charts (for the PDF)."""
    if not report.items:
        raise ReportError("a report needs at least one scenario")
    if not 0 <= report.baseline < len(report.items):
        raise ReportError(f"the baseline is scenario {report.baseline + 1}, but the report has {len(report.items)}")
    chart = Charts(static)
    rulesets = dict.fromkeys((i.award.ruleset_label, i.award.ruleset_id, i.award.ruleset_version, i.award.is_variant,
                              i.award.ruleset_edition) for i in report.items)
    head = [f"<h1>{esc(report.title)}</h1>",
            f"<p class='meta'>{esc(report.on.strftime('%B %-d, %Y'))}"
            + (f" · Prepared by {esc(report.prepared_by)}" if report.prepared_by.strip() else "") + "</p>"]
    for label, rid, version, variant, edition in rulesets:
        head.append(f"<p class='meta'>Ruleset: {esc(edition_words(label, edition, version))}</p>")
        if variant:
            head.append(f"<p class='variant'>Policy variant: {esc(label)}. These figures are a what-if, "
                        f"not the regulation in force.</p>")
    body = ["<header>" + "".join(head) + "</header>"]
    if len(report.items) > 1:   # a board reads the comparison first, then each scenario's detail
        body.append(_comparison(report.items, chart, report.items[report.baseline].name))
    body += [_scenario(item, chart, first=(k == 0)) for k, item in enumerate(report.items)]
    text = ("the regulation's text" if all(i.award.ruleset_id == "regulation" and not i.award.is_variant
                                            for i in report.items) else "the text of the law applied to each scenario")
    body.append(law_section(report.items, f"<footer>Computed from {text} as encoded in this tool; every "
                                          "number traceable to a provision. Amounts in US dollars.</footer>"))
    return document(report.title, body, static)


