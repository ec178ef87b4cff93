"""Issue 28 in a real Chromium: the Portfolio page takes an Excel workbook, lists a bad row's
problem in full beside its row (nothing cut), and its downloads are a workbook that opens with
openpyxl, in rank order with dollar formats, and a CSV in the same order. A screenshot of the
upload goes to test-artifacts/ for people to look at."""
import csv
import datetime
import io

import openpyxl
import pytest

from core.law.portfolio import SAMPLE
from harness.serve import streamlit_server, wait_ready
from tests.support import ROOT
from tests.support.browser import chromium, no_error_on  # noqa: F401
from tests.support.workbooks import workbook, workbook_of_csv

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture(scope="module")
def server(chromium):  # noqa: F811
    with streamlit_server() as url:
        yield url


def upload(chromium, url, name: str, data: bytes):  # noqa: F811
    page = chromium.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page.goto(url + "/portfolio")
    wait_ready(page, 120_000)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": XLSX, "buffer": data}])
    page.wait_for_selector(f"text={name}", timeout=60_000)
    page.wait_for_timeout(500)
    wait_ready(page, 120_000)
    return page


def download(page, label: str) -> bytes:
    with page.expect_download(timeout=120_000) as d:
        page.get_by_role("button", name=label).click()
    return open(d.value.path(), "rb").read()


def test_the_downloads_of_an_uploaded_workbook_are_in_rank_order(server, chromium):  # noqa: F811
    page = upload(chromium, server, "sample.xlsx", workbook_of_csv(SAMPLE.read_text(encoding="utf-8"),
                                                                   others=("Notes",)))
    no_error_on(page)
    body = page.inner_text("[data-testid=stMain]")
    assert "Sheet of the workbook" in body and "could not be used" not in body
    wb = openpyxl.load_workbook(io.BytesIO(download(page, "Download the results (Excel)")))
    assert wb.sheetnames == ["Results", "For programs", "About"]
    ws = wb["Results"]
    assert ws.freeze_panes == "A2" and [ws.cell(r, 1).value for r in range(2, 22)] == list(range(1, 21))
    assert ws.cell(2, 2).value == "Illustrative: Twin Oaks senior center" and ws.cell(2, 6).value == "the limit for earlier grantees"
    assert ws.cell(2, 5).number_format == '"$"#,##0.00' and ws.cell(2, 5).value == 50_000
    about = {row[0]: row[1] for row in wb["About"].iter_rows(values_only=True) if row[0]}
    assert about["Applications from"] == "sample.xlsx, sheet Applications"
    rows = list(csv.DictReader(io.StringIO(download(page, "Download the results (CSV)").decode())))
    assert [r["rank"] for r in rows] == [str(i) for i in range(1, 21)] and rows[0]["row"] == "22"
    template = openpyxl.load_workbook(io.BytesIO(download(page, "Template (Excel)")))
    assert template.sheetnames == ["Applications", "Notes"]
    page.close()


def test_a_bad_rows_problem_is_shown_whole_beside_its_row(server, chromium):  # noqa: F811
    head = ["name", "locality", "project_type", "eligible_cost", "local_contribution"]
    data = workbook({"Applications": [
        head, ["Illustrative: Alder", "Alder County", "renovation", 1_000_000, 500_000], [],
        ["Illustrative: Birch", "Birch City", "renovation", "=D2*2", 0],
        ["Illustrative: Cedar", "Cedar Falls", "renovation", 900_000, datetime.date(2026, 1, 5)],
        ["Illustrative: Dunmore", "Dunmore Township", "castle", 700_000, 350_000], [None] * 5]})
    page = upload(chromium, server, "applications.xlsx", data)
    no_error_on(page)
    box = page.locator(".st-key-pf_problems")
    box.scroll_into_view_if_needed()
    items = box.locator("li")
    # the board's row (from 1) and the spreadsheet's (issue 51)
    assert [t.split(":")[0] for t in items.all_inner_texts()] == [
        "Row 2 (row 4 of the spreadsheet), Illustrative", "Row 3 (row 5 of the spreadsheet), Illustrative",
        "Row 4 (row 6 of the spreadsheet), Illustrative"]
    said = items.all_inner_texts()
    assert said[0].endswith("eligible_cost: '=D2*2' is a spreadsheet formula, not a number; enter the value itself "
                            "(in the spreadsheet: copy the cells, then Paste Special, Values)")
    for i in range(items.count()):   # wrapped inside the page, never cut or scrolled sideways
        width, client = items.nth(i).evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert width <= client
        assert items.nth(i).bounding_box()["x"] + items.nth(i).bounding_box()["width"] <= 1280
    page.screenshot(path=str(ROOT / "test-artifacts" / "portfolio-xlsx-bad-rows.png"))
    page.close()
