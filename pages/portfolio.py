"""Many applications, the Department's considerations, one budget."""
import re

import numpy as np
import pandas as pd
import streamlit as st

from core.report import chart_text
from core.law.analysis import caps_words
from core.report.charts import cumulative_figure, priority_figure, ranked_figure
from core.report.export import csv_bytes
from core.law.fields import FIELDS, PROJECT_TYPES
from core.law.money import ValidationError, fmt, to_cents
from core.law.rulesets import edition_words
from core.law.portfolio import (FACTORS, MAX_ROWS, MODES, PortfolioError, formula_words, insight, read_sample, read_table,
                            run)
from core.law.batch import BatchError
from ui import present, state
from ui.charts import chart

from ui.text import Markdown, literal, markup, md, plain_text, ruleset_label, table_cells
from ui.uploads import upload_bytes

DEFAULT_BUDGET = 400_000_000
PAGE_ROWS = 500       # rows of the allocation table on one page
PRESENT_ROWS = 25     # and while presenting (large type)
BAD_SHOWN = 1_000     # bad rows listed on the page
COLUMN_TITLES = {"name": "Application", "locality": "Locality",
                 **{f.name: f.label for f in FIELDS}}
HERO_CHART = 370      # pixels: the cumulative chart beside the totals, on a 1280 x 720 screen while presenting
GRID_ROW = 66         # pixels: over 4rem, so that a cell wraps (Streamlit 1.67): a long name, two limits
# The allocation table's visible columns and widths (pixels), in the order people read them: together
# 804, within the main column at 1280 px with the sidebar open (818).
GRID_COLUMNS = {
    "Rank": st.column_config.NumberColumn("Rank", width=54),
    "Application": st.column_config.TextColumn("Application", width=180),
    "Maximum award": st.column_config.TextColumn("Maximum award", width=112),
    "Allocated": st.column_config.TextColumn("Allocated", width=92),
    "Held down by": st.column_config.TextColumn("Held down by", width=146),
    "Board's exception": st.column_config.TextColumn("Board's exception", width=124),
    "Priority score (0 to 1)": st.column_config.TextColumn("Priority (0 to 1)", width=96,
                                                           help="The priority score, 0 to 1 (the formula is above)"),
}


def people_table(good: pd.DataFrame, result) -> pd.DataFrame:
    """The allocation as people read it: titles, dollars, cap names; priority order."""
    idx = good.index.to_numpy()
    out = pd.DataFrame({
        "Rank": good["rank"].astype(int).to_numpy(),
        "Application": good["name"].astype(str).to_numpy() if "name" in good else [f"Row {i + 2}" for i in idx],
        "Locality": good["locality"].astype(str).to_numpy() if "locality" in good else "",
        "Project type": [PROJECT_TYPES.get(t, t) for t in good["project_type"].astype(str)],
        "Maximum award": [fmt(int(c)) for c in result.awards[idx]],
        "Held down by": [caps_words(b.split(";")) if b else "" for b in result.binding[idx]],
        "Board's exception": [f"needed: +{fmt(int(result.best[i] - result.standard[i]))}"
                              + ("" if result.exceptions == "assumed" else ", not counted")
                              if result.best[i] > result.standard[i] else "" for i in idx],
        "Priority score (0 to 1)": [f"{float(v):.3f}" for v in good["priority_score"]],
        "Allocated": [fmt(int(c)) for c in result.allocated[idx]],
    })
    return out.sort_values("Rank", kind="stable")


state.init()
rs = state.ruleset()
st.title("Portfolio")
st.caption(md("Rank a year's applications and allocate one appropriation. Ruleset: ") + ruleset_label(rs)
           + md(edition_words("", rs.edition, rs.version) + "."))
DECISION_SUPPORT = ("The priority score is decision support from the Department's considerations (senior population "
                    "density, distance to existing senior centers, localities not funded before). It orders "
                    "applications; it never changes an award amount.")
if not present.on():   # while presenting it follows the answer (below)
    st.info(DECISION_SUPPORT, icon=":material/info:")

controls = st.container(key="ctl_pf_file")   # hidden while presenting (ui/present.py)
up = controls.file_uploader(md(f"Applications (CSV, up to {MAX_ROWS:,} rows)"), type=["csv", "txt"], key="w:pf_file",
                      help="Columns: name, locality, the application fields (project_type, eligible_cost, "
                           "federal_grant, ...), senior_density, distance_to_center_miles, previously_funded.")
source = "the illustrative sample"
try:
    raw = upload_bytes(up)
    if raw is not None:   # read once per file, not on every run (20,000 rows took a second each time)
        token = (up.file_id, len(raw), up.name)
        kept = st.session_state.get("pf:read")
        if kept is None or kept[0] != token:
            kept = (token, read_table(raw, up.name))
            st.session_state["pf:read"] = kept
        table, source = kept[1], up.name
    else:
        table = read_sample()
except PortfolioError as err:
    st.error(literal(str(err), 400), icon=":material/error:")   # names the user's file
    st.stop()
if source == "the illustrative sample":
    st.warning("Showing an ILLUSTRATIVE sample of 20 fictional applications. Upload a CSV to use your own.",
               icon=":material/science:")
hero = st.container()   # while presenting: the allocation against the budget, first (filled below)

# The editor is drawn only while its panel is open (Streamlit's lazy expander): 20,000 rows are
# megabytes on every run. What was edited is kept when the panel closes, and used below.
edit_box = st.container(key="ctl_pf_edit").expander("Edit the applications", expanded=False, key="pf_edit_panel",
                                                    on_change="rerun")
edited = st.session_state.get(f"pf:edited:{source}")
if edit_box.open:
    opened = st.session_state.setdefault(f"pf:edit_open:{source}", (st.session_state.get("pf:edit_n", 0) + 1,
                                                                     edited if edited is not None else table))
    st.session_state["pf:edit_n"] = opened[0]
    with edit_box:
        st.caption("Changes here are used below, and kept when this panel closes; download the results to keep them.")
        table = st.data_editor(opened[1], num_rows="dynamic", key=f"w:pf_editor:{source}:{opened[0]}", width="stretch",
                               column_config={c: st.column_config.Column(COLUMN_TITLES[c]) for c in table.columns
                                              if c in COLUMN_TITLES})
    st.session_state[f"pf:edited:{source}"] = table
else:
    st.session_state.pop(f"pf:edit_open:{source}", None)   # opened again: a new editor over what was edited
    if edited is not None:
        table = edited

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
weights_box.header("Weights of the considerations")
wcols = weights_box.columns(3)
weights = {k: wcols[i].slider(md(words.capitalize()), 0.0, 5.0, 1.0, 0.5, key=f"w:pf_w:{k}")
           for i, (k, (_, words)) in enumerate(FACTORS.items())}
st.caption(md(formula_words(weights)))

try:
    result = run(table, budget, mode, weights, rs, state.readings(),
                 exceptions="excluded" if approved_only else "assumed")
except BatchError as err:
    st.error(literal(source) + md(f": {err}"), icon=":material/error:")
    st.stop()

bad = result.table[~result.good]
if len(bad):
    st.error(md(f"{len(bad):,} row(s) could not be used; the other {int(result.good.sum()):,} are."
                + (f" The first {BAD_SHOWN:,} are listed; the download below gives every row's problem."
                   if len(bad) > BAD_SHOWN else "")), icon=":material/error:")
    listed = bad.iloc[:BAD_SHOWN]
    st.dataframe(pd.DataFrame({"Row of the file": listed.index + 2,
                               "Application": [plain_text(n) for n in listed["name"]] if "name" in listed else "",
                               "Problem": [plain_text(e, 400) for e in listed["error"]]}), hide_index=True, width="stretch")

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
    names = good["name"].astype(str).tolist() if "name" in good else [f"Row {i + 2}" for i in good.index]
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
    st.info(DECISION_SUPPORT, icon=":material/info:")
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


for line in insight(result, rs, variant):
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
    ordered = good.iloc[np.argsort(good["rank"].astype(int).to_numpy(), kind="stable")]
    per_page = PRESENT_ROWS if large else PAGE_ROWS
    pages = max(1, -(-len(ordered) // per_page))
    if st.session_state.get("w:pf_page", 1) > pages:
        st.session_state["w:pf_page"] = 1
    page_no = (st.container(key="ctl_pf_page").number_input("Page of the table", 1, pages, key="w:pf_page", width=200)
               if pages > 1 else 1)
    shown_rows = ordered.iloc[(page_no - 1) * per_page: page_no * per_page]
    if pages > 1:
        st.caption(md(f"Applications {(page_no - 1) * per_page + 1:,} to {(page_no - 1) * per_page + len(shown_rows):,} "
                      f"of {len(ordered):,} in priority order ({per_page:,} a page); the download below holds "
                      "every one."))
    if large:
        st.table(table_cells(people_table(shown_rows, result)), hide_index=True)   # large type that wraps; names literal
    else:   # the columns people read, each wide enough for its title, long ones on two lines: 1280 px, no scroll
        st.dataframe(people_table(shown_rows, result), hide_index=True, width="stretch", row_height=GRID_ROW,
                     column_order=list(GRID_COLUMNS), column_config=GRID_COLUMNS)
        st.caption("Each application's locality, project type and every input are in the download below.")
st.container(key="ctl_pf_download").download_button("Download the results (CSV)", csv_bytes(result.table), file_name="portfolio-allocation.csv",
                   mime="text/csv")
