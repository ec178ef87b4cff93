"""The library's file format: a versioned JSON export, read back scenario by scenario with
every problem named (a bad scenario never hides the good ones)."""
from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

from core.law.application import Application
from core.law.money import ValidationError
from core.law.readings import ReadingError, from_dict as readings_from_dict
from core.law.rulesets import RulesetError, from_data, load, parse_day
from core.store.basics import YEARS_AHEAD, first_law_day, last_law_day  # noqa: F401 - re-exported: one statement of the bounds
from core.store.model import LOCAL, Scenario, check_name, check_notes, now
from core.store.verify import verified

EXPORT_FORMAT = "senior-center-grant-scenarios"
EXPORT_VERSION = 1
MAX_IMPORT_SCENARIOS = 10_000
MAX_STAMP = 32          # characters of a saved date (the columns are String(32))
FUTURE_SLACK_HOURS = 24  # an imported date may be at most a day ahead of this server's clock


def export_document(scenarios: list[Scenario], variants: list[dict] | None = None) -> dict:
    """The export file's content for these scenarios (and the library's kept variants, when given:
    core/store/variants.py; a file without them reads as before)."""
    return ({"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported_at": now(),
             "scenarios": [s.to_dict() for s in scenarios]} | ({"variants": variants} if variants else {}))


def check_stamp(value, field: str, now_: datetime | None = None) -> str:
    """A saved date from a file: ISO 8601 with a time zone (or none, read as UTC), at most a
    day in the future, written back in UTC (so that dates sort as text). '' when not given.
    A date of 9999 would otherwise sort an imported scenario first in every listing."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        raise ValidationError(field, value, "must be a date and time written as text, such as "
                                            "2026-11-30T13:07:08+00:00")
    if len(value) > MAX_STAMP:
        raise ValidationError(field, value, f"is {len(value):,} characters long; a date and time has at most "
                                            f"{MAX_STAMP}, such as 2026-11-30T13:07:08+00:00")
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValidationError(field, value, "is not a date and time; write it as 2026-11-30T13:07:08+00:00") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    when = when.astimezone(timezone.utc)
    latest = (now_ or datetime.now(timezone.utc)) + timedelta(hours=FUTURE_SLACK_HOURS)
    if when > latest:
        raise ValidationError(field, value, f"is in the future (after {latest:%Y-%m-%d %H:%M} UTC); a saved "
                                            f"scenario cannot have been saved then")
    return when.isoformat(timespec="microseconds" if when.microsecond else "seconds")


def _ruleset_info(value, where: str) -> dict:
    """What an exported scenario says of its ruleset, every part of it checked for its type (a
    ruleset given as a number, or an id as an object, was read as the regulation, silently)."""
    field = f"{where}.ruleset"
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValidationError(field, value, "must be an object with id, version and data")
    rs_id, version, data = value.get("id"), value.get("version"), value.get("data")
    if rs_id is not None and not isinstance(rs_id, str):
        raise ValidationError(f"{field}.id", rs_id, "must be a ruleset id written as text, such as \"statute\"")
    if version is not None and not isinstance(version, str):
        raise ValidationError(f"{field}.version", version, "must be a ruleset's version written as text")
    if data is not None and not isinstance(data, dict):
        raise ValidationError(f"{field}.data", data, "must be an object: the ruleset itself, as exported")
    return value


def _application_part(item: dict, where: str) -> tuple[Application, dict]:
    """The application of one exported scenario and what it says of its ruleset."""
    if "application" in item:
        try:
            app = Application.from_dict(item["application"])
        except ValidationError as err:
            raise ValidationError(f"{where}.application.{err.field}", err.value, err.problem) from None
        return app, _ruleset_info(item.get("ruleset"), where)
    try:   # a plain application with a name (and perhaps notes and a ruleset id)
        app = Application.from_dict({k: v for k, v in item.items()
                                     if k not in ("name", "notes", "ruleset", "as_of", "readings")})
    except ValidationError as err:
        raise ValidationError(f"{where}.{err.field}", err.value, err.problem) from None
    rs_id = item.get("ruleset")
    if rs_id is not None and not isinstance(rs_id, str):   # here a ruleset is named by its id alone
        raise ValidationError(f"{where}.ruleset", rs_id, "must be a ruleset id written as text, such as "
                                                         "\"statute\" (a plain application names its ruleset by id)")
    return app, ({"id": rs_id} if rs_id is not None else {})


def _ruleset_part(rs_info: dict, where: str, memo: dict):
    """(ruleset, its data) for what a scenario says of its ruleset; kept in `memo` by content."""
    rid = "regulation" if rs_info.get("id") is None else rs_info["id"]
    try:
        key = ("ruleset", json.dumps(rs_info.get("data"), sort_keys=True, default=str) if rs_info.get("data")
               else rid)
    except (TypeError, ValueError):   # not JSON-like: from_data says what is wrong
        key = None
    if key is not None and key in memo:
        return memo[key]
    try:
        rs = from_data(rs_info["data"], kept=True) if rs_info.get("data") else load(rid)   # kept: as saved
    except RulesetError as err:
        raise ValidationError(f"{where}.ruleset", rs_info.get("id"), f"cannot be used ({err})") from None
    rs, _ = verified(rs)   # a ruleset claiming a shipped id or kind must equal it, else a labelled variant
    found = (rs, rs.to_data())
    if key is not None:
        memo[key] = found
    return found


def check_as_of(value, rs, field: str, today: date | None = None) -> str:
    """The day whose law a scenario was made under: YYYY-MM-DD, on which its ruleset has values.
    '' when not given (a file written before days were kept: the ruleset as saved). As `--as-of`
    and a link, a day before the ruleset's first value is refused, dated or not (the regulation
    has no values before its edition's day), and so is a day the date field cannot show."""
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        raise ValidationError(field, value, "must be a day written as text, such as 2025-01-01")
    try:
        day = parse_day(value, field)
        rs.as_of(day)   # refused before the ruleset's first value, that day named
    except RulesetError as err:
        why = str(err).removeprefix(f"{field}: {value!r} ")
        if why.startswith("as of "):   # "as of 1900-01-01: the statute has no values before ..."
            why = "cannot be used: " + why.split(": ", 1)[1]
        raise ValidationError(field, value, why) from None
    first, last = first_law_day(), last_law_day(today)
    if day < first:
        raise ValidationError(field, value, f"is before {first.isoformat()}, the first day whose law the app "
                                            f"shows; choose {first.isoformat()} or later")
    if day > last:
        raise ValidationError(field, value, f"is after {last.isoformat()}, the last day whose law the app shows; "
                                            f"choose a day up to {last.isoformat()}")
    return day.isoformat()


def _readings_part(readings_in, where: str, memo: dict):
    if readings_in is not None and not isinstance(readings_in, dict):   # 0, "", [] were the default, silently
        raise ValidationError(f"{where}.readings", readings_in, "must be an object of reading ids and their "
                                                               "alternatives, such as {\"f_reference\": \"prior_grant\"}")
    key = ("readings", json.dumps(readings_in, sort_keys=True, default=str)) if isinstance(readings_in, dict) else None
    if key is not None and key in memo:
        return memo[key]
    try:
        rd = readings_from_dict(readings_in)
    except ReadingError as err:
        raise ValidationError(f"{where}.readings", readings_in, f"cannot be used ({err})") from None
    if key is not None:
        memo[key] = rd
    return rd


def scenario_from_dict(item, where: str = "scenario", memo: dict | None = None) -> Scenario:
    """Validate one exported scenario (or a plain application carrying a `name`). `memo` keeps
    the rulesets and readings already read, for the many scenarios of one file that share them."""
    if not isinstance(item, dict):
        raise ValidationError(where, item, "must be a JSON object")
    name = check_name(item.get("name"), f"{where}.name")
    notes = check_notes(item.get("notes"), f"{where}.notes")
    app, rs_info = _application_part(item, where)
    memo = {} if memo is None else memo
    rs, rs_data = _ruleset_part(rs_info, where, memo)
    rd = _readings_part(item.get("readings"), where, memo)
    return Scenario(name, app, rs.id, rs.version, rs_data, notes,
                    check_stamp(item.get("created_at"), f"{where}.created_at"),
                    check_stamp(item.get("updated_at"), f"{where}.updated_at"), rd,
                    as_of=check_as_of(item.get("as_of"), rs, f"{where}.as_of"))


def parse_export(data) -> tuple[list[Scenario], list[str]]:
    """Every valid scenario of an export file (or plain array), and an error per bad one."""
    if isinstance(data, dict):
        if data.get("format") != EXPORT_FORMAT:
            return [], [f"format: {data.get('format')!r} is not a scenario library export "
                        f"(expected {EXPORT_FORMAT!r})"]
        if type(data.get("version")) is not int or data.get("version") != EXPORT_VERSION:   # true == 1 in Python
            return [], [f"version: {data.get('version')!r} is not supported (this app reads version {EXPORT_VERSION})"]
        items = data.get("scenarios")
        if not isinstance(items, list):
            return [], ["scenarios: must be a list"]
    elif isinstance(data, list):
        items = data
    else:
        return [], ["the file must hold a scenario export or a JSON array of applications with a name"]
    if len(items) > MAX_IMPORT_SCENARIOS:
        return [], [f"scenarios: {len(items):,} scenarios; at most {MAX_IMPORT_SCENARIOS:,} at once"]
    good, errors, seen, memo = [], [], set(), {}
    for i, item in enumerate(items):
        where = f"scenarios[{i}]"
        try:
            sc = scenario_from_dict(item, where, memo)
        except ValidationError as err:
            errors.append(str(err))
            continue
        if sc.name in seen:
            errors.append(f"{where}.name: {sc.name!r} appears twice in the file")
            continue
        seen.add(sc.name)
        good.append(sc)
    return good, errors


def scenario_from_snapshot(data: dict) -> Scenario:
    """A scenario as history recorded it (Scenario.snapshot)."""
    sc = scenario_from_dict(data, "history")
    return Scenario(**{**sc.__dict__, "created_at": data.get("created_at") or "", "owner": data.get("owner") or LOCAL,
                       "changed_by": data.get("changed_by") or LOCAL, "uid": data["uid"]})
