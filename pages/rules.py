"""The regulation, its parameters and citations, the interpretations, and policy variants."""
import streamlit as st

from core.law.award import evaluate, pct, types_words
from core.report.compare import table
from core.law.fields import PROJECT_TYPES
from core.law.money import ValidationError, fmt, plain, to_cents
from core.law.provisions import LETTERING, LETTERING_SEVEN, LETTERS_INFERRED, PROVISIONS
from core.law.readings import READINGS
from core.law.provisions import CHOICES, DEFAULTS
from core.law.rulesets import (PARAMETER_KINDS, PARAMETERS, RulesetError, available, load, load_text, to_toml,
                               value_words as dated_words, version_words)
from ui import library, present, routing, state
from core.law.names import check_text, variant_id
from core.store.verify import accept_loaded_variant
from ui.text import error_text, literal, markup, md, message, ours, plain_label, plain_text, table_cells
from ui.uploads import upload_bytes

routing.ensure_dashboard()   # first: a page is drawn only through dashboard.py (ui/routing.py)

MAX_TITLE = 80
NOT_IN_LAW = "Not in this law"


def optional(pid: str, value) -> bool:
    """Whether the variant editor lets a number be left out ("none"): an amount or a share that the
    base lacks, or one the registry declares absent by default (a provision added for some laws only)."""
    return PARAMETER_KINDS[pid] in ("money", "share") and (value is None or DEFAULTS.get(pid) == "none")

state.init()
st.title("Rules and policy variants")
reg = load()
# The edition for people; the fingerprint, the ruleset's id and the parameters' names in files are
# for programs, under "For programs" below (a board reads words, not code names).
st.caption(md(f"{', '.join(filter(None, (reg.label, reg.edition)))}. Every number the app uses "
              "is below, with the sentence it comes from."))


def value_words(p) -> str:
    kind = PARAMETER_KINDS[p.name]
    if p.value is None:   # "none": a provision this law does not have
        return NOT_IN_LAW
    if kind == "money":
        return fmt(p.value)
    if kind == "share":
        return pct(p.value)
    if kind == "choice":
        return dated_words(p.name, p.value).capitalize()
    return types_words(p.value).capitalize()


law = state.ruleset()   # the law chosen (the statute as of its day, a variant): its own text, values, dates, sources
if law.id != "regulation" or law.is_variant:
    day = law.as_of_date.isoformat() if law.as_of_date else ""
    st.header(md(f"The law chosen: {law.label}" + (f", as of {day}" if day else "")))
    st.caption(md("Every number of the law chosen, as in force that day, with the act or text that set it and the day "
                  "it took effect. The regulation's provisions follow, for reference: they are not this law."))
    for note in law.all_caveats:
        st.markdown(f"*{md(note)}*")
    rows = []
    for p in law.parameters.values():
        if p.value is None or (not p.value and PARAMETER_KINDS[p.name] == "types" and not p.history):
            continue
        kept = (law.dated or {}).get(p.name)
        era = next((v for v in reversed(p.history) if law.as_of_date and v.start <= law.as_of_date), None)
        rows.append({"Number": PARAMETERS[p.name][1], "Value": value_words(p), "Source": p.citation,
                     "Where the Code keeps it": kept.citation if kept is not None else "",
                     "In force from": era.start.isoformat() if era else "as received",
                     "Day uncertain": (era.uncertain if era and era.uncertain else "no")})
    st.table(table_cells(__import__("pandas").DataFrame(rows)), hide_index=True)
    for key, words in law.cites.items():
        st.markdown(markup("**{}:** {}", key.replace("_", " ").capitalize(), words))
    for note in law.notes:
        st.markdown(f":gray[{md(note)}]")

st.header("Provisions" if law.id == "regulation" and not law.is_variant else "The regulation's provisions (for reference)")
st.caption(md(f"{LETTERS_INFERRED} By default the app letters eight paragraphs, A to H: ")
           + md("; ".join(f"§{k}, {w}" for k, w in LETTERING) + ". ")
           + md("Under the reading “§F is the top-up for earlier grantees” the text has seven, A to G, and every "
                "letter shown with a result under that reading is of these: ")
           + md("; ".join(f"§{k}, {w}" for k, w in LETTERING_SEVEN) + "."))
for prov in (p for p in PROVISIONS if not p.only_in):   # the regulation's own (another law's are above)
    # While presenting, every provision is open: a room cannot click an expander.
    box = (st.container(border=True) if present.on()
           else st.expander(md(f"{prov.title} ({prov.cite})"), expanded=prov.id in ("program_max", "cost_share")))
    if present.on():
        box.markdown(f"**{md(prov.title)}** ({md(prov.cite)})")
    with box:
        st.markdown(f"> {md(prov.text)}" if prov.text else "*No sentence of the regulation says this: an interpretation.*")
        params = [p for p in reg.parameters.values() if p.provision == prov.id]
        for p in params:
            st.markdown(markup("**{}:** {}  \n:gray[Citation: “{}”]", p.description, value_words(p), p.citation))
        if prov.interpretation:
            st.markdown(f"**Interpretation:** {md(prov.interpretation)}")

if not present.on():   # the record, for programs reading the files: not a board's
    with st.expander("For programs: the ruleset's fingerprint and the numbers' names in files", expanded=False):
        st.markdown(markup("Ruleset id {}; {}.", literal(reg.id), version_words(reg)))
        st.table(table_cells(__import__("pandas").DataFrame(
            [{"Number": p.description, "Name in files": p.name, "Unit": p.unit} for p in reg.parameters.values()]),
            user=("Name in files",)), hide_index=True)

st.header("Each number's history")
st.caption(md("A dated ruleset holds every value a number has had, each with the day it took effect and "
              "its source; where that day is not known, it says so, and so does every answer that reads it."
              + (" The tables of each number's values are shown outside presentation mode." if present.on() else "")))
for rid in available() if not present.on() else ():   # a table of sources is read at a desk, not across a room
    rs = load(rid)
    if not rs.is_dated:
        continue
    box = st.expander(md(f"{rs.label}: history"), expanded=False)
    with box:
        for note in dict.fromkeys([*rs.caveats, *(f"From {v.start.isoformat()}: {v.caveat}" for p in
                                                  rs.parameters.values() for v in p.history if v.caveat)]):
            st.markdown(f"*{md(note)}*")
        for p in rs.parameters.values():
            if not p.history:
                continue
            st.markdown(markup("**{}** ({})", PARAMETERS[p.name][1], p.citation))
            rows = [{"In force from": v.start.isoformat(), "Value": dated_words(p.name, v.value),
                     "Source": v.source, "Day uncertain": v.uncertain or "no"} for v in p.history]
            st.table(table_cells(__import__("pandas").DataFrame(rows)), hide_index=True)

st.header("Readings")
st.caption(md("Where a passage can be read two ways, the app uses the first reading below unless you switch it "
              "here, for this session (the page address records it). Every result says which readings it used, "
              "and which single switch would change its award."))
current = state.readings()
for r in READINGS:
    with st.container(border=True):
        st.markdown(markup("**{}**  \n:gray[In links and on the command line: {}]", r.title, literal(r.id)))
        st.markdown(f"> {md(r.sentence)}" if r.sentence else
                    "*No sentence of the regulation: an inference from the regulation as a whole.*")
        st.markdown(ours("  \n").join(markup("**{}**{}: {}", a.title, " (default)" if a.id == r.default else "",
                                             a.meaning) for a in r.alternatives))
        if not r.applies(law):   # kept for the session: it counts again under the regulation
            st.info(markup("Under {} this reading does not arise, whatever is chosen: {}", law.in_sentence,
                           r.why_not(law)), icon=":material/info:")
        ids = [a.id for a in r.alternatives]
        st.session_state[f"w:reading:{r.id}"] = getattr(current, r.id)
        st.radio(md(f"Reading of “{r.title}” for this session"), ids, key=f"w:reading:{r.id}", horizontal=True,
                 format_func=lambda a, r=r: md(r.alternative(a).title),
                 on_change=lambda r=r: state.put_readings(
                     state.readings().replace(**{r.id: st.session_state.get(f"w:reading:{r.id}", getattr(
                         state.readings(), r.id))})))
state.write_url()

st.header("Policy variants")
st.warning("A variant is a what-if, never the regulation in force. Every result computed under one says so.",
           icon=":material/science:")
variants = st.session_state.setdefault("variants", {})
with st.form("variant_form"):
    st.subheader("Make a variant of the regulation")
    a, b = st.columns(2)
    title = a.text_input("Variant name", max_chars=80, placeholder="for example: Cap raised to $1,000,000")
    base_id = b.selectbox("Start from", available(), format_func=lambda r: plain_text(load(r).label))
    base = load(base_id)
    entered, present_in = {}, {}   # one input per parameter of the ruleset table, in its order
    for (pid, (kind, label)), col in zip(PARAMETERS.items(), st.columns(3) * len(PARAMETERS)):
        value = base.number(pid)
        if optional(pid, value):   # a provision some laws lack ("none"): turned off and on here
            present_in[pid] = col.checkbox(plain_label(f"{label} in this law"), value=value is not None,
                                           help="Clear to leave this provision out of the variant (“not in this law”).")
        if kind == "money":
            entered[pid] = col.text_input(plain_label(f"{label} ($)"), value="" if value is None else f"{value // 100:,}",
                                          placeholder="not in this law")
        elif kind == "share":
            entered[pid] = col.number_input(plain_label(f"{label} (%)"), 0.0, 100.0,
                                             0.0 if value is None else float(value) * 100, step=5.0, format="%.2f")
        elif kind == "choice":
            entered[pid] = col.selectbox(plain_label(label), list(CHOICES[pid]), index=list(CHOICES[pid]).index(value),
                                         format_func=lambda c, pid=pid: plain_text(CHOICES[pid][c]))
        else:
            entered[pid] = st.multiselect(plain_label(label), list(PROJECT_TYPES), default=list(value),
                                           format_func=PROJECT_TYPES.get)
    made = st.form_submit_button("Make variant")
if made:
    try:
        name = check_text(title, "Variant name", MAX_TITLE, what="variant")
        vid = variant_id(name)   # ASCII from the name: 'Café für Año' -> variant-cafe-fur-ano
        changes = {pid: "none" if not present_in.get(pid, True) else
                   plain(to_cents(entered[pid], label)) if kind == "money" else
                   f"{entered[pid] / 100:.4f}" if kind == "share" else entered[pid]
                   for pid, (kind, label) in PARAMETERS.items()}
        if vid in state.ruleset_ids():   # 'Cap 1.0' and 'Cap 1-0' give one id: refused, never replaced
            raise ValidationError("Variant name", name, f"gives the id {vid!r}, which another variant already "
                                  "has; choose a name that differs in its letters or digits")
        made_rs = base.with_changes(vid, name, changes,
                                    note=f"Policy variant of {base.id}: {name}. Not the regulation in force.")
        if "w:rules_cmp" in st.session_state:  # show the new variant in the comparison below
            st.session_state["w:rules_cmp"] = list(dict.fromkeys(st.session_state["w:rules_cmp"] + [vid]))
        # kept in the library, for everyone and after a reload; the page runs again, so the sidebar lists it
        library.keep_variant(made_rs, message("Made the variant {} and kept it in the library. Pick it in the "
                                              "sidebar, or compare below.", name))
    except (ValidationError, RulesetError) as err:
        st.error(md("Not made: ") + error_text(err), icon=":material/error:")

up = st.container(key="ctl_rules_file").file_uploader("Or load a variant from a ruleset file (TOML)", type=["toml"], key="w:variant_file")
raw = upload_bytes(up)
if raw is not None:
    try:
        v = load_text(raw.decode("utf-8"), up.name)
        if accept_loaded_variant(v, variants, MAX_TITLE):   # not a shipped id, not a clash, a clean title; new
            if "w:rules_cmp" in st.session_state and v.id not in st.session_state["w:rules_cmp"]:
                st.session_state["w:rules_cmp"] = st.session_state["w:rules_cmp"] + [v.id]
            library.keep_variant(v, message("Loaded the variant {} ({}) and kept it in the library.", v.title, v.id))
    except (RulesetError, ValidationError) as err:
        st.error(md("Not loaded: ") + error_text(err), icon=":material/error:")
    except UnicodeDecodeError:
        st.error(md("Not loaded: ") + literal(up.name) + md(" is not UTF-8 text."), icon=":material/error:")

library.kept_variants_section()

st.subheader("The current application under each ruleset")
app = state.application()
everything = {r: state.ruleset_by_id(r) for r in state.ruleset_ids()}
chosen = st.multiselect("Rulesets", list(everything), default=list(everything), key="w:rules_cmp",
                        format_func=lambda r: plain_text(everything[r].label))
if chosen:
    named = [(plain_text(everything[r].label), evaluate(app, everything[r], state.readings())) for r in chosen]
    under = table(named)[["Scenario", "State grant award", "Held down by", "Route", "Funding gap"]] \
        .rename(columns={"Scenario": "Ruleset"})
    # A table that wraps to the screen's width (a grid kept each limit's words on one line and
    # scrolled sideways at 1280 px), in large type while presenting; a variant's title is literal.
    st.table(table_cells(under, user=("Ruleset",)), hide_index=True)
for vid, v in variants.items():
    # its edition (a file's, so a user's text) and fingerprint: the record, here and in exports only
    st.caption(message("Variant {}: {}.", v.title, version_words(v), limit=200))
    st.download_button(message("Download {} as a ruleset file", v.title, limit=80), to_toml(v), file_name=f"{vid}.toml",
                       mime="application/toml", key=f"w:dl:{vid}")
