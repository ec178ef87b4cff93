"""The commands on applications and portfolios: evaluate, batch, sweep, allocate and report.
Each is a parser (`add_*`, the command's options and help) and a function of its arguments."""
from __future__ import annotations

import json
import sys

from core.cli.common import CliError, check_paths, force_option, read_json, readings_option, ruleset_option
from core.cli.files import write_atomic
from core.law.inputs import MAX_CSV_BYTES, read_source
from core.law.money import ValidationError
from core.law.readings import parse as parse_readings
from core.law.rulesets import load

MAX_APPLICATIONS = 100_000   # `evaluate` prints each result in full; `batch` is for more


def add_evaluate(sub) -> None:
    p = sub.add_parser("evaluate", help="evaluate a JSON application or an array of them",
                       description="Read a JSON application (or an array) from FILE or '-' (stdin); "
                                   "print the result(s) as JSON: award, binding, route, caps, checks, steps.")
    p.add_argument("file", metavar="FILE|-")
    ruleset_option(p)
    readings_option(p)
    p.set_defaults(run=cmd_evaluate)


def cmd_evaluate(args) -> int:
    from core.law.analysis import changes
    from core.law.application import Application
    from core.law.award import evaluate

    rs = load(args.ruleset)
    readings = parse_readings(args.reading)
    data = read_json(args.file)
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


def add_batch(sub) -> None:
    p = sub.add_parser("batch", help="evaluate every row of a CSV file",
                       description="Columns named as the fields of docs/rules.md; the Board exception flattened to "
                                   "bpw_exception_requested, local_property_value, state_funds_in_property, "
                                   "state_bonded_debt. Output: the input columns plus award, binding, route, "
                                   "standard_award (without the Board's exception), local_shortfall, "
                                   "funding_gap, error. Exit status 1 if any row was bad.")
    p.add_argument("input", metavar="IN.csv")
    p.add_argument("-o", "--output", required=True, metavar="OUT.csv")
    force_option(p)
    p.add_argument("--raw", action="store_true",
                   help="write cells exactly as they are, for programs (by default a cell a spreadsheet would "
                        "run as a formula, such as =SUM(A1), is written with a leading apostrophe)")
    ruleset_option(p)
    readings_option(p)
    p.set_defaults(run=cmd_batch)


def cmd_batch(args) -> int:
    import io

    from core.law.batch import BatchError, evaluate_table, read_csv
    from core.report.export import csv_bytes

    rs = load(args.ruleset)   # options first, then the files
    readings = parse_readings(args.reading)
    check_paths(args, **{"-o": args.output})
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
    good = len(out) - bad
    print(f"{good} {'row' if good == 1 else 'rows'} evaluated, {bad} with errors -> {args.output}", file=sys.stderr)
    return 1 if bad else 0


def add_sweep(sub) -> None:
    p = sub.add_parser("sweep", help="exact breakpoints of the award along one input",
                       description="Vary FIELD from --from to --to (dollars) with the rest of the application "
                                   "fixed; print every point where the award's slope or binding cap changes, "
                                   "exact to the cent, and points for drawing.")
    p.add_argument("field", metavar="FIELD")
    p.add_argument("--from", dest="lo", required=True, metavar="A")
    p.add_argument("--to", dest="hi", required=True, metavar="B")
    p.add_argument("file", metavar="FILE|-")
    ruleset_option(p)
    readings_option(p)
    p.set_defaults(run=cmd_sweep)


def cmd_sweep(args) -> int:
    from core.law.analysis import SWEEP_FIELDS, sweep
    from core.law.application import Application
    from core.law.money import to_cents

    rs = load(args.ruleset)
    readings = parse_readings(args.reading)
    if args.field not in SWEEP_FIELDS:
        raise CliError(f"FIELD: {args.field!r} cannot be swept; use one of {', '.join(SWEEP_FIELDS)}")
    lo, hi = to_cents(args.lo, "--from"), to_cents(args.hi, "--to")
    if lo >= hi:
        raise CliError(f"--from {args.lo} must be below --to {args.hi}")
    data = read_json(args.file)
    app = Application.from_dict(data)
    out = sweep(app, args.field, lo, hi, rs, readings=readings).to_dict()
    out["readings"] = readings.as_dict()
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def add_allocate(sub) -> None:
    p = sub.add_parser("allocate", help="rank a portfolio by the Department's considerations and allocate a budget",
                       description="Columns: the batch columns plus name, locality, senior_density, "
                                   "distance_to_center_miles, previously_funded. Adds award, binding, route, "
                                   "standard_award (without the Board's exception), priority_score, rank, "
                                   "allocated (and error). Exit status 1 if any row was bad.")
    p.add_argument("input", metavar="IN.csv")
    p.add_argument("--budget", required=True, metavar="B", help="the appropriation, in dollars")
    p.add_argument("--mode", choices=["priority", "whole", "pro-rata"], default="priority")
    p.add_argument("--weights", default="", metavar="density=1,proximity=1,new_locality=1")
    p.add_argument("--exceptions", choices=["assumed", "excluded"], default="assumed",
                   help="assumed (default): a row on the Board of Public Works' exception route counts the award "
                        "that route gives; excluded: allocate as if no exception were granted (every row's "
                        "standard_award)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.csv")
    force_option(p)
    ruleset_option(p)
    readings_option(p)
    p.set_defaults(run=cmd_allocate)


def cmd_allocate(args) -> int:
    from core.report.export import csv_bytes
    from core.law.money import fmt, to_cents
    from core.law.portfolio import PortfolioError, parse_weights, read_table, run
    from core.law.batch import BatchError

    rs = load(args.ruleset)   # options first, then the files
    readings = parse_readings(args.reading)
    budget = to_cents(args.budget, "--budget")
    check_paths(args, **{"-o": args.output})
    try:
        weights = parse_weights(args.weights)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        table = read_table(read_source(args.input, MAX_CSV_BYTES), args.input)
        result = run(table, budget, args.mode, weights, rs, readings, exceptions=args.exceptions)
    except (PortfolioError, BatchError) as exc:
        raise CliError(str(exc)) from None
    write_atomic(args.output, csv_bytes(result.table))
    bad = int((~result.good).sum())
    print(f"{int(result.good.sum())} applications ranked, {bad} with errors; allocated "
          f"{fmt(int(result.allocated.sum()), True)} of {fmt(budget, True)} -> {args.output}", file=sys.stderr)
    on = int(result.on_exception.sum())
    if on:
        counted = "counted" if args.exceptions == "assumed" else "not counted (--exceptions excluded)"
        print(f"{on} on the Board's exception route, {counted}: "
              f"{fmt(int((result.best - result.standard)[result.on_exception].sum()), True)} depends on the "
              f"Board's discretion", file=sys.stderr)
    return 1 if bad else 0


def add_report(sub) -> None:
    p = sub.add_parser("report", help="a board report (HTML, and a PDF packet with --pdf) of saved scenarios",
                       description="Takes a scenario library export or a plain JSON array of applications that "
                                   "each carry a 'name'. The HTML is one file that works offline.")
    p.add_argument("file", metavar="SCENARIOS.json|-")
    p.add_argument("-o", "--output", required=True, metavar="report.html")
    p.add_argument("--pdf", metavar="report.pdf", help="also print a PDF packet (needs Chrome or Chromium)")
    p.add_argument("--prepared-by", default="", metavar="TEXT")
    p.add_argument("--title", default="", metavar="TEXT")
    p.add_argument("--baseline", default=None, metavar="NAME",
                   help="the scenario the others are compared with (default: the first in the file); the "
                        "report keeps the file's order")
    readings_option(p)
    force_option(p)
    p.set_defaults(run=cmd_report)


def cmd_report(args) -> int:
    from core.report.html import Item, Report, ReportError, render
    from core.report.pdf import pdf
    from core.store.fileformat import parse_export

    from core.law.award import evaluate

    readings = parse_readings(args.reading)   # options first, then the files
    check_paths(args, **{"-o": args.output, "--pdf": args.pdf})
    good, errors = parse_export(read_json(args.file))
    if errors:
        raise CliError(f"{args.file}: {len(errors)} problem(s): " + " | ".join(errors[:5]))
    if not good:
        raise CliError(f"{args.file}: no scenarios in the file")
    from core.law.names import check_text
    title = check_text(args.title, "--title", 120, what="text", required=False)   # as the app's fields
    prepared_by = check_text(args.prepared_by, "--prepared-by", 120, what="text", required=False)
    # --reading overrides the readings each scenario was saved under; without it each keeps its own
    names = [sc.name for sc in good]
    if args.baseline is not None and args.baseline not in names:
        raise CliError(f"--baseline: no scenario named {args.baseline!r} in {args.file}")
    report = Report([Item(sc.name, evaluate(sc.application, sc.saved_ruleset(), readings if args.reading else
                                            sc.readings), sc.notes) for sc in good],
                    prepared_by=prepared_by, baseline=names.index(args.baseline) if args.baseline is not None else 0,
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
