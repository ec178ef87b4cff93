"""Issue 30 in a real Chromium: each finding that needs a browser (1, 2, 4, 5, 6, 7, 8). Every test
records each request the page makes and asserts that none leaves for another host, and that the
hostile text shows as typed. Screenshots go to test-artifacts/ for people to look at."""
import json
from urllib.parse import quote, urlparse

import pytest

from core.law.application import Application
from core.store.repository import ScenarioStore
from tests.support.browser import chromium, no_error_on  # noqa: F401
from tests.support import ROOT
from harness.serve import streamlit_server, wait_ready

ARTIFACTS = ROOT / "test-artifacts"
PAGES = ["", "compare", "sensitivity", "portfolio", "rules"]
APP = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})
# A scenario name as finding 1 had it (an image, a link, maths, bold, an entity that decodes to an override)
NAME = "TOP ![px](https://evil.example/pixel.png) [Board packet](https://evil.example/) $x^2$ **b** &#x202e;"


@pytest.fixture(scope="module")
def server(tmp_path_factory, chromium):  # noqa: F811
    db = tmp_path_factory.mktemp("db") / "lib.db"
    store = ScenarioStore(f"sqlite:///{db}")
    store.save("Board https://134744072/packet :material/skull:", APP, actor="owner@evil.example")
    store.save("Other plan", APP.replace(eligible_cost=200_000_000))
    import time
    time.sleep(1.1)                                             # saved a second later: dates are to the second
    store.save(NAME, APP)                                       # the most recent
    store.dispose()
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{db}"}) as url:
        yield url, db


def open_page(chromium, url, width=1400, height=2000, before=None):  # noqa: F811
    """A page that records every request for another host (blob: and data: are made in the page);
    `before(page)` runs before it loads."""
    page = chromium.new_page(viewport={"width": width, "height": height}, accept_downloads=True)
    page.outside = []
    page.on("request", lambda r: page.outside.append(r.url)
            if urlparse(r.url).scheme not in ("blob", "data") and urlparse(r.url).hostname != "127.0.0.1" else None)
    if before:
        before(page)
    page.goto(url)
    wait_ready(page, 60_000)
    return page


def nothing_interpreted(page, where="[data-testid=stMain]") -> None:
    """No image, no link to another host, no maths, no Material icon drawn from user text, and no
    override character anywhere in the page's text."""
    main = page.locator(where)
    assert main.locator("img[src*='evil'], img[src^='http']").count() == 0
    assert main.locator("a[href*='evil'], a[href*='134744072'], a[href^='mailto']").count() == 0
    assert main.locator(".katex").count() == 0
    text = page.inner_text("body")
    for hidden in ("\u202e", "\u202d", "\u2066", "\u200b"):
        assert hidden not in text


def shown(text: str) -> str:
    """What the page shows, without the invisible word joiners that break shortcodes and links."""
    return text.replace("\u2060", "")


def test_a_baseline_name_shows_as_typed_and_fetches_nothing(server, chromium):  # noqa: F811
    """Finding 1: the name drew an image (a request to another host on every visit), a live link,
    maths and bold, in the chart's title and in "Numbers behind “Change from the baseline: …”"."""
    from urllib.parse import urlencode
    url, _ = server
    # the baseline chosen, by a link (the comparison opens with the first saved as its baseline)
    page = open_page(chromium, f"{url}/compare?" + urlencode([("scenario", "Other plan"), ("scenario", NAME),
                                                               ("baseline", "2")]))
    page.wait_for_selector("text=Change from the baseline", timeout=30_000)
    summary = page.locator("[data-testid=stExpander] summary", has_text="Change from the baseline").first
    assert shown(summary.inner_text()).splitlines()[-1].strip() == f"Numbers behind “Change from the baseline: {NAME}”"
    title = page.locator("[data-testid=stMarkdownContainer] strong", has_text="Change from the baseline").first
    assert shown(title.inner_text()) == f"Change from the baseline: {NAME}"
    nothing_interpreted(page)
    no_error_on(page)
    page.screenshot(path=str(ARTIFACTS / "hostile-baseline.png"), full_page=True)
    assert page.outside == []
    page.close()


@pytest.mark.parametrize("path", PAGES)
def test_a_presentation_value_shows_as_typed_on_every_page(server, chromium, path):  # noqa: F811
    """Finding 2: `?present=![i](https://evil.example/p.png)` fetched the image on all five pages."""
    url, _ = server
    value = "![i](https://evil.example/p.png)"
    page = open_page(chromium, f"{url}/{path}?present={quote(value)}")
    warning = page.locator("[data-testid=stAlertContentWarning]", has_text="was not understood").first
    assert f"value {value} was not understood" in shown(warning.inner_text())
    nothing_interpreted(page)
    if not path:
        page.screenshot(path=str(ARTIFACTS / "hostile-present.png"))
    assert page.outside == []
    page.close()


def test_an_import_over_the_comparisons_cap_keeps_the_page_working(server, chromium, tmp_path):  # noqa: F811
    """Finding 4: 16 imported scenarios broke Compare (StreamlitSelectionCountExceedsMaxError) on
    every run until a reload."""
    url, _ = server
    items = [{"name": f"Imported {i:02d}", "project_type": "renovation", "eligible_cost": str(900_000 + i)}
             for i in range(16)]
    path = tmp_path / "sixteen.json"
    path.write_text(json.dumps(items))
    page = open_page(chromium, f"{url}/compare", height=2600)
    page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(path))
    page.get_by_role("button", name="Import 16 scenarios").click()
    page.wait_for_selector("text=Imported 16 scenarios from", timeout=30_000)
    wait_ready(page)
    note = page.locator("[data-testid=stAlertContentSuccess]").first.inner_text()
    assert "and 6 more" in note and "The first 12 are added to the comparison" in note and len(note) < 800
    chosen = page.locator('[data-testid="stMultiSelect"]').first.inner_text()
    assert sum(f"Imported {i:02d}" in chosen for i in range(16)) == 12
    page.reload()
    wait_ready(page, 60_000)
    no_error_on(page)
    assert page.outside == []
    page.close()


def test_a_portfolio_of_20000_rows_settles_and_answers(server, chromium, tmp_path):  # noqa: F811
    """Finding 5: the documented maximum took 181 s to settle and crashed the page ("Target
    crashed") at the next slider move: each run sent 10.7 MB, the three tables holding every row."""
    import time

    import pandas as pd

    from bench.batch import make_csv
    url, _ = server
    path = tmp_path / "portfolio.csv"
    make_csv(path, 20_000)
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    df["locality"] = [f"Town {i % 300}" for i in range(len(df))]
    df["senior_density"] = [str(10 + i % 2_990) for i in range(len(df))]
    df.to_csv(path, index=False)
    received = []
    page = open_page(chromium, f"{url}/portfolio", height=2400, before=lambda p: p.on(
        "websocket", lambda ws: ws.on("framereceived", lambda frame: received.append(len(frame)))))
    page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(path))
    start = time.monotonic()
    page.wait_for_selector("text=20,000 applications", timeout=120_000)
    wait_ready(page, 120_000)
    settled = time.monotonic() - start
    tables = page.locator("[data-testid=stTable]")
    assert tables.count() == 3 and max(t.locator("tbody tr").count() for t in tables.all()) <= 201
    assert "Applications 1 to 500 of 20,000 in priority order" in page.inner_text("body")
    received.clear()
    slider = page.get_by_role("slider").first
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(500)
    wait_ready(page, 120_000)
    assert sum(received) < 2_000_000, sum(received)        # was 10.7 MB a run
    no_error_on(page)
    assert page.outside == []
    print(f"20,000 rows settled in {settled:.1f} s; a slider move received {sum(received):,} bytes")
    page.close()


def test_a_refusal_to_replace_anothers_scenario_shows_name_and_owner_as_typed(server, chromium):  # noqa: F811
    """Finding 6: `Board https://134744072/packet` became a live link to another host, `:material/skull:`
    an icon and the owner's email a mailto: link."""
    url, db = server
    name = "Board https://134744072/packet :material/skull:"
    page = open_page(chromium, url, height=2400)
    page.get_by_label("Scenario name").fill(name)
    page.get_by_role("button", name="Save scenario").click()
    page.get_by_role("button", name="Replace it").click()
    refusal = page.locator("[data-testid=stAlertContentError]", has_text="Not replaced").first
    refusal.wait_for(timeout=30_000)
    said = shown(refusal.inner_text())
    assert name in said and "owner@evil.example" in said and "only its owner" in said
    assert refusal.locator("a, [data-testid=stIconMaterial]").count() == 0
    nothing_interpreted(page)
    assert page.outside == []
    page.close()


def test_a_variants_edition_shows_as_typed(server, chromium, tmp_path):  # noqa: F811
    """Finding 6: a TOML variant's edition drew icons and autolinks, and an override reversed the caption."""
    from core.law.rulesets import load, to_toml
    url, _ = server
    text = to_toml(load().with_changes("mine", "Mine", {"capital_cap": "900000"}))
    edition = "ed. :material/skull: https://evil.example/x **b**"
    path = tmp_path / "mine.toml"
    path.write_text(text.replace(text.split("edition = ")[1].split("\n")[0], json.dumps(edition)))
    page = open_page(chromium, f"{url}/rules", height=2400)
    page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(path))
    page.wait_for_selector("text=Loaded the variant", timeout=30_000)
    wait_ready(page, 60_000)
    # a variant's edition is shown with its fingerprint on the Rules page (the record), as typed
    caption = page.locator("[data-testid=stCaptionContainer]", has_text="Variant").first
    assert edition in shown(caption.inner_text())
    assert caption.locator("a, [data-testid=stIconMaterial], strong").count() == 0
    bidi = tmp_path / "bidi.toml"
    bidi.write_text(text.replace('id = "mine"', 'id = "mine2"').replace(
        text.split("edition = ")[1].split("\n")[0], json.dumps("ed. \u202e 2")))
    page.locator("[data-testid=stSidebarNavLink]", has_text="Rules").click()
    page.wait_for_selector("text=Rules and policy variants", timeout=30_000)
    wait_ready(page, 60_000)
    page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(bidi))
    page.wait_for_selector("text=Not loaded", timeout=30_000)
    assert "RIGHT-TO-LEFT OVERRIDE" in page.inner_text("body")
    nothing_interpreted(page)
    assert page.outside == []
    page.close()


def test_an_override_cannot_mirror_the_apps_own_words(server, chromium):  # noqa: F811
    """Finding 7: `?eligible_cost=%E2%80%AE000,005$` mirrored the whole warning, so the refused value
    read "$500,000"; "Prepared by" took an override, a zero-width space and NUL into the report."""
    url, _ = server
    page = open_page(chromium, f"{url}/?eligible_cost=%E2%80%AE000,005$", height=2400)
    warning = page.locator("[data-testid=stAlertContentWarning]", has_text="cannot be shown").first
    assert "[U+202E]000,005$" in warning.inner_text()
    page.get_by_label("Prepared by").fill("Ann\u202e B")
    page.get_by_label("Prepared by").press("Enter")
    page.wait_for_selector("text=The report cannot carry this", timeout=30_000)
    assert "Prepared by: Ann[U+202E] B contains an invisible formatting character" in page.inner_text("body")
    nothing_interpreted(page)
    page.screenshot(path=str(ARTIFACTS / "hostile-bidi.png"))
    assert page.outside == []
    page.close()


def test_a_report_holds_the_title_typed_just_before_the_click(server, chromium):  # noqa: F811
    """Finding 8: typed "Prepared by" and "Report title", clicked "Download the report": 4 of 4 files
    kept the old title and file name, and some clicks downloaded nothing."""
    url, _ = server
    page = open_page(chromium, url, height=2400)
    for n in range(4):
        title, prepared = f"Board packet {n} for March", f"Grants office {n}"
        page.get_by_label("Report title").fill(title)
        page.get_by_label("Prepared by").fill(prepared)            # still in the box: no Enter, no Tab
        with page.expect_download(timeout=60_000) as got:
            page.get_by_role("button", name="Download the report (HTML, works offline)").click()
        assert got.value.suggested_filename == f"board-packet-{n}-for-march.html"
        doc = open(got.value.path(), encoding="utf-8").read()
        assert f"<h1>{title}</h1>" in doc and f"Prepared by {prepared}" in doc
        wait_ready(page)
    assert "is ready: board-packet-3-for-march.html" in page.inner_text("body")
    no_error_on(page)
    assert page.outside == []
    page.close()
