"""Issue 19, the command line under hostile input: spreadsheet-safe CSV (item 3), safe file
writes (item 8) and hostile files (items 6 and 10), each refused with one line and exit 2,
changing nothing. The hostile files are kept under tests/fixtures/hostile/."""
import csv
import io
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from core.export import csv_bytes, dangerous
from tests.conftest import ROOT

HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
DANGER = ("=", "+", "-", "@", "\t", "\r")
APP = {"project_type": "renovation", "eligible_cost": 1_000_000, "local_contribution": 500_000}


def run(*args, stdin=None, env=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "core", *map(str, args)], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, env={**os.environ, **(env or {})})


def one_line_error(r, text):
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert text in r.stderr, r.stderr


def cells(data: bytes) -> list[list[str]]:
    """Rows as a real CSV reader sees them (newline='' as the csv module asks)."""
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def assert_safe(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(DANGER), f"unsafe cell {cell!r} in {row}"


# -- item 3: CSV safety --------------------------------------------------------------------

@pytest.mark.parametrize("value, written", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(1)", "'@SUM(1)"), ("\tx", "'\tx"),
    ("\r@SUM(1)", "'\r@SUM(1)"), ("x\r=2+2", "'x\r=2+2"), ("a\nb", "'a\nb"), ("plain", "plain"), ("", ""),
])
def test_every_dangerous_cell_is_prefixed_and_quoted(value, written):
    data = csv_bytes(pd.DataFrame({"name": [value], "n": [-5]}))
    rows = cells(data)
    assert rows == [["name", "n"], [written, "-5"]]   # one row: no CR or LF escaped its cell
    if dangerous(value) and ("\r" in value or "\n" in value):
        assert f'"{written}"'.encode() in data          # quoted, so every reader keeps it in its cell


def test_batch_output_is_safe_header_included_and_raw_keeps_cells(tmp_path):
    src, out, raw = HOSTILE / "formulas.csv", tmp_path / "out.csv", tmp_path / "raw.csv"
    r = run("batch", src, "-o", out)
    assert r.returncode == 1, r.stderr          # the '=1+1' cost is a bad row
    rows = cells(out.read_bytes())
    assert len(rows) == 7                        # header + 6 rows: nothing split by a CR or LF
    assert_safe(rows)
    assert rows[0][4] == "'=HYPERLINK(\"http://example.com\")"
    assert [r[0] for r in rows[1:]] == ["'\r@SUM(1)", "'x\r=2+2", "'=1+1", "'@cmd", "'line\nbreak", "'-5"]
    assert rows[1][5] == "500000.00" and rows[4][5] == "15000.00"   # awards still numbers
    r = run("batch", src, "-o", raw, "--raw")
    raw_rows = cells(raw.read_bytes())
    assert [r[0] for r in raw_rows[1:]] == ["\r@SUM(1)", "x\r=2+2", "=1+1", "@cmd", "line\nbreak", "-5"]
    assert len(raw_rows) == 7


def test_allocate_output_is_safe(tmp_path):
    src = tmp_path / "pf.csv"
    src.write_bytes((HOSTILE / "formulas.csv").read_bytes())
    out = tmp_path / "out.csv"
    r = run("allocate", src, "--budget", "1000000", "-o", out)
    assert r.returncode == 1, r.stderr
    rows = cells(out.read_bytes())
    assert len(rows) == 7
    assert_safe(rows)


def test_portfolio_and_comparison_downloads_are_safe():
    from core.award import evaluate
    from core.application import Application
    from core.compare import table
    from core.portfolio import read_table, run as allocate

    result = allocate(read_table((HOSTILE / "formulas.csv").read_bytes(), "formulas.csv"), 100_000_000)
    assert_safe(cells(csv_bytes(result.table)))
    award = evaluate(Application.from_dict(APP))
    rows = cells(csv_bytes(table([("x\r=2+2", award), ("=cmd|' /C calc'!A0", award)], machine=True)))
    assert_safe(rows) and len(rows) == 3


# -- item 8: files written safely ----------------------------------------------------------

@pytest.fixture
def export(tmp_path):
    src = tmp_path / "s.json"
    src.write_text(json.dumps([{"name": "A", **APP}]))
    return src


def test_report_never_writes_over_its_input(export):
    before = export.read_bytes()
    one_line_error(run("report", export, "-o", export), "that is the input file")
    one_line_error(run("report", export, "-o", export, "--force"), "that is the input file")
    assert export.read_bytes() == before


def test_two_outputs_on_one_path_refused(export, tmp_path):
    out = tmp_path / "r.html"
    one_line_error(run("report", export, "-o", out, "--pdf", out), "the same file as -o")
    assert not out.exists()


def test_existing_file_replaced_only_with_force(export, tmp_path):
    out = tmp_path / "r.html"
    out.write_text("keep me")
    one_line_error(run("report", export, "-o", out), "already exists; use --force to replace it")
    assert out.read_text() == "keep me"
    r = run("report", export, "-o", out, "--force")
    assert r.returncode == 0, r.stderr and "$500,000" in out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "s.json"]   # no temporary file left


def test_planted_symlinks_are_never_followed(export, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "OUT.html"
    for name in ("OUT.html.tmp", ".OUT.html.tmp"):   # the old fixed name, and a guess at a new one
        (tmp_path / name).symlink_to(victim)
    r = run("report", export, "-o", out)
    assert r.returncode == 0, r.stderr
    assert victim.read_text() == "precious"
    assert "$500,000" in out.read_text() and not out.is_symlink()
    # --force on a path that is itself a link replaces the link, never writes through it
    link = tmp_path / "link.html"
    link.symlink_to(victim)
    assert run("report", export, "-o", link, "--force").returncode == 0
    assert victim.read_text() == "precious" and not link.is_symlink()


def test_directory_as_output_leaves_nothing(export, tmp_path):
    folder = tmp_path / "dir"
    folder.mkdir()
    one_line_error(run("report", export, "-o", folder, "--force"), "is a folder")
    one_line_error(run("batch", HOSTILE / "formulas.csv", "-o", tmp_path / "missing" / "o.csv"), "does not exist")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "s.json"] and not any(folder.iterdir())


def test_failed_pdf_writes_neither_file(export, tmp_path):
    out, packet = tmp_path / "r.html", tmp_path / "r.pdf"
    r = run("report", export, "-o", out, "--pdf", packet, env={"BROWSER_PATH": "/bin/false"}, timeout=200)
    one_line_error(r, "--pdf:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_batch_and_allocate_refuse_their_input_and_existing_files(tmp_path):
    src = tmp_path / "in.csv"
    src.write_bytes((HOSTILE / "formulas.csv").read_bytes())
    before = src.read_bytes()
    one_line_error(run("batch", src, "-o", src, "--force"), "that is the input file")
    one_line_error(run("allocate", src, "--budget", "1", "-o", src, "--force"), "that is the input file")
    assert src.read_bytes() == before
    out = tmp_path / "out.csv"
    out.write_text("old")
    one_line_error(run("batch", src, "-o", out), "already exists")
    assert out.read_text() == "old"


# -- items 6 and 10: hostile files, one clear line each, exit 2 ---------------------------

@pytest.mark.parametrize("fixture, text", [
    ("deep.json", "nested more than 12 levels deep"),
    ("deep_in_scenario.json", "nested more than 12 levels deep"),
    ("huge_int.json", "a number of 5,000 digits"),
    ("duplicate_keys.json", "the key 'eligible_cost' appears twice"),
    ("tiny_exponent.json", "eligible_cost: '1e-99999999' has fractions of a cent"),
])
def test_hostile_json_files_one_line_exit_2(fixture, text):
    one_line_error(run("evaluate", HOSTILE / fixture), text)


@pytest.mark.parametrize("fixture", ["deep.json", "deep_in_scenario.json", "huge_int.json", "duplicate_keys.json"])
def test_hostile_json_files_import_nothing(fixture, tmp_path):
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    one_line_error(run("scenarios", "import", HOSTILE / fixture, env={"SCENARIO_DB_URL": db}), fixture)
    assert run("scenarios", "list", env={"SCENARIO_DB_URL": db}).stdout == ""


def test_input_size_is_capped():
    one_line_error(run("evaluate", "/dev/zero", timeout=200), "larger than 64 MB")
    many = json.dumps([APP] * 100_001)
    one_line_error(run("evaluate", "-", stdin=many, timeout=200), "100,001 applications; at most 100,000")


@pytest.mark.parametrize("fixture, text", [("deep.toml", "nested more than 12 levels deep"),
                                           ("huge_int.toml", "cannot be read")])
def test_hostile_toml(fixture, text):
    from core.rulesets import RulesetError, load_text
    with pytest.raises(RulesetError, match=text) as err:
        load_text((HOSTILE / fixture).read_text(), fixture)
    assert "\n" not in str(err.value)


# -- item 4: PDF packets serialised, bounded in time, clear when the browser fails --------

def test_failing_browser_gives_one_line_fast(export, tmp_path):
    out = tmp_path / "r.html"
    r = run("report", export, "-o", out, "--pdf", tmp_path / "r.pdf", env={"BROWSER_PATH": "/bin/false"}, timeout=60)
    one_line_error(r, "--pdf: /bin/false does not run")


def test_hanging_browser_is_stopped_at_the_timeout(tmp_path, monkeypatch):
    """A browser that answers --version and then hangs: the packet gives up at the timeout
    with a message, and the next packet is not blocked by the one that hung."""
    import core.report as rep
    from core.award import evaluate
    from core.application import Application

    fake = tmp_path / "hangs"
    fake.write_text("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'Chromium 1'; exit 0; }\nexec sleep 600\n")
    fake.chmod(0o755)
    monkeypatch.setenv("BROWSER_PATH", str(fake))
    made = rep.Report([rep.Item("A", evaluate(Application.from_dict(APP)))])
    for _ in range(2):
        with pytest.raises(rep.ReportError, match="took more than 5 seconds and was stopped"):
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
    from tests.browser_fixtures import require_chromium
    require_chromium()
    import threading

    import core.report as rep
    from core.award import evaluate
    from core.application import Application

    made = rep.Report([rep.Item("A", evaluate(Application.from_dict(APP)))])
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


@pytest.mark.parametrize("fixture, text", [
    ("deep.json", "nested more than 12 levels deep"),
    ("deep_in_scenario.json", "nested more than 12 levels deep"),
    ("huge_int.json", "a number of 5,000 digits"),
    ("duplicate_keys.json", "appears twice in one object"),
])
def test_the_compare_page_parser_gives_one_line(fixture, text):
    """The Compare page's import reads uploads with the same parser (core.inputs.parse_json)."""
    from core.inputs import InputError, parse_json
    with pytest.raises(InputError, match=text) as err:
        parse_json((HOSTILE / fixture).read_bytes(), fixture)
    assert str(err.value).startswith(fixture) and "\n" not in str(err.value)


def test_long_titles_and_files_refused_before_drawing():
    from core.rulesets import RulesetError, load, load_text, to_toml
    from core.verify import accept_loaded_variant
    with pytest.raises(RulesetError, match="is 9,000,000 characters long; at most 200"):   # as it is read
        load().with_changes("long", "t" * 9_000_000, {"capital_cap": "1"})
    with pytest.raises(RulesetError, match="is 81 characters long; at most 80"):           # a variant's name
        accept_loaded_variant(load().with_changes("long", "t" * 81, {"capital_cap": "1"}), {})
    text = to_toml(load().with_changes("long", "t", {"capital_cap": "1"}))
    with pytest.raises(RulesetError, match="a ruleset file has at most 262,144"):
        load_text(text.replace('title = "t"', f'title = "{"t" * 9_000_000}"'), "long.toml")


from hypothesis import given, strategies as st  # noqa: E402


@given(st.lists(st.text(alphabet=st.sampled_from("=+-@\t\r\n\",;'ab1 é"), max_size=8), min_size=1, max_size=5))
def test_any_text_reads_back_as_one_safe_row(values):
    """Whatever the cells, a real CSV reader sees one row per table row, no cell a spreadsheet
    would run, and each cell is what was written, with a leading apostrophe where it was risky."""
    df = pd.DataFrame({f"c{i}": [v] for i, v in enumerate(values)})
    rows = cells(csv_bytes(df))
    assert len(rows) == 2
    assert_safe(rows)
    assert rows[1] == [("'" + v) if dangerous(v) else v for v in values]


def test_list_keeps_one_line_per_scenario_for_names_saved_before_the_checks(tmp_path):
    from sqlalchemy import text

    from core.application import Application
    from core.scenarios import ScenarioStore
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    store = ScenarioStore(url)
    store.save("old", Application.from_dict(APP))
    with store.engine.begin() as c:   # as an older version of the app could have saved it
        c.execute(text("UPDATE scenarios SET name = :n"), {"n": "tab\there\nnext"})
    r = run("scenarios", "list", env={"SCENARIO_DB_URL": url})
    lines = r.stdout.splitlines()
    assert len(lines) == 1 and lines[0].split("\t")[0] == "tab\u2409here\u2424next" and len(lines[0].split("\t")) == 7   # name, award, binding, ruleset, updated, owner, last changed by
