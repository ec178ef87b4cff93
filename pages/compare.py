"""Saved scenarios side by side: table, charts, and the library (load, rename, duplicate,
delete with undo, import and export). Names and notes are user text: shown as text only."""
import json

import pandas as pd
import streamlit as st

from core.law.application import Application
from core.report import chart_text
from core.report.charts.compare import change_figure, compare_caps_figure, funding_figure
from core.report.compare import ANSWER, column_groups, differs, inputs_rows, place_words, plural, table
from core.law.provisions import ROUTES
from core.report.export import csv_bytes
from core.law.money import fmt
from core.law.explain import other_readings_words, shortfall_words
from core.store.model import ScenarioError
from core.store.imports import import_export_apart, preview_apart
from ui import auth, comparison, library, present, routing, state
from ui.charts import chart
from ui.library import store
from ui.reporting import report_buttons, slides_button
from core.report.html import Item
from core.law.inputs import InputError
from ui.text import Markdown, unmet_words, cell, error_text, literal, markup, md, name_in_text, ours, sentence, plain_text, shown, table_cells
from ui.uploads import upload_bytes
from ui.widgets import show

routing.ensure_dashboard()   # first: a page is drawn only through dashboard.py (ui/routing.py)

HIGHLIGHT = "background-color: #fff3cd; font-weight: 600"   # a cell that differs from the baseline's
GROUP = 4           # scenarios side by side in one table of inputs (the baseline and three others): fits 1280 px
STEP_CHART = 400    # pixels: the chart of a presented scenario, with its answer, on a 1280 x 720 screen


def _chosen() -> None:
    comparison.put_order(st.session_state.get("w:cmp_names") or [])


def _move(by: int) -> None:
    name = st.session_state.get("w:cmp_move")
    comparison.put_order(comparison.moved(comparison.order() or [], name, by))


def _baseline() -> None:
    comparison.put_baseline(st.session_state.get("w:cmp_baseline"))


def order_controls(chosen: list[str], base: str) -> None:
    """The order in which the scenarios are presented (one moved up or down at a time, from the
    keyboard as well), and the baseline: any of them, the first unless another is chosen."""
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small", key="ctl_cmp_order")
    if st.session_state.get("w:cmp_move") not in chosen:
        st.session_state["w:cmp_move"] = chosen[0]
    if st.session_state.get("cmp:labelled") != chosen:
        # Each option's label carries its place ("3. Smaller"), and the browser holds a select box's
        # choice by its label: after a move it still said "3. Smaller", so the selector did not follow
        # the scenario moved and a second "Move up" did nothing (issue 48). Assigning the keys (even
        # the values they hold) makes Streamlit send the new labels with orders to adopt them.
        st.session_state["w:cmp_move"] = st.session_state["w:cmp_move"]
        st.session_state["w:cmp_baseline"] = base
        st.session_state["cmp:labelled"] = list(chosen)
    place = {n: k for k, n in enumerate(chosen, 1)}
    pick = row.selectbox("Scenario to move", chosen, key="w:cmp_move", format_func=lambda n: plain_text(f"{place[n]}. {n}"),
                         help="Choose a scenario, then move it up or down the order: the order of the tables, the "
                              "charts, presentation mode and the report.", width=360)
    row.button("Move up", icon=":material/arrow_upward:", key="w:cmp_up", on_click=_move, args=(-1,),
               disabled=place[pick] == 1)
    row.button("Move down", icon=":material/arrow_downward:", key="w:cmp_down", on_click=_move, args=(1,),
               disabled=place[pick] == len(chosen))
    show("w:cmp_baseline", base)
    row.selectbox("Baseline", chosen, key="w:cmp_baseline", on_change=_baseline, width=360,
                  format_func=lambda n: plain_text(f"{place[n]}. {n}"),
                  help="Differences from this scenario are highlighted and charted. The first, unless you "
                       "choose another.")



def _step(by: int, count: int) -> None:
    st.session_state["cmp_focus"] = (st.session_state.get("cmp_focus", 0) + by) % count


def _against(name: str, a, base: str, b) -> Markdown:
    """One line: this scenario against the baseline (or that it is the baseline)."""
    if name == base:
        return ours("**The baseline**, which the others are compared with.")

    def words(cents: int, more: str, less: str) -> str:
        return "the same" if cents == 0 else f"{fmt(abs(cents))} {more if cents > 0 else less}"
    return (markup("**Against the baseline** “{}”: ", literal(base))
            + md(f"the award is {words(a.amount - b.amount, 'more', 'less')}; the funding gap is "
                 f"{words(a.funding_gap - b.funding_gap, 'larger', 'smaller')}."))


def inputs_table(df, base: str, names: list[str]) -> None:
    """The inputs behind the answer, one row per input (those that set a scenario apart first), one
    column per scenario of `names` (the baseline first), cells that differ from the baseline's
    highlighted. Large type wraps in it, and it fits the screen's width."""
    cells, mask = inputs_rows(df, base, names, blank=False)
    heads = [name_in_text(n) + (md(" (baseline)") if n == base else md("")) for n in names]
    view = pd.DataFrame({md("Input"): [md(r) for r in cells.index],
                         **{h: [cell(v) for v in cells[n]] for h, n in zip(heads, names)}})
    style = pd.DataFrame({md("Input"): [""] * len(cells),
                          **{h: [HIGHLIGHT if m else "" for m in mask[n]] for h, n in zip(heads, names)}})
    st.table(view.style.apply(lambda _: style, axis=None), hide_index=True)


def focus_step(named, base: str, df) -> None:
    """While presenting: one scenario a screen, in the comparison's order. The scenario's name, its
    award (the largest type on the screen), the limit that holds it and what it changes against
    the baseline, beside the chart of it and the baseline against every cap; then the inputs
    that set it apart. Previous and next step through them."""
    present.entered(len(named), "cmp_focus")   # by the deck's Next: the first scenario; by its Previous: the last
    k = st.session_state.get("cmp_focus", 0) % len(named)
    name, a = named[k]
    awards = dict(named)
    nav = st.container(horizontal=True, vertical_alignment="center", key="keep_cmp_nav")
    nav.button("Previous scenario", icon=":material/arrow_back:", key="w:cmp_prev", on_click=_step,
               args=(-1, len(named)), disabled=len(named) < 2)
    nav.markdown(markup("**{}**", f"Scenario {k + 1} of {len(named)}"))
    nav.button("Next scenario", icon=":material/arrow_forward:", key="w:cmp_next", on_click=_step,
               args=(1, len(named)), disabled=len(named) < 2)
    left, right = st.columns([5, 7], gap="large")
    card = left.container(key="cmp_focus_card")
    card.text(plain_text(name))   # user text: shown as text
    card.metric("State grant award", fmt(a.amount))
    # Three paragraphs in one element: the answer first (it stays on the first screen when a long
    # name takes three lines), then what it changes against the baseline, then the gap and the match.
    # an amount only the Board's route gives says so, with the award without it, in the route's line (a line of
    # its own pushed the answer below a projector's fold)
    route = ROUTES[a.route] + (f", if the Board approves ({fmt(a.routes['standard'].award)} without it)"
                               if a.route == "bpw_exception" else "")
    card.markdown(unmet_words(a)
                  + markup("**Held down by** {}  \n**Route:** {}\n\n", a.binding_text, route)
                  + _against(name, a, base, awards[base])
                  + markup("\n\n**Funding gap:** {}  \n**Local match shortfall:** {}", fmt(a.funding_gap), shortfall_words(a)))
    pair = [(base, awards[base])] + ([(name, a)] if name != base else [])
    with right:
        chart(lambda: compare_caps_figure(pair, large=True, focus=name, height=STEP_CHART), "cmp_step",
              chart_text.compare_caps(pair), cache=("step", tuple((n, x.application, x.ruleset_version, x.readings)
                                                                  for n, x in pair), name))
    st.subheader("What sets it apart from the baseline" if name != base else "The inputs of the baseline")
    inputs_table(df, base, [n for n, _ in pair])


state.init()
st.title("Compare scenarios")
try:
    lib = store()
except ScenarioError as err:   # the library cannot be opened: said, and the page stops here
    st.error(md("Nothing to compare: ") + error_text(err), icon=":material/error:")
    st.stop()
me = auth.actor()   # who changes are recorded as (`local` without sign-in)

PAGE = 25          # scenarios listed per page of the library
OPEN_ON = 4        # the page opens comparing the most recent few
MAX_CHOSEN = 12    # compared at once: the table and charts stay readable and cheap

ILLUSTRATIVE = [  # sample data, labelled as such: not real applications
    ("Illustrative: as submitted", dict(project_type="renovation", eligible_cost=1_800_000, local_contribution=700_000)),
    ("Illustrative: with a federal grant", dict(project_type="renovation", eligible_cost=1_800_000,
                                                 federal_grant=400_000, local_contribution=700_000)),
    ("Illustrative: reduced scope", dict(project_type="renovation", eligible_cost=1_100_000, local_contribution=550_000)),
    ("Illustrative: Board exception", dict(project_type="renovation", eligible_cost=1_800_000, local_contribution=300_000,
                                           bpw_exception=dict(local_property_value=2_000_000))),
]


def imported_note(n: int, file_name: str, names: list[str], left_out: bool):
    """The outcome of an import, of bounded length whatever the file held (5,000 names made a
    message of 60,083 characters): the first names, how many more, and what joins the comparison."""
    listed = md(", ").join(name_in_text(name) for name in names[:SHOWN_NAMES])
    more = md(f" and {len(names) - SHOWN_NAMES:,} more") if len(names) > SHOWN_NAMES else md("")
    joined = ("They are added to the comparison." if len(names) <= MAX_CHOSEN else
              f"The first {MAX_CHOSEN} are added to the comparison (it shows at most {MAX_CHOSEN}); find the others "
              "by name above.")
    return (md(f"Imported {plural(n, 'scenario')} from ") + literal(file_name) + md(": ") + listed + more
            + md(". " + joined + (" What had problems was left out." if left_out else "")))


library.messages()   # what the library's last action said (its callback ran before this run)

# Bounded work per view (issue 19): the page reads a count, one page of names and the chosen
# scenarios, never the whole library, so its cost stays flat as the library grows to 10,000.
total = lib.count()
if not total:
    st.info("No saved scenarios yet. On the Calculator, type a **Scenario name** and press **Save scenario**; "
            "or add four illustrative scenarios to see how the comparison works.", icon=":material/info:")
    if st.button("Add illustrative scenarios"):
        for name, inputs in ILLUSTRATIVE:
            lib.save(name, Application.from_dict(inputs), notes="Illustrative sample, not a real application.",
                     overwrite=True, actor=me)
        st.rerun()
else:
    finder = st.container(key="ctl_cmp_find")   # the library's listing: not the story while presenting
    search = finder.text_input("Find saved scenarios by name", key="w:lib_search", max_chars=120,
                               placeholder="part of a name; empty lists them all, most recent first")
    found = lib.count(search)
    pages = max(1, -(-found // PAGE))
    if st.session_state.get("w:lib_page", 1) > pages:
        st.session_state["w:lib_page"] = 1
    page_no = finder.number_input("Page", 1, pages, key="w:lib_page", width=200) if pages > 1 else 1
    listing = lib.page(search, (page_no - 1) * PAGE, PAGE)
    names = [s.name for s in listing]
    finder.caption(md(f"{found:,} of {total:,} saved scenarios found; page {page_no} of {pages} "
                      f"({PAGE} a page, most recent first)."))
    for problem in comparison.from_link(lambda wanted: [s.name for s in lib.get_many(wanted)], MAX_CHOSEN):
        st.warning(shown(problem), icon=":material/link_off:")   # Markdown made by ui.comparison, names literal
    added = st.session_state.pop("cmp_add", [])   # just imported: into the comparison (at most MAX_CHOSEN)
    if added:
        comparison.put_order(added + (comparison.order() or []))
    if comparison.order() is None:   # opens on the most recent few, in the order they were saved
        comparison.put_order([s.name for s in reversed(lib.page("", 0, OPEN_ON))])
    # Never more than the multiselect takes, whatever put them there (an import of 5,000, a forged
    # widget value): more raised StreamlitSelectionCountExceedsMaxError and read them all on every run.
    wanted = [n for n in comparison.order() if isinstance(n, str)][:MAX_CHOSEN]
    by_name = {s.name: s for s in lib.get_many(wanted)}
    comparison.put_order([n for n in wanted if n in by_name])   # in the user's order; a deleted one left out
    chosen = comparison.order()
    owners = {s.name: s.owner for s in [*by_name.values(), *listing]}
    owned = (lambda n: f"{n} · {owners.get(n, '?')}") if auth.enabled() else None   # whose each one is
    show("w:cmp_names", chosen)
    st.multiselect(f"Scenarios to compare, in the order you present them (at most {MAX_CHOSEN}; add more from "
                   "the page found above)", list(dict.fromkeys(chosen + names)), key="w:cmp_names",
                   max_selections=MAX_CHOSEN, on_change=_chosen, **({"format_func": owned} if owned else {}))
    if not chosen:
        st.info("Choose at least one scenario to compare.", icon=":material/info:")
        comparison.write_url([], None)
    else:
        base = comparison.baseline()
        order_controls(chosen, base)
        comparison.write_url(chosen, base)
        named = [(n, by_name[n].award()) for n in chosen]
        outdated = [n for n in chosen if by_name[n].outdated]
        if outdated:
            st.warning(md("Saved under an older version of their ruleset (shown as saved; open one in the "
                          "Calculator to see both): ") + md(", ").join(literal(n) for n in outdated),
                       icon=":material/history:")
        df = table(named)
        if present.on():
            focus_step(named, base, df)
        mask = differs(df, base)
        style = mask.replace({True: HIGHLIGHT, False: ""})
        # The answer first, in a table that wraps instead of scrolling sideways; the inputs after.
        st.header("The answer for each scenario")
        answer = ["Scenario", *ANSWER]
        shown_df = table_cells(df)   # st.table reads cells as Markdown: names literal
        shown_df["Scenario"] = [name_in_text(n) + (md(" (baseline)") if n == base else md("")) for n in chosen]
        st.table(shown_df[answer].style.apply(lambda _: style[answer], axis=None), hide_index=True)
        others = [name_in_text(n) + md(": " + words) for n, a in named for words in other_readings_words(a)]
        st.subheader("Readings that would change an award")
        st.markdown(ours("\n").join(markup("- {}", line) for line in others) if others else
                    md("No single other reading of the regulation changes any of these awards."))
        if not present.on():   # while presenting, each scenario's step shows its inputs beside the baseline's
            st.header("The inputs behind it")
            for group in column_groups(chosen, base, GROUP):
                inputs_table(df, base, group)
            st.caption(md("The inputs that differ from the baseline come first; highlighted cells differ from "
                          "the baseline, ") + literal(base) + md("."))
        # the figures are kept by what they are made of: a rerun of the same comparison does not build them again
        made_of = (tuple((n, a.application, a.ruleset_version, a.readings) for n, a in named), present.on())
        chart(lambda: compare_caps_figure(named, large=present.on()), "cmp_caps", chart_text.compare_caps(named),
              cache=("caps", made_of))
        chart(lambda: funding_figure(named, large=present.on()), "cmp_funding", chart_text.funding(named),
              cache=("funding", made_of))
        if len(named) > 1:
            chart(lambda: change_figure(named, base, large=present.on()), "cmp_change",
                  chart_text.change(named, base), cache=("change", made_of, base))
        with st.container(key="ctl_cmp_files"):
            a, b = st.columns(2)
            a.download_button("Download the comparison (CSV)", lambda: csv_bytes(table(named, machine=True)),
                              file_name="scenario-comparison.csv", mime="text/csv")
            b.download_button("Export these scenarios (JSON)", lambda: json.dumps(lib.export(chosen), indent=2),
                              file_name="scenarios.json", mime="application/json")
            items = [Item(n, a, by_name[n].notes) for n, a in named]   # in the comparison's order
            report_buttons(lambda: items, "cmp", baseline=chosen.index(base))
        if present.on():   # the report box is hidden while presenting: the deck of the show stays at hand
            slides_button(lambda: items, "cmp", baseline=chosen.index(base))

if total and names and not present.on():
    library.section(lib, listing, owned, me, auth.person)
library.undo_box()
library.refusals()   # when there was no library to show them in

if not present.on():
    library.deleted_view(lib, auth.person)

if present.on():
    st.stop()  # a projector shows the comparison, not the library's housekeeping

SHOWN_NAMES = 10     # names listed in the outcome of an import; the rest counted
SHOWN_NOTES = 5      # relabelled rulesets explained one by one; the rest counted


def _read(raw: bytes, up):
    """The file read once (in a child process when large), kept for the runs until it is imported:
    a 5,000-scenario file took seconds of the server on every run of the page."""
    token = (up.file_id, len(raw), up.name)
    kept_read = st.session_state.get("import:read")
    if kept_read is not None and kept_read[0] == token:
        return kept_read[1]
    try:   # size, nesting, long numbers, duplicate keys and every scenario checked
        outcome = ("read", preview_apart(raw, up.name))
    except InputError as err:
        outcome = ("refused", str(err))
    st.session_state["import:read"] = (token, outcome)
    return outcome


def _what_the_file_holds(up, seen) -> None:
    """A file read for import: its problems (nothing imported yet), the rulesets that pass
    themselves off as shipped ones, and the policy variants it also holds."""
    good, errors = seen.names, seen.errors
    if errors:
        st.error(literal(up.name) + md(f": {plural(len(errors), 'problem')}, listed below. Nothing has been "
                                       "imported yet" + (f"; the {plural(len(good), 'valid scenario')} can be "
                                                         "imported without the others." if good else ".")),
                 icon=":material/error:")
        st.dataframe({"#": list(range(1, len(errors) + 1)), "Problem": [plain_text(place_words(e), 400) for e in errors]},
                     hide_index=True, width="stretch")
    # a ruleset that passed itself off as a shipped one: imported as a labelled variant
    notes = seen.relabelled
    for name, note in notes[:SHOWN_NOTES]:
        st.warning(sentence("{}: ", name) + literal(note, 600), icon=":material/science:")
    if len(notes) > SHOWN_NOTES:
        st.warning(md(f"{plural(len(notes) - SHOWN_NOTES, 'more scenario')} of this file claim a shipped ruleset "
                      "but differ from it; each is imported as a labelled policy variant."),
                   icon=":material/science:")
    if seen.variants:   # a library export's kept policy variants: kept with the scenarios, as the importer's
        st.caption(md(f"It also holds {plural(len(seen.variants), 'policy variant')}, kept in the library "
                      "with the scenarios: ") + md(", ").join(literal(t, 80) for t in seen.variants[:SHOWN_NOTES])
                   + md("." if len(seen.variants) <= SHOWN_NOTES else ", …"))


def _import_button(raw: bytes, up, seen, round_: int) -> None:
    """Replace or not, and Import: done, the page runs again with the imported scenarios chosen."""
    good, errors = seen.names, seen.errors
    overwrite = st.checkbox("Replace saved scenarios that have the same names", key="w:import_overwrite")
    label = (f"Import the {plural(len(good), 'valid scenario')}" if errors
             else f"Import {plural(len(good), 'scenario')}")
    if good and st.button(md(label), key="w:import_go"):
        try:
            # a large file is read again and written by a child process: the server stays free
            n = import_export_apart(raw, up.name, lib.url, sorted(lib.admins), overwrite=overwrite, actor=me)
            st.session_state["library_notes"] = [imported_note(n, up.name, list(good), bool(errors))]
            st.session_state["cmp_add"] = list(good[:MAX_CHOSEN])
            st.session_state["import_round"] = round_ + 1
            st.session_state.pop("import:read", None)
            st.rerun()
        except (ScenarioError, InputError) as err:
            st.error(md("Nothing imported: ") + error_text(err), icon=":material/error:")


@st.fragment
def import_section() -> None:
    """Import and back up, a fragment of its own: choosing a file and pressing Import rerun only
    this part, not the comparison's tables and charts above it (a 10,000-scenario import redrew
    them three times, server time taken from every other session). An import done reruns the page."""
    st.header("Import and back up")
    round_ = st.session_state.get("import_round", 0)   # a new uploader after each import: one outcome on screen
    up = st.file_uploader("Import scenarios from a JSON file", type=["json"], key=f"w:import_file:{round_}",
                          help="A library export, or a JSON array of applications that each carry a name.")
    raw = upload_bytes(up)
    if raw is not None:
        outcome = _read(raw, up)
        if outcome[0] == "refused":
            st.error(md("Nothing imported: ") + literal(outcome[1], 400), icon=":material/error:")
        else:
            _what_the_file_holds(up, outcome[1])
            _import_button(raw, up, outcome[1], round_)
    if total:   # made when pressed, not on every view of the page
        st.download_button("Back up the whole library (JSON)", lambda: json.dumps(lib.export(), indent=2),
                           file_name="scenario-library.json", mime="application/json")

import_section()
