"""Entry point: `python dashboard.py` (says where it opens) or `streamlit run dashboard.py`.
Page config, navigation, shared sidebar, presentation mode."""
import sys

import streamlit as st
from streamlit import runtime

from ui import a11y, auth, present, routing, server, state, widgets   # ui.library (SQLAlchemy): where it is used
from ui.components import first_paint, keys
from ui.text import plain_text, shown
from ui.widgets import show

if __name__ == "__main__" and not runtime.exists():   # `python dashboard.py`: say where it opens, then serve
    raise SystemExit(server.serve(__file__, sys.argv[1:]))

server.serving_settings()   # Nagle off, no 5 ms pause between the runtime's sends (ui/server.py)
server.guard_widget_values()   # a value no page of ours sends is refused, not a traceback (ui/server.py)

st.set_page_config(page_title="State capital grant what-if", page_icon="🏛️", layout="wide")
st.html(widgets.CODE_CSS)

# What every page may need, loaded by server.settle_heap at the end of the process's first run and then
# left out of full garbage collections (ui/server.py). At the end, not at the top: a fresh server's first
# visitor sees the award without waiting for Plotly, pandas or the library to load (issue 53).
SETTLED = ("pandas", "numpy", "plotly.graph_objects", "core.law.analysis", "core.report.charts.calculator",
           "core.report.charts.compare", "core.report.charts.sensitivity", "core.report.charts.portfolio",
           "core.report.compare", "core.law.portfolio", "core.report.html", "core.store.repository")

PAGES = [
    st.Page("pages/calculator.py", title="Calculator", icon=":material/calculate:", default=True),
    st.Page("pages/compare.py", title="Compare scenarios", icon=":material/compare:"),
    st.Page("pages/sensitivity.py", title="Sensitivity", icon=":material/show_chart:"),
    st.Page("pages/portfolio.py", title="Portfolio", icon=":material/table_chart:"),
    st.Page("pages/rules.py", title="Rules and variants", icon=":material/gavel:"),
]


def presentation(current, problem: str | None) -> None:
    """Presentation mode (ui/present.py): a link's `?present=1` turns it on; while on, a bar
    at the top moves between pages and leaves the mode."""
    if present.on():
        present.bar(PAGES, current)
    if problem:
        st.warning(shown(problem), icon=":material/link_off:")   # Markdown made by ui.present, the link's text literal


def sidebar() -> None:
    with st.sidebar:
        auth.account_box()
        st.toggle("Presentation mode", key=present.KEY,
                  help="Hide the controls and this sidebar and enlarge numbers and charts, for a projector. "
                       "A link with ?present=1 opens a page this way.")
        st.markdown("**Senior center capital grants**")   # not a heading: the page's h1 comes first
        st.caption("What the State can give, and which limit holds it down.")
        choices = state.ruleset_ids()
        show("w:ruleset", state.get("ruleset") if state.get("ruleset") in choices else "regulation")
        st.selectbox("Ruleset", choices, key="w:ruleset",
                     format_func=lambda rid: plain_text(state.ruleset_by_id(rid).label),
                     on_change=lambda: state.put_from_widget("ruleset", "w:ruleset"),
                     help="The regulation in force, or a policy variant for what-ifs (always labelled).")
        law_day_field()
        keys.install()   # Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z for Undo and Redo; Enter applies a typed day


def law_day_field() -> None:
    """The day whose law applies (today by default): the statute's numbers are dated; the
    regulation's hold from its edition on. The field starts at the ruleset's first value."""
    from datetime import date
    rs = state.ruleset()   # a day the ruleset has no values for has given way to today (said)
    today = date.today()
    show("w:as_of", state.law_day() or (rs.as_of_date if rs.as_of_date and rs.as_of_date > today else today))

    def picked() -> None:
        day = st.session_state.get("w:as_of")
        if day is not None:
            state.put("as_of", None if day == today else day)

    st.date_input("Law as of", key="w:as_of", min_value=max(rs.first_day or state.EARLIEST, state.EARLIEST),
                  max_value=state.latest(), format="YYYY-MM-DD", on_change=picked,
                  help="The day whose law applies (today unless you pick another). The statute's numbers "
                       "change over time, each with its source (Rules page); the regulation's hold from its edition on.")


def variants_can_wait(page) -> bool:
    """Whether the library's kept variants may be read after the page rather than before it: on the
    Calculator, until this process's first run has completed (the library not opened yet: SQLAlchemy
    and its schema check, ~0.2-0.5 s before a fresh server's first visitor would see the award; issue
    53), when the link names no ruleset or a shipped one. If the library keeps variants, the page then
    runs again at once, so that the sidebar lists them; a link naming one reads them first, as always."""
    named = st.query_params.get("ruleset")
    return (not server.settled() and page.url_path == PAGES[0].url_path
            and (named is None or named in state.available()))


# With [auth] in the secrets: a visitor not signed in sees only "Sign in", a user who may not come in
# only the refusal (ui/auth.py); after signing in, the address asked for before (ui/addresses.py).
page = auth.navigation(PAGES)
st.set_page_config(page_title=f"{page.title} · Senior center capital grants")   # one title per page
a11y.install()
library_later = variants_can_wait(page)
with routing.routed():   # pages/*.py call routing.ensure_dashboard() first: drawn only from here
    if not library_later:
        from ui import library
        library.refresh_variants()   # the library's kept variants, before a link names one and the sidebar lists them
    state.init()
    present_problem = present.sync_with_url()   # before the sidebar's toggle is drawn
    # A visitor's first run of the Calculator draws its award alone; all of this comes with the rest,
    # once the browser has painted it (ui/components/first_paint.py)
    award_first = first_paint.begin(page.url_path == PAGES[0].url_path and not present.on() and present_problem is None)
    if not award_first:
        sidebar()
        presentation(page, present_problem)
        widgets.refused_warning()   # a forged value: said, not used
        for problem in st.session_state.pop("url_problems", []):   # a bad link, on whichever page it opens
            st.warning(shown(problem), icon=":material/link_off:")   # Markdown made by ui.state, the link's text literal
    try:
        page.run()
    finally:   # once per process, after the first whole page has been drawn (or stopped): see SETTLED
        if not award_first:
            server.settle_heap(SETTLED)
    if library_later:
        from ui import library
        library.refresh_variants()
        if st.session_state.get("variants"):   # kept variants: run again, so that the sidebar lists them
            st.rerun()
