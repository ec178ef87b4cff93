"""Command line: `python -m core --help`. Shares the one model with the dashboard."""
from __future__ import annotations

import argparse
import json
import os
import sys

from core.files import WriteError, check_outputs, write_atomic
from core.inputs import MAX_CSV_BYTES, MAX_JSON_BYTES, InputError, parse_json, read_source
from core.money import ValidationError
from core.readings import READINGS, ReadingError, parse as parse_readings
from core.rulesets import RulesetError, available, load

MAX_APPLICATIONS = 100_000   # `evaluate` prints each result in full; `batch` is for more


class CliError(Exception):
    """A one-line error for the user; exit status 2."""


def _read_json(source: str):
    """A JSON file or stdin, read up to the size cap and parsed with hostile input in mind.
    Numbers with a fraction are read exactly (Decimal), so 0.005 is rejected as a fraction
    of a cent just as "0.005" is, instead of being rounded on the way in as a float."""
    return parse_json(read_source(source, MAX_JSON_BYTES), source, exact=True)


def _outputs(args, **outputs) -> None:
    """Check every output path before any work: not an input, not twice, not replaced unasked."""
    inputs = [getattr(args, name) for name in ("file", "input") if getattr(args, name, None)]
    for src in inputs:
        if src != "-" and not os.path.exists(src):
            raise CliError(f"{src}: no such file")
    check_outputs(outputs, inputs, getattr(args, "force", False))


def cmd_evaluate(args) -> int:
    from core.analysis import changes
    from core.application import Application
    from core.award import evaluate

    rs = load(args.ruleset)
    readings = parse_readings(args.reading)
    data = _read_json(args.file)
    many = isinstance(data, list)
    if many and len(data) > MAX_APPLICATIONS:
        raise CliError(f"{args.file}: {len(data):,} applications; at most {MAX_APPLICATIONS:,} at once "
                       "(use `batch` with a CSV file for more)")
    results = []
    for i, item in enumerate(data if many else [data]):
        try:
            app = Application.from_dict(item)
            out = evaluate(app, rs, readings).to_dict()
            out["changes"] = list(changes(app, rs, readings))   # "what would change it", in words
            results.append(out)
        except ValidationError as exc:
            raise CliError(f"application {i + 1}: {exc}" if many else str(exc)) from None
    json.dump(results if many else results[0], sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def cmd_batch(args) -> int:
    import io

    from core.batch import BatchError, evaluate_table, read_csv
    from core.export import csv_bytes

    rs = load(args.ruleset)   # options first, then the files
    readings = parse_readings(args.reading)
    _outputs(args, **{"-o": args.output})
    data = read_source(args.input, MAX_CSV_BYTES)
    try:
        table = read_csv(io.BytesIO(data))
    except (UnicodeDecodeError, ValueError) as exc:
        raise CliError(f"{args.input}: cannot read as CSV ({str(exc).splitlines()[0]})") from None
    try:
        out = evaluate_table(table, rs, readings)
    except BatchError as exc:
        raise CliError(f"{args.input}: {exc}") from None
    # Safe for spreadsheets unless --raw: a cell such as '=2+2' from the input is written "'=2+2".
    write_atomic(args.output, csv_bytes(out, raw=args.raw))
    bad = int((out["error"] != "").sum())
    print(f"{len(out) - bad} rows evaluated, {bad} with errors -> {args.output}", file=sys.stderr)
    return 1 if bad else 0


def cmd_sweep(args) -> int:
    from core.analysis import SWEEP_FIELDS, sweep
    from core.application import Application
    from core.money import to_cents

    rs = load(args.ruleset)
    readings = parse_readings(args.reading)
    if args.field not in SWEEP_FIELDS:
        raise CliError(f"FIELD: {args.field!r} cannot be swept; use one of {', '.join(SWEEP_FIELDS)}")
    lo, hi = to_cents(args.lo, "--from"), to_cents(args.hi, "--to")
    if lo >= hi:
        raise CliError(f"--from {args.lo} must be below --to {args.hi}")
    data = _read_json(args.file)
    app = Application.from_dict(data)
    out = sweep(app, args.field, lo, hi, rs, readings=readings).to_dict()
    out["readings"] = readings.as_dict()
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _admins() -> list[str]:
    """Administrators as the dashboard reads them: [library] administrators in .streamlit/secrets.toml."""
    import tomllib
    from core.scenarios import ROOT

    path = ROOT / ".streamlit" / "secrets.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CliError(f"{path}: cannot read ({exc})") from None
    from core.access import AccessConfigError, from_section
    try:
        return list(from_section(data.get("library")).administrators)
    except AccessConfigError as exc:   # read as the dashboard reads it, refused the same way
        raise CliError(f"{path}: {exc}") from None


def _history_table(events) -> str:
    rows = [("WHEN", "WHO", "WHAT", "SCENARIO", "DETAIL")]
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
        rows.append((ev.at, ev.actor, ev.action, ev.scenario, detail))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r[:4], widths)) + "  " + r[4] for r in rows)


def cmd_scenarios(args) -> int:
    from core.money import fmt
    from core.scenarios import ScenarioError, ScenarioStore, parse_export

    try:
        store = ScenarioStore(admins=_admins())
    except ScenarioError as exc:
        raise CliError(str(exc)) from None
    except Exception as exc:  # a bad URL or an unreachable server: say which, in one line
        raise CliError(f"SCENARIO_DB_URL: cannot open the scenario library ({type(exc).__name__}: "
                       f"{str(exc).splitlines()[0]})") from None
    if args.action == "list":
        for sc in store.list():
            award = sc.award()
            print(f"{_one_line(sc.name)}\t{fmt(award.amount, True)}\t{';'.join(award.binding)}\t{sc.ruleset_id}\t{sc.updated_at}"
                  f"\t{sc.owner}\t{sc.changed_by}")
        return 0
    if args.action == "history":
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
            json.dump([ev.to_dict() for ev in events], sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            print(_history_table(events))
        return 0
    if args.action in ("rename", "duplicate", "delete", "restore"):
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
        return 0
    if args.action == "export":
        _outputs(args, **{"-o": args.output})
        data = store.export()
        text = json.dumps(data, indent=2)
        if args.output == "-":
            sys.stdout.write(text + "\n")
        else:
            write_atomic(args.output, text.encode("utf-8"))  # never leave a half-written backup
        print(f"exported {len(data['scenarios'])} scenarios", file=sys.stderr)
        return 0
    good, errors = parse_export(_read_json(args.file))
    if errors:
        raise CliError(f"{args.file}: nothing imported; {len(errors)} problem(s): " + " | ".join(errors[:5])
                       + (" | ..." if len(errors) > 5 else ""))
    try:
        n = store.import_scenarios(good, overwrite=args.overwrite, actor=args.actor)
    except ScenarioError as exc:
        raise CliError(f"{args.file}: nothing imported; {exc} (use --overwrite to replace)") from None
    from core.verify import relabelled
    for sc in good:
        note = relabelled(sc.ruleset_data)
        if note:
            print(f"note: {sc.name}: {note}", file=sys.stderr)
    print(f"imported {n} scenarios", file=sys.stderr)
    return 0


def _retention_date(value: str):
    from core.scenarios import check_retention_date
    try:
        return check_retention_date(value)
    except ValueError as exc:
        raise CliError(f"--before: {exc}") from None


def _redact(store, args) -> int:
    """`scenarios history --before DATE --redact [--yes]`: the people's addresses in the events
    before DATE replaced by pseudonyms (core.scenarios.ScenarioStore.redact_history)."""
    from core.scenarios import NotAllowed
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
        json.dump(done.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    if not done.events:
        print(f"nothing to redact before {done.before}: no event before it names anyone", file=sys.stderr)
    elif not done.applied:
        print(f"would redact {done.events} history events before {done.before} ({done.people} people); "
              f"nothing changed: add --yes to do it", file=sys.stderr)
    else:
        print(f"redacted {done.events} history events before {done.before} ({done.people} people, each now "
              f"a pseudonym); recorded as history event {done.event_id}", file=sys.stderr)
    return 0


def _one_line(text: str) -> str:
    """A name saved before names were checked: its TAB, CR or LF shown as a symbol, so one
    scenario stays one line of `list` and one column stays one column."""
    return text.translate({9: "\u2409", 10: "\u2424", 13: "\u240d"})


def cmd_allocate(args) -> int:
    from core.export import csv_bytes
    from core.money import fmt, to_cents
    from core.portfolio import PortfolioError, parse_weights, read_table, run
    from core.batch import BatchError

    rs = load(args.ruleset)   # options first, then the files
    readings = parse_readings(args.reading)
    budget = to_cents(args.budget, "--budget")
    _outputs(args, **{"-o": args.output})
    try:
        weights = parse_weights(args.weights)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        table = read_table(read_source(args.input, MAX_CSV_BYTES), args.input)
        result = run(table, budget, args.mode, weights, rs, readings)
    except (PortfolioError, BatchError) as exc:
        raise CliError(str(exc)) from None
    write_atomic(args.output, csv_bytes(result.table))
    bad = int((~result.good).sum())
    print(f"{int(result.good.sum())} applications ranked, {bad} with errors; allocated "
          f"{fmt(int(result.allocated.sum()), True)} of {fmt(budget, True)} -> {args.output}", file=sys.stderr)
    return 1 if bad else 0


def cmd_report(args) -> int:
    from core.report import Item, Report, ReportError, pdf, render
    from core.scenarios import parse_export

    from core.award import evaluate

    readings = parse_readings(args.reading)   # options first, then the files
    _outputs(args, **{"-o": args.output, "--pdf": args.pdf})
    good, errors = parse_export(_read_json(args.file))
    if errors:
        raise CliError(f"{args.file}: {len(errors)} problem(s): " + " | ".join(errors[:5]))
    if not good:
        raise CliError(f"{args.file}: no scenarios in the file")
    from core.names import check_text
    title = check_text(args.title, "--title", 120, what="text", required=False)   # as the app's fields
    prepared_by = check_text(args.prepared_by, "--prepared-by", 120, what="text", required=False)
    # --reading overrides the readings each scenario was saved under; without it each keeps its own
    report = Report([Item(sc.name, evaluate(sc.application, sc.saved_ruleset(), readings if args.reading else
                                            sc.readings), sc.notes) for sc in good],
                    prepared_by=prepared_by,
                    **({"title": title} if title else {}))
    document = render(report).encode("utf-8")
    packet = None
    if args.pdf:  # made before anything is written: a failed PDF leaves no half of the pair behind
        try:
            packet = pdf(report)
        except ReportError as exc:
            raise CliError(f"--pdf: {exc}") from None
    write_atomic(args.output, document)
    print(f"report of {len(good)} scenario(s) -> {args.output}", file=sys.stderr)
    if packet is not None:
        write_atomic(args.pdf, packet)
        print(f"PDF packet -> {args.pdf}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m core",
        description="State capital grants for senior citizen activity centers: the award, the cap that "
                    "binds, and why. Money is read as dollars (cents allowed) and written with two decimals.")
    sub = parser.add_subparsers(dest="command", required=True)
    rs_help = f"ruleset id (default: regulation; available: {', '.join(available())})"
    reading_help = ("read an ambiguous passage another way (repeatable): " + "; ".join(
        f"{r.id}={'|'.join(a.id for a in r.alternatives)} (default {r.default})" for r in READINGS)
        + ". See docs/rules.md, 'Readings'.")

    def readings_option(p):
        p.add_argument("--reading", action="append", default=[], metavar="ID=ALT", help=reading_help)

    p = sub.add_parser("evaluate", help="evaluate a JSON application or an array of them",
                       description="Read a JSON application (or an array) from FILE or '-' (stdin); "
                                   "print the result(s) as JSON: award, binding, route, caps, checks, steps.")
    p.add_argument("file", metavar="FILE|-")
    p.add_argument("--ruleset", default="regulation", help=rs_help)
    readings_option(p)
    p.set_defaults(run=cmd_evaluate)

    p = sub.add_parser("batch", help="evaluate every row of a CSV file",
                       description="Columns named as the RULES.md fields; the Board exception flattened to "
                                   "bpw_exception_requested, local_property_value, state_funds_in_property, "
                                   "state_bonded_debt. Output: the input columns plus award, binding, route, "
                                   "local_shortfall, funding_gap, error. Exit status 1 if any row was bad.")
    p.add_argument("input", metavar="IN.csv")
    p.add_argument("-o", "--output", required=True, metavar="OUT.csv")
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.add_argument("--raw", action="store_true",
                   help="write cells exactly as they are, for programs (by default a cell a spreadsheet would "
                        "run as a formula, such as =SUM(A1), is written with a leading apostrophe)")
    p.add_argument("--ruleset", default="regulation", help=rs_help)
    readings_option(p)
    p.set_defaults(run=cmd_batch)

    p = sub.add_parser("sweep", help="exact breakpoints of the award along one input",
                       description="Vary FIELD from --from to --to (dollars) with the rest of the application "
                                   "fixed; print every point where the award's slope or binding cap changes, "
                                   "exact to the cent, and points for drawing.")
    p.add_argument("field", metavar="FIELD")
    p.add_argument("--from", dest="lo", required=True, metavar="A")
    p.add_argument("--to", dest="hi", required=True, metavar="B")
    p.add_argument("file", metavar="FILE|-")
    p.add_argument("--ruleset", default="regulation", help=rs_help)
    readings_option(p)
    p.set_defaults(run=cmd_sweep)

    from core.scenarios import default_actor
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
    e = acts.add_parser("export", help="write the whole library to a versioned JSON file")
    e.add_argument("-o", "--output", required=True, metavar="FILE.json")
    e.add_argument("--force", action="store_true", help="replace the output file if it exists")
    i = acts.add_parser("import", help="import a JSON export or an array of applications with a 'name'; "
                                       "all or nothing")
    i.add_argument("file", metavar="FILE.json|-")
    i.add_argument("--overwrite", action="store_true", help="replace scenarios of the same name")
    p.set_defaults(run=cmd_scenarios)

    p = sub.add_parser("allocate", help="rank a portfolio by the Department's considerations and allocate a budget",
                       description="Columns: the batch columns plus name, locality, senior_density, "
                                   "distance_to_center_miles, previously_funded. Adds award, binding, "
                                   "priority_score, rank, allocated (and error). Exit status 1 if any row was bad.")
    p.add_argument("input", metavar="IN.csv")
    p.add_argument("--budget", required=True, metavar="B", help="the appropriation, in dollars")
    p.add_argument("--mode", choices=["priority", "whole", "pro-rata"], default="priority")
    p.add_argument("--weights", default="", metavar="density=1,proximity=1,new_locality=1")
    p.add_argument("-o", "--output", required=True, metavar="OUT.csv")
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.add_argument("--ruleset", default="regulation", help=rs_help)
    readings_option(p)
    p.set_defaults(run=cmd_allocate)

    p = sub.add_parser("report", help="a board report (HTML, and a PDF packet with --pdf) of saved scenarios",
                       description="Takes a scenario library export or a plain JSON array of applications that "
                                   "each carry a 'name'. The HTML is one file that works offline.")
    p.add_argument("file", metavar="SCENARIOS.json|-")
    p.add_argument("-o", "--output", required=True, metavar="report.html")
    p.add_argument("--pdf", metavar="report.pdf", help="also print a PDF packet (needs Chrome or Chromium)")
    p.add_argument("--prepared-by", default="", metavar="TEXT")
    p.add_argument("--title", default="", metavar="TEXT")
    readings_option(p)
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.set_defaults(run=cmd_report)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (CliError, RulesetError, ReadingError, ValidationError, InputError, WriteError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader (for example `head`) closed early: not an error of ours
        sys.stderr.close()
        return 0
