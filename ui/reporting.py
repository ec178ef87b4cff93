"""Download buttons for the board report (HTML always; PDF where a browser is found)."""
from __future__ import annotations

import re
from collections.abc import Callable

import streamlit as st

from core.report.html import Item, Report, ReportError, render
from core.report.pdf import NO_BROWSER, find_browser, pdf
from ui.text import md


def _filename(title: str, ext: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "report"
    return f"{slug}.{ext}"


def _signature(report: Report) -> tuple:
    return (report.title, report.prepared_by,
            tuple((i.name, i.notes, i.award.application, i.award.ruleset_version) for i in report.items))


def report_buttons(items: Callable[[], list[Item]], key: str) -> None:
    """HTML and PDF downloads of the board report. `items` is called when a file is made,
    possibly outside a script run (deferred downloads), so it must not touch Streamlit:
    the files then hold what the screen shows at the click, not at the last redraw here."""
    st.header("Board report")
    prepared = st.text_input("Prepared by", key=f"w:{key}:prepared", max_chars=120,
                             placeholder="name, office, date of the meeting")
    title = st.text_input("Report title", key=f"w:{key}:title", max_chars=120,
                          value="State capital grant for a senior citizen activity center")
    title = title.strip() or "State capital grant report"

    def report() -> Report:
        return Report(items(), title=title, prepared_by=prepared)

    a, b = st.columns(2)
    a.download_button("Download the report (HTML, works offline)", data=lambda: render(report()),
                      file_name=_filename(title, "html"), mime="text/html", key=f"w:{key}:html",
                      help="One file with interactive charts; opens in any browser without a network. "
                           "Its print layout gives a clean PDF too.")
    if find_browser() is None:
        b.button("Make the PDF packet", disabled=True, key=f"w:{key}:pdf_off")
        b.caption(md(NO_BROWSER))
        return
    if b.button("Make the PDF packet", key=f"w:{key}:pdf"):
        with st.spinner("Drawing the charts and printing the PDF..."):
            try:
                made = report()
                st.session_state[f"{key}:pdf"] = (_signature(made), pdf(made))
            except ReportError as err:
                st.error(md(str(err)), icon=":material/error:")
    if f"{key}:pdf" in st.session_state:
        made_for, data = st.session_state[f"{key}:pdf"]

        def current_pdf() -> bytes:
            now = report()   # inputs moved since it was made: print it again for what is shown now
            return data if _signature(now) == made_for else pdf(now)

        b.download_button("Download the PDF packet", data=current_pdf, file_name=_filename(title, "pdf"),
                          mime="application/pdf", key=f"w:{key}:pdf_dl")
