"""Presentation mode: for a projector in a board meeting.

On: the sidebar, the header and every control that is not the story (pickers, uploads,
downloads, forms, buttons) are hidden; numbers and text are enlarged, and charts
take the builders' large type (core.report.charts, `large=`); a bar at
the top moves between pages and leaves the mode. A link carries it as `?present=1`, so a
link can open any page straight in presentation mode. Controls stay drawn (only hidden), so
what they hold is kept when the mode ends.
"""
from __future__ import annotations

import streamlit as st

from ui.components.elements import element
from ui.text import Markdown, md, message

PARAM = "present"           # the URL query parameter
ENTER = "enter"             # "first" or "last": where a page of steps starts, reached by Next or Previous
_ENTERED = "_present_enter"  # this run's ENTER (bar() reads it, the page's entered() uses it)
CLICKER = element("clicker", "clicker", "ck")
KEY = "presentation"        # the sidebar toggle's key in session state
_SEEN = "_present_url"      # the URL value last adopted or written
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")

NOTE_STRIP = 24   # pixels under the page's scrolling area, where the clicker's key note sits (clicker.css)
KEEP = ("present_bar", "keep_")     # container keys whose controls stay visible while presenting

_WIDGETS = ", ".join(f'[data-testid="{t}"]' for t in (
    "stSelectbox", "stMultiSelect", "stSlider", "stTextInput", "stTextArea", "stNumberInput", "stCheckbox",
    "stToggle", "stRadio", "stButton", "stDownloadButton", "stFileUploader", "stDataEditor", "stPopover",
    "stForm", "stDateInput", "stColorPicker", "stSelectSlider", "stFormSubmitButton"))
_KEPT = ", ".join(f'[class*="st-key-{k}"]' for k in KEEP)
# A board deck: each page's first screen (1280 x 720 and up) holds its answer. The award, in the
# pages' "hero" boxes, is the largest type on the screen; other amounts are smaller. Numbers never
# break and are never cut with an ellipsis (Streamlit cuts a metric that does not fit); words
# break only between words (no hyphens added, no word split where a line runs out).
HERO = ("present_answer", "cmp_focus_card", "pf_hero")   # container keys of each page's answer
_HERO = ", ".join(f".st-key-{k}" for k in HERO)
CSS = f"""<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], header[data-testid="stHeader"]
  {{ display: none !important; }}
[data-testid="stMainBlockContainer"] {{ max-width: 100% !important; padding: 0.75rem 2rem 3rem !important; }}
[data-testid="stMain"] {{ max-height: calc(100vh - {NOTE_STRIP}px) !important; }}   /* the clicker's key note below it */
[data-testid="stMain"] [data-testid="stElementContainer"]:has(:is({_WIDGETS})):not(:is({_KEPT}) *),
[data-testid="stMain"] :is({_WIDGETS}):not(:is({_KEPT}) *),
[data-testid="stMain"] [class*="st-key-ctl_"],
[data-testid="stMain"] [data-testid="stLayoutWrapper"]:has(> [class*="st-key-ctl_"]) {{ display: none !important; }}
[data-testid="stMain"] * {{ overflow-wrap: normal; word-break: normal; hyphens: manual; }}
[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li {{ font-size: 1.5rem !important; }}
[data-testid="stCaptionContainer"] p {{ font-size: 1.2rem !important; }}
[data-testid="stMain"] h1 {{ font-size: 2.2rem !important; padding: 0.25rem 0 0.5rem !important; }}
[data-testid="stMetricLabel"] p {{ font-size: 1.5rem !important; }}
[data-testid="stMetricValue"], [data-testid="stMetricValue"] * {{ overflow: visible !important;
  text-overflow: clip !important; white-space: nowrap !important; }}
[data-testid="stMetricValue"] {{ font-size: 2.6rem !important; line-height: 1.15 !important; }}
[data-testid="stMetricValue"] p, [data-testid="stMetricValue"] div {{ font-size: inherit !important; }}
:is({_HERO}) [data-testid="stMetricValue"] {{ font-size: clamp(4rem, 6.4vw, 7.5rem) !important; color: #1f4e79; }}
:is({_HERO}) [data-testid="stMetricLabel"] p {{ font-size: 1.6rem !important; }}
[data-testid="stTable"] th, [data-testid="stTable"] td {{ font-size: 1.35rem !important; }}
.gc-title, .gc-numbers summary, .gc-amount dt {{ font-size: 1.5rem !important; }}
.gc-amount dd {{ font-size: 2.4rem !important; line-height: 1.15 !important; }}
.gc-table th, .gc-table td {{ font-size: 1.35rem !important; }}
.st-key-cmp_focus_card code {{ font-family: inherit; font-size: inherit; color: inherit; background: none; padding: 0; }}
.st-key-cmp_focus_card [data-testid="stText"] {{ font-size: 2rem !important; font-weight: 700; line-height: 1.25; }}
.st-key-present_charts section.gc-chart:first-of-type .gc-plot {{ height: clamp(320px, calc(100vh - 300px), 680px); }}
.st-key-present_bar {{ row-gap: 0 !important; }}
.st-key-present_bar a p, .st-key-present_bar button p, .st-key-present_bar [data-testid="stMarkdownContainer"] p
  {{ font-size: 1.05rem !important; white-space: nowrap; }}
</style>"""


def on() -> bool:
    return bool(st.session_state.get(KEY))


def sync_with_url() -> Markdown | None:
    """Adopt `?present=` when a link brings a new value; then keep the URL in step with the mode.
    Returns a message when the link's value is not understood."""
    raw = st.query_params.get(PARAM)
    problem = None
    if raw is not None and raw != st.session_state.get(_SEEN):
        if raw.strip().lower() in TRUE:
            st.session_state[KEY] = True
        elif raw.strip().lower() in FALSE:
            st.session_state[KEY] = False
        else:
            problem = message(f"The link's “{PARAM}” value {{}} was not understood (use {PARAM}=1 for "
                              f"presentation mode); showing the page {'in' if on() else 'without'} presentation mode.",
                              raw, limit=40)
    write_url()
    return problem


def write_url() -> None:
    want = "1" if on() else None
    if st.query_params.get(PARAM) != want:
        if want:
            st.query_params[PARAM] = want
        else:
            del st.query_params[PARAM]
    st.session_state[_SEEN] = want


def entered(steps: int, key: str) -> None:
    """A page of `steps` (Compare's scenarios) entered by the bar's Next or Previous starts at its
    first or last step (session state `key`), on the run that entered it only."""
    end = st.session_state.get(_ENTERED)
    if end in ("first", "last"):
        st.session_state[key] = 0 if end == "first" else steps - 1


def _exit() -> None:
    st.session_state[KEY] = False


def bar(pages: list, current) -> None:
    """While presenting: the page's links (current one marked), previous/next, and the way out."""
    st.html(CSS)
    # the link's "enter" is this run's alone (read by entered()), and off the address at once
    st.session_state[_ENTERED] = st.query_params.get(ENTER)
    if ENTER in st.query_params:
        del st.query_params[ENTER]
    row = st.container(horizontal=True, key="present_bar", vertical_alignment="center", gap="small")
    titles = [p.title for p in pages]
    here = titles.index(current.title) if current.title in titles else 0
    prev_page, next_page = pages[here - 1] if here > 0 else None, pages[here + 1] if here + 1 < len(pages) else None
    # ENTER tells the page entered which end to start at: Compare shows its first scenario when
    # reached going forward, its last going back (the clicker then steps through them in order).
    if prev_page is not None:
        row.page_link(prev_page, label="Previous", icon=":material/arrow_back:", help=md(f"Previous page: {prev_page.title}"),
                      query_params={PARAM: "1", ENTER: "last"})
    for p in pages:   # the current page as bold text: a disabled link is greyed below 4.5:1 contrast
        if p.title == current.title:
            row.markdown(f"**{md(p.title)}** (this page)")
        else:
            row.page_link(p, label=md(p.title), icon=p.icon, query_params={PARAM: "1"})
    if next_page is not None:
        row.page_link(next_page, label="Next", icon=":material/arrow_forward:", help=md(f"Next page: {next_page.title}"),
                      query_params={PARAM: "1", ENTER: "first"})
    row.button("Exit presentation mode", key="w:exit_presentation", icon=":material/close_fullscreen:",
               on_click=_exit)
    clicker()


def clicker() -> None:
    """The keys of a projector's clicker (ui/components/clicker.js), while presenting."""
    CLICKER(key="present_clicker", data=b"{}")
