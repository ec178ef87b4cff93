"""What every command shares: the one-line error, reading JSON with hostile input in mind, printing it,
checking output paths before any work, the --ruleset, --reading, --force and --sheet options, and
the bad rows of a table named on standard error (batch and allocate)."""
from __future__ import annotations

import json
import os
import sys

from core.cli.files import check_outputs
from core.law.inputs import MAX_JSON_BYTES, parse_json, read_source
from core.law.readings import READINGS
from core.law.rulesets import available


class CliError(Exception):
    """A one-line error for the user; exit status 2."""


def read_json(source: str):
    """A JSON file or stdin, read up to the size cap and parsed with hostile input in mind.
    Numbers with a fraction are read exactly (Decimal), so 0.005 is rejected as a fraction
    of a cent just as "0.005" is, instead of being rounded on the way in as a float."""
    return parse_json(read_source(source, MAX_JSON_BYTES), source, exact=True)


def print_json(value) -> None:
    """A command's JSON answer on standard output, indented, ending in a newline."""
    json.dump(value, sys.stdout, indent=2)
    sys.stdout.write("\n")


def check_paths(args, **outputs) -> None:
    """Check every output path before any work: not an input, not twice, not replaced unasked."""
    inputs = [getattr(args, name) for name in ("file", "input") if getattr(args, name, None)]
    for src in inputs:
        if src != "-" and not os.path.exists(src):
            raise CliError(f"{src}: no such file")
    check_outputs(outputs, inputs, getattr(args, "force", False))


def ruleset_option(p) -> None:
    p.add_argument("--ruleset", default="regulation",
                   help=f"ruleset id (default: regulation; available: {', '.join(available())})")
    p.add_argument("--as-of", dest="as_of", default=None, metavar="YYYY-MM-DD",
                   help="the day whose law is applied (default: today); a day before the ruleset's first value is "
                        "refused, naming that day (a variant's own numbers are a what-if on any day), and so is a "
                        "day the dashboard cannot show (before 1984-07-01, or past the end of the year 25 years on)")


def law_of(args):
    """The ruleset of --ruleset as of --as-of. A dated ruleset (the statute) is always read as of a
    day, today by default; an undated one only when --as-of is given (its values are the same every
    day it has them, and its results say no day unless one was asked for)."""
    from core.law.rulesets import load, parse_day
    from core.store.basics import first_law_day, last_law_day
    rs = load(args.ruleset)
    if args.as_of is not None or rs.is_dated:
        rs = rs.as_of(args.as_of)   # a day before the ruleset's own first is refused here, naming that day
    if args.as_of is not None:   # and the days the dashboard's "Law as of" field shows, for every ruleset (a variant too)
        day = parse_day(args.as_of)
        if not first_law_day() <= day <= last_law_day():
            raise CliError(f"--as-of: {day.isoformat()} is outside the days whose law this tool shows, "
                           f"{first_law_day().isoformat()} to {last_law_day().isoformat()}")
    return rs


def readings_of(args, rs):
    """The --reading options, checked against the law: a reading that law's text has no sentence for
    (the statute has no "except as provided in §F") is refused, naming it and why."""
    from core.law.readings import not_read, parse
    readings = parse(args.reading)
    for rid, why in not_read(rs, readings).items():
        raise CliError(f"--reading {rid}: {rs.in_sentence} has no such reading. {why}")
    return readings


def readings_option(p) -> None:
    p.add_argument("--reading", action="append", default=[], metavar="ID=ALT", help=(
        "read an ambiguous passage another way (repeatable): " + "; ".join(
            f"{r.id}={'|'.join(a.id for a in r.alternatives)} (default {r.default})" for r in READINGS)
        + ". See docs/rules.md, 'Readings'."))


def force_option(p) -> None:
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")


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
