"""`python -m core template`: a portfolio template (CSV or Excel) to start from."""
from __future__ import annotations

import sys

from core.cli.common import check_paths, force_option, is_workbook
from core.cli.files import shown, write_atomic


def add_parser(sub) -> None:
    p = sub.add_parser("template", help="write a portfolio template (CSV or Excel) to start from",
                       description="The columns allocate and batch read, with one illustrative row; as a "
                                   "workbook (FILE.xlsx) also a Notes sheet that explains each column.")
    p.add_argument("-o", "--output", required=True, metavar="FILE.xlsx|FILE.csv")
    force_option(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from core.report.spreadsheets import template_csv, template_xlsx

    check_paths(args, **{"-o": args.output})
    write_atomic(args.output, template_xlsx() if is_workbook(args.output) else template_csv())
    print(f"portfolio template ({'Excel workbook' if is_workbook(args.output) else 'CSV'}, one illustrative row) "
          f"-> {shown(args.output)}", file=sys.stderr)
    return 0
