"""Entry point: `streamlit run dashboard.py`. Page config, navigation, shared sidebar."""
import streamlit as st

from ui import a11y, auth, server, state
from ui.widgets import show

server.disable_nagle()   # once per process; see ui/server.py

st.set_page_config(page_title="State capital grant what-if", page_icon="🏛️", layout="wide")

PAGES = [
    st.Page("pages/calculator.py", title="Calculator", icon=":material/calculate:", default=True),
    st.Page("pages/compare.py", title="Compare scenarios", icon=":material/compare:"),
    st.Page("pages/sensitivity.py", title="Sensitivity", icon=":material/show_chart:"),
    st.Page("pages/portfolio.py", title="Portfolio", icon=":material/table_chart:"),
    st.Page("pages/rules.py", title="Rules and variants", icon=":material/gavel:"),
]


PRESENTING_CSS = """<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], header[data-testid="stHeader"]
  { display: none !important; }
[data-testid="stMainBlockContainer"] { max-width: 100% !important; padding-top: 1.5rem !important; }
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li { font-size: 1.4rem !important; }
[data-testid="stMetricLabel"] p { font-size: 1.5rem !important; }
[data-testid="stMetricValue"] p { font-size: 4.5rem !important; line-height: 1.15 !important; }
</style>"""


def presentation() -> None:
    """One toggle hides the inputs and the sidebar and enlarges the key numbers for a projector."""
    if st.session_state.get("presentation"):
        st.html(PRESENTING_CSS)
        st.button("Exit presentation mode", key="w:exit_presentation", icon=":material/close_fullscreen:",
                  on_click=lambda: st.session_state.update(presentation=False))


def sidebar() -> None:
    with st.sidebar:
        auth.account_box()
        st.toggle("Presentation mode", key="presentation",
                  help="Hide the inputs and this sidebar and enlarge the key numbers, for a projector.")
        st.markdown("**Senior center capital grants**")   # not a heading: the page's h1 comes first
        st.caption("What the State can give, and which limit holds it down.")
        choices = state.ruleset_ids()
        show("w:ruleset", state.get("ruleset") if state.get("ruleset") in choices else "regulation")
        st.selectbox("Ruleset", choices, key="w:ruleset",
                     format_func=lambda rid: state.ruleset_by_id(rid).label,
                     on_change=lambda: state.put("ruleset", st.session_state["w:ruleset"]),
                     help="The regulation in force, or a policy variant for what-ifs (always labelled).")


auth.gate()   # with [auth] in the secrets, a visitor who has not signed in sees only "Sign in"
page = st.navigation(PAGES)
st.set_page_config(page_title=f"{page.title} · Senior center capital grants")   # one title per page
a11y.install()
with state.routed():
    state.init()
    sidebar()
    presentation()
    page.run()
