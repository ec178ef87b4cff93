"""The deck as LibreOffice shows it: converted to PDF headless (Debian's libreoffice-impress), one
page per slide, every word inside its page, and each slide's award, title and words on its page.
Without LibreOffice the test skips with the reason, unless REQUIRE_LIBREOFFICE=1 (CI, .ci/run)."""
import html
import io
import os
import re
import shutil
import subprocess

import pytest
from pptx import Presentation

from core.law.application import Application
from core.law.award import evaluate
from core.law.money import fmt
from core.report.deck import deck
from core.report.html import Item, Report
from tests.report.test_deck import BOARD

pytestmark = pytest.mark.slow


def office() -> str:
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        reason = "LibreOffice (soffice) is not installed: apt-get install -y libreoffice-impress"
        if os.environ.get("REQUIRE_LIBREOFFICE") == "1":
            pytest.fail(f"REQUIRE_LIBREOFFICE=1 but {reason}")
        pytest.skip(reason)
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return found


def words_on_pages(pdf) -> list[tuple[float, float, list[tuple[float, float, float, float, str]]]]:
    """(width, height, words with their boxes) of each page, as pdftotext -bbox reads them."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page in re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S):
        words = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in re.findall(
            r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)</word>', page[2])]
        pages.append((float(page[0]), float(page[1]), [(*box, html.unescape(w)) for *box, w in words]))
    return pages


def convert(soffice, made: bytes, folder):
    """The deck's pages as LibreOffice draws them (words_on_pages)."""
    (folder / "deck.pptx").write_bytes(made)
    profile = folder / "profile"   # its own profile: never the user's, and two runs at once do not collide
    subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                    "--outdir", str(folder), str(folder / "deck.pptx")],
                   capture_output=True, timeout=240, check=True)
    return words_on_pages(folder / "deck.pdf")


def test_libreoffice_shows_one_page_a_slide_nothing_cut(tmp_path):
    soffice = office()
    items = [Item(r["name"], evaluate(Application.from_dict({k: v for k, v in r.items() if k not in ("name", "notes")})),
                  r.get("notes", "")) for r in BOARD]
    made = deck(Report(items, prepared_by="Grants office"))
    pages = convert(soffice, made, tmp_path)
    slides = list(Presentation(io.BytesIO(made)).slides)
    assert len(pages) == len(slides) == 7
    for (width, height, words), slide in zip(pages, slides):
        assert abs(width / height - 16 / 9) < 0.01
        for x0, y0, x1, y1, w in words:   # nothing past the slide's edge
            assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, w
        page = " ".join(w for *_, w in words)
        for shape in slide.shapes:   # every word the slide holds is on its page
            if shape.has_text_frame:
                for word in shape.text_frame.text.split():
                    assert word in page, (word, page[:200])
    for (_, _, words), item in zip(pages[4:], items):
        assert fmt(item.award.amount) in " ".join(w for *_, w in words)


def test_six_scenarios_funding_slides_show_every_name_and_number_inside_the_page(tmp_path):
    """Issue 51: with six scenarios the funding chart, 4 inches beside its table, lost every other
    scenario's name in LibreOffice (too little room for 18 pt). Now every name is drawn on the chart's
    page, every amount on the table's, and no word leaves its page."""
    from core.report.charts.colours import SOURCES
    from core.report.slides import short
    from tests.report.test_deck import six_deck
    soffice = office()
    items, prs = six_deck()
    made = io.BytesIO()
    prs.save(made)
    pages = convert(soffice, made.getvalue(), tmp_path)
    heads = [next(s.text_frame.text for s in slide.shapes if s.has_text_frame) for slide in prs.slides]
    at = heads.index("Where the money comes from")
    for width, height, words in pages[at:at + 2]:
        for x0, y0, x1, y1, w in words:
            assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, w
    chart = " ".join(w for *_, w in pages[at][2])
    for item in items:
        assert short(item.name) in chart, (item.name, chart[:300])
        assert f"cost {fmt(sum(item.award.funding.values()))}" in chart
    for label, _ in SOURCES.values():   # the legend
        assert label in chart
    table = " ".join(w for *_, w in pages[at + 1][2])
    for item in items:
        for key in SOURCES:
            assert fmt(item.award.funding[key]) in table
