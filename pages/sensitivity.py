"""Sweeps with exact breakpoints, variant overlays, and a map of which limit holds the award down where,
all for the application on the Calculator."""
import numpy as np
import streamlit as st

from core.law.analysis import SWEEP_FIELDS, describe, grid, sweep
from core.report import chart_text
from core.report.charts.sensitivity import map_figure, sweep_figure
from core.law.fields import FIELD
from core.law.money import fmt
from core.law.readings import READING, READING_IDS
from ui import present, routing, state
from ui.charts import chart
from ui.text import law_caption, md, plain_text
from ui.components.fields_panel import nice_ceiling

routing.ensure_dashboard()   # first: a page is drawn only through dashboard.py (ui/routing.py)

state.init()
state.write_url()   # the whole state in this page's address too: a reload or a copied link keeps it
rs = state.ruleset()
app = state.application()
st.title("Sensitivity")
here = state.readings().under(rs)   # the readings this law has (the statute has no "§F" to read)
st.caption(md("For the application on the Calculator (change the inputs there). ") + law_caption(rs)
           + md(f"{'' if here.is_default else ' Readings: ' + here.describe() + '.'}"))

LABELS = {f: FIELD[f].label for f in SWEEP_FIELDS}
PRESENT_CHART = 360   # pixels: the award along one input, whole on a 1280 x 720 screen while presenting
fields = [f for f in SWEEP_FIELDS if f != "local_property_value" or app.bpw_exception_requested]


def upper(field: str) -> int:
    """A range end in cents that shows the interesting part: twice the value, or past the caps."""
    now = getattr(app, field) or 0
    most = rs.program_maximum(app.project_type)   # §A–B's maximum (the capital one where a law has no other)
    return nice_ceiling(max(2 * now, (2 if app.project_type != "master_plan" else 4) * most, 100_00) // 100) * 100


st.header("The award along one input")
controls = st.container(key="ctl_sweep")   # hidden while presenting (ui/present.py)
c1, c2 = controls.columns([2, 3])
field = c1.selectbox("Input to vary", fields, format_func=LABELS.get, key="w:sweep_field")
hi_default = upper(field) // 100
lo, hi = c2.slider("Range ($)", 0, max(hi_default * 2, 1_000), (0, hi_default), step=max(hi_default // 200, 1),
                   format="$%,d", key=f"w:sweep_range:{field}:{hi_default}")
others = [r for r in state.ruleset_ids() if r != rs.id]
overlay = controls.multiselect("Overlay other rulesets", others, key="w:sweep_overlay",
                         format_func=lambda r: plain_text(state.ruleset_by_id(r).label))
rd = state.readings()
switches = {rid: here.switched(rid) for rid in READING_IDS if READING[rid].applies(rs)}
overlay_readings = controls.multiselect("Overlay another reading", list(switches), key="w:sweep_overlay_readings",
                                  format_func=lambda rid: plain_text(f"{READING[rid].title}: "
                                  f"{READING[rid].alternative(getattr(switches[rid], rid)).title.lower()}"))
if lo >= hi:
    st.error("The range is empty: move the right end above the left.", icon=":material/error:")
else:
    main = sweep(app, field, lo * 100, hi * 100, rs, readings=rd)
    curves = [(rs.label if here.is_default else f"{rs.label} ({here.describe()})", main)] + [
        (state.ruleset_by_id(r).label, sweep(app, field, lo * 100, hi * 100, state.ruleset_by_id(r), readings=rd))
        for r in overlay] + [
        (f"Read: {switches[rid].describe()}", sweep(app, field, lo * 100, hi * 100, rs, readings=switches[rid]))
        for rid in overlay_readings]
    value = getattr(app, field)
    fig = sweep_figure(curves, LABELS[field], value if value is not None and lo * 100 <= value <= hi * 100 else None,
                       large=present.on())
    if present.on():
        fig.update_layout(height=PRESENT_CHART)   # the answer on the first screen, under the page's title
    chart(fig, "sweep_chart", chart_text.sweep(main, LABELS[field]))
    if main.breakpoints:
        st.subheader("Breakpoints")
        for bp in main.breakpoints:
            st.markdown(f"- {md(describe(bp, field))}: award {md(fmt(bp.award))}")
    else:
        st.info(md(f"Across this range the award does not change its slope or the limit that holds it down "
                   f"({fmt(main.points[0][1])} at {fmt(lo * 100)})."), icon=":material/info:")

st.header("Which limit holds the award down where")
m1, m2, m3 = st.container(key="ctl_map").columns(3)
fx = m1.selectbox("Across", fields, index=0, format_func=LABELS.get, key="w:map_x")
fy_choices = [f for f in fields if f != fx]
fy = m2.selectbox("Up", fy_choices, index=fy_choices.index("local_contribution") if "local_contribution" in fy_choices
                  else 0, format_func=LABELS.get, key="w:map_y")
cells = m3.select_slider("Cells per side", [50, 100, 150, 200], value=100, key="w:map_cells")
xs = np.linspace(0, upper(fx), cells).round().astype(np.int64)
ys = np.linspace(0, upper(fy), cells).round().astype(np.int64)
award, binding = grid(app, fx, xs, fy, ys, rs, rd)
here = (getattr(app, fx) or 0, getattr(app, fy) or 0)
chart(map_figure(xs, ys, award, binding, LABELS[fx], LABELS[fy], here, large=present.on()), "map_chart",
      chart_text.binding_map(award, binding, LABELS[fx], LABELS[fy]))
st.caption("Each cell is evaluated exactly by the batch engine; lines separate the regions where a different "
           "limit holds the award down. Hover for the award and every limit that holds it down.")
