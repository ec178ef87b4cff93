"""The board report's buttons: the HTML report always, the PDF packet where a browser is found;
and the Portfolio packet's, beside the Portfolio page's downloads.

Each file is made at the click, for what the screen shows then, and handed to the browser in the
same run (ui/report_file.js: a download, and a link that saves it again). Not st.download_button
with a callable (issue 30, finding 8): the browser asks for a deferred file as soon as the button
is pressed, while the run that takes the "Report title" or "Prepared by" just typed (sent when the
box loses focus, that is, by the same click) has not happened yet. The file kept the old title and
the old file name (4 of 4 tries), and when that run had already replaced the button, the click
downloaded nothing ("Deferred file ... not found"). A button's run comes after every value the
page sent before it, so the file, and its name, hold what the screen shows.

"Prepared by" and "Report title" are checked as the command line checks them (core/names.py):
no control, bidirectional or invisible character, at most 120 characters.
"""
from __future__ import annotations

import base64
import itertools
import re
from datetime import date
from collections.abc import Callable

import orjson
import streamlit as st

from core.law.money import ValidationError
from core.law.names import check_text
from core.report.html import Item, Report, ReportError, render
from core.report.pdf import NO_BROWSER, find_browser, pdf
from ui.components.elements import element
from ui.text import Markdown, error_text, md

DEFAULT_TITLE = "State capital grant for a senior citizen activity center"
SLIDES = "Download the slides (PowerPoint)"
DELIVER = element("report_file", "report_file", "rf")
_files = itertools.count(1)   # each file made in this process is handed over once, by its number


def _filename(title: str, ext: str, dated: bool = False) -> str:
    """The file's name from its title; `dated` (a title the page made, not one typed) adds the day,
    so that the Calculator's and Compare's files, and two days' files, never overwrite each other."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60].strip("-") or "report"
    return f"{slug}-{date.today().isoformat()}.{ext}" if dated else f"{slug}.{ext}"


def default_title(key: str, names: list[str]) -> str:
    """The title a report gets when none is typed: its page and its scenarios."""
    if key != "cmp":
        return f"State capital grant: {names[0]}"[:120] if names else DEFAULT_TITLE
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    whole = f"Comparison of {len(names)} scenarios: {listed}"
    return whole if len(whole) <= 120 else f"Comparison of {len(names)} scenarios: {names[0][:60]} and others"


def labels(title: str, prepared: str) -> tuple[str, str, Markdown | None]:
    """The title (or "" for the page's own) and "Prepared by" as checked, and what is wrong with them."""
    try:
        checked_title = check_text(title, "Report title", 120, what="text", required=False)
        checked_prepared = check_text(prepared, "Prepared by", 120, what="text", required=False)
    except ValidationError as err:
        return "", "", error_text(err)
    return checked_title, checked_prepared, None


def _report(items: list[Item], key: str, title: str, prepared: str, baseline: int) -> tuple[Report, bool]:
    """The report of `items`, titled as typed or by its page and scenarios (then True: dated)."""
    named = title or default_title(key, [i.name for i in items])
    return Report(items, title=named, prepared_by=prepared, baseline=baseline), not title


def slides(items: list[Item], key: str, title: str, prepared: str, baseline: int) -> tuple[str, str, str, bytes]:
    """The deck of what the screen shows, as deliver() hands it over."""
    from core.report.deck import MIME, deck
    report, dated = _report(items, key, title, prepared, baseline)
    return "The slides", _filename(report.title, "pptx", dated), MIME, deck(report)


def report_buttons(items: Callable[[], list[Item]], key: str, baseline: int = 0) -> None:
    """The report box: "Prepared by", "Report title", and a button per file. `items` gives the
    scenarios the screen shows (called at the click), in the screen's order; `baseline` is the
    place of the one the others are compared with."""
    st.header("Board report")
    prepared = st.text_input("Prepared by", key=f"w:{key}:prepared", max_chars=120,
                             placeholder="name, office, date of the meeting")
    title = st.text_input("Report title", key=f"w:{key}:title", max_chars=120,
                          placeholder="empty: the page and its scenarios ("
                                      + ("Comparison of 3 scenarios: ..." if key == "cmp" else "State capital grant: ...")
                                      + ")")
    title, prepared, problem = labels(title, prepared)
    if problem is not None:
        st.error(md("The report cannot carry this: ") + problem + md(". Correct it above."), icon=":material/error:")
    a, b = st.columns(2)   # three in a row cut "Download the report (HTML, works offline)" at 1280 px
    c = a
    made = None
    if a.button("Download the report (HTML, works offline)", key=f"w:{key}:html",
                help="One file with interactive charts; opens in any browser without a network. "
                     "Its print layout gives a clean PDF too.") and problem is None:
        report, dated = _report(items(), key, title, prepared, baseline)
        made = ("The report", _filename(report.title, "html", dated), "text/html", render(report).encode("utf-8"))
    if c.button(SLIDES, key=f"w:{key}:pptx",
                help="A 16:9 deck: the answer of each scenario, native charts you can restyle, and the law "
                     "in each slide's speaker notes.") and problem is None:
        made = slides(items(), key, title, prepared, baseline)
    if find_browser() is None:
        b.button("Make the PDF packet", disabled=True, key=f"w:{key}:pdf_off")
        b.caption(md(NO_BROWSER))
    elif b.button("Make the PDF packet", key=f"w:{key}:pdf",
                  help="Static charts, printed by this server's Chromium: a packet for what the screen shows "
                       "at the click.") and problem is None:
        with st.spinner("Drawing the charts and printing the PDF..."):
            try:
                report, dated = _report(items(), key, title, prepared, baseline)
                made = ("The PDF packet", _filename(report.title, "pdf", dated), "application/pdf", pdf(report))
            except ReportError as err:
                st.error(md(str(err)), icon=":material/error:")
    deliver(made, key)


def slides_button(items: Callable[[], list[Item]], key: str, baseline: int = 0) -> None:
    """Presentation mode's way to the deck (the report box is hidden): the slides of the scenarios
    presented, in their order, titled as the report box says."""
    title, prepared, problem = labels(st.session_state.get(f"w:{key}:title", ""),
                                      st.session_state.get(f"w:{key}:prepared", ""))
    box = st.container(key=f"keep_{key}_slides")
    made = None
    if box.button(SLIDES, key=f"w:{key}:pptx_present", icon=":material/slideshow:"):
        made = slides(items(), key, "" if problem else title, "" if problem else prepared, baseline)
    with box:
        deliver(made, f"{key}_present")


def portfolio_buttons(make: Callable[[str], object], key: str = "pf") -> None:
    """The Portfolio packet: "Prepared by", and a button for its HTML and one for its PDF.
    `make(prepared_by)` gives the core.report.portfolio.PortfolioReport of what the screen shows
    (called at the click)."""
    from core.report.portfolio import TITLE, render as render_portfolio
    st.header("Portfolio packet")
    st.caption("For a board: the totals, the findings, the allocation against the budget, how the order is set "
               "and the ranking, as HTML or as a PDF.")
    prepared = st.text_input("Prepared by", key=f"w:{key}:prepared", max_chars=120,
                             placeholder="name, office, date of the meeting")
    _, prepared, problem = labels(TITLE, prepared)
    if problem is not None:
        st.error(md("The packet cannot carry this: ") + problem + md(". Correct it above."), icon=":material/error:")
    a, b = st.columns(2)
    made = None
    if a.button("Download the Portfolio packet (HTML)", key=f"w:{key}:html",
                help="The ranking, the allocation against the budget, the findings and the weights, in one file "
                     "that opens in any browser without a network.") and problem is None:
        made = ("The Portfolio packet", _filename(TITLE, "html"), "text/html",
                render_portfolio(make(prepared)).encode("utf-8"))
    if find_browser() is None:
        b.button("Make the Portfolio packet (PDF)", disabled=True, key=f"w:{key}:pdf_off")
        b.caption(md(NO_BROWSER))
    elif b.button("Make the Portfolio packet (PDF)", key=f"w:{key}:pdf",
                  help="Printed by this server's Chromium, for what the page shows at the click.") and problem is None:
        with st.spinner("Drawing the chart and printing the PDF..."):
            try:
                made = ("The Portfolio packet", _filename(TITLE, "pdf"), "application/pdf", pdf(make(prepared)))
            except ReportError as err:
                st.error(md(str(err)), icon=":material/error:")
    deliver(made, key)


def deliver(made: tuple[str, str, str, bytes] | None, key: str) -> None:
    """Hand `made` (what, file name, type, bytes) to the browser once; on the runs after it, the
    element keeps its note and its link (it is sent the file's number only)."""
    last = st.session_state.get(f"{key}:delivered")
    if made is not None:
        what, name, mime, data = made
        last = {"n": next(_files), "what": what, "name": name, "mime": mime}
        st.session_state[f"{key}:delivered"] = last
        payload = last | {"b64": base64.b64encode(data).decode("ascii")}
    else:
        payload = last or {"n": 0}
    # Bytes: Streamlit forwards them as they are (a dict is walked and hashed on every run).
    DELIVER(key=f"{key}:file", data=orjson.dumps(payload))
