"""Many applications, the Department's considerations, one budget."""
import re

import numpy as np
import pandas as pd
import streamlit as st

from core.report import chart_text
from core.report.charts.portfolio import cumulative_figure, priority_figure, ranked_figure
from core.report.portfolio import SCORE_NOTE, editable, portfolio_report
from core.law.fields import FIELD, PORTFOLIO_FIELDS
from core.law.money import ValidationError, fmt, to_cents
from core.law.portfolio import (DIRECTIONS, FACTORS, MAX_ROWS, MAX_UNPACKED, MODES, SETTING_NOTE, PortfolioError,
                                formula_words, insight, read_portfolio, run, sample)
from core.law.batch import BatchError
from core.law.tables import kind
from core.law.tables_xlsx import sheet_names
from core.report.spreadsheets import (PEOPLE_MONEY, people, ranked, results_csv, results_xlsx, settings, template_csv,
                                      template_xlsx)
from ui import present, routing, state
from ui.charts import chart
from ui.reporting import portfolio_buttons

from ui.text import Markdown, law_caption, literal, markup, md, plain_text, ruleset_label, table_cells
from ui.uploads import upload_bytes

routing.ensure_dashboard()   # first: a page is drawn only through dashboard.py (ui/routing.py)

DEFAULT_BUDGET = 400_000_000
PAGE_ROWS = 500       # rows of the allocation table on one page
PRESENT_ROWS = 25     # and while presenting (large type)
BAD_SHOWN = 1_000     # bad rows listed on the page
COLUMN_TITLES = {f.name: f.label for f in PORTFOLIO_FIELDS}
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HERO_CHART = 350      # pixels: the cumulative chart beside the totals, on a 1280 x 720 screen while presenting
GRID_ROW = 66         # pixels: over 4rem, so that a cell wraps (Streamlit 1.67): a long name, two limits
# The allocation table's visible columns and widths (pixels), in the order people read them: together
# 814, within the main column at 1280 px with the sidebar open (818).
GRID_COLUMNS = {
    "Rank": st.column_config.NumberColumn("Rank", width=46),
    "Application": st.column_config.TextColumn("Application", width=150),
    "Maximum award": st.column_config.TextColumn("Maximum award", width=104),
    "Allocated": st.column_config.TextColumn("Allocated", width=92),
    "Local match": st.column_config.TextColumn("Local match", width=108,
                                               help="How far local contributions fall short of the 50% local match: "
                                                    "the award holds only once it is met"),
    "Held down by": st.column_config.TextColumn("Held down by", width=130),
    "Board's exception": st.column_config.TextColumn("Board's exception", width=100),
    "Priority score (0 to 1)": st.column_config.TextColumn("Priority (0 to 1)", width=84,
                                                           help="The priority score, 0 to 1 (the formula is above)"),
}


def people_table(result, positions) -> pd.DataFrame:
    """The allocation as people read it (core/report/spreadsheets.py's columns), dollars as text."""
    out = people(result, positions)
    for column in PEOPLE_MONEY:
        out[column] = [fmt(int(c)) if c is not None and c == c else "" for c in out[column]]
    out["Board's exception"] = [f"needed: +{c}" + ("" if result.exceptions == "assumed" else ", not counted")
                                if c else "" for c in out["Board's exception"]]
    out["Priority score (0 to 1)"] = [f"{v:.3f}" for v in out["Priority score (0 to 1)"]]
    # the requirement not yet met, said short enough for its column: "$298,000 short", or "met"
    out["Not yet met"] = [f"{fmt(int(result.shortfall[i]))} short" if result.shortfall[i] else "met"
                          for i in (ranked(result)[0] if positions is None else positions)]
    return out.rename(columns={"Not yet met": "Local match"})


def indexed_rows(frame: pd.DataFrame) -> np.ndarray:
    """The row numbers an edited table carries as its index; a row added in the editor follows the last."""
    rows = np.array(pd.to_numeric(pd.Series(frame.index), errors="coerce"), dtype=float)   # a copy, writable
    missing = np.isnan(rows)
    if missing.any():
        top = np.nanmax(rows) if (~missing).any() else 0
        rows[missing] = top + np.arange(1, int(missing.sum()) + 1)
    return rows.astype(np.int64)


# The editor numbers the applications 1, 2, 3, ... (a board reads "Row 1" as the first one); each
# row's place in the file (a CSV's line, a spreadsheet's row: the sample's first is line 3) rides
# along in a column of its own, read-only, so that a message can cite both.
FILE_ROW = "_file_row"


def numbered(file_rows) -> np.ndarray:
    """The file's row numbers for the results and their downloads (which cite the file), a row
    added in the editor numbered after the last."""
    return indexed_rows(pd.DataFrame(index=pd.Index(file_rows)))


def in_file(row, spreadsheet: bool) -> str:
    """Where a row is in the file, in words: "line 3 of the file", "row 3 of the spreadsheet"."""
    if row is None or row != row:
        return "added in the editor"
    return f"{'row' if spreadsheet else 'line'} {int(row):,} of the {'spreadsheet' if spreadsheet else 'file'}"


state.init()
state.write_url()   # the whole state in this page's address too: a reload or a copied link keeps it
rs = state.ruleset()
st.title("Portfolio")
st.caption(md("Rank a year's applications and allocate one appropriation. ") + law_caption(rs))
if not present.on():   # while presenting it follows the answer (below)
    st.info(md(SCORE_NOTE), icon=":material/info:")

controls = st.container(key="ctl_pf_file")   # hidden while presenting (ui/present.py)
# Any file is taken, and one of another kind is refused in words on the page: the uploader's own
# refusal is a red "!" whose message shows only on hover, cut off.
up = controls.file_uploader(md(f"Applications: a CSV file or an Excel workbook (.xlsx), up to {MAX_ROWS:,} rows"),
                            type=None, key="w:pf_file",
                            help="Columns, titled in words as the template titles them (Application, Locality, "
                                 "Project type, Total cost of eligible work, Federal grant, ...) or by their code "
                                 "names (name, project_type, eligible_cost, ...), case and spacing aside. "
                                 "The template below has them all, with notes.")
sheet_slot = controls.container()   # the sheet picker, for a workbook of several sheets
templates = controls.container(horizontal=True, vertical_alignment="center", key="ctl_pf_templates")
templates.caption("Start from a template: the columns, one illustrative row, and notes on each column.")
templates.download_button("Template (Excel)", template_xlsx, file_name="portfolio-template.xlsx", mime=XLSX_MIME,
                          key="w:pf_template_xlsx", icon=":material/download:", on_click="ignore")
templates.download_button("Template (CSV)", template_csv, file_name="portfolio-template.csv", mime="text/csv",
                          key="w:pf_template_csv", icon=":material/download:", on_click="ignore")
source = "the illustrative sample"
try:
    raw = upload_bytes(up)
    if raw is not None:   # read once per file, not on every run (20,000 rows took a second each time)
        sheet = None
        if kind(raw, up.name) == "xlsx":
            listed = st.session_state.get("pf:sheets")
            if listed is None or listed[0] != up.file_id:
                listed = (up.file_id, sheet_names(raw, up.name, MAX_UNPACKED))
                st.session_state["pf:sheets"] = listed
            if len(listed[1]) > 1:
                sheet = sheet_slot.selectbox("Sheet of the workbook", listed[1], key=f"w:pf_sheet:{up.file_id}",
                                           format_func=lambda s: plain_text(s), width=420,
                                           help="The workbook has several sheets; the applications are read "
                                                "from this one (its first row holds the column titles).")
        token = (up.file_id, len(raw), up.name, sheet)
        kept = st.session_state.get("pf:read")
        if kept is None or kept[0] != token:
            kept = (token, read_portfolio(raw, up.name, sheet))
            st.session_state["pf:read"] = kept
        loaded, source = kept[1], up.name + (f", sheet {sheet}" if sheet else "")
    else:
        loaded = sample()
except PortfolioError as err:   # "NAME: what is wrong", the file's name as the user gave it
    said = str(err)
    st.error(literal(up.name) + md(said[len(up.name):]) if up is not None and said.startswith(up.name + ":")
             else literal(said, 400), icon=":material/error:")
    st.stop()
table, file_rows = loaded.frame, loaded.rows
board_rows = np.arange(1, len(table) + 1, dtype=np.int64)   # the rows as a board reads them, from 1
spreadsheet = loaded.sheet is not None
if loaded.unknown:   # kept as given (they pass through to the downloads), but read as nothing
    st.info(md(f"Not read: the column{'s' if len(loaded.unknown) > 1 else ''} ") +
            md(", ").join(literal(t, 60) for t in loaded.unknown[:10]) +
            md(f"{' and more' if len(loaded.unknown) > 10 else ''} {'are' if len(loaded.unknown) > 1 else 'is'} "
               "no column of the template; kept in the downloads as given. The template's Notes sheet lists "
               "the columns read."), icon=":material/info:")
if source == "the illustrative sample":
    st.warning("Showing an ILLUSTRATIVE sample of 20 fictional applications." + (
        "" if present.on() else " Upload a CSV file or an Excel workbook to use your own, or start from the template."),
        icon=":material/science:")   # while presenting, the upload is hidden: one line, the chart on the first screen

problems_box = st.container()   # the rows that could not be used, said here, under the file, once it is read
hero = st.container()   # while presenting: the allocation against the budget, first (filled below)

# The editor is drawn only while its panel is open (Streamlit's lazy expander): 20,000 rows are
# megabytes on every run. What was edited is kept when the panel closes, and used below. The
# editor's index is each row's number from 1, so that "Row 7" stays row 7 through edits; FILE_ROW
# keeps its place in the file.
edit_box = st.container(key="ctl_pf_edit").expander("Edit the applications", expanded=False, key="pf_edit_panel",
                                                    on_change="rerun")
edited = st.session_state.get(f"pf:edited:{source}")
if edit_box.open:
    opened = st.session_state.setdefault(f"pf:edit_open:{source}", (st.session_state.get("pf:edit_n", 0) + 1,
                                                                     edited if edited is not None else
                                                                     editable(table).assign(**{FILE_ROW: file_rows})
                                                                     .set_axis(pd.Index(board_rows, name="Row"))))
    st.session_state["pf:edit_n"] = opened[0]
    with edit_box:
        st.caption("Changes here are used below, and kept when this panel closes; download the results to keep them.")
        edited = st.data_editor(opened[1], num_rows="dynamic", key=f"w:pf_editor:{source}:{opened[0]}", width="stretch",
                                column_config={"_index": st.column_config.NumberColumn("Row", disabled=True),
                                               FILE_ROW: st.column_config.NumberColumn(
                                                   "Row in the spreadsheet" if spreadsheet else "Line in the file",
                                                   disabled=True, format="%d",
                                                   help="Where the row is in the file the messages cite; "
                                                        "empty for a row added here")} |
                                {c: st.column_config.Column(COLUMN_TITLES[c]) for c in table.columns
                                 if c in COLUMN_TITLES})
    st.session_state[f"pf:edited:{source}"] = edited
else:
    st.session_state.pop(f"pf:edit_open:{source}", None)   # opened again: a new editor over what was edited
if edited is not None:
    table, board_rows = edited.drop(columns=FILE_ROW, errors="ignore").reset_index(drop=True), indexed_rows(edited)
    file_rows = pd.to_numeric(edited.get(FILE_ROW, pd.Series(np.nan, index=edited.index)),
                              errors="coerce").to_numpy(dtype=float)

c1, c2 = st.container(key="ctl_pf_budget").columns([1, 2])
budget_text = c1.text_input("Budget (appropriation)", value="4,000,000", key="w:pf_budget")
try:
    budget = to_cents(budget_text, "Budget")
    st.session_state["pf:budget"] = budget
except ValidationError as err:   # said beside the field; the page keeps the last good budget
    budget = st.session_state.get("pf:budget", DEFAULT_BUDGET)
    said = (md("Budget is empty: enter dollars such as 1,250,000") if not budget_text.strip()
            else md("Budget: ") + literal(budget_text, 40) + md(f" {err.problem}"))
    c1.error(said + md(f". Still using {fmt(budget)}."), icon=":material/error:")
mode = c2.radio("Allocation", list(MODES), format_func=lambda m: md(MODES[m]), key="w:pf_mode", horizontal=False)
approved_only = c2.toggle("Count the Board exception only if approved", key="w:pf_exceptions",
                          help="On: every application is allocated what the standard route gives, as if the Board "
                               "of Public Works granted no exception. Off: an application on the Board's exception "
                               "route counts that route's larger award, which exists only if the Board approves.")
weights_box = st.container(key="ctl_pf_weights")
weights_box.header("The considerations: the Department's settings")
weights_box.caption(md(SETTING_NOTE))
wcols = weights_box.columns(3)
directions = {k: (wcols[i].radio(md(f"{FIELD[FACTORS[k][0]].label}: which scores higher"), list(ways),
                                 format_func=lambda d, k=k: md(DIRECTIONS[k][d].capitalize()), key=f"w:pf_d:{k}")
                  if len(ways) > 1 else next(iter(ways)))
              for i, (k, ways) in enumerate(DIRECTIONS.items())}
weights = {k: wcols[i].slider(md(f"Weight: {DIRECTIONS[k][directions[k]]}"), 0.0, 5.0, 1.0, 0.5, key=f"w:pf_w:{k}")
           for i, k in enumerate(FACTORS)}
st.caption(md(formula_words(weights, directions)))

try:
    result = run(table, budget, mode, weights, rs, state.readings(),
                 exceptions="excluded" if approved_only else "assumed", rows=numbered(file_rows),
                 directions=directions)
except BatchError as err:
    st.error(literal(source) + md(f": {err}"), icon=":material/error:")
    st.stop()

unused = np.flatnonzero(~result.good)
if len(unused):
    used = int(result.good.sum())
    problems_box.error(md(("1 row could not be used" if len(unused) == 1 else f"{len(unused):,} rows could not be used")
                          + ("; no other row is in the file. " if not used else
                             "; the other one is used. " if used == 1 else f"; the other {used:,} are used. ")
                          + ("It is" if len(unused) == 1 else "Each is") + " listed below by its row here (from 1, "
                          "as the editor numbers them) and its "
                          + ("row in the spreadsheet." if spreadsheet else "line in the file.")
                + (f" The first {BAD_SHOWN:,} are listed; the download below gives every row's problem."
                   if len(unused) > BAD_SHOWN else "")), icon=":material/error:")
    # A list, not a grid: each problem in full, wrapped, beside its row (a grid cut it off).
    names = result.table["name"] if "name" in result.table else None
    lines = [markup("- **Row {}** ({}){}: {}", md(f"{int(board_rows[i]):,}"), md(in_file(file_rows[i], spreadsheet)),
                    md(", ") + literal(names.iat[i], 120) if names is not None and str(names.iat[i]).strip()
                    else md(""), md(result.table["error"].iat[i]))
             for i in unused[:BAD_SHOWN]]
    problems_box.container(key="pf_problems", border=True, height="content" if len(lines) <= 12 else 420).markdown(
        md("\n").join(lines))

others = [r for r in state.ruleset_ids() if r != rs.id]
variant_id = st.container(key="ctl_pf_variant").selectbox("Compare the portfolio's cost under", [None] + others, key="w:pf_variant",
                          format_func=lambda r: "(no comparison)" if r is None else plain_text(state.ruleset_by_id(r).label))
variant = None if variant_id is None else state.ruleset_by_id(variant_id)

good = result.table[result.good]
totals = [("Maximum awards", fmt(int(result.awards[result.good].sum()))),   # what the Board decides: the findings
          ("Allocated", fmt(int(result.allocated.sum()))), ("Budget", fmt(budget)),
          ("Unfunded", fmt(int(result.awards[result.good].sum() - result.allocated.sum())))]
large = present.on()
if len(good):
    names = (good["name"].astype(str).tolist() if "name" in good
             else [f"Row {int(board_rows[i])}" for i in good.index])
    idx = good.index.to_numpy()
    awards, alloc = result.awards[idx].tolist(), result.allocated[idx].tolist()
    binding, rank = result.binding[idx].tolist(), good["rank"].astype(int).tolist()


def cumulative() -> None:
    fig = cumulative_figure(names, alloc, rank, budget, large=large)
    if large:
        fig.update_layout(height=HERO_CHART)   # beside the totals, on the first screen
    chart(fig, "pf_cum", chart_text.cumulative(names, alloc, rank, budget))


if large:   # the answer first: what is allocated against the budget, beside the chart of it
    left, right = hero.columns([4, 8], gap="large")
    left.container(key="pf_hero").metric(md(totals[1][0]), totals[1][1])
    for label, value in (totals[2], totals[0], totals[3]):
        left.metric(md(label), value)
    if len(good):
        with right:
            cumulative()
    st.info(md(SCORE_NOTE), icon=":material/info:")
st.header("Findings")
if not large:
    for column, (label, value) in zip(st.columns(4), totals):
        column.metric(md(label), value)
def with_labels(line: str, rulesets) -> Markdown:
    """A finding in our words, each variant's label in it shown as ruleset_label shows it (its
    title is a user's: literal)."""
    by_label = {r.label: r for r in rulesets if r is not None and r.is_variant}
    if not by_label:
        return md(line)
    parts = re.split("(" + "|".join(map(re.escape, by_label)) + ")", line)
    return md("").join(ruleset_label(by_label[p]) if p in by_label else md(p) for p in parts)


findings = insight(result, rs, variant)   # said again in the workbook's About sheet
for line in findings:
    st.markdown(markup("- {}", with_labels(line, (rs, variant))))

if len(good):
    chart(ranked_figure(names, awards, alloc, binding, rank, large=large), "pf_ranked",
          chart_text.ranked(names, awards, alloc, binding, rank))
    a, b = (None, st.container()) if large else st.columns(2)   # while presenting: the cumulative one is first
    if a is not None:
        with a:
            cumulative()
    with b:
        scores = good["priority_score"].astype(float).tolist()
        chart(priority_figure(names, scores, awards, binding, large=large), "pf_prio",
              chart_text.priority(names, scores, awards, binding))
    st.header("Applications in priority order")
    # A page of the table at a time: the whole of a 20,000-row portfolio was megabytes on every run.
    ordered = ranked(result)[0]   # positions of the rows used, in rank order
    per_page = PRESENT_ROWS if large else PAGE_ROWS
    pages = max(1, -(-len(ordered) // per_page))
    if st.session_state.get("w:pf_page", 1) > pages:
        st.session_state["w:pf_page"] = 1
    page_no = (st.container(key="ctl_pf_page").number_input("Page of the table", 1, pages, key="w:pf_page", width=200)
               if pages > 1 else 1)
    shown_rows = ordered[(page_no - 1) * per_page: page_no * per_page]
    if pages > 1:
        st.caption(md(f"Applications {(page_no - 1) * per_page + 1:,} to {(page_no - 1) * per_page + len(shown_rows):,} "
                      f"of {len(ordered):,} in priority order ({per_page:,} a page); the download below holds "
                      "every one."))
    if large:
        st.table(table_cells(people_table(result, shown_rows)), hide_index=True)   # large type that wraps; names literal
    else:   # the columns people read, each wide enough for its title, long ones on two lines: 1280 px, no scroll
        st.dataframe(people_table(result, shown_rows), hide_index=True, width="stretch", row_height=GRID_ROW,
                     column_order=list(GRID_COLUMNS), column_config=GRID_COLUMNS)
        st.caption("Each application's locality and project type, and every input, are in the downloads below.")

# Made when a button is pressed (a 20,000-row workbook takes seconds), from this run's result.
about = settings(result, rs, MODES[mode], formula_words(weights, directions), source)
downloads = st.container(key="ctl_pf_download")   # hidden while presenting, as every control
d1, d2, _ = downloads.columns([1, 1, 1])
d1.download_button("Download the results (Excel)", lambda: results_xlsx(result, about, findings),
                   file_name="portfolio-allocation.xlsx", mime=XLSX_MIME, key="w:pf_results_xlsx",
                   icon=":material/download:", on_click="ignore",
                   help="Rank order: a Results sheet with dollar amounts and the limits in words, a sheet with the "
                        "ids and codes for programs, the rows not used, and what the allocation was made of.")
d2.download_button("Download the results (CSV)", lambda: results_csv(result), file_name="portfolio-allocation.csv",
                   mime="text/csv", key="w:pf_results_csv", icon=":material/download:", on_click="ignore",
                   help="Rank order, every row: ids and codes, each code with its words beside it.")
with downloads:
    portfolio_buttons(lambda prepared: portfolio_report(
        result, rs, weights, mode, source, variant, illustrative=source == "the illustrative sample",
        prepared_by=prepared))
