"""`python -m core batch`: every row of a CSV file or an Excel workbook evaluated at once (the
batch engine), written as CSV or a workbook; each bad row named by its row in the file."""
from __future__ import annotations

import sys

from core.cli.common import (CliError, check_paths, force_option, is_workbook, law_of, print_problems,
                             readings_of, readings_option, ruleset_option, sheet_option)
from core.cli.files import shown, write_atomic
from core.law.inputs import MAX_CSV_BYTES, read_source


def add_parser(sub) -> None:
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
    p.set_defaults(run=run)


def run(args) -> int:
    from core.law.batch import BatchError, evaluate_table
    from core.law.tables import TableError, read
    from core.report.export import csv_bytes
    from core.report.spreadsheets import batch_xlsx

    rs = law_of(args)   # options first, then the files
    readings = readings_of(args, rs)
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
