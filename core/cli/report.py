"""`python -m core report`: a board report of saved scenarios (HTML; a PDF packet with --pdf, a
PowerPoint deck with --pptx)."""
from __future__ import annotations

import sys

from core.cli.common import CliError, check_paths, force_option, read_json, readings_option
from core.cli.files import shown, write_atomic
from core.law.readings import parse as parse_readings


def add_parser(sub) -> None:
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
    p.set_defaults(run=run)


def run(args) -> int:
    readings = parse_readings(args.reading)   # options first, then the files
    check_paths(args, **{"-o": args.output, "--pdf": args.pdf, "--pptx": args.pptx})
    good = _scenarios(args)
    report = _report(args, good, readings)
    document, packet, slides = _outputs(args, report)
    write_atomic(args.output, document)
    print(f"report of {len(good)} scenario(s) -> {shown(args.output)}", file=sys.stderr)
    if packet is not None:
        write_atomic(args.pdf, packet)
        print(f"PDF packet -> {shown(args.pdf)}", file=sys.stderr)
    if slides is not None:
        write_atomic(args.pptx, slides)
        print(f"slides (PowerPoint) -> {shown(args.pptx)}", file=sys.stderr)
    return 0


def _scenarios(args) -> list:
    """The file's scenarios, all of them valid, at least one."""
    from core.store.fileformat import parse_export

    good, errors = parse_export(read_json(args.file))
    if errors:
        raise CliError(f"{args.file}: {len(errors)} problem(s): " + " | ".join(errors[:5]))
    if not good:
        raise CliError(f"{args.file}: no scenarios in the file")
    return good


def _report(args, good: list, readings):
    """The report of the scenarios: each evaluated under its saved ruleset (and its own readings,
    unless --reading overrides them), with the --reach sentences; options checked first."""
    from core.law.award import evaluate
    from core.law.names import check_text
    from core.report.html import Item, Report

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

    return Report([item(sc) for sc in good],
                  prepared_by=prepared_by, baseline=names.index(args.baseline) if args.baseline is not None else 0,
                  **({"title": title} if title else {}))


def _outputs(args, report) -> tuple[bytes, bytes | None, bytes | None]:
    """The HTML, the PDF (--pdf) and the slides (--pptx), all made before anything is written: a
    failed PDF leaves no half of the pair behind."""
    from core.report.html import ReportError, render
    from core.report.pdf import pdf

    document = render(report).encode("utf-8")
    packet = None
    if args.pdf:
        try:
            packet = pdf(report)
        except ReportError as exc:
            raise CliError(f"--pdf: {exc}") from None
    slides = None
    if args.pptx:   # of the very report written: its items, its numbers
        from core.report.deck import deck
        slides = deck(report)
    return document, packet, slides


def _reach_option(text: str) -> tuple[str, int]:
    """--reach FIELD=AMOUNT, checked: a money field and an amount in dollars."""
    from core.law.analysis import SWEEP_FIELDS
    from core.law.money import to_cents
    field, eq, amount = text.partition("=")
    if not eq or field not in SWEEP_FIELDS:
        raise CliError(f"--reach: {text!r} is not FIELD=AMOUNT with FIELD one of {', '.join(SWEEP_FIELDS)}")
    return field, to_cents(amount, f"--reach {field}")
