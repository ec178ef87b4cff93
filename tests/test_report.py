"""The board report: content, escaping, offline rendering in Chromium, and the PDF packet."""
import io
import json
import subprocess
import sys

import pytest

from core.application import Application
from core.award import evaluate
from core.report import Item, Report, render
from core.rulesets import load
from tests.browser_fixtures import chromium, require_chromium  # noqa: F401
from tests.conftest import ROOT

BIG = Application.from_dict({"project_type": "renovation", "eligible_cost": 3_000_000, "local_contribution": 1_500_000})
SMALL = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})
EVIL = "<img src=x onerror=alert(1)> & <b>bold</b>"


def report(**kw):
    return Report([Item(EVIL, evaluate(BIG), "notes <script>alert(2)</script>"),
                   Item("Reduced scope", evaluate(SMALL, load("cap-800k")))], prepared_by="Grants <office>", **kw)


def test_html_holds_award_binding_citations_and_escapes_user_text():
    doc = render(report())
    assert "$600,000" in doc and "program maximum ($600,000)" in doc
    assert "A grant for conversion, acquisition, renovation, equipment, or construction may not exceed $600,000." in doc
    assert "Interpretations applied" in doc and "Policy variant" in doc and "698739a14092" in doc
    assert EVIL not in doc and "&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in doc
    assert "<script>alert(2)" not in doc and "Grants &lt;office&gt;" in doc
    assert "<script src" not in doc and "<link" not in doc   # nothing fetched: plotly.js is inline
    assert doc.count("<section") == 4   # two scenarios, the comparison, the sources
    assert "@media print" in doc and "break-before: page" in doc


def test_report_renders_offline_with_no_failed_request(chromium, tmp_path):  # noqa: F811
    path = tmp_path / "report.html"
    path.write_text(render(report()), encoding="utf-8")
    page = chromium.new_page()
    failed, errors, external = [], [], []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def block(route):
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            external.append(route.request.url)
            route.abort()

    page.route("**/*", block)
    page.goto(path.as_uri())
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= 7", timeout=30_000)
    assert page.locator(".js-plotly-plot").count() == 7
    assert not failed and not errors and not external
    assert page.locator("img").count() == 0       # the name's <img> stayed text
    assert EVIL in page.inner_text("body")


def test_pdf_packet_pages_and_text(tmp_path):
    require_chromium()
    from pypdf import PdfReader

    from core.report import pdf
    data = pdf(report())
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) >= 4
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "$600,000" in text and "program maximum" in text and EVIL in text


def test_cli_report_html_and_errors(tmp_path):
    src = tmp_path / "s.json"
    src.write_text(json.dumps([{"name": "A", "project_type": "renovation", "eligible_cost": 1_000_000,
                                "local_contribution": 500_000}]))
    out = tmp_path / "r.html"
    r = subprocess.run([sys.executable, "-m", "core", "report", str(src), "-o", str(out), "--prepared-by", "Me"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "$500,000" in out.read_text()
    src.write_text(json.dumps([{"name": "A", "project_type": "castle", "eligible_cost": 1}]))
    r = subprocess.run([sys.executable, "-m", "core", "report", str(src), "-o", str(out), "--force"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "scenarios[0].project_type: 'castle'" in r.stderr


def test_no_browser_message(monkeypatch):
    import core.report as rep
    monkeypatch.setattr(rep, "find_browser", lambda: None)
    with pytest.raises(rep.ReportError, match="apt-get install chromium"):
        rep.pdf(report())
