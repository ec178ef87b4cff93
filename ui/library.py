"""The scenario library as the pages use it: one store per server process, and the Compare page's
library section, whose every action acts on the scenario as it was shown.

Not st.cache_resource: Streamlit empties its caches on a `clear_cache` message, which any
browser may send whatever the toolbar shows (issue 30: 15 messages made 15 stores, each with
its own open database connection, never closed, and 0.24-0.37 s of schema check each). The
store is kept here instead, one per database URL for the life of the process; a change of the
administrators (the secrets) replaces it and closes the one it replaces.
"""
from __future__ import annotations

import threading

import streamlit as st

from core.law.money import ValidationError, fmt
from core.law.award import evaluate
from core.law.rulesets import version_words
from core.report.words import when_words
from core.store.model import Pick, ScenarioError, ScenarioStale
from core.store.repository import ScenarioStore
from core.store.unread import words as unread_words
from ui.text import error_text, md, plain_text, sentence, shown

_STORES: dict[str, ScenarioStore] = {}
_LOCK = threading.Lock()


def shared(url: str, admins: tuple[str, ...] = ()) -> ScenarioStore:
    """The process's store for `url`, made on first use (the schema checked once)."""
    with _LOCK:
        found = _STORES.get(url)
        if found is not None and found.admins == frozenset(a.strip().lower() for a in admins if a and a.strip()):
            return found
        made = ScenarioStore(url, admins=admins)
        _STORES[url] = made
    if found is not None:
        found.dispose()   # connections still in use close when they are returned
    return made


def store() -> ScenarioStore:
    """The process's library; one that cannot be opened (a bad SCENARIO_DB_URL, a folder that cannot be
    written, a server down) is a ScenarioError every page already shows in words, never a traceback.
    The driver's own message is left out: it may repeat the URL, password and all."""
    from sqlalchemy.exc import SQLAlchemyError
    from core.store.db import default_url
    from ui.auth import admins
    try:
        return shared(default_url(), admins())
    except ScenarioError:
        raise
    except (SQLAlchemyError, OSError, ValueError) as exc:
        raise Unavailable(unavailable(exc)) from None


class Unavailable(ScenarioError):
    """The library cannot be opened: our own words (no user text in them), shown as such."""
    ours = True


def unavailable(exc: Exception) -> str:
    """What a page says when the library cannot be opened or written."""
    return (f"the scenario library cannot be opened or written ({type(exc).__name__}; the server's "
            "SCENARIO_DB_URL names it). Saving, comparing and kept variants wait until it can be; "
            "the calculator works without it.")


# -- the actions, each a callback bound to the Pick shown -------------------------------------------
NOTES, ERRORS, UNDO, OPEN = "library_notes", "library_errors", "undo", "lib:open"


def _said(err: Exception) -> None:
    text = sentence(err.template, *err.names) if isinstance(err, ScenarioStale) else error_text(err)
    st.session_state.setdefault(ERRORS, []).append(text)


def _open(lib, me, pick: Pick) -> None:
    from ui import state
    sc = lib.picked(pick)
    # its own ruleset: a shipped one or a variant still kept (a kept variant was left out, and the scenario
    # shown under whatever ruleset the session had); one no longer kept: the regulation, said
    here = sc.ruleset_id in state.ruleset_ids()
    state.load_application(sc.application, sc.ruleset_id if here else "regulation", sc.readings, sc.as_of)
    notes = [sentence("Opened the scenario {}.", sc.name)]
    if not here:
        notes.append(sentence("It was saved under the variant {}, which is no longer kept (deleted since?): it is "
                              "shown under the regulation in force.", sc.saved_ruleset().title)
                     + md(f" Its award under that variant: {fmt(sc.award().amount)}."))
    elif sc.current_ruleset() is None:   # a kept variant: changed since the scenario was saved?
        now_rs = state.ruleset_by_id(sc.ruleset_id, state.parse_day(sc.as_of) if sc.as_of else None)
        if now_rs.version != sc.ruleset_version:
            notes.append(sentence("It was saved under the variant {} as it was then; the variant has changed since.",
                                  sc.saved_ruleset().title)
                         + md(f" Award then: {fmt(sc.award().amount)}; under the variant now: "
                              f"{fmt(evaluate(sc.application, now_rs).amount)}."))
    if sc.unread:   # saved by a newer release: what this one did not read, said (core/store/unread.py)
        notes.append(md(unread_words(sc.unread)))
    differs = sc.differs_today()
    if differs:   # it keeps the day and law it was made under; what of that law differs today is said
        notes.append(md(f"It was made under the law as of {sc.as_of}, and is shown so. Today "
                        + "; ".join(f"the {what} is {now} (then {then})" for what, then, now in differs)
                        + f". Award then: {fmt(sc.award().amount)}; award under today's law: "
                        f"{fmt(sc.award_today().amount)}. Set “Law as of” to today to work under it."))
    if sc.outdated:
        now_rs = sc.current_ruleset()
        notes.append(md(f"It was saved under {version_words(sc.saved_ruleset())}, which is now "
                        f"{version_words(now_rs)}. Award then: {fmt(sc.award().amount)}; "
                        f"award now: {fmt(evaluate(sc.application, now_rs).amount)}."))
    st.session_state["loaded_notes"] = notes
    st.session_state[OPEN] = True   # the page switches (st.switch_page does nothing in a callback)


def _renamed(lib, me, pick: Pick) -> None:
    from ui import comparison
    new = str(st.session_state.get("w:lib_new") or "")
    after = lib.rename(pick, new, actor=me)
    comparison.renamed(pick.name, after.name)   # in the comparison, it keeps its place (and stays the baseline)
    st.session_state[NOTES] = [sentence("Renamed {} as {}.", pick.name, after.name)]


def _duplicated(lib, me, pick: Pick) -> None:
    copy = lib.duplicate(pick, str(st.session_state.get("w:lib_new") or ""), actor=me)
    st.session_state[NOTES] = [sentence("Duplicated {} as {}.", pick.name, copy.name)]


def _deleted(lib, me, pick: Pick) -> None:
    gone = lib.delete(pick, actor=me)
    st.session_state[UNDO] = (gone, Pick(gone.uid, lib.versions([gone.uid])[gone.uid], gone.name, deleted=True))


def _undone(lib, me, _pick) -> None:
    gone, pick = st.session_state.pop(UNDO)   # offered once: refused, it stays among the deleted scenarios
    lib.restore(gone, actor=me, picked=pick)


def _restored(lib, me, pick: Pick, event_id: int, label: str, before: bool = False, under_key: str = "") -> None:
    name = str(st.session_state.get(under_key) or "").strip() if under_key else ""
    back = lib.restore_version(event_id, actor=me, name=name or None, before=before, picked=pick)
    st.session_state[NOTES] = [sentence("Restored {} as it was " + label + ".", back.name)]


def act(action, pick: Pick | None, *args, **kw) -> None:
    """on_click: `action` on the scenario as `pick` was when its button was drawn; a refusal said."""
    from ui.auth import actor
    try:
        action(store(), actor(), pick, *args, **kw)
    except (ValidationError, ScenarioError) as err:
        _said(err)


def button(label: str, key: str, action, pick: Pick | None, *args, **kw) -> None:
    """A library action's button; `label` is our words (every caller passes a constant)."""
    st.button(md(label), key=key, on_click=act, args=(action, pick, *args), kwargs=kw or None,
              **({"type": "primary"} if action is _deleted else {}))


# -- the section ---------------------------------------------------------------------------------
def _events_table(events, person) -> None:
    st.dataframe({"#": [e.id for e in events], "When": [when_words(e.at) for e in events],
                  "Who": [plain_text(person(e.actor)) for e in events], "What": [e.action for e in events],
                  "Scenario": [plain_text(e.scenario) for e in events]}, hide_index=True, width="stretch")


def history_view(lib, pick: Pick, person) -> None:
    """Every change of the picked scenario (through its renames), and restoring any earlier version."""
    with st.expander("History of this scenario"):
        events = lib.history(uid=pick.uid)
        _events_table(events, person)
        versions = [f"after change #{e.id}" for e in reversed(events[:-1])]   # after each change but the last
        if events and events[0].before is not None:                           # and before the first recorded
            versions.append(f"before change #{events[0].id}")
        if versions:
            version = st.selectbox("Version", versions, key="w:hist_event",
                                   format_func=lambda v: plain_text(f"as it was {v}"))
            when, _, number = version.partition(" change #")
            button("Restore this version", "w:hist_restore", _restored, pick, int(number), version,
                   before=when == "before")


def deleted_view(lib, person) -> None:
    """Deleted scenarios stay in the history; any of them can be brought back."""
    gone = lib.deleted()
    if not gone:
        return
    with st.expander(md(f"Deleted scenarios ({len(gone)})")):
        _events_table(gone, person)
        by_id = {e.id: e for e in gone}
        pick_event = st.selectbox("Deleted scenario", list(by_id), key="w:del_pick",
                                  format_func=lambda i: plain_text(f"{by_id[i].scenario} (deleted by {by_id[i].actor})"))
        ev = by_id[pick_event]
        st.caption("Its history")
        _events_table(lib.history(uid=ev.uid), person)   # this one, even if its name is taken since
        st.text_input("Restore under another name (if its name is taken)", key="w:del_name", max_chars=120)
        button("Restore it", "w:del_restore", _restored, Pick(ev.uid, ev.id, ev.scenario, deleted=True), ev.id,
               f"before it was deleted (change #{ev.id})", under_key="w:del_name")


def messages() -> None:
    """At the top of the page: what the last action did (its callback ran before this run)."""
    for note in st.session_state.pop(NOTES, []):
        st.success(shown(note), icon=":material/check:")   # Markdown made with names literal
    if st.session_state.pop(OPEN, False):
        st.switch_page("pages/calculator.py")


def refusals() -> None:
    """Where the user pressed (the library), or wherever the page got to: what was refused, and why."""
    for said in st.session_state.pop(ERRORS, []):
        st.error(shown(said), icon=":material/block:")


def section(lib, listing: list, owned, me: str, person) -> None:
    """The library: a scenario of the page found (by uid: a name can change under it), what it is,
    and every action on it as shown now."""
    st.header("Library")
    with st.container():   # always drawn, so what follows keeps its place once a refusal has gone (an
        refusals()         # open popover stays open on the next run)
    picks = lib.picks(listing)
    by_uid = {sc.uid: sc for sc in listing}
    if st.session_state.get("w:lib_pick") not in by_uid:   # gone, or not on this page: the first instead,
        st.session_state["w:lib_pick"] = listing[0].uid        # set (not dropped), so the browser shows it too
    uid = st.selectbox("Scenario (from the page found above)", list(by_uid), key="w:lib_pick",
                       format_func=lambda u: plain_text(owned(by_uid[u].name) if owned else by_uid[u].name))
    sc, pick = by_uid[uid], picks[uid]
    st.text(plain_text(f"Name: {sc.name}\nOwner: {person(sc.owner)}   Last changed by: {person(sc.changed_by)}\n"
                       f"Notes: {sc.notes or '—'}\nRuleset: {version_words(sc.saved_ruleset())}"
                       f"{f'   Law as of: {sc.as_of}' if sc.as_of else ''}\n"
                       f"Saved: {when_words(sc.created_at)}   Updated: {when_words(sc.updated_at)}",
                       limit=6_000, lines=True))
    if not lib.may_change(sc, me):
        st.caption("Only its owner (or an administrator) may rename, replace or delete this scenario; "
                   "you may duplicate it as your own.")
    c1, c2, c3 = st.columns(3)
    with c1:
        button("Open in the calculator", "w:lib_load", _open, pick)
    with c2.popover("Rename or duplicate"):
        st.text_input("New name", key="w:lib_new", max_chars=120)
        r1, r2 = st.columns(2)
        with r1:
            button("Rename", "w:lib_Renamed", _renamed, pick)
        with r2:
            button("Duplicate", "w:lib_Duplicated", _duplicated, pick)
    with c3.popover("Delete"):
        st.text(plain_text(f"Delete “{sc.name}”? You can undo it right after."))
        button("Yes, delete it", "w:lib_delete", _deleted, pick)
    history_view(lib, pick, person)


def undo_box() -> None:
    """After a delete: what was deleted, and its undo (only while nobody has brought it back)."""
    kept = st.session_state.get(UNDO)
    if kept is None:
        return
    st.info("Scenario deleted.", icon=":material/delete:")
    st.text(plain_text(kept[0].name))
    button("Undo delete", "w:undo", _undone, None)


# -- policy variants kept in the library (core/store/variants.py) -----------------------------------
VARIANT_NOTES = "variants:said"   # what the last action on a variant did, said after the run it reran


def refresh_variants() -> None:
    """The library's kept variants as the session's (st.session_state["variants"], which the sidebar,
    links and every page read), at the top of every run: one small query, so a variant saved in any
    session is there for every other, after a reload and in a new session (issue 48)."""
    from sqlalchemy.exc import SQLAlchemyError
    try:
        kept = store().variants().list()
    except (ScenarioError, SQLAlchemyError):   # the library unreachable: the pages still work, without them
        return
    st.session_state["variants"] = {k.id: k.ruleset for k in kept}


def keep_variant(rs, said: str) -> bool:
    """Keep a variant made or loaded on the Rules page as the user's; False with the reason shown.
    On success the page runs again, so the sidebar (drawn before the page) lists it at once."""
    from core.law.rulesets import RulesetError
    from ui import auth
    try:
        store().variants().save(rs, actor=auth.actor())
    except (ScenarioError, RulesetError) as err:
        st.error(md("Not kept: ") + error_text(err), icon=":material/error:")
        return False
    st.session_state.setdefault("variants", {})[rs.id] = rs
    st.session_state[VARIANT_NOTES] = said
    st.rerun()
    return True   # (never reached: st.rerun stops this run)


def _delete_variant(vid: str) -> None:
    from ui import auth
    try:
        gone = store().variants().delete(vid, actor=auth.actor())
    except ScenarioError as err:
        st.session_state[VARIANT_NOTES + ":error"] = md("Not deleted: ") + error_text(err)
        return
    st.session_state.get("variants", {}).pop(vid, None)
    from ui import state
    picked = state.get("ruleset") == vid
    if picked:   # the session's law: the regulation now, said (not a sidebar, award and address that disagree)
        state.put("ruleset", "regulation")
    st.session_state[VARIANT_NOTES] = md("Deleted the variant ") + shown_title(gone.ruleset.title) + md(
        ". Its history keeps it: restore it from there."
        + (" It was the ruleset picked: the regulation in force is picked now." if picked else ""))


def _restore_variant(event_id: int) -> None:
    from ui import auth
    try:
        back = store().variants().restore(event_id, actor=auth.actor())
    except ScenarioError as err:
        st.session_state[VARIANT_NOTES + ":error"] = md("Not restored: ") + error_text(err)
        return
    st.session_state.setdefault("variants", {})[back.id] = back.ruleset
    st.session_state[VARIANT_NOTES] = md("Restored the variant ") + shown_title(back.ruleset.title) + md(".")


def shown_title(title: str):
    from ui.text import literal
    return literal(title, 120)


def kept_variants_section() -> None:
    """The Rules page's list of kept variants: whose each is, its history, delete and restore."""
    from ui import auth
    from ui.text import literal
    try:
        lib = store()
    except ScenarioError as err:
        st.error(md("Kept variants cannot be shown: ") + error_text(err), icon=":material/error:")
        return
    for note in (st.session_state.pop(VARIANT_NOTES, None),):
        if note:
            st.success(shown(note), icon=":material/check:")
    problem = st.session_state.pop(VARIANT_NOTES + ":error", None)
    if problem:
        st.error(shown(problem), icon=":material/error:")
    v = lib.variants()
    kept = v.list()
    events = v.history()
    gone = {}
    for e in events:   # the variants deleted now: their last event is a delete
        gone[e.variant] = e if e.action == "delete" else None
    st.subheader("Variants kept in the library")
    if not kept:
        st.caption("No variant is kept yet. A variant you make or load here is kept, for everyone to use.")
    me = auth.actor()
    for k in kept:
        mine = k.owner.lower() == me.strip().lower() or lib.is_admin(me)
        with st.container(border=True, key=f"variant_kept_{k.id}"):
            st.markdown(md("Variant ") + literal(k.ruleset.title, 120) + md(f" (id {k.id}), kept by ")
                        + literal(k.owner, 80) + md(f"; last changed {when_words(k.updated_at)} by ") + literal(k.changed_by, 80)
                        + md("."))
            st.button("Delete this variant", key=f"w:variant_del:{k.id}", on_click=_delete_variant, args=(k.id,),
                      disabled=not mine, help=None if mine else "Only its owner or an administrator may delete it.")
            with st.expander("History of this variant"):
                for e in [e for e in events if e.variant == k.id]:
                    st.text(plain_text(f"{when_words(e.at)}: {e.action} by {e.actor}"))
                    if e.after is not None and mine and e.after.ruleset.version != k.ruleset.version:
                        st.button("Restore this version", key=f"w:variant_restore:{e.id}", on_click=_restore_variant,
                                  args=(e.id,))
    deleted = [e for e in gone.values() if e is not None]
    if deleted:
        st.markdown("**Deleted variants** (restore one to keep it again)")
        for e in deleted:
            st.text(plain_text(f"{e.before.ruleset.title} ({e.variant}), deleted {when_words(e.at)} by {e.actor}"))
            allowed = e.before.owner.lower() == me.strip().lower() or lib.is_admin(me)
            st.button("Restore it", key=f"w:variant_restore:{e.id}", on_click=_restore_variant, args=(e.id,),
                      disabled=not allowed, help=None if allowed else "Only its owner or an administrator may restore it.")
