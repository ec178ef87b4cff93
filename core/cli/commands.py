"""The commands on applications and portfolios: evaluate, batch, sweep, allocate and report.
Each is a parser (`add_*`, the command's options and help) and a function of its arguments."""
from __future__ import annotations

import json
import sys

from core.cli.common import CliError, check_paths, force_option, law_of, read_json, readings_option, ruleset_option
from core.cli.files import shown, write_atomic
from core.law.inputs import MAX_CSV_BYTES, read_source
from core.law.money import ValidationError
from core.law.readings import parse as parse_readings

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
    from core.law.changes import changes
    from core.law.application import Application
    from core.law.award import evaluate

    rs = law_of(args)
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
    p = sub.add_parser("batch", help="evaluate every row of a CSV file or an Excel workbook",
                       description="Columns named as the fields of docs/rules.md (a CSV file, or the first sheet "
                                   "of an Excel workbook, or --sheet NAME); the Board exception flattened to "
                                   "bpw_exception_requested, local_property_value, state_funds_in_property, "
                                   "state_bonded_debt. Output: the input columns plus award, binding, route, "
                                   "standard_award (without the Board's exception), local_shortfall, "
                                   "funding_gap, error. Blank rows are skipped; each bad row is named on standard error by its "
                                   "row in the file. Exit status 1 if any row was bad.")
    p.add_argument("input", metavar="IN.csv|IN.xlsx")
    p.add_argument("-o", "--output", required=True, metavar="OUT.csv|OUT.xlsx",
                   help="a CSV file, or an Excel workbook if the name ends in .xlsx")
    sheet_option(p)
    force_option(p)
    p.add_argument("--raw", action="store_true",
                   help="write cells exactly as they are, for programs (by default a cell a spreadsheet would "
                        "run as a formula, such as =SUM(A1), is written with a leading apostrophe)")
    ruleset_option(p)
    readings_option(p)
    p.set_defaults(run=cmd_batch)


def cmd_batch(args) -> int:
    from core.law.batch import BatchError, evaluate_table
    from core.law.tables import TableError, read
    from core.report.export import csv_bytes
    from core.report.spreadsheets import batch_xlsx

    rs = law_of(args)   # options first, then the files
    readings = parse_readings(args.reading)
    workbook = is_workbook(args.output)
    if workbook and args.raw:
        raise CliError("--raw is for a CSV output; a workbook (.xlsx) is always made safe for spreadsheets")
    check_paths(args, **{"-o": args.output})
    try:
        table = read(read_source(args.input, MAX_CSV_BYTES), args.input, args.sheet)
        out = evaluate_table(table.frame, rs, readings)
    except TableError as exc:
        raise CliError(str(exc)) from None
    except BatchError as exc:
        raise CliError(f"{args.input}: {exc}") from None
    # Safe for spreadsheets unless --raw: a cell such as '=2+2' from the input is written "'=2+2".
    write_atomic(args.output, batch_xlsx(out) if workbook else csv_bytes(out, raw=args.raw))
    bad = int((out["error"] != "").sum())
    good = len(out) - bad
    print_problems(table.rows, out["error"].to_numpy(), args.output)
    print(f"{good} {'row' if good == 1 else 'rows'} evaluated, {bad} with errors -> {shown(args.output)}", file=sys.stderr)
    return 1 if bad else 0


LISTED = 50   # bad rows named on standard error; every one is in the output's error column


def print_problems(rows, errors, output: str) -> None:
    """'row 7: eligible_cost: ...' on standard error for each bad row, by its number in the file."""
    bad = [i for i, e in enumerate(errors) if e]
    for i in bad[:LISTED]:
        print(f"row {int(rows[i])}: {errors[i]}", file=sys.stderr)
    if len(bad) > LISTED:
        print(f"... and {len(bad) - LISTED:,} more rows with errors: see the error column of {output}", file=sys.stderr)


def is_workbook(path: str) -> bool:
    return str(path).lower().endswith(".xlsx")


def sheet_option(p) -> None:
    p.add_argument("--sheet", metavar="NAME", help="the sheet of an Excel workbook to read (default: its first)")


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
    from core.law.analysis import SWEEP_FIELDS, not_read, sweep
    from core.law.application import Application
    from core.law.money import to_cents

    rs = law_of(args)
    readings = parse_readings(args.reading)
    if args.field not in SWEEP_FIELDS:
        raise CliError(f"FIELD: {args.field!r} cannot be swept; use one of {', '.join(SWEEP_FIELDS)}")
    lo, hi = to_cents(args.lo, "--from"), to_cents(args.hi, "--to")
    if lo >= hi:
        raise CliError(f"--from {args.lo} must be below --to {args.hi}")
    if why := not_read(args.field, rs):
        raise CliError(why)
    data = read_json(args.file)
    app = Application.from_dict(data)
    try:
        out = sweep(app, args.field, lo, hi, rs, readings=readings).to_dict()
    except ValueError as exc:   # one plain line, never a traceback
        raise CliError(str(exc)) from None
    out["readings"] = readings.as_dict()
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def add_solve(sub) -> None:
    p = sub.add_parser("solve", help="what value of one input reaches an award (the inverse of evaluate)",
                       description="Move FIELD alone, from --from to --to (dollars; default $0 to the largest "
                                   "amount accepted), and print JSON: intervals (every range of FIELD where the "
                                   "award is at least --target, in dollars with cents), nearest (the value in them "
                                   "closest to the application's own, or null), max_award (the most reachable by "
                                   "moving FIELD alone, with the limits that then hold) and a sentence. An answer "
                                   "on the Board's exception route also gives the standard route's "
                                   "(without_board_approval).")
    p.add_argument("field", metavar="FIELD")
    p.add_argument("--target", required=True, metavar="AMOUNT", help="the award to reach, in dollars")
    p.add_argument("--from", dest="lo", default=None, metavar="LO")
    p.add_argument("--to", dest="hi", default=None, metavar="HI")
    p.add_argument("file", metavar="FILE|-")
    ruleset_option(p)
    readings_option(p)
    p.set_defaults(run=cmd_solve)


def cmd_solve(args) -> int:
    from core.law.analysis import SWEEP_FIELDS, not_read
    from core.law.application import Application
    from core.law.money import MAX_CENTS, to_cents
    from core.law.solve import solve

    rs = law_of(args)
    readings = parse_readings(args.reading)
    if args.field not in SWEEP_FIELDS:
        raise CliError(f"FIELD: {args.field!r} is not an amount of the application; use one of {', '.join(SWEEP_FIELDS)}")
    target = to_cents(args.target, "--target")
    lo = 0 if args.lo is None else to_cents(args.lo, "--from")
    hi = MAX_CENTS if args.hi is None else to_cents(args.hi, "--to")
    if lo >= hi:
        raise CliError(f"--from {fmt_cents(lo)} must be below --to {fmt_cents(hi)}")
    if why := not_read(args.field, rs):
        raise CliError(why)
    app = Application.from_dict(read_json(args.file))
    try:
        out = solve(app, args.field, target, lo, hi, rs, readings).to_dict()
    except ValueError as exc:   # one plain line, never a traceback
        raise CliError(str(exc)) from None
    out["readings"] = readings.as_dict()
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def fmt_cents(cents: int) -> str:
    from core.law.money import fmt
    return fmt(cents)


def add_allocate(sub) -> None:
    p = sub.add_parser("allocate", help="rank a portfolio by the Department's considerations and allocate a budget",
                       description="Columns (a CSV file, or the first sheet of an Excel workbook, or --sheet "
                                   "NAME): the batch columns plus name, locality, senior_density, "
                                   "distance_to_center_miles, previously_funded (`python -m core template` writes "
                                   "them). The results, in rank order: row (in the file), rank, the input columns, "
                                   "award, binding, route, standard_award (without the Board's exception), "
                                   "priority_score, allocated (and error), each code with its words beside it. "
                                   "Exit status 1 if any row was bad.")
    p.add_argument("input", metavar="IN.csv|IN.xlsx")
    p.add_argument("--budget", required=True, metavar="B", help="the appropriation, in dollars")
    p.add_argument("--mode", choices=["priority", "whole", "pro-rata"], default="priority")
    p.add_argument("--weights", default="", metavar="density=1,proximity=1,new_locality=1",
                   help="the Department's weights of the considerations (the regulation sets none); each 0 or more, 1 "
                        "where not given")
    p.add_argument("--directions", default="", metavar="density=higher,proximity=farther",
                   help="which way each consideration counts (the regulation does not say): density=higher or lower, "
                        "proximity=farther or nearer (the defaults first)")
    p.add_argument("--exceptions", choices=["assumed", "excluded"], default="assumed",
                   help="assumed (default): a row on the Board of Public Works' exception route counts the award "
                        "that route gives; excluded: allocate as if no exception were granted (every row's "
                        "standard_award)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.csv|OUT.xlsx",
                   help="the results in rank order: an Excel workbook if the name ends in .xlsx (a sheet for "
                        "people, one for programs), else CSV")
    sheet_option(p)
    p.add_argument("--pdf", metavar="OUT.pdf", help="also print the Portfolio packet for a board: the ranking, the "
                                                   "allocation against the budget, the findings, the weights "
                                                   "(needs Chrome or Chromium)")
    p.add_argument("--html", metavar="OUT.html", help="also write the Portfolio packet as one HTML file that works "
                                                     "offline")
    p.add_argument("--prepared-by", default="", metavar="TEXT", help="the packet's 'Prepared by' line")
    p.add_argument("--title", default="", metavar="TEXT", help="the packet's title (default: Portfolio allocation)")
    force_option(p)
    ruleset_option(p)
    readings_option(p)
    p.set_defaults(run=cmd_allocate)


def cmd_allocate(args) -> int:
    from core.law.money import to_cents
    from core.law.portfolio import (MODES, PortfolioError, formula_words, insight, parse_directions, parse_weights,
                                    read_portfolio, run)
    from core.law.batch import BatchError
    from core.report.spreadsheets import results_csv, results_xlsx, settings

    rs = law_of(args)   # options first, then the files
    readings = parse_readings(args.reading)
    budget = to_cents(args.budget, "--budget")
    check_paths(args, **{"-o": args.output, "--pdf": args.pdf, "--html": args.html})
    try:
        weights, directions = parse_weights(args.weights), parse_directions(args.directions)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    from core.law.names import check_text
    title = check_text(args.title, "--title", 120, what="text", required=False)   # as `report` checks them
    prepared_by = check_text(args.prepared_by, "--prepared-by", 120, what="text", required=False)
    try:
        table = read_portfolio(read_source(args.input, MAX_CSV_BYTES), args.input, args.sheet)
        result = run(table.frame, budget, args.mode, weights, rs, readings, exceptions=args.exceptions,
                     rows=table.rows, directions=directions)
    except PortfolioError as exc:
        raise CliError(str(exc)) from None
    except BatchError as exc:   # a column missing: in which file (and sheet)
        raise CliError(f"{args.input}{f', sheet {args.sheet!r}' if args.sheet else ''}: {exc}") from None
    packet, document = _portfolio_packet(args, result, rs, weights, title, prepared_by)
    if is_workbook(args.output):
        about = settings(result, rs, MODES[args.mode], formula_words(weights, directions), args.input)
        write_atomic(args.output, results_xlsx(result, about, insight(result, rs)))
    else:
        write_atomic(args.output, results_csv(result))
    packets = [(path, data, what) for path, data, what in ((args.html, document, "Portfolio packet (HTML)"),
                                                            (args.pdf, packet, "Portfolio packet (PDF)")) if path]
    for path, data, _ in packets:
        write_atomic(path, data)
    print_problems(result.rows, result.table["error"].to_numpy(), args.output)
    for line in _allocation_words(result, args, budget) + [f"{what} -> {shown(path)}" for path, _, what in packets]:
        print(line, file=sys.stderr)
    return 1 if (~result.good).any() else 0


def _allocation_words(result, args, budget: int) -> list[str]:
    """What allocate says on standard error: the rows ranked, the Board's discretion, the rows short of the match."""
    from core.law.money import fmt
    lines = [f"{int(result.good.sum())} applications ranked, {int((~result.good).sum())} with errors; allocated "
             f"{fmt(int(result.allocated.sum()), True)} of {fmt(budget, True)} -> {shown(args.output)}"]
    on = int(result.on_exception.sum())
    if on:
        counted = "counted" if args.exceptions == "assumed" else "not counted (--exceptions excluded)"
        lines.append(f"{on} on the Board's exception route, {counted}: "
                     f"{fmt(int((result.best - result.standard)[result.on_exception].sum()), True)} depends on the "
                     f"Board's discretion")
    unmet = result.unmet
    if unmet.any():
        lines.append(f"{int(unmet.sum())} not yet meeting the local match "
                     f"({fmt(int(result.shortfall[unmet].sum()), True)} short in all), allocated "
                     f"{fmt(int(result.allocated[unmet].sum()), True)}: payable only once the match is met "
                     "(column unmet_requirements)")
    return lines


def _portfolio_packet(args, result, rs, weights, title: str, prepared_by: str) -> tuple[bytes | None, bytes | None]:
    """The packet's PDF (--pdf) and HTML (--html), made before any file is written: a PDF that
    fails leaves no file behind."""
    if not (args.pdf or args.html):
        return None, None
    import os

    from core.report.html import ReportError
    from core.report.pdf import pdf
    from core.report.portfolio import portfolio_report, render
    source = "standard input" if args.input == "-" else os.path.basename(args.input)
    made = portfolio_report(result, rs, weights, args.mode, source, title=title, prepared_by=prepared_by)
    packet = None
    if args.pdf:
        try:
            packet = pdf(made)
        except ReportError as exc:
            raise CliError(f"--pdf: {exc}") from None
    return packet, render(made).encode("utf-8") if args.html else None


def _reach_option(text: str) -> tuple[str, int]:
    """--reach FIELD=AMOUNT, checked: a money field and an amount in dollars."""
    from core.law.analysis import SWEEP_FIELDS
    from core.law.money import to_cents
    field, eq, amount = text.partition("=")
    if not eq or field not in SWEEP_FIELDS:
        raise CliError(f"--reach: {text!r} is not FIELD=AMOUNT with FIELD one of {', '.join(SWEEP_FIELDS)}")
    return field, to_cents(amount, f"--reach {field}")


def add_template(sub) -> None:
    p = sub.add_parser("template", help="write a portfolio template (CSV or Excel) to start from",
                       description="The columns allocate and batch read, with one illustrative row; as a "
                                   "workbook (FILE.xlsx) also a Notes sheet that explains each column.")
    p.add_argument("-o", "--output", required=True, metavar="FILE.xlsx|FILE.csv")
    force_option(p)
    p.set_defaults(run=cmd_template)


def cmd_template(args) -> int:
    from core.report.spreadsheets import template_csv, template_xlsx

    check_paths(args, **{"-o": args.output})
    write_atomic(args.output, template_xlsx() if is_workbook(args.output) else template_csv())
    print(f"portfolio template ({'Excel workbook' if is_workbook(args.output) else 'CSV'}, one illustrative row) "
          f"-> {shown(args.output)}", file=sys.stderr)
    return 0


def add_report(sub) -> None:
    p = sub.add_parser("report", help="a board report (HTML, and a PDF packet with --pdf) of saved scenarios",
                       description="Takes a scenario library export or a plain JSON array of applications that "
                                   "each carry a 'name'. The HTML is one file that works offline.")
    p.add_argument("file", metavar="SCENARIOS.json|-")
    p.add_argument("-o", "--output", required=True, metavar="report.html")
    p.add_argument("--pdf", metavar="report.pdf", help="also print a PDF packet (needs Chrome or Chromium)")
    p.add_argument("--pptx", metavar="deck.pptx",
                   help="also write the slides: a 16:9 PowerPoint deck with native charts and speaker notes")
    p.add_argument("--prepared-by", default="", metavar="TEXT")
    p.add_argument("--title", default="", metavar="TEXT")
    p.add_argument("--baseline", default=None, metavar="NAME",
                   help="the scenario the others are compared with (default: the first in the file); the "
                        "report keeps the file's order")
    p.add_argument("--reach", action="append", default=[], metavar="FIELD=AMOUNT",
                   help="also say, for each scenario, what value of FIELD (a money field) reaches an award of "
                        "AMOUNT dollars: the sentence of `solve` (repeatable)")
    readings_option(p)
    force_option(p)
    p.set_defaults(run=cmd_report)


def cmd_report(args) -> int:
    from core.report.html import Item, Report, ReportError, render
    from core.report.pdf import pdf
    from core.store.fileformat import parse_export

    from core.law.award import evaluate

    readings = parse_readings(args.reading)   # options first, then the files
    check_paths(args, **{"-o": args.output, "--pdf": args.pdf, "--pptx": args.pptx})
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
    questions = [_reach_option(text) for text in args.reach]
    if args.baseline is not None and args.baseline not in names:
        raise CliError(f"--baseline: no scenario named {args.baseline!r} in {args.file}")
    from core.law.solve import solve

    def item(sc) -> Item:
        a = evaluate(sc.application, sc.saved_ruleset(), readings if args.reading else sc.readings)
        reach = tuple(solve(sc.application, f, t, rs=a.ruleset, readings=a.readings).sentence for f, t in questions)
        return Item(sc.name, a, sc.notes, reach)

    report = Report([item(sc) for sc in good],
                    prepared_by=prepared_by, baseline=names.index(args.baseline) if args.baseline is not None else 0,
                    **({"title": title} if title else {}))
    document = render(report).encode("utf-8")
    packet = None
    if args.pdf:  # made before anything is written: a failed PDF leaves no half of the pair behind
        try:
            packet = pdf(report)
        except ReportError as exc:
            raise CliError(f"--pdf: {exc}") from None
    slides = None
    if args.pptx:   # of the very report written: its items, its numbers
        from core.report.deck import deck
        slides = deck(report)
    write_atomic(args.output, document)
    print(f"report of {len(good)} scenario(s) -> {shown(args.output)}", file=sys.stderr)
    if packet is not None:
        write_atomic(args.pdf, packet)
        print(f"PDF packet -> {shown(args.pdf)}", file=sys.stderr)
    if slides is not None:
        write_atomic(args.pptx, slides)
        print(f"slides (PowerPoint) -> {shown(args.pptx)}", file=sys.stderr)
    return 0
