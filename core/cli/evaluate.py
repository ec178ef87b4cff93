"""`python -m core evaluate`: a JSON application (or an array of them) evaluated, each result
printed in full as JSON, with what would change it."""
from __future__ import annotations

from core.cli.common import CliError, law_of, print_json, read_json, readings_of, readings_option, ruleset_option
from core.law.money import ValidationError

MAX_APPLICATIONS = 100_000   # `evaluate` prints each result in full; `batch` is for more


def add_parser(sub) -> None:
    p = sub.add_parser("evaluate", help="evaluate a JSON application or an array of them",
                       description="Read a JSON application (or an array) from FILE or '-' (stdin); "
                                   "print the result(s) as JSON: award, binding, route, caps, checks, steps.")
    p.add_argument("file", metavar="FILE|-")
    ruleset_option(p)
    readings_option(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from core.law.changes import changes
    from core.law.application import Application
    from core.law.award import evaluate

    rs = law_of(args)
    readings = readings_of(args, rs)
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
    print_json(results if many else results[0])
    return 0
