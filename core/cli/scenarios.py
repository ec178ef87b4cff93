"""`python -m core scenarios ...`: the scenario library from the command line: list, history,
rename, duplicate, delete, restore, export (back up) and import. Changes are made as --as EMAIL
and recorded in the history; only a scenario's owner or an administrator may change it."""
from __future__ import annotations

import argparse
import json
import sys

from core.cli.common import CliError, check_paths, force_option, print_json, read_json
from core.cli.files import write_atomic
from core.law.money import ValidationError, fmt
from core.store.fileformat import parse_export
from core.store.variants import parse_variants
from core.law.names import hidden_character, visible
from core.store.history import MAX_EVENT_ID, check_retention_date
from core.store.model import NotAllowed, ScenarioError, default_actor
from core.store.repository import ScenarioStore
from core.store.verify import relabelled


MAX_ACTOR = 320   # the owner and changed_by columns' width (core/store/model.py)


def add_parser(sub) -> None:
    p = sub.add_parser("scenarios", help="list, export (back up), import, change or see the history of the "
                                         "scenario library",
                       description="The scenario library at SCENARIO_DB_URL (any SQLAlchemy URL; default: a "
                                   "SQLite file under data/). Changes are made as --as EMAIL (default: the "
                                   "operating-system user) and recorded in the history; only a scenario's "
                                   "owner or an administrator ([library] administrators in "
                                   ".streamlit/secrets.toml) may rename, delete, overwrite or restore it.")
    p.add_argument("--as", dest="actor", default=default_actor(), metavar="EMAIL",
                   help="who makes the changes (default: the operating-system user)")
    as_too = argparse.ArgumentParser(add_help=False)   # --as also after the action
    as_too.add_argument("--as", dest="actor", default=argparse.SUPPRESS, metavar="EMAIL",
                        help="who makes the changes (default: the operating-system user)")
    acts = p.add_subparsers(dest="action", required=True)
    _add = acts.add_parser
    acts.add_parser = lambda *a, **k: _add(*a, parents=[as_too], **k)
    _add_reading_actions(acts)
    _add_changing_actions(acts)
    p.set_defaults(run=run)


def _add_reading_actions(acts) -> None:
    acts.add_parser("list", help="one line per scenario: name, award, binding caps, ruleset, updated, owner, "
                                 "last changed by")
    h = acts.add_parser("history", help="every change (or one scenario's, through its renames and deletion): "
                                        "when, who, what; --json adds the scenario before and after")
    h.add_argument("name", nargs="?", metavar="NAME")
    h.add_argument("--json", action="store_true",
                   help="a JSON array of events, each with at, actor, action, scenario, before, after")
    h.add_argument("--before", metavar="DATE", default=None,
                   help="only the events dated before DATE (YYYY-MM-DD, UTC; today at the latest)")
    h.add_argument("--redact", action="store_true",
                   help="retention: replace the people's addresses (who acted; owner and last changed by in the "
                        "scenario before and after) in the events before DATE by pseudonyms, keeping every "
                        "figure, name, action and time; recorded as a 'redact' event. An administrator's "
                        "action (--as); says what it would do unless --yes")
    h.add_argument("--yes", action="store_true", help="with --redact: do it")
    e = acts.add_parser("export", help="write the whole library to a versioned JSON file")
    e.add_argument("-o", "--output", required=True, metavar="FILE.json")
    force_option(e)


def _add_changing_actions(acts) -> None:
    r = acts.add_parser("rename", help="rename a scenario (owner or administrator)")
    r.add_argument("name", metavar="NAME")
    r.add_argument("new", metavar="NEW")
    d = acts.add_parser("duplicate", help="copy a scenario as your own")
    d.add_argument("name", metavar="NAME")
    d.add_argument("new", metavar="NEW")
    x = acts.add_parser("delete", help="delete a scenario (owner or administrator); its history stays")
    x.add_argument("name", metavar="NAME")
    rs_ = acts.add_parser("restore", help="make a scenario as it was after history event ID (before it, for a "
                                          "delete): an earlier version, or a deleted scenario")
    rs_.add_argument("event", type=int, metavar="EVENT_ID")
    rs_.add_argument("--before", action="store_true", help="as it was before the event instead of after it")
    rs_.add_argument("--name", default=None, help="for a deleted scenario whose name is taken: restore under this name")
    i = acts.add_parser("import", help="import a JSON export or an array of applications with a 'name'; "
                                       "all or nothing")
    i.add_argument("file", metavar="FILE.json|-")
    i.add_argument("--overwrite", action="store_true", help="replace scenarios of the same name")


def admins() -> list[str]:
    """Administrators as the dashboard reads them: [library] administrators in .streamlit/secrets.toml."""
    import tomllib
    from core.store.db import ROOT

    path = ROOT / ".streamlit" / "secrets.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CliError(f"{path}: cannot read ({exc})") from None
    from core.store.access import AccessConfigError, from_section
    try:
        return list(from_section(data.get("library")).administrators)
    except AccessConfigError as exc:   # read as the dashboard reads it, refused the same way
        raise CliError(f"{path}: {exc}") from None


def _history_table(events) -> str:
    rows = [("EVENT", "WHEN", "WHO", "WHAT", "SCENARIO", "DETAIL")]   # EVENT: what `restore` takes
    for ev in events:
        before, after = ev.before or {}, ev.after or {}
        if ev.action == "rename":
            detail = f"from {before.get('name')!r}"
        elif ev.action == "duplicate":
            detail = f"copy of {before.get('name')!r}"
        elif ev.action == "delete":
            detail = f"owner {before.get('owner')}"
        elif ev.action == "redact":
            detail = f"{after.get('events')} events of {after.get('people')} people before {after.get('redacted_before')}"
        else:
            detail = f"owner {after.get('owner')}"
        rows.append((str(ev.id), ev.at, ev.actor, ev.action, ev.scenario, detail))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r[:5], widths)) + "  " + r[5] for r in rows)


def _one_line(text: str) -> str:
    """A name saved before names were checked: its TAB, CR or LF shown as a symbol, so one
    scenario stays one line of `list` and one column stays one column."""
    return text.translate({9: "\u2409", 10: "\u2424", 13: "\u240d"})


def _open() -> ScenarioStore:
    try:
        return ScenarioStore(admins=admins())
    except ScenarioError as exc:
        raise CliError(str(exc)) from None
    except Exception as exc:  # a bad URL or an unreachable server: say which, in one line
        raise CliError(f"SCENARIO_DB_URL: cannot open the scenario library ({type(exc).__name__}: "
                       f"{str(exc).splitlines()[0]})") from None


def _list(store, args) -> None:
    for sc in store.list():
        award = sc.award()
        print(f"{_one_line(sc.name)}\t{fmt(award.amount, True)}\t{';'.join(award.binding)}\t{sc.ruleset_id}"
              f"\t{sc.updated_at}\t{sc.owner}\t{sc.changed_by}")


def _retention_date(value: str):
    try:
        return check_retention_date(value)
    except ValueError as exc:
        raise CliError(f"--before: {exc}") from None


def _redact(store, args) -> None:
    """`scenarios history --before DATE --redact [--yes]`: the people's addresses in the events
    before DATE replaced by pseudonyms (ScenarioStore.redact_history)."""
    if not args.redact:
        raise CliError("--yes goes with --redact (scenarios history --before DATE --redact --yes)")
    if args.before is None:
        raise CliError("--redact needs --before DATE: the events dated before it are redacted")
    if args.name is not None:
        raise CliError("NAME: --redact applies to the whole history before DATE; leave out NAME")
    before = _retention_date(args.before)
    try:
        done = store.redact_history(before, actor=args.actor, apply=args.yes)
    except NotAllowed as exc:
        raise CliError(f"--as: {exc}") from None
    if args.json:
        print_json(done.to_dict())
    if not done.events:
        print(f"nothing to redact before {done.before}: no event before it names anyone", file=sys.stderr)
    elif not done.applied:
        print(f"would redact {done.events} history events before {done.before} ({done.people} people); "
              f"nothing changed: add --yes to do it", file=sys.stderr)
    else:
        print(f"redacted {done.events} history events before {done.before} ({done.people} people, each now "
              f"a pseudonym); recorded as history event {done.event_id}", file=sys.stderr)


def _history(store, args) -> None:
    if args.redact or args.yes:
        return _redact(store, args)
    before = _retention_date(args.before) if args.before is not None else None
    try:
        events = store.history(args.name)
    except ScenarioError as exc:
        raise CliError(f"NAME: {exc}") from None
    if before is not None:
        events = [ev for ev in events if ev.at < before.isoformat()]
    if args.json:
        print_json([ev.to_dict() for ev in events])
    else:
        print(_history_table(events))


def _change(store, args) -> None:
    try:
        if args.action == "rename":
            store.rename(args.name, args.new, actor=args.actor)
            print(f"renamed {args.name!r} as {args.new!r}", file=sys.stderr)
        elif args.action == "duplicate":
            store.duplicate(args.name, args.new, actor=args.actor)
            print(f"duplicated {args.name!r} as {args.new!r}", file=sys.stderr)
        elif args.action == "delete":
            store.delete(args.name, actor=args.actor)
            print(f"deleted {args.name!r} (restore it with: scenarios restore EVENT_ID; "
                  f"see scenarios history {args.name!r})", file=sys.stderr)
        else:
            sc = store.restore_version(args.event, actor=args.actor, name=args.name, before=args.before)
            print(f"restored {sc.name!r} from history event {args.event}"
                  + (" (as it was before it)" if args.before else ""), file=sys.stderr)
    except (ScenarioError, ValidationError) as exc:
        raise CliError(str(exc)) from None


def _export(store, args) -> None:
    check_paths(args, **{"-o": args.output})
    data = store.export()
    text = json.dumps(data, indent=2)
    write_atomic(args.output, (text + ("\n" if args.output == "-" else "")).encode("utf-8"))  # whole or not at all
    print(f"exported {len(data['scenarios'])} scenarios", file=sys.stderr)


def _import(store, args) -> None:
    data = read_json(args.file)
    good, errors = parse_export(data)
    kept, bad = parse_variants(data.get("variants")) if isinstance(data, dict) and not errors else ([], [])
    errors += bad
    if errors:
        raise CliError(f"{args.file}: nothing imported; {len(errors)} problem(s): " + " | ".join(errors[:5])
                       + (" | ..." if len(errors) > 5 else ""))
    try:
        n = store.import_scenarios(good, overwrite=args.overwrite, actor=args.actor, variants=kept)
    except ScenarioError as exc:
        raise CliError(f"{args.file}: nothing imported; {exc} (use --overwrite to replace)") from None
    for sc in good:
        note = relabelled(sc.ruleset_data)
        if note:
            print(f"note: {sc.name}: {note}", file=sys.stderr)
    print(f"imported {n} scenarios" + (f" and {len(kept)} variants" if kept else ""), file=sys.stderr)


ACTIONS = {"list": _list, "history": _history, "rename": _change, "duplicate": _change, "delete": _change,
           "restore": _change, "export": _export, "import": _import}


def _actor(value: str) -> str:
    """--as, checked as a name is (core.law.names): who every change is recorded as, in the history
    and as the owner, so never empty and never with a character that hides or reorders text."""
    text = value.strip()
    if not text:
        raise CliError("--as: is empty; give who makes the changes, such as --as ann@agency.gov")
    if len(text) > MAX_ACTOR:
        raise CliError(f"--as: is {len(text):,} characters long; at most {MAX_ACTOR} are allowed")
    problem = hidden_character(text)
    if problem:
        raise CliError(f"--as: {visible(text)!r} {problem}; type the address or name without it")
    return text


def _event(number: int) -> int:
    if not 1 <= number <= MAX_EVENT_ID:
        raise CliError(f"EVENT_ID: {str(number)[:30]} is not the number of a history event; "
                       f"`scenarios history` lists them in its EVENT column")
    return number


def run(args) -> int:
    args.actor = _actor(args.actor)
    if args.action == "restore":
        _event(args.event)
    ACTIONS[args.action](_open(), args)
    return 0
