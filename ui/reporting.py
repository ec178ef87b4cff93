"""Download buttons for the board report (HTML always; PDF where a browser is found)."""
from __future__ import annotations

import re

import streamlit as st

from core.report import NO_BROWSER, Item, Report, ReportError, find_browser, pdf, render
from ui.text import md


def _filename(title: str, ext: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "report"
    return f"{slug}.{ext}"


def report_buttons(items: list[Item], key: str) -> None:
    st.subheader("Board report")
    prepared = st.text_input("Prepared by", key=f"w:{key}:prepared", max_chars=120,
                             placeholder="name, office, date of the meeting")
    title = st.text_input("Report title", key=f"w:{key}:title", max_chars=120,
                          value="State capital grant for a senior citizen activity center")
    report = Report(items, title=title.strip() or "State capital grant report", prepared_by=prepared)
    a, b = st.columns(2)
    a.download_button("Download the report (HTML, works offline)", data=lambda: render(report),
                      file_name=_filename(report.title, "html"), mime="text/html", key=f"w:{key}:html",
                      help="One file with interactive charts; opens in any browser without a network. "
                           "Its print layout gives a clean PDF too.")
    if find_browser() is None:
        b.button("Make the PDF packet", disabled=True, key=f"w:{key}:pdf_off")
        b.caption(md(NO_BROWSER))
        return
    if b.button("Make the PDF packet", key=f"w:{key}:pdf"):
        with st.spinner("Drawing the charts and printing the PDF..."):
            try:
                st.session_state[f"{key}:pdf"] = pdf(report)
            except ReportError as err:
                st.error(md(str(err)), icon=":material/error:")
    data = st.session_state.get(f"{key}:pdf")
    if data:
        b.download_button("Download the PDF packet", data=data, file_name=_filename(report.title, "pdf"),
                          mime="application/pdf", key=f"w:{key}:pdf_dl")
