"""`python -m core solve`: what value of one input reaches an award (the inverse of evaluate), as JSON."""
from __future__ import annotations

from core.cli.common import CliError, law_of, print_json, read_json, readings_of, readings_option, ruleset_option


def add_parser(sub) -> None:
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
    p.set_defaults(run=run)


def run(args) -> int:
    from core.law.analysis import SWEEP_FIELDS, not_read
    from core.law.application import Application
    from core.law.money import MAX_CENTS, fmt, to_cents
    from core.law.solve import solve

    rs = law_of(args)
    readings = readings_of(args, rs)
    if args.field not in SWEEP_FIELDS:
        raise CliError(f"FIELD: {args.field!r} is not an amount of the application; use one of {', '.join(SWEEP_FIELDS)}")
    target = to_cents(args.target, "--target")
    lo = 0 if args.lo is None else to_cents(args.lo, "--from")
    hi = MAX_CENTS if args.hi is None else to_cents(args.hi, "--to")
    if lo >= hi:
        raise CliError(f"--from {fmt(lo)} must be below --to {fmt(hi)}")
    if why := not_read(args.field, rs):
        raise CliError(why)
    app = Application.from_dict(read_json(args.file))
    try:
        out = solve(app, args.field, target, lo, hi, rs, readings).to_dict()
    except ValueError as exc:   # one plain line, never a traceback
        raise CliError(str(exc)) from None
    out["readings"] = readings.as_dict()
    print_json(out)
    return 0
