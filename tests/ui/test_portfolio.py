""""""
import json

from streamlit.testing.v1 import AppTest

from tests.support import ROOT


def test_portfolio_page_sample_modes_and_weights():
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.switch_page("pages/portfolio.py").run()
    assert not at.exception
    assert any("ILLUSTRATIVE" in w.value for w in at.warning)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Allocated"] == "$4,000,000" and metrics["Budget"] == "$4,000,000"
    assert len(at.get("plotly_chart")) == 3
    from core.law.provisions import LAW_CAPTION
    # the caption names the law as the calculator does (the edition and fingerprint: Rules page, exports)
    assert at.caption[0].value.replace("\\", "").endswith(LAW_CAPTION)
    at.radio(key="w:pf_mode").set_value("pro-rata").run()
    at.slider(key="w:pf_w:density").set_value(3.0).run()
    at.selectbox(key="w:pf_variant").set_value("cap-800k").run()
    assert not at.exception
    assert any("more" in m.value and "Capital cap raised" in m.value for m in at.markdown)
    at.text_input(key="w:pf_budget").input("lots").run()
    assert any("Budget: ` lots ` is not a number" in e.value for e in at.error)


def test_the_portfolio_packet_is_made_at_the_click_for_what_the_page_shows():
    """Issue 28: a board document for the portfolio, beside the results download, made as the
    report files are (ui/reporting.py): for the budget, mode and weights on the screen then."""
    import base64
    import json

    from tests.support.panel import _nodes
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.switch_page("pages/portfolio.py").run()
    labels = [b.label for b in at.button]
    assert "Download the Portfolio packet (HTML)" in labels and "Make the Portfolio packet (PDF)" in labels
    at.text_input(key="w:pf_budget").input("2,500,000")
    at.radio(key="w:pf_mode").set_value("whole")
    at.slider(key="w:pf_w:proximity").set_value(2.0)
    at.text_input(key="w:pf:prepared").input("Grants office")
    at.button(key="w:pf:html").click().run()
    assert not at.exception
    node = next(n for n in _nodes(at) if n.key == "pf:file")
    got = json.loads(node.proto.bytes)
    assert got["name"] == "portfolio-allocation.html" and got["mime"] == "text/html"
    doc = base64.b64decode(got["b64"]).decode("utf-8")
    assert "<h1>Portfolio allocation</h1>" in doc and "Prepared by Grants office" in doc
    assert "ILLUSTRATIVE: a sample of fictional applications" in doc
    assert "In priority order, skipping awards that do not fit whole, against a budget of $2,500,000." in doc
    assert ("priority score = 25% × (a denser senior population scores higher) + 50% × (a project farther from an "
            "existing senior center scores higher)") in doc
    assert "the weights and directions used here are the Department" in doc
    assert "All 20 applications in priority order." in doc and "Held down by" in doc
    assert "Cumulative allocation against the budget" in doc


def test_the_portfolio_packet_refuses_a_preparer_with_hidden_characters():
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60).run()
    at.switch_page("pages/portfolio.py").run()
    at.text_input(key="w:pf:prepared").input("Ann\u200b")
    at.button(key="w:pf:html").click().run()
    assert not at.exception
    said = next(e.value for e in at.error if "The packet cannot carry this" in e.value)
    assert "Prepared by: ` Ann[U+200B] ` contains an invisible formatting character" in said.replace("\\", "")
# --- spreadsheets both ways (issue 28) -----------------------------------------------------------

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def portfolio_page():
    from tests.support.pages import dashboard
    return dashboard(page="pages/portfolio.py")


def unescaped(text: str) -> str:
    import re
    return re.sub(r"\\(.)", r"\1", text).replace("\u2060", "")


def problems(at) -> str:
    return "\n".join(unescaped(m.value) for m in at.markdown if m.value.startswith("- **Row "))


def test_an_xlsx_of_the_sample_gives_the_samples_results_and_its_sheet_is_picked():
    from core.law.portfolio import SAMPLE
    from tests.support.workbooks import workbook_of_csv
    at = portfolio_page()
    at.file_uploader(key="w:pf_file").upload("sample.xlsx", workbook_of_csv(SAMPLE.read_text(encoding="utf-8"),
                                                                             others=("Notes",)), XLSX).run()
    assert not at.exception, at.exception
    picker = at.selectbox(key=next(s.key for s in at.selectbox if s.key.startswith("w:pf_sheet:")))
    assert picker.options == ["Applications", "Notes"] and picker.value == "Applications"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Maximum awards"] == "$6,553,000" and metrics["Allocated"] == "$4,000,000"
    assert not at.error and not any("ILLUSTRATIVE sample" in w.value for w in at.warning)
    picker.set_value("Notes").run()
    assert [unescaped(e.value) for e in at.error] == [
        "` sample.xlsx `: no column 'Project type' (project_type), and the column 'another sheet' is not one the "
        "portfolio reads; use the template's column titles (or their code names); the sheet read is 'Notes', one of "
        "2: pick the one with the applications"]


def test_a_workbooks_bad_rows_are_listed_in_full_by_the_spreadsheets_row():
    import datetime
    from tests.support.workbooks import workbook
    head = ["name", "project_type", "eligible_cost", "local_contribution"]
    data = workbook({"Applications": [head, ["Alder", "renovation", 1_000_000, 500_000], [],
                                      ["Birch", "renovation", "=C2*2", 0],
                                      ["Cedar", "renovation", 900_000, datetime.date(2026, 1, 5)],
                                      ["Dunmore", "renovation", 700_000, 350_000], [None, None, None, None]]})
    at = portfolio_page()
    at.file_uploader(key="w:pf_file").upload("apps.xlsx", data, XLSX).run()
    assert not at.exception, at.exception
    assert unescaped(at.error[0].value).startswith("2 rows could not be used; the other 2 are used. Each is listed "
                                                    "below by its row here (from 1, as the editor numbers them) and its "
                                                    "row in the spreadsheet.")
    said = problems(at)   # issue 51: the board's row (from 1) and the spreadsheet's, both
    assert said == ("- **Row 2** (row 4 of the spreadsheet), ` Birch `: eligible_cost: '=C2*2' is a spreadsheet "
                    "formula, not a number; enter the value itself (in the spreadsheet: copy the cells, then Paste "
                    "Special, Values)\n"
                    "- **Row 3** (row 5 of the spreadsheet), ` Cedar `: local_contribution: '2026-01-05' is a date, not a number; the spreadsheet "
                    "cell is formatted as a date: format it as a number and enter the value again")
    assert {m.label: m.value for m in at.metric}["Maximum awards"] == "$850,000"


def test_a_csv_with_a_blank_line_and_an_all_commas_last_row_lists_only_its_bad_rows_by_line():
    text = ("name,project_type,eligible_cost,local_contribution\n"
            "Alder,renovation,1000000,500000\n\nBirch,renovation,oops,0\nCedar,renovation,300000,150000\n,,,\n")
    at = portfolio_page()
    at.file_uploader(key="w:pf_file").upload("apps.csv", text.encode(), "text/csv").run()
    assert unescaped(at.error[0].value).startswith("1 row could not be used; the other 2 are used. It is listed below "
                                                    "by its row here (from 1, as the editor numbers them) and its line "
                                                    "in the file.")
    assert problems(at) == ("- **Row 2** (line 4 of the file), ` Birch `: eligible_cost: 'oops' is not a number; enter dollars such as "
                            "1250000 or 1,250,000.50")


def test_a_file_of_another_kind_is_said_in_words():
    at = portfolio_page()
    at.file_uploader(key="w:pf_file").upload("board.pdf", b"%PDF-1.4 ...", "application/pdf").run()
    assert not at.exception
    assert [unescaped(e.value) for e in at.error] == [
        "` board.pdf `: a PDF file; a table is read from a CSV file (.csv) or an Excel workbook (.xlsx)"]
    at.file_uploader(key="w:pf_file").upload("apps.xlsx", b"name,project_type\n", XLSX).run()
    assert unescaped(at.error[0].value).startswith("` apps.xlsx `: not an Excel workbook, though its name ends in .xlsx")
    # the templates are offered even then
    assert {b.key for b in at.get("download_button")} >= {"w:pf_template_xlsx", "w:pf_template_csv"}
    # issue 36: a PDF renamed .csv got "missing column 'project_type'"; a UTF-16 CSV no word of how to save it
    at.file_uploader(key="w:pf_file").upload("apps.csv", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "text/csv").run()
    assert [unescaped(e.value) for e in at.error] == [
        "` apps.csv `: a PDF file, though its name ends in .csv; a table is read from a CSV file (.csv) or an Excel "
        "workbook (.xlsx)"]
    text = "name,project_type,eligible_cost,local_contribution\nAlder,renovation,1000000,500000\n"
    at.file_uploader(key="w:pf_file").upload("unicode.csv", text.encode("utf-16"), "text/csv").run()
    assert [unescaped(e.value) for e in at.error] == [
        "` unicode.csv `: UTF-16 text (what Excel calls Unicode Text), which is not read; save it as CSV UTF-8 (in "
        "Excel: Save As, CSV UTF-8 (Comma delimited)) and choose that file"]


def test_the_templates_and_both_downloads_are_offered():
    at = portfolio_page()
    buttons = {b.key: b.proto.label for b in at.get("download_button")}
    assert buttons == {"w:pf_template_xlsx": "Template (Excel)", "w:pf_template_csv": "Template (CSV)",
                       "w:pf_results_xlsx": "Download the results (Excel)",
                       "w:pf_results_csv": "Download the results (CSV)"}


def test_a_file_in_peoples_words_is_read_and_a_column_no_field_has_is_named():
    at = portfolio_page()
    text = ("Application,Project type,Total cost of eligible work,Local contribution,Our notes\n"
            "Illustrative: Alder hall,renovation,\"1,000,000\",500000,call back\n")
    at.file_uploader(key="w:pf_file").upload("words.csv", text.encode(), "text/csv").run()
    assert not at.exception and not at.error
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Maximum awards"] == "$500,000"
    assert [unescaped(i.value) for i in at.info if "Not read" in i.value] == [
        "Not read: the column ` Our notes ` is no column of the template; kept in the downloads as given. The "
        "template's Notes sheet lists the columns read."]


def test_the_editor_numbers_rows_from_1_and_a_message_cites_both_its_row_and_the_files_line():
    """Issue 51: the editor numbered the rows as the file does (the sample's first was row 3); a
    board reads rows from 1. The file's line stays beside it, in the editor and in each message, so
    a problem at line 4 of the file is still found there; a row added in the editor says so."""
    text = ("name,project_type,eligible_cost,local_contribution\n"
            "Alder,renovation,1000000,500000\n\nBirch,renovation,oops,0\nCedar,renovation,300000,150000\n")
    at = portfolio_page()
    at.file_uploader(key="w:pf_file").upload("apps.csv", text.encode(), "text/csv").run()
    at.session_state["pf_edit_panel"] = True
    at.run()
    assert not at.exception, at.exception
    editor = at.data_editor[0]
    shown = editor.value
    assert shown.index.name == "Row" and shown.index.tolist() == [1, 2, 3]
    assert shown["_file_row"].tolist() == [2, 4, 5] and shown["name"].tolist() == ["Alder", "Birch", "Cedar"]
    columns = json.loads(editor.proto.columns)
    assert columns["_index"]["label"] == "Row" and columns["_file_row"]["label"] == "Line in the file"
    assert columns["_file_row"]["disabled"] is True
    assert problems(at).startswith("- **Row 2** (line 4 of the file), ` Birch `: eligible_cost: 'oops' is not a number")
    # a row added in the editor: numbered after the last, and said to be added here (no line of the file)
    at.session_state["w:pf_editor:apps.csv:1"] = {"edited_rows": {}, "deleted_rows": [0],
                                                  "added_rows": [{"name": "Dunmore", "project_type": "renovation",
                                                                  "eligible_cost": "lots"}]}
    at.run()
    assert not at.exception, at.exception
    assert problems(at).splitlines() == [
        "- **Row 2** (line 4 of the file), ` Birch `: eligible_cost: 'oops' is not a number; enter dollars such as "
        "1250000 or 1,250,000.50",
        "- **Row 4** (added in the editor), ` Dunmore `: eligible_cost: 'lots' is not a number; enter dollars such as "
        "1250000 or 1,250,000.50"]
