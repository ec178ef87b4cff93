"""The library's file format: a versioned JSON export, read back scenario by scenario with
every problem named (a bad scenario never hides the good ones)."""
from __future__ import annotations

from core.law.application import Application
from core.law.money import ValidationError
from core.law.readings import ReadingError, from_dict as readings_from_dict
from core.law.rulesets import RulesetError, from_data, load
from core.store.model import LOCAL, Scenario, check_name, check_notes, now
from core.store.verify import verified

EXPORT_FORMAT = "senior-center-grant-scenarios"
EXPORT_VERSION = 1
MAX_IMPORT_SCENARIOS = 10_000


def export_document(scenarios: list[Scenario]) -> dict:
    """The export file's content for these scenarios."""
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported_at": now(),
            "scenarios": [s.to_dict() for s in scenarios]}


def scenario_from_dict(item, where: str = "scenario") -> Scenario:
    """Validate one exported scenario (or a plain application carrying a `name`)."""
    if not isinstance(item, dict):
        raise ValidationError(where, item, "must be a JSON object")
    name = check_name(item.get("name"), f"{where}.name")
    notes = check_notes(item.get("notes"), f"{where}.notes")
    if "application" in item:
        try:
            app = Application.from_dict(item["application"])
        except ValidationError as err:
            raise ValidationError(f"{where}.application.{err.field}", err.value, err.problem) from None
        rs_info = item.get("ruleset") or {}
        if not isinstance(rs_info, dict):
            raise ValidationError(f"{where}.ruleset", rs_info, "must be an object with id, version and data")
    else:  # a plain application with a name (and perhaps notes and a ruleset id)
        try:
            app = Application.from_dict({k: v for k, v in item.items() if k not in ("name", "notes", "ruleset")})
        except ValidationError as err:
            raise ValidationError(f"{where}.{err.field}", err.value, err.problem) from None
        rs_info = {"id": item["ruleset"]} if isinstance(item.get("ruleset"), str) else {}
    try:
        rs = from_data(rs_info["data"]) if rs_info.get("data") else load(rs_info.get("id", "regulation"))
    except RulesetError as err:
        raise ValidationError(f"{where}.ruleset", rs_info.get("id"), f"cannot be used ({err})") from None
    rs, _ = verified(rs)   # a ruleset claiming a shipped id or kind must equal it, else a labelled variant
    try:
        rd = readings_from_dict(item.get("readings"))
    except ReadingError as err:
        raise ValidationError(f"{where}.readings", item.get("readings"), f"cannot be used ({err})") from None
    return Scenario(name, app, rs.id, rs.version, rs.to_data(), notes,
                    str(item.get("created_at") or ""), str(item.get("updated_at") or ""), rd)


def parse_export(data) -> tuple[list[Scenario], list[str]]:
    """Every valid scenario of an export file (or plain array), and an error per bad one."""
    if isinstance(data, dict):
        if data.get("format") != EXPORT_FORMAT:
            return [], [f"format: {data.get('format')!r} is not a scenario library export "
                        f"(expected {EXPORT_FORMAT!r})"]
        if data.get("version") != EXPORT_VERSION:
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
    good, errors, seen = [], [], set()
    for i, item in enumerate(items):
        where = f"scenarios[{i}]"
        try:
            sc = scenario_from_dict(item, where)
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
