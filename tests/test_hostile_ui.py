"""Issue 19 in the app and the core behind it: bounded Compare page (item 1), user text shown
exactly as typed (item 2), imported rulesets verified (item 5), portfolio names capped
(item 7), names and variant ids (item 10). The browser checks of item 2 are at the end."""
import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from core.application import Application
from core.money import ValidationError
from core.rulesets import RulesetError, load, load_text, to_toml
from core.scenarios import Scenario, ScenarioStore, check_name, now, parse_export
from tests.panel import Panel
from tests.conftest import ROOT
from tests.test_scenarios import url  # noqa: F401

HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
APP = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})
CODE = re.compile(r"(`+) .*? \1", re.S)


def outside_code(markdown: str) -> str:
    """What Markdown would interpret: everything but the code spans."""
    return CODE.sub("", markdown)


@pytest.fixture
def db(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    monkeypatch.setenv("SCENARIO_DB_URL", url)
    return ScenarioStore(url)


def start(params=None, page=None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def fill(store, n):
    rs = load()
    stamps = [f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}+00:00" for i in range(n)]
    store.import_scenarios([Scenario(f"Scenario {i:03d}", APP.replace(eligible_cost=100_000_000 + i * 100), rs.id,
                                     rs.version, rs.to_data(), "", stamps[i], stamps[i]) for i in range(n)])


# -- item 1: Compare opens on a bounded selection, pages through the library ---------------

def test_compare_opens_on_the_most_recent_few_and_pages(db):
    fill(db, 60)
    at = start(page="pages/compare.py")
    chosen = at.multiselect(key="w:cmp_names")
    assert chosen.value == ["Scenario 059", "Scenario 058", "Scenario 057", "Scenario 056"]
    assert len(chosen.options) == 25 and chosen.max_selections == 12   # this page's names, not all 60
    assert len(at.selectbox(key="w:lib_pick").options) == 25
    assert any("60 of 60 saved scenarios found; page 1 of 3" in c.value.replace("\\", "") for c in at.caption)
    at.number_input(key="w:lib_page").set_value(3).run()
    assert at.selectbox(key="w:lib_pick").options[0] == "Scenario 009" and len(at.selectbox(key="w:lib_pick").options) == 10
    assert at.multiselect(key="w:cmp_names").value[:4] == chosen.value        # the selection stays
    at.text_input(key="w:lib_search").input("scenario 01").run()
    assert at.selectbox(key="w:lib_pick").options == [f"Scenario {i:03d}" for i in range(19, 9, -1)]
    at.text_input(key="w:lib_search").input("100%_").run()                    # wildcards taken literally
    assert any("0 of 60 saved scenarios found" in c.value.replace("\\", "") for c in at.caption)
    assert not at.exception


def test_store_reads_pages_not_the_library(url):  # noqa: F811 (SQLite, and PostgreSQL where set)
    db = ScenarioStore(url)
    fill(db, 30)
    assert db.count() == 30 and db.count("scenario 02") == 10 and db.count("%") == 0
    assert [s.name for s in db.page("", 0, 3)] == ["Scenario 029", "Scenario 028", "Scenario 027"]
    assert [s.name for s in db.page("", 27, 25)] == ["Scenario 002", "Scenario 001", "Scenario 000"]
    assert [s.name for s in db.get_many(["Scenario 005", "gone", "Scenario 001"])] == ["Scenario 005", "Scenario 001"]
    assert [s["name"] for s in db.export(["Scenario 003"])["scenarios"]] == ["Scenario 003"]
    db.dispose()


# -- item 2: user text exactly as typed, never interpreted --------------------------------

def test_link_values_are_shown_literally_and_cut(db):
    long = "x" * 20_000
    at = start({"eligible_cost": "www.example.com", "ruleset": ":material/warning: :skull: " + long})
    texts = [w.value for w in at.warning]
    # One message names every bad value of a link (issue 14: the example is then shown whole),
    # so both values are in it; each is inside a code span, and the message says "example".
    cost = next(t for t in texts if "total cost of eligible work" in t.lower())
    assert "` www.example.com `" in cost and "www.example.com" not in outside_code(cost)
    assert "example.com" not in outside_code(cost)
    rs = next(t for t in texts if "ruleset" in t)
    assert ":material" not in outside_code(rs) and ":skull:" not in outside_code(rs)
    assert len(rs) < 600 and "(20,027 characters)" in rs                 # not echoed whole
    heading = start({"eligible_cost": "a\n===\nb"})
    cost = next(w.value for w in heading.warning if "total cost" in w.value.lower())
    assert "\n" not in cost and "a\u2424===\u2424b" in cost                # a line break cannot make a heading


@pytest.mark.parametrize("name", ["https://example.com/x", "![x](https://example.com/i.png)", ":red[R1]",
                                  "&copy; $$x^2$$", ":material/warning:", "a `b` ``c``"])
def test_duplicate_notice_shows_the_name_literally(db, name):
    db.save("Original", APP)
    at = start(page="pages/compare.py")
    at.text_input(key="w:lib_new").input(name)
    at.button(key="w:lib_Duplicated").click().run()
    assert not at.exception
    note = next(s.value for s in at.success if "Duplicated" in s.value)
    assert outside_code(note).replace("\\", "") == "Duplicated  as ."     # both names inside code spans
    shown = [m.group(0) for m in CODE.finditer(note)]
    assert shown[0] == "` Original `"
    body = shown[1][len(shown[1].split(" ")[0]) + 1:-len(shown[1].split(" ")[0]) - 1]
    assert body.replace("\u2060", "") == name                           # exactly as typed
    assert db.get(name) is not None


def test_variant_names_literal_everywhere_on_the_rules_page(db):
    at = start(page="pages/rules.py")
    at.text_input[0].input("![x](https://example.com/i.png) $$x$$")
    at.button[0].click().run()   # the form's submit button
    assert not at.exception
    made = next(s.value for s in at.success)
    assert "example" not in outside_code(made) and "$$" not in outside_code(made)
    label = next(b.label for b in at.get("download_button") if "ruleset file" in b.label)
    assert "example" not in outside_code(label)
    assert any("variant-x-https-example-com-i-png-x" in o for o in at.multiselect(key="w:rules_cmp").value)


# -- item 10: names, variant ids, clashes ----------------------------------------------------

@pytest.mark.parametrize("name, problem", [
    ("tab\there", "control character (U+0009"),
    ("line\nbreak", "control character (U+000A"),
    ("evil\u202etxt.exe", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("a\u2066b", "U+2066 LEFT-TO-RIGHT ISOLATE"),
    ("zero\u200bwidth", "U+200B ZERO WIDTH SPACE"),
    ("join\u200dme", "U+200D ZERO WIDTH JOINER"),
    ("bom\ufeff", "U+FEFF"),
    ("para\u2029graph", "paragraph separator"),
    ("x" * 121, "is 121 characters long; at most 120"),
])
def test_names_refuse_hidden_characters_and_length(name, problem):
    with pytest.raises(ValidationError, match=re.escape(problem)):
        check_name(name)


def test_names_keep_what_people_type():
    for name in ("Café für Año", "北京 center", "O'Brien & Sons (2026)", "שלום", "Cap 1.0"):
        assert check_name(f"  {name} ") == name


def test_variant_ids_and_clashes(db):
    from core.names import variant_id
    assert variant_id("Café für Año") == "variant-cafe-fur-ano"
    assert variant_id("北京") .startswith("variant-") and len(variant_id("北京")) == 18
    assert variant_id("Cap 1.0") == variant_id("Cap 1-0")
    at = start(page="pages/rules.py")
    for title in ("Café für Año", "Cap 1.0", "Cap 1-0"):
        at.text_input[0].input(title)
        at.button[0].click().run()
    assert not at.exception
    assert [s.value.count("Made the variant") for s in at.success] == []   # the last one was refused
    error = next(e.value for e in at.error)
    assert "gives the id 'variant-cap-1-0', which another variant already has" in error.replace("\\", "")
    variants = at.session_state["variants"]
    assert list(variants) == ["variant-cafe-fur-ano", "variant-cap-1-0"]
    assert variants["variant-cap-1-0"].title == "Cap 1.0"                     # the first is kept, not replaced


def test_loaded_toml_may_not_take_a_shipped_id():
    from core.verify import accept_loaded_variant
    text = to_toml(load().with_changes("cap-800k", "Pretender", {"capital_cap": "900000"}))
    with pytest.raises(RulesetError, match="'cap-800k' is a ruleset shipped with the app"):
        accept_loaded_variant(load_text(text), {})
    mine = load_text(text.replace('id = "cap-800k"', 'id = "mine"'))
    assert accept_loaded_variant(mine, {}) is True
    assert accept_loaded_variant(mine, {"mine": mine}) is False              # the same file again: no change
    other = load().with_changes("mine", "Other", {"capital_cap": "1"})
    with pytest.raises(RulesetError, match="a different variant 'mine' is already loaded"):
        accept_loaded_variant(other, {"mine": mine})
    with pytest.raises(RulesetError, match="RIGHT-TO-LEFT OVERRIDE"):   # refused as the ruleset is read
        load().with_changes("bidi", "evil\u202e", {"capital_cap": "1"})


# -- item 5: imported rulesets verified -----------------------------------------------------

def test_altered_regulation_is_imported_as_a_labelled_variant(db):
    from core.report import Item, Report, render
    from core.verify import relabelled
    good, errors = parse_export(json.loads((HOSTILE / "regulation_claim.json").read_text()))
    assert not errors and len(good) == 1
    sc = good[0]
    assert sc.ruleset_id == "imported-regulation" and sc.ruleset_data["kind"] == "variant"
    assert "capital_cap $5,000,000 (shipped: $600,000)" in relabelled(sc.ruleset_data)
    award = sc.award()
    assert award.is_variant and "not the regulation in force" in award.ruleset_label
    doc = render(Report([Item(sc.name, award)]))
    assert "Ruleset: The regulation in force (fingerprint" not in doc
    # the id appears only in the table of the names the data files use, beside the variant's label
    assert "Policy variant" in doc and "<code>ruleset imported-regulation</code>" in doc


def test_altered_shipped_variant_and_honest_copies(db):
    from core.verify import verified
    good, _ = parse_export(json.loads((HOSTILE / "variant_claim.json").read_text()))
    assert good[0].ruleset_id == "imported-cap-800k" and good[0].award().amount == 90_000_000
    # the shipped data itself, and the same values in older wording, keep their id
    assert verified(load())[0] is load() and verified(load("cap-800k"))[1] is None
    data = load().to_data()
    data["parameters"]["capital_cap"]["citation"] = "older wording of the same rule"
    from core.rulesets import from_data
    same, note = verified(from_data(data))
    assert same.id == "regulation" and note is None
    # a ruleset of its own id that calls itself the regulation
    data = load().to_data() | {"id": "my-law", "title": "The regulation in force"}
    data["parameters"]["state_share"]["value"] = "0.9"
    relabel, note = verified(from_data(data))
    assert relabel.is_variant and relabel.id == "imported-my-law" and "state_share 90%" in note


# -- item 7: portfolio names capped -----------------------------------------------------------

def test_portfolio_names_are_capped_and_clean():
    from core.portfolio import PortfolioError, read_sample, read_table, run
    df = read_sample()
    df.loc[0, "name"], df.loc[1, "name"] = "x" * 121, "a\u202eb"
    result = run(df, 400_000_000)
    assert result.table["error"][0] == ("name: '" + "x" * 60 + "…' is 121 characters long; at most 120 are allowed")
    assert "RIGHT-TO-LEFT OVERRIDE" in result.table["error"][1]
    assert result.table["error"][2] == "" and int(result.good.sum()) == len(df) - 2
    with pytest.raises(PortfolioError, match=r"row 2, column 'name': 1,048,576 characters; a cell holds at most 1,000"):
        read_table(b"name,project_type,eligible_cost\n" + b"n" * 2**20 + b",renovation,1\n", "big.csv")


# -- item 2 in a real browser: nothing the user typed becomes a link, icon, image or heading --

def test_browser_shows_hostile_text_as_text(tmp_path):
    from tests.browser_fixtures import require_chromium
    from tests.serve import browser, streamlit_server, wait_ready
    require_chromium()
    from urllib.parse import urlencode, urlparse
    store = ScenarioStore(f"sqlite:///{tmp_path / 'lib.db'}")
    evil = "https://example.com/x ![i](https://example.com/i.png) :material/warning: &copy; $$x$$"
    store.save(evil, APP)
    query = urlencode({"eligible_cost": "www.example.com https://example.com/y", "ruleset": ":material/warning: :skull:"})
    with streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{tmp_path / 'lib.db'}"}) as url, browser() as b:
        page = b.new_page(viewport={"width": 1400, "height": 1800})
        outside = []
        # blob: URLs are made in the page itself (the calculator's inputs load as one): not a request out
        page.on("request", lambda r: outside.append(r.url)
                if urlparse(r.url).scheme != "blob" and urlparse(r.url).hostname != "127.0.0.1" else None)
        page.goto(f"{url}/?{query}")
        wait_ready(page)
        page.wait_for_selector("[data-testid=stAlertContainer]", timeout=30_000)
        alerts = page.locator("[data-testid=stAlertContainer]")
        text = " ".join(alerts.all_inner_texts())
        assert "www.example.com https://example.com/y" in text and ":material/warning: :skull:" in text.replace("\u2060", "")
        assert alerts.locator("a").count() == 0 and alerts.locator("[data-testid=stIconMaterial]").count() == 0
        page.goto(f"{url}/compare")
        wait_ready(page)
        page.wait_for_selector("text=Scenarios to compare", timeout=30_000)
        main = page.locator("[data-testid=stMain]")
        assert main.locator("a[href*='example.com']").count() == 0 and main.locator("img").count() == 0
        assert main.locator(".katex").count() == 0
        page.screenshot(path=str(ROOT / "test-artifacts" / "hostile-compare.png"), full_page=True)
        assert outside == []


# -- item 4 in the app: a browser that fails gives a message, and the session goes on ------

def test_failing_browser_in_the_app_gives_a_message_and_the_session_answers(db, monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", "/bin/false")
    at = start()
    at.button(key="w:calc:pdf").click().run()
    assert not at.exception
    assert any("/bin/false does not run" in e.value for e in at.error)
    Panel(at).move("eligible_cost", 3_000_000)       # the session still answers
    assert at.metric[0].value == "$600,000"


def test_table_cells_are_shown_as_written():
    """st.table reads its cells as Markdown: the 'Numbers behind' tables must not link a name."""
    from ui.text import cell, table
    assert cell("$600,000") == "\\$600,000" and cell("Program maximum") == "Program maximum"
    assert cell("https://example.com/x") == "` https://example.com/x `"
    assert cell("www.example.com") == "` www.example.com `"
    assert cell("&copy;") == "` &copy; `"
    assert cell(":material/warning:") == "` :\u2060material/warning: `"
    assert table([{"Cap": "a*b*", "Amount": "$1"}]) == [{"Cap": "` a*b* `", "Amount": "\\$1"}]


# -- issue 30, finding 6: a variant's edition (a file's words) is shown as written, never read -------

def test_a_loaded_variants_edition_is_shown_inert_and_one_with_hidden_characters_refused(db):
    from tests.test_ui_text import interpreted
    text = to_toml(load().with_changes("mine", "Mine", {"capital_cap": "900000"}))
    hostile = text.replace(text.split("edition = ")[1].split("\n")[0],
                           '"ed. :material/skull: https://134744072/x **b** $x$"')
    at = start(page="pages/rules.py")
    at.file_uploader(key="w:variant_file").upload("mine.toml", hostile.encode(), "application/toml").run()
    assert not at.exception
    assert any("Loaded the variant" in s.value for s in at.success)
    from core.rulesets import edition_words
    from ui.text import md
    shown = md(edition_words("", at.session_state["variants"]["mine"].edition, "x"))   # the calculator's caption
    assert interpreted(shown) == [] and ":\u2060material/skull:" in shown
    bidi = text.replace(text.split("edition = ")[1].split("\n")[0], '"ed. \u202e 2"').replace('id = "mine"',
                                                                                             'id = "mine2"')
    at.file_uploader(key="w:variant_file").upload("bidi.toml", bidi.encode(), "application/toml").run()
    refused = next(e.value for e in at.error if "Not loaded" in e.value)
    assert "RIGHT-TO-LEFT OVERRIDE" in refused and "\u202e" not in refused
