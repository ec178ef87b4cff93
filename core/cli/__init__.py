"""Command line: `python -m core --help`. Shares the one model with the dashboard: each
command parses its arguments, calls core.law, core.store or core.report, and writes files
atomically; an error is one line and exit status 2.

Each command is a module of its own name here (`core/cli/batch.py` is `python -m core batch`),
holding its parser (`add_parser(sub)`: its options and help) beside what it does (`run(args)`);
`common.py` holds the options and checks several share, `files.py` the writing of outputs."""
from __future__ import annotations

import argparse
import sys

from core.cli import allocate, batch, evaluate, report, scenarios, solve, sweep, template
from core.cli.common import CliError
from core.cli.files import WriteError
from core.law.inputs import InputError
from core.law.money import ValidationError
from core.law.readings import ReadingError
from core.law.rulesets import RulesetError


COMMANDS = (evaluate, batch, sweep, solve, scenarios, allocate, template, report)   # in the order --help lists them


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m core",
        description="State capital grants for senior citizen activity centers: the award, the cap that "
                    "binds, and why. Money is read as dollars (cents allowed) and written with two decimals.")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
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
