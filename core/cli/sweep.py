"""`python -m core sweep`: the exact breakpoints of the award along one input, as JSON."""
from __future__ import annotations

from core.cli.common import CliError, law_of, print_json, read_json, readings_of, readings_option, ruleset_option


def add_parser(sub) -> None:
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
    p.set_defaults(run=run)


def run(args) -> int:
    from core.law.analysis import SWEEP_FIELDS, not_read, sweep
    from core.law.application import Application
    from core.law.money import to_cents

    rs = law_of(args)
    readings = readings_of(args, rs)
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
    print_json(out)
    return 0
