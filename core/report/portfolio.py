"""The Portfolio packet: a year's applications ranked and allocated against one budget, for a
board (HTML, and the PDF through core.report.pdf). Its parts: the totals, the findings
(core.law.portfolio.insight), the allocation against the budget (a chart and its words), how
the order is set (the allocation, the Board's exception, the considerations' weights, the
formula in words), the ranking, the rows that could not be used, the ruleset and the readings.

The packet holds plain values (made from the allocation by `portfolio_report`), not the
allocation itself: it is what the PDF's child process is handed, and a 20,000-row portfolio
lists only its RANKED_ROWS highest priorities (the CSV holds every row).

All user text (application names, localities, the file's name, "prepared by") is escaped.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import numpy as np

from core.law.analysis import caps_words
from core.law.fields import FIELD
from core.law.money import fmt
from core.law.portfolio import (DEFAULT_DIRECTIONS, DIRECTIONS, EXCEPTIONS, FACTORS, MODES, SETTING_NOTE, Result,
                                formula_words, insight)
from core.law.readings import READING, Readings
from core.law.rulesets import Ruleset, edition_words
from core.report import chart_text
from core.report.charts.portfolio import cumulative_figure
from core.report.html import ReportError
from core.report.page import Charts, document, esc

RANKED_ROWS = 500    # rows of the ranking in the packet: ~12 pages; 20,000 rows would be ~400
BAD_ROWS = 50        # rows that could not be used, listed with their problem
TITLE = "Portfolio allocation"
SCORE_NOTE = ("The priority score is decision support from the Department's considerations (senior population "
              "density, distance to existing senior centers, localities not funded before). It orders applications; "
              "it never changes an award amount.")


@dataclass
class PortfolioReport:
    source: str                     # the file's name, or "the illustrative sample"
    illustrative: bool
    budget: int                     # cents
    mode: str                       # a key of MODES
    exceptions: str                 # a key of EXCEPTIONS
    weights: dict                   # a weight per key of FACTORS
    ruleset: str                    # the ruleset in words (edition_words)
    variant: str                    # the ruleset's label when it is a policy variant, else ""
    readings: Readings
    findings: list                  # sentences
    totals: dict                    # "Maximum awards", "Allocated", "Budget", "Unfunded": cents
    applications: int               # rows ranked
    ranking: list                   # a dict per row, the RANKED_ROWS highest priorities, in rank order
    bad: int                        # rows that could not be used
    bad_rows: list                  # (row of the file, name, problem), the first BAD_ROWS
    chart: tuple                    # (names, allocated, rank) of every ranked row: the cumulative chart
    title: str = TITLE
    prepared_by: str = ""
    directions: dict = field(default_factory=lambda: dict(DEFAULT_DIRECTIONS))   # a direction per key of DIRECTIONS
    on: date = field(default_factory=date.today)


def portfolio_report(result: Result, rs: Ruleset, weights: dict, mode: str, source: str,
                     variant: Ruleset | None = None, illustrative: bool = False, title: str = "",
                     prepared_by: str = "") -> PortfolioReport:
    """The packet of an allocation (core.law.portfolio.run) as the Portfolio page shows it."""
    table = result.table
    good = result.good
    idx = np.flatnonzero(good)
    names = (table["name"].astype(str).to_numpy() if "name" in table.columns
             else np.array([f"Row {i + 2}" for i in range(len(table))], dtype=object))
    rank = np.zeros(len(table), dtype=np.int64)
    rank[idx] = table["rank"].to_numpy()[idx].astype(np.int64)
    order = idx[np.argsort(rank[idx], kind="stable")]
    exception, unmet = bool(result.on_exception.any()), bool(result.unmet.any())
    rows = []
    for i in order[:RANKED_ROWS]:
        # no locality column: with it every name wrapped, two lines a row (23 pages for 500 rows)
        row = {"Rank": str(int(rank[i])), "Application": str(names[i])}
        row |= {"Priority score": f"{float(table['priority_score'].iloc[i]):.3f}",
                "Maximum award": fmt(int(result.awards[i])),
                "Held down by": caps_words(result.binding[i].split(";")) if result.binding[i] else ""}
        if exception:
            extra = int(result.best[i] - result.standard[i])
            row["Board's exception"] = ((f"needed: +{fmt(extra)}" + ("" if result.exceptions == "assumed"
                                                                     else ", not counted")) if extra > 0 else "")
        row["Allocated"] = fmt(int(result.allocated[i]))
        if unmet:   # the requirement not yet met, short enough for its column (as on the page)
            row["Local match"] = f"{fmt(int(result.shortfall[i]))} short" if result.shortfall[i] else "met"
        rows.append(row)
    bad = np.flatnonzero(~good)
    total_max, total_alloc = int(result.awards[good].sum()), int(result.allocated[good].sum())
    return PortfolioReport(
        source=source, illustrative=illustrative, budget=result.budget, mode=mode, exceptions=result.exceptions,
        weights=dict(weights), ruleset=edition_words(rs.label, rs.edition, rs.version),
        variant=rs.label if rs.is_variant else "", readings=result.readings, findings=insight(result, rs, variant),
        totals={"Maximum awards": total_max, "Allocated": total_alloc, "Budget": result.budget,
                "Unfunded": total_max - total_alloc},
        applications=len(idx), ranking=rows, bad=len(bad),
        bad_rows=[(int(i) + 2, str(names[i]) if "name" in table.columns else "", str(table["error"].iloc[i]))
                  for i in bad[:BAD_ROWS]],
        chart=([str(names[i]) for i in idx], [int(result.allocated[i]) for i in idx], [int(rank[i]) for i in idx]),
        title=title or TITLE, prepared_by=prepared_by, directions=dict(result.directions or DEFAULT_DIRECTIONS))


def sample_report(**kw) -> PortfolioReport:
    """The packet of the illustrative sample at a $4,000,000 budget, the Portfolio page's defaults."""
    from core.law.portfolio import read_sample, run
    from core.law.rulesets import load
    rs = load()
    weights = {k: 1.0 for k in FACTORS}
    result = run(read_sample(), 400_000_000, "priority", weights, rs)
    return portfolio_report(result, rs, weights, "priority", "the illustrative sample", illustrative=True, **kw)


# Shares of the ranking's width (normalised over the columns present): wide enough for a name like
# "Illustrative application 00320" and "the limit for earlier grantees" on one line at 9 pt; left
# to the browser, both wrapped and 500 rows took 21 pages instead of 12.
# With the "Local match" column the others give it room, the total unchanged: "Rank" still on one line.
RANKING_WIDTHS = {"Rank": 7, "Application": 29, "Priority score": 9, "Maximum award": 12, "Held down by": 31,
                  "Board's exception": 14, "Allocated": 12, "Local match": 12}
NARROWER = {"Application": 26, "Held down by": 26, "Maximum award": 11, "Board's exception": 12,
            "Allocated": 11}


COLUMN_PT = 540   # the printed column: 7.5 in
NEVER_BROKEN = {"Rank", "Priority score", "Maximum award", "Allocated", "Local match", "Board's exception"}


def fitted(widths: dict, rows: list[dict]) -> dict:
    """Shares (percent) of the printed column: each column of amounts as wide as its widest value
    at 9 pt ("$503,586.14" ran into the next column at 11 in 126), the text columns sharing the
    rest in the proportions of `widths`."""
    need = {k: (max(len(str(r[k])) for r in rows) * 9 * 0.6 + 10) / COLUMN_PT * 100
            for k in rows[0] if k in NEVER_BROKEN}
    total = sum(widths[k] for k in rows[0])
    share = {k: 100 * widths[k] / total for k in rows[0]}
    fixed = {k: max(share[k], need[k]) for k in need}
    text = [k for k in rows[0] if k not in fixed]
    left, given = 100 - sum(fixed.values()), sum(share[k] for k in text) or 1
    return {k: fixed[k] if k in fixed else share[k] * left / given for k in rows[0]}


def _table(rows: list[dict], cls: str = "", widths: dict | None = None) -> str:
    head = "".join(f"<th>{esc(k)}</th>" for k in rows[0])
    cols = ""
    if widths:
        shares = fitted(widths, rows)
        cols = "<colgroup>" + "".join(f"<col style='width:{shares[k]:.1f}%'>" for k in rows[0]) + "</colgroup>"
    money = {"Maximum award", "Allocated", "Priority score", "Rank", "Weight", "Share of the score"}
    body = "".join("<tr>" + "".join(f"<td class='num'>{esc(v)}</td>" if k in money else f"<td>{esc(v)}</td>"
                                    for k, v in r.items()) + "</tr>" for r in rows)
    return f"<table class='{cls}'>{cols}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _order(report: PortfolioReport) -> str:
    total = sum(report.weights.values())
    weights = [{"Consideration": FIELD[column].label, "Scores higher (the Department's setting)":
                DIRECTIONS[k][report.directions[k]], "Weight": f"{report.weights[k]:g}",
                "Share of the score": f"{report.weights[k] / total:.0%}" if total else "0%"}
               for k, (column, _) in FACTORS.items()]
    return ("<section class='order'><h2>How the applications are ordered and funded</h2>"
            f"<p><b>Allocation:</b> {esc(MODES[report.mode])}, against a budget of {esc(fmt(report.budget))}.</p>"
            f"<p><b>The Board of Public Works exception:</b> {esc(EXCEPTIONS[report.exceptions])}.</p>"
            "<div class='keep'><h3>The considerations: the Department's settings</h3>"
            f"<p>{esc(SETTING_NOTE)}</p>" + _table(weights, "weights") + "</div>"
            f"<p>{esc(formula_words(report.weights, report.directions))}</p><p class='cite'>{esc(SCORE_NOTE)}</p>"
            "</section>")


def _ranking(report: PortfolioReport) -> str:
    if not report.ranking:
        return "<section class='ranking'><h2>The ranking</h2><p>No application could be ranked.</p></section>"
    shown = len(report.ranking)
    note = (f"All {shown:,} applications in priority order." if shown == report.applications else
            f"The {shown:,} highest priorities of {report.applications:,} applications, in priority order; every "
            "application is in the results CSV (the Portfolio page's download, or the file "
            "<code>python -m core allocate</code> writes with -o).")
    widths = RANKING_WIDTHS | (NARROWER if "Local match" in report.ranking[0] else {})
    return (f"<section class='ranking'><h2>The ranking</h2><p>{note}</p>"
            + _table(report.ranking, "ranking", widths) + "</section>")


def _bad(report: PortfolioReport) -> str:
    if not report.bad:
        return ""
    listed = len(report.bad_rows)
    rows = [{"Row of the file": str(r), "Application": n, "Problem": p} for r, n, p in report.bad_rows]
    more = (f" The first {listed} are listed; the results CSV gives every row's problem (its error column)."
            if report.bad > listed else "")
    return (f"<section class='bad'><h2>Rows that could not be used</h2><p>{report.bad:,} row(s) of the file could not "
            f"be used and are not ranked.{more}</p>" + _table(rows) + "</section>")


def _readings(report: PortfolioReport) -> str:
    items = []
    for rid, alt in report.readings.as_dict().items():
        r = READING[rid]
        a = r.alternative(alt)
        note = "the default" if alt == r.default else "not the default"
        items.append(f"<li><b>{esc(r.title)}: {esc(a.title)}</b> ({note}): {esc(a.meaning)}</li>")
    return ("<section class='sources'><h2>The ruleset and the readings used</h2>"
            f"<p>Ruleset: {esc(report.ruleset)}.</p><h3>Readings</h3><ul>" + "".join(items) + "</ul></section>")


def render(report: PortfolioReport, static: bool = False) -> str:
    """The Portfolio packet as one HTML document. static=True draws SVG charts (for the PDF)."""
    if report.budget < 0:
        raise ReportError("a portfolio packet needs a budget of $0 or more")
    chart = Charts(static)
    head = [f"<h1>{esc(report.title)}</h1>",
            f"<p class='meta'>{esc(report.on.strftime('%B %-d, %Y'))}"
            + (f" · Prepared by {esc(report.prepared_by)}" if report.prepared_by.strip() else "") + "</p>",
            f"<p class='meta'>Ruleset: {esc(report.ruleset)}</p>",
            f"<p class='meta'>Applications: {esc(report.source)} ({report.applications:,} ranked"
            + (f", {report.bad:,} could not be used" if report.bad else "") + ")</p>"]
    if report.variant:
        head.append(f"<p class='variant'>Policy variant: {esc(report.variant)}. These figures are a what-if, not "
                    "the regulation in force.</p>")
    if report.illustrative:
        head.append("<p class='variant'>ILLUSTRATIVE: a sample of fictional applications, not real ones.</p>")
    totals = "".join(f"<div><div class='meta'>{esc(k)}</div><div class='amount'>{esc(fmt(v))}</div></div>"
                     for k, v in report.totals.items())
    body = ["<header>" + "".join(head) + "</header>", f"<div class='totals'>{totals}</div>",
            "<section class='findings'><h2>Findings</h2><ul>" + "".join(f"<li>{esc(t)}</li>" for t in report.findings)
            + "</ul>"]
    names, allocated, rank = report.chart
    if names:
        body.append(chart(cumulative_figure(names, allocated, rank, report.budget),
                          chart_text.cumulative(names, allocated, rank, report.budget)[0]))
    body += ["</section>", _order(report), _ranking(report), _bad(report), _readings(report),
             "<footer>Maximum awards computed from the regulation's text as encoded in this tool; the priority score "
             "orders applications and never changes an award. Amounts in US dollars.</footer>"]
    return document(report.title, body, static)


def editable(frame):
    """The Portfolio editor's cells as the rest of the tool shows them: money as "$1,450,000" (a cell that is
    not an amount kept as typed, for its row's error to name it), the project type in words; the
    portfolio reads both back exactly ("1450000", "1,450,000.50" and "$1,450,000" alike)."""
    from core.law.fields import MONEY_FIELDS, PROJECT_TYPES
    from core.law.money import ValidationError, to_cents
    out = frame.copy()

    def money(text):
        try:
            return fmt(to_cents(text, "")) if isinstance(text, str) and text.strip() else text
        except (ValidationError, ValueError):
            return text
    for column in (c for c in MONEY_FIELDS if c in out.columns):
        out[column] = [money(v) for v in out[column]]
    if "project_type" in out.columns:
        out["project_type"] = [PROJECT_TYPES.get(v, v) if isinstance(v, str) else v for v in out["project_type"]]
    return out
