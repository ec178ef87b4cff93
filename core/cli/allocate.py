"""`python -m core allocate`: a portfolio ranked by the Department's considerations and a budget
allocated, written as CSV or a workbook, with the Portfolio packet (--pdf, --html) if asked."""
from __future__ import annotations

import sys

from core.cli.common import (CliError, check_paths, force_option, is_workbook, law_of, print_problems,
                             readings_of, readings_option, ruleset_option, sheet_option)
from core.cli.files import shown, write_atomic
from core.law.inputs import MAX_CSV_BYTES, read_source


def add_parser(sub) -> None:
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
    p.set_defaults(run=run)


def run(args) -> int:
    from core.law.money import to_cents
    from core.law.portfolio import (MODES, PortfolioError, formula_words, insight, parse_directions, parse_weights,
                                    read_portfolio, run)
    from core.law.batch import BatchError
    from core.report.spreadsheets import results_csv, results_xlsx, settings

    rs = law_of(args)   # options first, then the files
    readings = readings_of(args, rs)
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
