"""The PDF packet (core/report/pdf.py): pages and text, a missing, failing or hanging browser,
two packets at once."""
import io
import json
import os
import subprocess
import sys

import pytest

from core.law.application import Application
from core.law.award import evaluate
from core.law.rulesets import load
from core.report.html import Item, Report
from tests.support import ROOT
from tests.support.browser import require_chromium


BIG = Application.from_dict({"project_type": "renovation", "eligible_cost": 3_000_000, "local_contribution": 1_500_000})


SMALL = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})


EVIL = "<img src=x onerror=alert(1)> & <b>bold</b>"


def report(**kw):
    return Report([Item(EVIL, evaluate(BIG), "notes <script>alert(2)</script>"),
                   Item("Reduced scope", evaluate(SMALL, load("cap-800k")))], prepared_by="Grants <office>", **kw)


def test_pdf_packet_pages_and_text(tmp_path):
    require_chromium()
    from pypdf import PdfReader

    from core.report.pdf import pdf
    data = pdf(report())
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) >= 4
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "$600,000" in text and "program maximum" in text and EVIL in text


def test_no_browser_message(monkeypatch):
    import core.report.pdf as rep
    from core.report.html import ReportError
    monkeypatch.setattr(rep, "find_browser", lambda: None)
    with pytest.raises(ReportError, match="apt-get install chromium"):
        rep.pdf(report())


APP = {"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000}


def run(*args, stdin=None, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "core", *map(str, args)], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, env={**os.environ, **(env or {})})


def one_line_error(r, text):
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert text in r.stderr, r.stderr


@pytest.fixture
def export(tmp_path):
    src = tmp_path / "s.json"
    src.write_text(json.dumps([{"name": "A", **APP}]))
    return src


def test_failing_browser_gives_one_line_fast(export, tmp_path):
    out = tmp_path / "r.html"
    r = run("report", export, "-o", out, "--pdf", tmp_path / "r.pdf", env={"BROWSER_PATH": "/bin/false"}, timeout=60)
    one_line_error(r, "--pdf: /bin/false does not run")


def test_hanging_browser_is_stopped_at_the_timeout(tmp_path, monkeypatch):
    """A browser that answers --version and then hangs: the packet gives up at the timeout
    with a message, and the next packet is not blocked by the one that hung."""
    import core.report.pdf as rep
    from core.report.html import Item, Report, ReportError
    from core.law.award import evaluate
    from core.law.application import Application

    fake = tmp_path / "hangs"
    fake.write_text("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'Chromium 1'; exit 0; }\nexec sleep 600\n")
    fake.chmod(0o755)
    monkeypatch.setenv("BROWSER_PATH", str(fake))
    made = Report([Item("A", evaluate(Application.from_dict(APP)))])
    for _ in range(2):
        with pytest.raises(ReportError, match="took more than 5 seconds and was stopped"):
            rep.pdf(made, timeout=5)
    assert not rep._PDF_LOCK.locked()
    # and nothing of it is left running: the browser's wrapper starts a session of its own
    import time
    if os.path.isdir("/proc"):
        def left():
            out = []
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        if str(tmp_path).encode() in f.read():
                            out.append(pid)
                except OSError:
                    pass
            return out
        for _ in range(50):   # a killed process may take a moment to be reaped
            if not left():
                break
            time.sleep(0.1)
        assert left() == []


def test_two_sessions_making_pdfs_at_once_both_get_one():
    from tests.support.browser import require_chromium
    require_chromium()
    import threading

    import core.report.pdf as rep
    from core.report.html import Item, Report
    from core.law.award import evaluate
    from core.law.application import Application

    made = Report([Item("A", evaluate(Application.from_dict(APP)))])
    results, errors = [], []

    def make():
        try:
            results.append(rep.pdf(made))
        except Exception as exc:  # collected, so the assertion below shows it
            errors.append(exc)

    threads = [threading.Thread(target=make) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors and len(results) == 2 and all(r.startswith(b"%PDF") for r in results)
