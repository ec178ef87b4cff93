"""The application being explored, kept in session state and bound to the URL.

Canonical values live under "app:<field>" (cents for money). They outlive the widgets,
so values survive moving to other pages and back. A link's query parameters are
validated once per change of the URL; a bad one falls back with a visible message.
"""
from __future__ import annotations

from datetime import date
from functools import lru_cache

import streamlit as st

from core.law.application import Application, parse_field
from core.law.award import Award, evaluate
from core.law.fields import FIELD, FIELDS
from core.law.money import ValidationError
from core.law.readings import DEFAULT as DEFAULT_READINGS, READING, READING_IDS, ReadingError, Readings
from core.law.rulesets import DateError, RulesetError, Ruleset, available, load, parse_day
from core.store.basics import first_law_day, last_law_day   # light: not the library (issue 53)
from ui.text import literal, md, message

# The realistic example the dashboard opens on (ISSUE: renovation, $1,000,000, local $500,000).
EXAMPLE = {"project_type": "renovation", "eligible_cost": 100_000_000, "local_contribution": 50_000_000}
APP_FIELDS = tuple(f.name for f in FIELDS if f.group != "considerations")
K = "app:"
# Query parameters of a page, not of the application: presentation mode (ui/present.py) and the
# Compare page's scenarios and baseline (ui/comparison.py).
PAGE_PARAMS = ("present", "scenario", "baseline", "enter")   # enter: ui/present.py, the bar's Next and Previous
LIST_PARAMS = ("scenario",)  # given once per value: ?scenario=A&scenario=B
READ = frozenset(APP_FIELDS + READING_IDS + ("ruleset", "as_of"))   # what of a link sets the application


def _defaults(example: bool) -> dict:
    """Field defaults; required fields (and, for a bare URL, everything) from the example."""
    values = {name: FIELD[name].default for name in APP_FIELDS}
    values.update({k: v for k, v in EXAMPLE.items() if example or FIELD[k].required})
    return values


def url_value(name: str, value) -> str:
    if FIELD[name].kind == "money":
        whole, part = divmod(value, 100)
        return str(whole) if part == 0 else f"{whole}.{part:02d}"
    if FIELD[name].kind == "bool":
        return "true" if value else "false"
    return str(value)


def _repeated() -> dict[str, list[str]]:
    """The link's parameters given more than once (`?eligible_cost=1&eligible_cost=2`): Streamlit
    keeps the last silently, so a link could say two things and show one."""
    out = {}
    for name in st.query_params:
        if name in PAGE_PARAMS or name not in READ:
            continue
        given = st.query_params.get_all(name)
        if len(given) > 1:
            out[name] = given
    return out


def _from_url(params: dict, repeated: dict | None = None) -> tuple[dict, list[str], list[str]]:
    """Values a link carries, a sentence for each value that cannot be used, and one for each
    reading that cannot (a reading falls back to its default alone: it is not a value)."""
    values, problems, reading_problems = {}, [], []
    for name, given in (repeated or {}).items():
        what = f"“{FIELD[name].label}” ({name})" if name in FIELD else f"“{name}”"
        problems.append(md(f"{what} is given {len(given)} times (") + md(", ").join(literal(v, 40) for v in given[:3])
                        + md(f"{', …' if len(given) > 3 else ''}); give it once"))
    for name in APP_FIELDS:
        if name not in params:
            continue
        try:
            values[name] = parse_field(name, params[name])
        except ValidationError as err:   # the value is the link's, so it is shown literally (ui/text.py)
            what = err.problem if str(params[name]).strip() else err.problem.replace("is missing", "is empty")
            problems.append(message(f"“{FIELD[name].label}” ({name}={{}}) {what}", params[name], limit=40)
                            if str(params[name]).strip() else md(f"“{FIELD[name].label}” ({name}) {what}"))
    if any(n in params for n in APP_FIELDS):   # part of an application is never completed from the example
        problems += [md(f"“{FIELD[n].label}” ({n}) is not given") for n in APP_FIELDS
                     if FIELD[n].required and n not in params]
    for rid in READING_IDS:  # readings travel under their own ids: ?f_reference=prior_grant
        if rid in params:
            try:
                READING[rid].alternative(params[rid])
                values["reading:" + rid] = params[rid]
            except ReadingError as err:   # a reading, not a value: the default reading, said, with the link's values
                reading_problems.append(md("The link's reading was not understood (") + literal(str(err))
                                        + md(f"); using the default reading ({READING[rid].default}) "
                                             "with the link's values."))
    if "ruleset" in params:
        if params["ruleset"] in ruleset_ids():
            values["ruleset"] = params["ruleset"]
        else:
            problems.append(message("the ruleset {} is unknown", params["ruleset"], limit=60)
                            + md(f" (known: {', '.join(ruleset_ids())})"))
    if "as_of" in params:   # the day whose law applies: one the link's ruleset has values for, and the field can show
        why = _day_refused(params["as_of"], values.get("ruleset", "regulation"))
        if why is None:
            day = parse_day(params["as_of"], "as_of")
            values["as_of"] = None if day == date.today() else day
        else:   # the day alone is refused, said: the link's other values stand, under the law as of today
            day_problem = (message("“Law as of” (as_of={}) ", params["as_of"], limit=40) + md(why)
                           + md(". The link's other values are used, under the law as of today."))
            (problems if problems else reading_problems).append(day_problem)
    return values, problems, reading_problems


# The days the "Law as of" field (dashboard.py) can show: from the statute's first dated value to
# 25 years on. A day outside them, from a link or a scenario, is refused and said; the field
# itself would raise on it (Streamlit refuses a value beyond its bounds) and break every page.
# One statement of the bounds, shared with imports (core.store.fileformat checks a file's day against them).
EARLIEST = first_law_day()
latest = last_law_day


def _day_refused(raw, rid: str) -> str | None:
    """Why `raw` cannot be the day whose law applies under the ruleset `rid` (our words, plain text,
    starting "is ..." or "cannot be used: ..."), or None: not a day, a day the ruleset has no
    values for, or one the field cannot show."""
    try:
        day = parse_day(raw, "as_of")
        ruleset_by_id(rid, day)
    except RulesetError as err:   # not a day ("is not a day; write it ..."), or one before the law's first value
        why = str(err).removeprefix(f"as_of: {raw!r} ")
        why = why.split(": ", 1)[1] if why.startswith("as of ") else why
        return why if why.startswith("is ") else "cannot be used: " + why   # our words: the day parsed
    if not EARLIEST <= day <= latest():
        return f"cannot be used: the field shows days from {EARLIEST.isoformat()} to {latest().isoformat()}"
    return None


def _bad_link_message(problems: list[str]) -> str:
    """One message for a link with bad values (Markdown; the link's text literal): what is wrong,
    and that the example is shown whole."""
    return (md("This link cannot be shown as it is: ") + md("; ").join(problems)
            + md(". None of its values are used, so that no award mixes the link with made-up numbers: "
                 f"showing the example instead ({EXAMPLE_WORDS}). Correct the link, or set the inputs."))


def _app_params() -> dict:
    """The URL's query parameters that describe the application (not the page's own, such as present)."""
    return {k: v for k, v in st.query_params.to_dict().items() if k not in PAGE_PARAMS}


EXAMPLE_WORDS = "renovation, $1,000,000 of eligible work, $500,000 local contribution"


def _ignored_message(unknown: list[str], known: bool, fresh: bool) -> str:
    """What a link's parameters the dashboard does not read came to: ignored, said, and what is
    shown instead (a link of only such parameters opened with $0 local contribution, saying nothing)."""
    names = md(", ").join(literal(n, 40) for n in unknown[:3]) + md(f" and {len(unknown) - 3} more"
                                                                   if len(unknown) > 3 else "")
    said = md(f"This link's {'parameters' if len(unknown) > 1 else 'parameter'} ") + names + md(
        f" {'are' if len(unknown) > 1 else 'is'} not among those the dashboard reads, so "
        f"{'they were' if len(unknown) > 1 else 'it was'} ignored")
    if known:
        return said + md("; the rest of the link is shown.")
    return said + md(f": showing the example ({EXAMPLE_WORDS})." if fresh else ": the inputs are as they were.")


def init() -> None:
    """Call at the top of every run: seed from the URL or the example, once per change."""
    params = _app_params()
    known = {k: v for k, v in params.items() if k in READ}
    unknown = [k for k in params if k not in READ]
    fresh = K + "eligible_cost" not in st.session_state
    if fresh:
        for name, value in _defaults(example=not known).items():
            st.session_state[K + name] = value
        st.session_state[K + "ruleset"] = "regulation"
        st.session_state[K + "as_of"] = None
        for rid in READING_IDS:
            st.session_state[K + "reading:" + rid] = READING[rid].default
    history = bool(params) and _history_step(params)
    st.session_state[HISTORY] = history   # for Undo's place in its steps (ui/undo.py)
    if history:   # Back or Forward: the address is the inputs it held, whoever wrote it
        st.session_state["_urls_written"] = [u for u in st.session_state.get("_urls_written", []) if u != params]
        st.session_state.pop("_url_written", None)
    if params and not _written_here(params):
        ignored = [_ignored_message(unknown, bool(known), fresh)] if unknown else []
        st.session_state["url_problems"] = ignored
        if not known:   # nothing the dashboard reads: the example (or the inputs as they were), said
            st.session_state.setdefault("_urls_written", []).append(params)
            return
        values, problems, reading_problems = _from_url(params, _repeated())
        st.session_state["url_problems"] = reading_problems + ignored
        if problems:   # never a mix of the link's values and the example's: the example, whole
            values = dict(_defaults(example=True), ruleset="regulation", as_of=None,
                          **{"reading:" + rid: READING[rid].default for rid in READING_IDS})
            st.session_state["url_problems"] = [_bad_link_message(problems)] + ignored
        elif not fresh:  # a new link in a running session (or Back): what it omits takes its default,
            for name, value in _defaults(example=False).items():   # the ruleset too, and the day is today's
                st.session_state[K + name] = value
            st.session_state[K + "ruleset"] = "regulation"
            st.session_state[K + "as_of"] = None
            for rid in READING_IDS:
                st.session_state[K + "reading:" + rid] = READING[rid].default
        for name, value in values.items():
            st.session_state[K + name] = value
        st.session_state.setdefault("_urls_written", []).append(params)   # handled (said once): not new again


HISTORY = "state:history_step"


def took_history_step() -> bool:
    """Was this run the browser's Back or Forward (asked once: the answer is taken)?"""
    return bool(st.session_state.pop(HISTORY, False))


def _history_step(params: dict) -> bool:
    """Is this run the browser's Back or Forward (Streamlit pushes a history step each time the
    inputs change the address, and reruns on a step with the address it comes back to)? Then the
    address is read as a link, though this session wrote it: a step back brings the inputs back."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
    ctx = get_script_run_ctx()
    return bool(ctx is not None and getattr(ctx, "is_history_navigation", False)
                and params != st.session_state.get("_url_written"))


def _written_here(params: dict) -> bool:
    """Is this query string one this session put in the URL itself (or has handled already)?

    Each rerun carries the URL the browser showed when it asked for the rerun. Keys pressed
    quickly ask before the browser has taken the URL of the previous run, so a rerun can
    carry any recent URL of ours: taken for a new link, it reset the inputs to an older
    value (the slider snapped back and key presses were lost on link-opened scenarios)."""
    return params == st.session_state.get("_url_written") or params in st.session_state.get("_urls_written", [])


def get(name: str):
    return st.session_state[K + name]


def put(name: str, value) -> None:
    st.session_state[K + name] = value


def put_from_widget(name: str, key: str) -> None:
    """A widget's on_change: its value into the state. A widget whose value is gone (Streamlit
    empties the session's state on any client's clear_cache message, and a callback of the page
    drawn before it may still come in) changes nothing, where reading it raised KeyError."""
    value = st.session_state.get(key)
    if value is not None:
        put(name, value)


def values() -> dict:
    return {name: st.session_state[K + name] for name in APP_FIELDS}


def application() -> Application:
    return Application(**values())


@lru_cache(maxsize=64)
def _evaluated(app: Application, rs: Ruleset, rd: Readings) -> Award:
    return evaluate(app, rs, rd)


def award(rs: Ruleset | None = None) -> Award:
    """The session's award, evaluated once for each application, law and readings: a slider's
    callback checks what the browser drew against it, then the page's run shows it. An Award is
    never changed once made, so sessions that ask the same share one."""
    return _evaluated(application(), rs or ruleset(), readings())


def ruleset_ids() -> list[str]:
    """Every ruleset a user can pick: the shipped ones, then variants made in this session."""
    return available() + list(st.session_state.get("variants", {}))


def law_day() -> date | None:
    """The day whose law applies, as the "Law as of" field holds it (None: today, whenever that is)."""
    return st.session_state.get(K + "as_of")


def ruleset_by_id(rid: str, day: date | None = None) -> Ruleset:
    """The ruleset `rid` as of `day` (None: today). A dated ruleset (the statute) is always read as
    of a day; an undated one only when a day is picked (its values are the same every day it has them)."""
    variants = st.session_state.get("variants", {})
    rs = variants[rid] if rid in variants else load(rid)
    if day is None and rs.is_dated and rs.first_day is not None and rs.first_day > date.today():
        day = rs.first_day   # no values yet today (a variant dated from a later day): its law from its first day
    return rs.as_of(day) if rs.is_dated or day is not None else rs


def ruleset() -> Ruleset:
    """The law of the session: the ruleset picked, as of the day picked. A day on which it has no
    values (the statute's 1990, then the regulation picked) gives way to today, said."""
    rid = st.session_state.get(K + "ruleset", "regulation")
    day = law_day()
    if day is not None and not EARLIEST <= day <= latest():   # a scenario's day the field cannot show
        st.session_state[K + "as_of"] = None
        st.session_state.setdefault("url_problems", []).append(
            md(f"“Law as of” {day.isoformat()} cannot be used: the field shows days from {EARLIEST.isoformat()} "
               f"to {latest().isoformat()}. The law as of today is shown."))
        return ruleset()
    try:
        return ruleset_by_id(rid, day)
    except DateError as err:
        if day is None:   # no values today either: never a page that cannot be drawn
            st.session_state.setdefault("url_problems", []).append(md(f"{err}. The regulation is shown."))
            return load()
        st.session_state[K + "as_of"] = None
        st.session_state.setdefault("url_problems", []).append(md(f"“Law as of” {str(err).removeprefix('as of ')}. The law as of today is shown."))
        return ruleset()
    except RulesetError:   # gone (a kept variant deleted, here or in another session): the regulation, said once
        st.session_state[K + "ruleset"] = "regulation"
        st.session_state.setdefault("url_problems", []).append(
            message("The ruleset {} is no longer available (a variant deleted since?): the regulation in force is "
                    "shown.", rid, limit=60))
        return load()


def readings() -> Readings:
    """The readings of the regulation chosen for this session (Rules page, links)."""
    try:
        return Readings(**{rid: st.session_state.get(K + "reading:" + rid, READING[rid].default)
                           for rid in READING_IDS})
    except ReadingError:
        return DEFAULT_READINGS


def put_readings(rd: Readings) -> None:
    for rid, alt in rd.as_dict().items():
        st.session_state[K + "reading:" + rid] = alt


def _in_url(f, v: dict) -> bool:
    """From the field table: the required fields and the amounts that default to $0 always (a
    link says them), an optional amount or a switch when given, the exception's inputs only
    when the exception is asked for."""
    if (f.group == "exception" and not v["bpw_exception_requested"]) or v[f.name] is None:
        return False   # an optional fact not given is not written: the link leaves it to the law's presumption
    return (f.required or f.group == "exception" or (f.kind == "money" and f.default is not None)
            or v[f.name] != f.default)


MOVING = "inputs:moving"


def moving(on: bool) -> None:
    """Whether the inputs are a slider's value while its drag is still under way (the browser
    says so): the page draws them, but neither the address nor Undo takes them as a step, so
    that a drag is one step of history (its release), not one per value sent on the way."""
    if on:
        st.session_state[MOVING] = True
    else:
        st.session_state.pop(MOVING, None)


def is_moving() -> bool:
    return bool(st.session_state.get(MOVING))


def write_url() -> None:
    """Put the current inputs in the URL, so a copied link reproduces the scenario (not while a
    drag is under way: its release writes it, one step of the browser's history)."""
    if is_moving():
        return
    v = values()
    params = {name: url_value(name, v[name]) for name in APP_FIELDS if _in_url(FIELD[name], v)}
    if get("ruleset") != "regulation":
        params["ruleset"] = get("ruleset")
    if law_day() is not None:
        params["as_of"] = law_day().isoformat()
    params.update(readings().changed())   # only readings other than the default
    if params != _app_params():
        kept = {k: st.query_params.get_all(k) if k in LIST_PARAMS else st.query_params.get(k)
                for k in st.query_params if k in PAGE_PARAMS}
        st.query_params.from_dict(params | kept)
    st.session_state["_url_written"] = params
    recent = st.session_state.setdefault("_urls_written", [])
    if params not in recent:
        recent.append(params)
        del recent[:-100]   # any URL still on its way back from the browser is among these


def load_application(app: Application, ruleset_id: str | None = None, rd: Readings | None = None,
                     day: str | date | None = None) -> None:
    """Put a saved application into the calculator (and so into its URL), with the readings
    it was saved under and the day whose law it was made under (None or "": today's)."""
    for name in APP_FIELDS:
        st.session_state[K + name] = getattr(app, name)
    put_readings(rd or DEFAULT_READINGS)
    if ruleset_id:
        st.session_state[K + "ruleset"] = ruleset_id
    why = _day_refused(day, get("ruleset")) if day else None
    if why:   # a day the field cannot show (a scenario imported from elsewhere): today's law, said on the Calculator
        st.session_state[LOADED_PROBLEMS] = [message("The scenario's “Law as of” day {} ", str(day), limit=40)
                                             + md(why + ". It is shown under the law as of today.")]
        day = None
    day = parse_day(day) if day else None
    st.session_state[K + "as_of"] = None if day == date.today() else day


LOADED_PROBLEMS = "loaded_problems"   # said by the Calculator after a scenario is opened in it
