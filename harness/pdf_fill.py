"""How full each page of the PDF packet is, and the smallest type on it (issue 28).

Makes the board packet for 2 and for 4 illustrative scenarios of a $1,450,000 renovation (and,
with --portfolio, the Portfolio packet of the illustrative sample), prints each page's
characters of text, how far down the page its lowest text reaches (0 top, 1 bottom) and the
smallest font size on it in points. Needs Chromium (core.report.pdf).

    python -m harness.pdf_fill [--counts 2,4] [--portfolio] [--keep DIR]

`measure` is also what tests/report/test_pdf.py checks the packets with.
"""
from __future__ import annotations

import argparse
import io
import math
from dataclasses import dataclass
from pathlib import Path

# Illustrative, fictional numbers: one renovation in the variants a board weighs.
RENOVATION = {"project_type": "renovation", "eligible_cost": 1_450_000}
VARIANTS = [
    ("As submitted", {"local_contribution": 725_000}),
    ("With the federal grant", {"federal_grant": 450_000, "local_contribution": 400_000}),
    ("With the Board exception", {"federal_grant": 450_000, "local_contribution": 400_000,
                                  "bpw_exception": {"local_property_value": 900_000}}),
    ("Reduced scope", {"eligible_cost": 1_100_000, "federal_grant": 450_000, "local_contribution": 325_000}),
]


def items(count: int) -> list:
    """`count` scenarios (at most 4 distinct, then repeated under new names)."""
    from core.law.application import Application
    from core.law.award import evaluate
    from core.report.html import Item
    out = []
    for k in range(count):
        name, change = VARIANTS[k % len(VARIANTS)]
        if k >= len(VARIANTS):
            name = f"{name} ({k // len(VARIANTS) + 1})"
        out.append(Item(f"Illustrative: {name.lower()}" if k == 0 else name,
                        evaluate(Application.from_dict(RENOVATION | change)), "Illustrative, fictional numbers."))
    return out


@dataclass
class Page:
    chars: int          # characters of text (spaces not counted)
    words: int          # of them, those not drawn in a chart (a tick, a legend, a chart's title, a bar's label)
    lowest: float       # the lowest text's distance from the top, as a share of the page height
    smallest: float     # the smallest font size on the page, in points (inf: no text)
    prose: int = 0      # of the words, those in no chart's caption either: the packet's own text beside its charts


def drawn(document: str) -> set[str]:
    """Every string a chart draws in `document` (the packet's HTML with static charts): the text
    of each SVG's <text> and <tspan>. A run of the PDF's text equal to one of them counts as the
    chart's, not as words beside it (a table cell that reads "$600,000" too is counted as a
    chart's: the count of words errs low)."""
    import html
    import re
    out = set()
    for svg in re.findall(r"<svg.*?</svg>", document, flags=re.S):
        for piece in re.findall(r"<(?:text|tspan)\b[^>]*>([^<]+)", svg):
            text = " ".join(html.unescape(piece).split())
            if text:
                out.add(text)
    return out


def captions(document: str) -> list[str]:
    """Each chart's sentence (its <figcaption>) in `document`, spaces made single."""
    import html
    import re
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", c)).split())
            for c in re.findall(r"<figcaption>(.*?)</figcaption>", document, flags=re.S)]


def measure(data: bytes, charts: set[str] = frozenset(), sentences: list[str] = ()) -> list[Page]:
    """Each page's text, how much of it is not a chart's (`charts`: from `drawn`), and of that how
    much is in no chart's caption either (`sentences`: from `captions`; a line of a caption is a
    run of text inside one), how far down it reaches, and its smallest type, read with pypdf."""
    from pypdf import PdfReader
    pages = []
    for page in PdfReader(io.BytesIO(data)).pages:
        height = float(page.mediabox.height)
        bottom = float(page.mediabox.bottom)
        seen = {"chars": 0, "words": 0, "prose": 0, "low": math.inf, "small": math.inf}

        def visit(text, cm, tm, font, size, seen=seen):
            if not text.strip():
                return
            # where the text starts on the page (tm then cm) and its size on paper: the font
            # size times the vertical scale of the text matrix and of the page's matrix
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            scale = math.hypot(tm[2], tm[3]) * math.hypot(cm[2], cm[3])
            chars = len("".join(text.split()))
            seen["chars"] += chars
            run = " ".join(text.split())
            chart = run in charts
            seen["words"] += 0 if chart else chars
            seen["prose"] += 0 if chart or any(run in sentence for sentence in sentences) else chars
            seen["low"] = min(seen["low"], y)
            seen["small"] = min(seen["small"], size * scale)

        page.extract_text(visitor_text=visit)
        lowest = 0.0 if seen["low"] == math.inf else (bottom + height - seen["low"]) / height
        pages.append(Page(seen["chars"], seen["words"], round(lowest, 3), round(seen["small"], 2), seen["prose"]))
    return pages


def _measured(data: bytes, document: str) -> list[Page]:
    return measure(data, drawn(document), captions(document))


def describe(pages: list[Page]) -> str:
    return (f"{len(pages)} pages; characters {[p.chars for p in pages]}, not in a chart "
            f"{[p.words for p in pages]}, nor in a caption {[p.prose for p in pages]}; lowest text at "
            f"{[round(p.lowest * 100) for p in pages]}% of the page; smallest type "
            f"{min(p.smallest for p in pages):.2f} pt")


def static_html(report) -> str:
    """The HTML the packet printed (the same figures draw the same SVG)."""
    import warnings

    import kaleido
    kaleido.start_sync_server(silence_warnings=True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            from core.report.pdf import document
            return document(report)
    finally:
        kaleido.stop_sync_server(silence_warnings=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", default="2,4", help="numbers of scenarios, comma-separated")
    ap.add_argument("--portfolio", action="store_true", help="also the Portfolio packet of the sample")
    ap.add_argument("--keep", metavar="DIR", help="write each packet there (packet-N.pdf)")
    args = ap.parse_args()
    from core.report.html import Report
    from core.report.pdf import pdf
    keep = Path(args.keep) if args.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    for count in (int(c) for c in args.counts.split(",") if c.strip()):
        report = Report(items(count), prepared_by="Grants office (illustrative)")
        data = pdf(report)
        if keep:
            (keep / f"packet-{count}.pdf").write_bytes(data)
        print(f"{count} scenarios: {describe(_measured(data, static_html(report)))}")
    if args.portfolio:
        from core.report.portfolio import sample_report
        report = sample_report(prepared_by="Grants office (illustrative)")
        data = pdf(report)
        if keep:
            (keep / "portfolio.pdf").write_bytes(data)
        print(f"portfolio sample: {describe(_measured(data, static_html(report)))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
