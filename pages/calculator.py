"""The what-if for one application: inputs bound to the URL, the award, the binding cap,
headroom, the waterfall, checks, explanation and what would change it."""
import time

import streamlit as st

from core.law.changes import changes
from core.law.award import evaluate
from core.law.provisions import ROUTES
from core.law.money import ValidationError, fmt
from core.law.award import law_differs
from core.law.explain import exception_line, maximum_words, other_reading_words, shortfall_words, source_line
from core.law.provisions import BPW_CONDITIONS, PROVISION
from core.law.readings import READING
from ui import auth, present, routing, state
from ui.components import first_paint
from ui.components.details_panel import details
from ui.reach import for_report, reach_box
from ui.undo import undo_button
from ui.text import STATUS_BADGE, Markdown, unmet_words, error_text, law_caption, markup, md, ours, plain_text, shown
from ui.widgets import application_inputs, exception_inputs, exception_switch, refused_warning

routing.ensure_dashboard()   # first: a page is drawn only through dashboard.py (ui/routing.py)

state.init()
rs = state.ruleset()
presenting = present.on()

st.title("State grant calculator")
if rs.is_variant:
    st.warning(law_caption(rs), icon=":material/science:")
else:
    st.caption(law_caption(rs))


def exception_panel(award) -> None:
    """Full width below the inputs and results: opened, it fills its own row instead of
    lengthening the inputs column and leaving a blank area beside it."""
    box = st.expander("Board of Public Works exception", expanded=bool(state.get("bpw_exception_requested")),
                      key="exception_panel", on_change="rerun")
    if not box.open:   # closed: nothing in it is built or sent on a slider move (Streamlit's lazy expander)
        return
    with box:
        st.caption(md(PROVISION["bpw_exception"].interpretation))
        # The switch first and on its own, so that switching it on leaves it (and its focus) where it was.
        if exception_switch():
            left, right = st.columns([5, 7], gap="large")
            with left:
                exception_inputs()
            # The conditions of the law applied (the regulation's four, each with its sentence; under the
            # statute its own, which quote no sentence of the regulation; 1984's, not known)
            conditions = [c for c in award.checks if c.provision == "bpw_exception"]
            quoted = award.ruleset_id == "regulation" and not award.is_variant
            heading = ("**The four conditions** (the project-type one follows from the project type)  \n"
                       if set(BPW_CONDITIONS) <= {c.id for c in conditions} else "**The conditions of the law applied**  \n")
            right.markdown(ours(heading) + ours("  \n").join(
                markup("{} **{}**: {}", STATUS_BADGE[c.status], c.label, c.message)
                + (markup("  \n:gray[“{}”]", BPW_CONDITIONS[c.id]) if quoted and c.id in BPW_CONDITIONS else md(""))
                for c in conditions))


def maximum_note(award) -> Markdown:
    """Under the binding cap, in grey: that the award is a maximum and the readings in use. (That
    the paragraph letters are inferred is said once, on the Rules page and in the report's notes.)"""
    lines = [maximum_words(award)]
    if not award.readings.is_default:
        lines.append("Readings: " + "; ".join(f"{READING[r].title}: {READING[r].alternative(a).title}"
                                              for r, a in award.readings.changed().items()) + " (see Rules).")
    return ours("  \n").join(markup(":gray[{}]", line) for line in lines)


def reading_switches(award, others: list[dict]) -> None:
    """A button per passage read the other way; its label names the reading, since the
    sentence it acts on is in the box above it."""
    for o in others:
        r = READING[o["reading"]]
        alt = r.alternative(o["alternative"])
        st.button(md(f"Use the other reading ({alt.title.lower()})"), key=f"w:reading_switch:{r.id}",
                  help=md(f"{r.title}: {alt.meaning}"),
                  on_click=state.put_readings, args=(state.readings().replace(**{r.id: alt.id}),))


def figures(award) -> list[dict]:
    from core.report import chart_text   # the charts (Plotly's figures) load after the award is drawn (issue 53)
    from core.report.charts.calculator import headroom_figure, waterfall_figure
    from ui.components.chart_panel import chart_data
    return [chart_data(headroom_figure(award, large=presenting, as_dict=True), "headroom", chart_text.headroom(award)),
            chart_data(waterfall_figure(award, large=presenting, as_dict=True), "waterfall", chart_text.waterfall(award))]


def amounts(award) -> list[tuple[str, str]]:
    return [("Cost after federal grant", fmt(award.remaining)), ("Funding gap", fmt(award.funding_gap)),
            ("Local match shortfall", shortfall_words(award))]


def answer_words(award) -> Markdown:
    """Beside the award: each requirement not yet met with its amount (the award holds only once it
    is), the limit that holds the award down, the route, and what the Board's exception would do."""
    line = exception_line(award)
    return (unmet_words(award)
            + markup("**Held down by** {}  \n**Route:** {}  \n", award.binding_text, ROUTES[award.route])
            + (markup("{}  \n", line) if line else md("")))


def source_note(award) -> Markdown:
    """Where the limit comes from, that the award is a maximum, and what another reading would allow."""
    where, words = source_line(award)
    return (markup("**{}:** {}  \n", where, words) + maximum_note(award)
            + md("").join(markup("  \n{}", other_reading_words(o)) for o in award.other_readings())
            + law_lines(award))


def law_lines(award) -> Markdown:
    """Where the statute in force and the regulation disagree, one line; then what the law applied
    leaves uncertain (the statute's (d), a day not found), each in words."""
    out = md("")
    if award.ruleset_id in ("regulation", "statute") and not award.is_variant:
        differs = law_differs(award.application, award.readings, award.as_of, award)
        if differs:
            out += markup("  \n**{}**", differs)
    # the ruleset's caveats stand in the answer; what a day leaves uncertain, long, below it (law_notes_box)
    return out + md("").join(markup("  \n:gray[{}]", note) for note in award.law_notes if note in rs.all_caveats)


def law_notes_box(award) -> None:
    """What the law as of the day picked leaves uncertain (a value whose first day was not found,
    a later value that may already apply), each in words, in a box the reader opens."""
    notes = [note for note in award.law_notes if note not in rs.all_caveats]
    if notes:
        day = award.as_of.isoformat() if award.as_of else "today"
        with st.expander(md(f"The law as of {day}: {len(notes)} {'notes' if len(notes) > 1 else 'note'} on its "
                            "dates and sources"), icon=":material/history:"):
            st.markdown(md("  \n").join(md(note) for note in notes))


def answer_box(award, pause: bool = False) -> None:
    # Rows are horizontal containers, not columns: one element instead of one per column,
    # and every element costs the server time on each slider move of each user.
    top = st.container(border=True, horizontal=True, wrap=False, vertical_alignment="top", gap="large",
                       key="calc_answer")   # sticky (ui/widgets.py): in view while the inputs are edited; the award
    # at the top of the box, since under the statute its words run taller than the screen
    top.metric("State grant award", fmt(award.amount), width="content")
    if pause:
        # Let the server send the award before the rest of the run holds the interpreter lock:
        # the award's message waits for the lock while this thread works (measured: ~1.5 ms
        # alone, more with other users' runs in the same process).
        time.sleep(0.01)
    # The note and any other reading's sentence travel in the box's Markdown, not elements of
    # their own: every element costs the server time on each slider move of each user.
    top.markdown(answer_words(award) + source_note(award))


def results(award) -> None:
    if presenting:
        presented(award)
        return
    answer_box(award, pause=True)
    reading_switches(award, award.other_readings())
    law_notes_box(award)
    from ui.components.chart_panel import charts   # after the award: issue 53
    charts(figures(award), amounts=amounts(award))


def presented(award) -> None:
    """Presentation mode: the first screen is the answer. On the left the award, in the largest
    type on the screen, and the limit that holds it; on the right the headroom chart, as tall as
    the screen leaves (ui/present.py); below them the waterfall, the sums it breaks down and
    where the limit comes from."""
    left, right = st.columns([5, 7], gap="large")
    box = left.container(key="present_answer")
    box.metric("State grant award", fmt(award.amount))
    box.markdown(answer_words(award))
    headroom, waterfall = figures(award)
    from ui.components.chart_panel import charts
    headroom["figure"]["layout"].pop("height", None)   # the height of its box: what the first screen leaves
    with right.container(key="present_charts"):
        charts([headroom, waterfall])
    with left:
        charts([], amounts=amounts(award), key="present_amounts")
        st.markdown(source_note(award))
        law_notes_box(award)


def _saved(name: str) -> None:
    """After a save the boxes clear, so the next scenario does not silently inherit this one's name and notes."""
    st.session_state["save:done"] = name.strip()
    st.session_state["w:scenario_name"] = ""
    st.session_state["w:scenario_notes"] = ""


def _save() -> None:
    """Save what the screen shows at the click (a callback: it runs before the boxes are drawn again)."""
    from sqlalchemy.exc import SQLAlchemyError
    from core.store.model import ScenarioError, ScenarioExists   # the library: loaded after the award (issue 53)
    from ui.library import store, unavailable
    name, notes = st.session_state.get("w:scenario_name", ""), st.session_state.get("w:scenario_notes", "")
    try:
        store().save(name, on_screen["application"], on_screen["ruleset"], notes, readings=on_screen.get("readings"),
                     actor=auth.actor())
        st.session_state.pop("overwrite_pending", None)
        _saved(name)
    except ScenarioExists:   # the one asked about, as it is now: Replace replaces it in this version or not at all
        st.session_state["overwrite_pending"] = (name, notes, on_screen["application"], on_screen["ruleset"],
                                                 on_screen.get("readings"), store().pick_of(name.strip()))
    except ValidationError as err:
        st.session_state["save:error"] = md("Not saved. ") + error_text(err)
    except ScenarioError as err:
        st.session_state["save:error"] = md("Not saved: ") + error_text(err)
    except SQLAlchemyError as err:   # opened, but it cannot be written (a read-only file, a server gone)
        st.session_state["save:error"] = md("Not saved: " + unavailable(err))


def _replace() -> None:
    from sqlalchemy.exc import SQLAlchemyError
    from core.store.model import ScenarioError
    from ui.library import store, unavailable
    name, notes, app, ruleset, readings, pick = st.session_state.pop("overwrite_pending")   # as on screen at Save
    try:   # a scenario renamed to this name, or this one changed, since the question: not replaced (ScenarioStale)
        store().save(name, app, ruleset, notes, overwrite=pick is not None, readings=readings, actor=auth.actor(),
                     replacing=pick)   # (none: it was deleted meanwhile, so this is a plain save)
    except ScenarioError as err:   # someone else's scenario: say whose, and what to do instead (boxes kept)
        st.session_state["save:error"] = md("Not replaced: ") + error_text(err)
        return
    except SQLAlchemyError as err:
        st.session_state["save:error"] = md("Not replaced: " + unavailable(err))
        return
    _saved(name)


def save_box() -> None:
    st.header("Save this scenario")
    st.text_input("Scenario name", key="w:scenario_name", max_chars=120, placeholder="for example: As submitted")
    st.text_area("Notes (optional)", key="w:scenario_notes", max_chars=5000, height=80)
    st.button("Save scenario", type="primary", key="w:save", on_click=_save)
    done = st.session_state.pop("save:done", None)
    if done is not None:
        st.success("Saved. Compare it with others on the Compare page. The boxes are clear for the next one.",
                   icon=":material/check:")
        st.text(plain_text(f"Saved: {done}"))
    if "save:error" in st.session_state:
        st.error(shown(st.session_state.pop("save:error")), icon=":material/error:")   # Markdown, user text literal
    pending = st.session_state.get("overwrite_pending")
    if pending:
        st.warning("A scenario with this name already exists. Replace it with these inputs?",
                   icon=":material/warning:")
        st.text(plain_text(pending[0]))
        a, b = st.columns(2)
        a.button("Replace it", key="w:overwrite_yes", on_click=_replace)
        if b.button("Keep the saved one", key="w:overwrite_no"):
            st.session_state.pop("overwrite_pending", None)
            st.rerun()


for note in st.session_state.pop("loaded_notes", []):
    st.info(shown(note), icon=":material/folder_open:")   # Markdown made by the Compare page, names literal
for problem in st.session_state.pop(state.LOADED_PROBLEMS, []):   # a scenario's day that could not be used
    st.warning(shown(problem), icon=":material/event_busy:")   # Markdown made by ui.state, the day literal
# What the calculator shows now, for the save box and report, which do not redraw on every move.
on_screen = st.session_state.setdefault("calc:shown", {})


def _law(ruleset) -> tuple:
    return ruleset.id, ruleset.version, ruleset.as_of_date


@st.fragment
def calculator() -> None:
    """Inputs and results rerun on their own when an input moves (a fragment), so a slider
    step redraws only this part of the page."""
    # Widget callbacks have already updated the state, so the award is known before the
    # inputs are drawn: send it to the screen first, then the inputs beside it.
    if _law(state.ruleset()) != _law(rs):   # Undo or Redo put back another ruleset or day: the whole page follows
        st.rerun()
    refused_warning()   # a forged value sent on this fragment's run: said here, not on the next page
    award = state.award(rs)
    if first_paint.now():   # a visitor's first run: the award alone, where the whole page puts it (issue 53)
        with st.columns([5, 7], gap="large")[1]:
            answer_box(award)
        return
    on_screen.update(application=award.application, ruleset=rs, readings=award.readings)
    if presenting:
        results(award)
    else:
        col_in, col_out = st.columns([5, 7], gap="large")
        with col_out:
            results(award)
        with col_in:
            undo_button()
            application_inputs(rs)
            reach_box(award, rs)
        exception_panel(award)
        details(award, changes(award.application, rs, award.readings))
    state.write_url()


@st.fragment
def save_and_report() -> None:
    """Saving and the board report: a fragment of their own, so typing a name does not redraw
    the calculator and a slider move does not redraw them. They use the award shown at the
    moment of the click."""
    from core.report.html import Item   # the report's machinery: after the award (issue 53)
    from ui.reporting import report_buttons
    save_box()
    name = st.session_state.get("w:scenario_name", "").strip() or "This application"
    report_buttons(lambda: [Item(name, evaluate(on_screen["application"], on_screen["ruleset"], on_screen.get("readings")),
                                 reach=for_report(on_screen["application"], on_screen["ruleset"], on_screen.get("readings")))],
                   "calc")


calculator()
if first_paint.now():
    # the rest once the browser has painted the award (ui/components/first_paint.py); outside the
    # fragment, whose elements would ask for a run of the fragment alone, not the whole page
    first_paint.then_the_rest()
if not presenting:
    save_and_report()
