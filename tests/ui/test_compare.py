"""The Compare page in AppTest: choosing scenarios, the library's actions and history, import."""
import re

import pytest
from streamlit.testing.v1 import AppTest

from core.law.rulesets import load
from core.store.model import Scenario
from tests.support import ROOT
from tests.support.pages import dashboard as start, save
from tests.support.panel import Panel
from tests.support.store import APP
from tests.support.text import interpreted


def test_save_and_overwrite_asks_first(db):
    at = save(start(), "As submitted", "first")
    assert not at.exception
    assert db.get("As submitted").notes == "first"
    Panel(at).move("eligible_cost", 3_000_000)
    save(at, "As submitted")
    assert any("already exists" in w.value for w in at.warning)
    assert db.get("As submitted").application.eligible_cost == 100_000_000   # not yet replaced
    at.button(key="w:overwrite_yes").click().run()
    assert db.get("As submitted").application.eligible_cost == 300_000_000


def test_bad_name_is_refused_clearly(db):
    at = save(start(), "   ")
    assert any("Not saved" in e.value and "is empty" in e.value for e in at.error)
    assert db.names() == []


def pick(at, db, name: str):
    """The library's select box on the scenario of that name (its options are the scenarios' uids)."""
    return at.selectbox(key="w:lib_pick").set_value(db.get(name).uid).run()


def to_compare(at):
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    return at


def test_compare_shows_saved_scenarios_with_charts(db):
    at = save(start(), "Base")
    Panel(at).move("federal_grant", 400_000)
    save(at, "<b>With federal</b>")
    to_compare(at)
    assert at.multiselect(key="w:cmp_names").value == ["Base", "<b>With federal</b>"]   # in the order saved
    answers = at.table[0].value       # the answer first: its own table, before the inputs
    assert list(answers.columns) == ["Scenario", "State grant award", "Held down by", "Route", "Funding gap",
                                     "Local match shortfall"]
    # st.table reads each cell as Markdown: a name in the cell's own type, escaped as ours (shown as typed)
    assert list(answers["Scenario"]) == ["Base \\(baseline\\)", "\\<b\\>With federal\\</b\\>"]
    assert list(answers["State grant award"]) == ["\\$500,000", "\\$100,000"]
    inputs = at.table[1].value        # on its side: a row per input, the one that differs first
    assert list(inputs.columns) == ["Input", "Base \\(baseline\\)", "\\<b\\>With federal\\</b\\>"]
    assert list(inputs["Input"])[:4] == ["Federal grant", "Project type", "Total cost of eligible work",
                                         "Local contribution"]
    assert list(inputs.iloc[0])[1:] == ["\\$0", "\\$400,000"]
    assert "Requested amount" not in list(inputs["Input"])       # no scenario has one: not a row of blanks
    assert len(at.get("plotly_chart")) == 3
    at.selectbox(key="w:cmp_baseline").set_value("<b>With federal</b>").run()
    assert not at.exception
    assert list(at.table[0].value["Scenario"]) == ["Base", "\\<b\\>With federal\\</b\\> \\(baseline\\)"]


def test_each_scenario_lists_the_readings_that_would_change_its_award(db):
    """A local match short by $400,000: read as a condition of any award, the award would be $0."""
    at = start({"project_type": "renovation", "eligible_cost": "1000000", "local_contribution": "100000"})
    save(at, "Short match")
    at = save(start(), "Met match")
    to_compare(at)
    at.multiselect(key="w:cmp_names").set_value(["Met match", "Short match"]).run()
    assert "Readings that would change an award" in [h.value for h in at.subheader]
    listed = [m.value.replace("\\", "") for m in at.markdown if "Short match" in m.value]
    assert listed == ["- Short match: What a short local match does: read as “A condition of any award”, "
                      "the award would be $0 (the local match requirement)."]


def test_illustrative_samples_are_labelled(db):
    at = to_compare(start())
    at.button[0].click().run()
    assert all(n.startswith("Illustrative: ") for n in db.names()) and len(db.names()) == 4


def test_load_rename_duplicate_delete_undo(db):
    at = save(start({"project_type": "renovation", "eligible_cost": "3000000", "local_contribution": "1500000"}), "Big")
    at = save(start(), "Small")
    to_compare(at)
    pick(at, db, "Big")
    at.text_input(key="w:lib_new").input("Bigger").run()
    at.button(key="w:lib_Renamed").click().run()
    assert sorted(db.names()) == ["Bigger", "Small"]
    pick(at, db, "Bigger")
    at.text_input(key="w:lib_new").input("Copy").run()
    at.button(key="w:lib_Duplicated").click().run()
    assert sorted(db.names()) == ["Bigger", "Copy", "Small"]
    pick(at, db, "Copy")
    at.button(key="w:lib_delete").click().run()
    assert sorted(db.names()) == ["Bigger", "Small"]
    at.button(key="w:undo").click().run()
    assert sorted(db.names()) == ["Bigger", "Copy", "Small"]
    pick(at, db, "Bigger")
    at.button(key="w:lib_load").click().run()
    assert not at.exception
    assert next(m.value for m in at.metric if m.label == "State grant award") == "$600,000"
    assert at.query_params["eligible_cost"] == "3000000"


def compare() -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception
    return at


def test_without_sign_in_everything_is_local_and_no_sign_in_shows(db):
    db.save("A", APP)
    at = compare()
    assert [b.label for b in at.button if b.label in ("Sign in", "Sign out")] == []
    assert "Owner: you (this computer)   Last changed by: you (this computer)" in at.text[0].value
    assert not [c for c in at.caption if "Only its owner" in c.value]   # local owns everything here


def test_history_and_restore_an_earlier_version(db):
    db.save("A", APP)
    db.save("A", APP.replace(federal_grant=10_000_00), overwrite=True)
    at = compare()
    rows = [r for r in at.dataframe if "Who" in r.value.columns][0].value.to_dict("records")
    assert [(r["Who"], r["What"], r["Scenario"]) for r in rows] == [("you (this computer)", "save", "A"), ("you (this computer)", "overwrite", "A")]
    version = at.selectbox(key="w:hist_event")
    assert version.options == [f"as it was after change #{rows[0]['#']}"]   # the last change is what it is now
    version.set_value(f"after change #{rows[0]['#']}").run()
    at.button(key="w:hist_restore").click().run()
    assert not at.exception
    assert db.get("A").application == APP
    assert [e.action for e in db.history("A")] == ["save", "overwrite", "restore"]
    assert [s.value.replace("\\", "") for s in at.success] == [f"Restored A as it was after change #{rows[0]['#']}."]  # the name in the sentence's type


def test_deleted_scenario_listed_and_restored_under_another_name_when_taken(db):
    db.save("A", APP)
    db.save("B", APP)
    db.delete("B")
    db.save("B", APP.replace(federal_grant=5), actor="someone@example.org")   # the name taken since
    at = compare()
    pick = at.selectbox(key="w:del_pick")
    assert pick.options == ["B (deleted by local)"]
    deleted_history = [d for d in at.dataframe if "Who" in d.value.columns][-1].value
    assert list(deleted_history["What"]) == ["save", "delete"]          # the deleted one's, not the new B's
    at.button(key="w:del_restore").click().run()
    assert any("a scenario named 'B' already exists" in e.value.replace("\\", "") for e in at.error)
    at.text_input(key="w:del_name").input("B (old)")
    at.button(key="w:del_restore").click().run()
    assert not at.exception
    assert sorted(db.names()) == ["A", "B", "B (old)"] and db.deleted() == []
    assert db.get("B (old)").application == APP and db.get("B (old)").owner == "local"
    assert [e.action for e in db.history("B (old)")] == ["save", "delete", "restore"]


def test_refusal_on_the_page_says_why(db):
    db.save("Theirs", APP, actor="alice@example.org")
    at = compare()
    assert any("Only its owner (or an administrator) may rename" in c.value for c in at.caption)
    at.button(key="w:lib_delete").click().run()
    assert not at.exception
    assert any("belongs to alice@example.org; only its owner or an administrator may delete it" in e.value.replace("\\", "")
               for e in at.error)   # shown through ui.text.md, which escapes Markdown
    assert db.names() == ["Theirs"]




CODE = re.compile(r"(`+) .*? \1", re.S)


def outside_code(markdown: str) -> str:
    """What Markdown would interpret: everything but the code spans."""
    return CODE.sub("", markdown)


def fill(store, n):
    rs = load()
    stamps = [f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}+00:00" for i in range(n)]
    store.import_scenarios([Scenario(f"Scenario {i:03d}", APP.replace(eligible_cost=100_000_000 + i * 100), rs.id,
                                     rs.version, rs.to_data(), "", stamps[i], stamps[i]) for i in range(n)])


def test_compare_opens_on_the_most_recent_few_and_pages(db):
    fill(db, 60)
    at = start(page="pages/compare.py")
    chosen = at.multiselect(key="w:cmp_names")
    assert chosen.value == ["Scenario 056", "Scenario 057", "Scenario 058", "Scenario 059"]   # as saved
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


@pytest.mark.parametrize("name", ["https://example.com/x", "![x](https://example.com/i.png)", ":red[R1]",
                                  "&copy; $$x^2$$", ":material/warning:", "a `b` ``c``"])
def test_duplicate_notice_shows_the_name_as_typed_in_the_sentences_type(db, name):
    db.save("Original", APP)
    at = start(page="pages/compare.py")
    at.text_input(key="w:lib_new").input(name)
    at.button(key="w:lib_Duplicated").click().run()
    assert not at.exception
    note = next(s.value for s in at.success if "Duplicated" in s.value)
    assert "`" not in note.replace("\\`", "") and interpreted(note) == []   # no code span, and nothing read as Markdown
    assert re.sub(r"\\(.)", r"\1", note).replace("\u2060", "") == f"Duplicated Original as {name}."   # exactly as typed
    assert db.get(name) is not None


HOSTILE = ROOT / "tests" / "fixtures" / "hostile"


@pytest.mark.parametrize("fixture, text", [
    ("deep.json", "nested more than 12 levels deep"),
    ("deep_in_scenario.json", "nested more than 12 levels deep"),
    ("huge_int.json", "a number of 5,000 digits"),
    ("duplicate_keys.json", "appears twice in one object"),
])
def test_the_compare_page_parser_gives_one_line(fixture, text):
    """The Compare page's import reads uploads with the same parser (core.law.inputs.parse_json)."""
    from core.law.inputs import InputError, parse_json
    with pytest.raises(InputError, match=text) as err:
        parse_json((HOSTILE / fixture).read_bytes(), fixture)
    assert str(err.value).startswith(fixture) and "\n" not in str(err.value)


HOSTILE_NAME = "TOP ![px](https://e.x/p.png) [Board packet](https://e.x/) $x^2$ **b** &#x202e;"


def export_of(names, updated=lambda i: f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}+00:00") -> bytes:
    import json
    from core.law.application import Application
    from core.law.rulesets import load
    from core.store.fileformat import EXPORT_FORMAT
    from core.store.model import Scenario
    rs = load()
    app = Application.from_dict({"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000})
    items = [Scenario(n, app.replace(eligible_cost=100_000_000 + i * 100), rs.id, rs.version, rs.to_data(), "",
                      updated(i), updated(i)).to_dict() for i, n in enumerate(names)]
    return json.dumps({"format": EXPORT_FORMAT, "version": 1, "scenarios": items}).encode()


def test_a_name_as_baseline_is_shown_as_typed_in_chart_titles_and_labels(db):
    """Finding 1: the baseline's name reached the bold chart title and the "Numbers behind" label
    as Markdown (an image fetched from another host on every visit, a live link, maths)."""
    from core.law.application import Application
    from tests.support.text import interpreted
    db.save("Other", Application.from_dict({"project_type": "renovation", "eligible_cost": 2_000_000}))
    db.save(HOSTILE_NAME + " :material/skull: :red[R]", Application.from_dict({"project_type": "renovation",
                                                                          "eligible_cost": 1_000_000}))
    at = to_compare(start())
    at.selectbox(key="w:cmp_baseline").set_value(at.multiselect(key="w:cmp_names").value[-1]).run()
    assert at.selectbox(key="w:cmp_baseline").value.startswith("TOP ")          # chosen as the baseline
    labels = [e.label for e in at.expander]
    titles = [m.value for m in at.markdown if "Change from the baseline" in m.value]
    behind = [label for label in labels if "Change from the baseline" in label]
    assert titles and behind
    for text in [t.removeprefix("**").removesuffix("**") for t in titles] + labels + [c.value for c in at.caption]:
        assert interpreted(text) == [], text
    shown = behind[0].replace("\\", "").replace("\u2060", "")
    assert HOSTILE_NAME + " :material/skull: :red[R]" in shown                     # and shown as written


def test_an_import_larger_than_the_comparison_keeps_it_to_its_cap_and_says_so_briefly(db):
    """Finding 4 and 11: more than 12 imported scenarios raised StreamlitSelectionCountExceedsMaxError
    on every run until a reload; 5,000 made a success message of 60,083 characters."""
    names = [f"Imported {i:03d}" for i in range(200)]
    at = to_compare(start())
    at.file_uploader(key="w:import_file:0").upload("big.json", export_of(names), "application/json").run()
    assert not at.exception
    at.button(key="w:import_go").click().run()
    assert not at.exception and db.count() == 200
    chosen = at.multiselect(key="w:cmp_names").value
    assert len(chosen) == 12 and set(chosen) <= set(names)
    note = next(s.value for s in at.success if "Imported 200 scenarios" in s.value)
    assert len(note) < 1_000 and "and 190 more" in note.replace("\\", "")
    assert "The first 12 are added to the comparison" in note
    at.run()
    assert not at.exception and len(at.multiselect(key="w:cmp_names").value) == 12   # and every run after


def test_a_comparison_over_its_cap_in_the_session_is_cut_to_it(db):
    """However the selection grew (a forged widget value, say), the page shows at most 12."""
    at = to_compare(start())
    at.file_uploader(key="w:import_file:0").upload("some.json", export_of([f"S {i}" for i in range(16)]),
                                                   "application/json").run()
    at.button(key="w:import_go").click().run()
    at.session_state["w:cmp_names"] = [f"S {i}" for i in range(16)]
    at.run()
    assert not at.exception and len(at.multiselect(key="w:cmp_names").value) == 12


def test_a_future_dated_scenario_is_refused_on_import_and_said(db):
    at = to_compare(start())
    data = export_of([HOSTILE_NAME, "Fine"], updated=lambda i: "9999-12-31T23:59:59+00:00" if i == 0 else
                     "2026-01-01T00:00:00+00:00")
    at.file_uploader(key="w:import_file:0").upload("future.json", data, "application/json").run()
    assert not at.exception
    problems = at.dataframe[0].value["Problem"].tolist()
    assert len(problems) == 1 and "is in the future" in problems[0] and problems[0].startswith("Scenario 1")
    at.button(key="w:import_go").click().run()
    assert db.names() == ["Fine"]


def test_the_refusal_to_replace_anothers_scenario_shows_name_and_owner_as_typed(db):
    """Finding 6: md(str(err)) made `Board https://134744072/packet` a live link to another host,
    `:material/skull:` an icon and the owner's email a mailto: link."""
    from core.law.application import Application
    from tests.support.text import interpreted
    name = "Board https://134744072/packet :material/skull: [x](https://e.x/)"
    db.save(name, Application.from_dict({"project_type": "renovation", "eligible_cost": 1}), actor="bob@agency.gov")
    at = save(start(), name)
    at.button(key="w:overwrite_yes").click().run()
    assert not at.exception
    said = next(e.value for e in at.error if "Not replaced" in e.value)
    assert interpreted(said) == [] and "bob@agency.gov" in said and "only its owner" in said
    assert db.get(name).owner == "bob@agency.gov" and db.get(name).application.eligible_cost == 100


# -- the comparison in the order people present it ----------------------------------------------

def three(db):
    """As submitted, then two changes of it, saved in that order (the way people make them)."""
    db.save("As submitted", APP)
    db.save("With a federal grant", APP.replace(federal_grant=20_000_000))
    db.save("Smaller", APP.replace(eligible_cost=80_000_000))
    return start(page="pages/compare.py")


def shown_order(at) -> list[str]:
    """The scenarios as the answer table lists them, the baseline said."""
    answer = next(t.value for t in at.table if "Local match shortfall" in t.value.columns)
    return [s.replace("\\", "").replace("` ", "").replace(" `", "") for s in answer["Scenario"]]


def test_the_comparison_opens_in_the_order_saved_and_the_first_is_the_baseline(db):
    at = three(db)
    assert at.multiselect(key="w:cmp_names").value == ["As submitted", "With a federal grant", "Smaller"]
    assert at.selectbox(key="w:cmp_baseline").value == "As submitted"
    assert shown_order(at) == ["As submitted (baseline)", "With a federal grant", "Smaller"]
    change = next(m.value for m in at.markdown if "Change from the baseline" in m.value)
    assert "As submitted" in change
    assert at.query_params["scenario"] == ["As submitted", "With a federal grant", "Smaller"]
    assert "baseline" not in at.query_params                      # the first: the address need not say it


def test_move_up_and_down_reorders_everything_and_the_baseline_follows_the_first(db):
    at = three(db)
    at.selectbox(key="w:cmp_move").set_value("Smaller").run()
    assert at.button(key="w:cmp_down").disabled and not at.button(key="w:cmp_up").disabled   # the last
    at.button(key="w:cmp_up").click().run()
    at.button(key="w:cmp_up").click().run()
    assert at.multiselect(key="w:cmp_names").value == ["Smaller", "As submitted", "With a federal grant"]
    assert at.selectbox(key="w:cmp_move").value == "Smaller" and at.button(key="w:cmp_up").disabled
    assert at.selectbox(key="w:cmp_baseline").value == "Smaller"       # none chosen: the first
    assert shown_order(at) == ["Smaller (baseline)", "As submitted", "With a federal grant"]
    at.button(key="w:cmp_down").click().run()
    assert shown_order(at) == ["As submitted (baseline)", "Smaller", "With a federal grant"]
    inputs = at.table[1].value
    assert list(inputs.columns)[1:] == ["As submitted \\(baseline\\)", "Smaller", "With a federal grant"]
    assert list(inputs["Input"])[:3] == ["Total cost of eligible work", "Federal grant", "Project type"]


def test_a_chosen_baseline_is_kept_across_reruns_pages_and_presentation_mode(db):
    at = three(db)
    at.selectbox(key="w:cmp_baseline").set_value("With a federal grant").run()
    assert at.query_params["baseline"] == "2"
    at.selectbox(key="w:cmp_move").set_value("Smaller").run()
    at.button(key="w:cmp_up").click().run()                   # moving others does not move the baseline
    assert at.selectbox(key="w:cmp_baseline").value == "With a federal grant"
    at.switch_page("pages/calculator.py").run()
    at.switch_page("pages/compare.py").run()                  # a page left and come back to: all kept
    assert at.multiselect(key="w:cmp_names").value == ["As submitted", "Smaller", "With a federal grant"]
    assert at.selectbox(key="w:cmp_baseline").value == "With a federal grant"
    at.toggle(key="presentation").set_value(True).run()
    assert not at.exception
    assert at.selectbox(key="w:cmp_baseline").value == "With a federal grant"   # not reset by presenting
    assert shown_order(at) == ["As submitted", "Smaller", "With a federal grant (baseline)"]
    card = [m.value.replace("\\", "") for m in at.markdown if "Against the baseline" in m.value]
    assert card and "“` With a federal grant `”: the award is $200,000 more; the funding gap is the same." in card[0]
    assert [t.value for t in at.text][0] == "As submitted"    # the first step is the first in the order
    at.toggle(key="presentation").set_value(False).run()
    assert at.selectbox(key="w:cmp_baseline").value == "With a federal grant"


def test_a_link_reproduces_the_order_and_the_baseline(db):
    at = three(db)
    at.selectbox(key="w:cmp_move").set_value("As submitted").run()
    at.button(key="w:cmp_down").click().run()
    at.selectbox(key="w:cmp_baseline").set_value("Smaller").run()
    link = dict(at.query_params)
    assert link == {"scenario": ["With a federal grant", "As submitted", "Smaller"], "baseline": "3"}
    other = start(link, page="pages/compare.py")                 # another person opens the copied link
    assert other.multiselect(key="w:cmp_names").value == ["With a federal grant", "As submitted", "Smaller"]
    assert other.selectbox(key="w:cmp_baseline").value == "Smaller"
    assert shown_order(other) == ["With a federal grant", "As submitted", "Smaller (baseline)"]
    assert not other.warning
    other.run()                                                  # and keeps it on the runs after
    assert other.selectbox(key="w:cmp_baseline").value == "Smaller"
    # opened in presentation mode, it presents that order against that baseline
    shown = start(link | {"present": "1"}, page="pages/compare.py")
    assert [t.value for t in shown.text][0] == "With a federal grant"
    assert any("“` Smaller `”" in m.value for m in shown.markdown if "Against the baseline" in m.value)


def test_a_link_naming_what_is_not_in_the_library_says_so_and_compares_the_rest(db):
    three(db)
    at = start({"scenario": ["Smaller", "Gone", "As submitted"], "baseline": "2"}, page="pages/compare.py")
    said = [w.value.replace("\\", "") for w in at.warning]
    assert any("The link names a scenario not in the library" in w and "` Gone `" in w for w in said)
    assert at.multiselect(key="w:cmp_names").value == ["Smaller", "As submitted"]
    assert at.selectbox(key="w:cmp_baseline").value == "Smaller"           # its baseline was the one missing
    # "²" and "٢" are digits to Python but no place in a list (hostile probe, 2026-12-06: "²" stopped the page)
    for place in ("seven", "²", "٢"):
        at = start({"scenario": ["Smaller", "As submitted"], "baseline": place}, page="pages/compare.py")
        assert any(f"The link's baseline ` {place} ` is not a place in its list of scenarios (1 to 2)"
                   in w.value.replace("\\", "") for w in at.warning)
        assert at.selectbox(key="w:cmp_baseline").value == "Smaller"


def test_the_report_takes_the_screens_order_and_baseline(db, monkeypatch):
    import ui.reporting
    made = []
    real = ui.reporting.render
    monkeypatch.setattr(ui.reporting, "render", lambda report, **kw: made.append(report) or real(report, **kw))
    at = three(db)
    at.selectbox(key="w:cmp_move").set_value("Smaller").run()
    at.button(key="w:cmp_up").click().run()
    at.selectbox(key="w:cmp_baseline").set_value("With a federal grant").run()
    at.button(key="w:cmp:html").click().run()
    assert not at.exception
    report = made[-1]
    assert [i.name for i in report.items] == ["As submitted", "Smaller", "With a federal grant"]
    assert report.baseline == 2
    doc = real(report)
    assert doc.index("<h2>As submitted</h2>") < doc.index("<h2>Smaller</h2>") < doc.index("<h2>With a federal grant</h2>")
    assert "Change from the baseline: With a federal grant" in doc


def test_a_renamed_scenario_keeps_its_place_and_stays_the_baseline(db):
    at = three(db)
    at.selectbox(key="w:cmp_baseline").set_value("Smaller").run()
    pick(at, db, "Smaller")
    at.text_input(key="w:lib_new").input("Reduced scope").run()
    at.button(key="w:lib_Renamed").click().run()
    assert at.multiselect(key="w:cmp_names").value == ["As submitted", "With a federal grant", "Reduced scope"]
    assert at.selectbox(key="w:cmp_baseline").value == "Reduced scope"


def test_moving_keeps_a_scenario_within_the_list_and_the_baseline_falls_back_to_the_first():
    from ui.comparison import baseline_of, moved
    order = ["A", "B", "C"]
    assert moved(order, "C", -1) == ["A", "C", "B"] and moved(order, "A", -1) == order
    assert moved(order, "C", 1) == order and moved(order, "A", 2) == ["B", "C", "A"]
    assert moved(order, "Z", 1) == order
    assert baseline_of(order, None) == "A" and baseline_of(order, "B") == "B"
    assert baseline_of(order, "Gone") == "A" and baseline_of([], "A") is None


# -- two sessions on one library: every action acts on the scenario as it was picked (issue 36) ------

STALE = "target was deleted by someone else since you picked it; nothing was changed."


def two_sessions(db, edited: bool = False):
    """"keep me" and "target" saved (`edited`: "target" overwritten once, so it has a version to
    restore); this session has "target" picked on Compare, and another session (its own AppTest,
    the same library) has the Compare page open too."""
    db.save("keep me", APP)
    db.save("target", APP.replace(federal_grant=100_000_00), notes="the one asked about")
    if edited:
        db.save("target", APP.replace(federal_grant=100_000_00), notes="edited", overwrite=True)
    mine, theirs = compare(), compare()
    pick(mine, db, "target")
    assert "Name: target" in mine.text[0].value
    return mine, theirs


def said(at) -> list[str]:
    return [e.value.replace("\\", "") for e in at.error]


def others_delete_target(db, theirs) -> None:
    pick(theirs, db, "target")
    theirs.button(key="w:lib_delete").click().run()
    assert not theirs.exception and "target" not in db.names()


def test_a_delete_pressed_after_another_session_deleted_the_pick_deletes_nothing_and_says_so(db):
    """The finding: with "target" picked and "Delete "target"?" open, another session deletes
    "target"; "Yes, delete it" then said "Scenario deleted." and deleted "keep me"."""
    mine, theirs = two_sessions(db)
    others_delete_target(db, theirs)
    mine.button(key="w:lib_delete").click().run()
    assert not mine.exception
    assert db.names() == ["keep me"]
    assert said(mine) == [STALE]
    assert "Scenario deleted." not in [i.value for i in mine.info]
    assert [e.action for e in db.history()] == ["save", "save", "delete"]   # only theirs


@pytest.mark.parametrize("action", ["open", "rename", "duplicate"])
def test_open_rename_or_duplicate_of_a_pick_deleted_meanwhile_does_nothing_and_says_so(db, action):
    mine, theirs = two_sessions(db)
    others_delete_target(db, theirs)
    if action != "open":
        mine.text_input(key="w:lib_new").input("new name")
    key = {"open": "w:lib_load", "rename": "w:lib_Renamed", "duplicate": "w:lib_Duplicated"}[action]
    mine.button(key=key).click().run()
    assert not mine.exception
    assert said(mine) == [STALE]
    assert db.names() == ["keep me"] and len(db.history()) == 3
    assert [t.value for t in mine.title] == ["Compare scenarios"]    # not the calculator, with another's inputs
    assert "eligible_cost" not in mine.query_params or mine.query_params["federal_grant"] != "100000"


@pytest.mark.parametrize("action", ["open", "rename", "duplicate", "delete", "history"])
def test_an_action_on_a_pick_another_session_changed_does_nothing_and_says_so(db, action):
    mine, theirs = two_sessions(db, edited=action == "history")
    events = [e.action for e in db.history()]
    db.save("target", APP.replace(federal_grant=5), overwrite=True, actor="local")   # changed meanwhile
    if action in ("rename", "duplicate"):
        mine.text_input(key="w:lib_new").input("new name")
    key = {"open": "w:lib_load", "rename": "w:lib_Renamed", "duplicate": "w:lib_Duplicated",
           "delete": "w:lib_delete", "history": "w:hist_restore"}[action]
    mine.button(key=key).click().run()
    assert not mine.exception
    assert said(mine) == ["target was changed by someone else since you picked it; nothing was changed. It is "
                          "shown as it is now: look at it again, then try again."]
    assert sorted(db.names()) == ["keep me", "target"] and db.get("target").application.federal_grant == 5
    assert [e.action for e in db.history()] == events + ["overwrite"]
    # shown as it is now: pressed again, it acts on this version
    if action == "delete":
        mine.button(key="w:lib_delete").click().run()
        assert db.names() == ["keep me"] and said(mine) == []


def test_a_renamed_pick_is_said_by_both_names_and_a_delete_pressed_after_it_deletes_nothing(db):
    mine, theirs = two_sessions(db)
    db.rename("target", "target (theirs now)")
    mine.button(key="w:lib_delete").click().run()
    assert said(mine) == ["target was changed by someone else since you picked it (it is now called "
                          "target (theirs now)); nothing was changed. It is shown as it is now: look at it "
                          "again, then try again."]
    assert sorted(db.names()) == ["keep me", "target (theirs now)"]


def test_restoring_a_deleted_scenario_someone_restored_meanwhile_does_not_restore_it_over(db):
    db.save("keep me", APP)
    db.save("target", APP)
    db.delete("target")
    mine = compare()
    assert mine.selectbox(key="w:del_pick").options == ["target (deleted by local)"]
    db.restore_version(db.deleted()[0].id)                                # another session brings it back
    db.save("target", APP.replace(federal_grant=7), overwrite=True)      # and changes it
    mine.button(key="w:del_restore").click().run()
    assert not mine.exception
    assert said(mine) == ["target was restored by someone else since you picked it; nothing was changed. It is "
                          "shown as it is now: look at it again, then try again."]
    assert db.get("target").application.federal_grant == 7


def test_undo_of_a_delete_someone_undid_meanwhile_does_nothing_and_says_so(db):
    db.save("keep me", APP)
    db.save("target", APP)
    mine = compare()
    pick(mine, db, "target")
    mine.button(key="w:lib_delete").click().run()
    assert db.names() == ["keep me"] and [i.value for i in mine.info] == ["Scenario deleted."]
    db.restore_version(db.deleted()[0].id)                                # brought back elsewhere
    mine.button(key="w:undo").click().run()
    assert not mine.exception and sorted(db.names()) == ["keep me", "target"]
    assert said(mine) == ["target was restored by someone else since you picked it; nothing was changed. It is "
                          "shown as it is now: look at it again, then try again."]
    assert [e.action for e in db.history()].count("restore") == 1


def test_after_a_move_the_browser_is_told_the_order_controls_new_labels(db):
    """Issue 48: the browser holds a select box's choice by its label ("3. Smaller"); after a move
    it was not told the new one, so the selector no longer named the scenario moved and a second
    "Move up" did nothing (tests/browser/test_presentation.py has it in Chromium)."""
    at = three(db)
    at.selectbox(key="w:cmp_move").set_value("Smaller").run()
    at.button(key="w:cmp_up").click().run()
    mover, base = at.selectbox(key="w:cmp_move").proto, at.selectbox(key="w:cmp_baseline").proto
    assert list(mover.options) == ["1. As submitted", "2. Smaller", "3. With a federal grant"]
    assert (mover.set_value, mover.raw_value) == (True, "2. Smaller")
    assert (base.set_value, base.raw_value) == (True, "1. As submitted")
    at.run()   # nothing moved: nothing sent again
    assert not at.selectbox(key="w:cmp_move").proto.set_value
