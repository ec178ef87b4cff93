"""The CLI as a user runs it: a real subprocess, real files, exit statuses."""
import json
import subprocess
import sys

from tests.conftest import ROOT


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "core", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_help_lists_commands():
    r = run("--help")
    assert r.returncode == 0 and "evaluate" in r.stdout and "batch" in r.stdout


def test_evaluate_one_and_many():
    r = run("evaluate", "-", stdin=json.dumps({"project_type": "renovation", "eligible_cost": "3000000",
                                                 "local_contribution": 1500000}))
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["award"] == "600000.00" and d["binding"] == ["program_max"] and d["route"] == "standard"
    assert {"caps", "checks", "steps"} <= set(d)
    r = run("evaluate", "-", "--ruleset", "cap-800k", stdin=json.dumps([
        {"project_type": "renovation", "eligible_cost": 3000000, "local_contribution": 1500000},
        {"project_type": "master_plan", "eligible_cost": 40000, "local_contribution": 20000}]))
    assert [x["award"] for x in json.loads(r.stdout)] == ["800000.00", "15000.00"]


def test_evaluate_bad_input_exit_2_one_line_no_traceback():
    for stdin, text in [('{"project_type": "renovation", "eligible_cost": -1}', "eligible_cost: -1 is negative"),
                        ("{not json", "not valid JSON"),
                        ('[{"project_type": "renovation", "eligible_cost": 1}, {"eligible_cost": 1}]',
                         "application 2: project_type: is missing")]:
        r = run("evaluate", "-", stdin=stdin)
        assert r.returncode == 2
        assert text in r.stderr and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run("evaluate", "-", "--ruleset", "nope", stdin="{}")
    assert r.returncode == 2 and "unknown id 'nope'" in r.stderr


def test_batch_good_and_bad_rows(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text("name,project_type,eligible_cost,local_contribution\n"
                   "a,renovation,1000000,500000\nb,renovation,oops,\nc,master_plan,40000,20000\n")
    out = tmp_path / "out.csv"
    r = run("batch", str(src), "-o", str(out))
    assert r.returncode == 1 and "2 rows evaluated, 1 with errors" in r.stderr
    import csv
    rows = list(csv.DictReader(out.open()))
    assert [r["award"] for r in rows] == ["500000.00", "", "15000.00"]
    assert rows[1]["error"] == "eligible_cost: 'oops' is not a number; enter dollars such as 1250000 or 1,250,000.50"
    assert list(rows[0]) == ["name", "project_type", "eligible_cost", "local_contribution", "award", "binding",
                             "route", "standard_award", "local_shortfall", "funding_gap", "error"]


def test_batch_all_good_exit_0_and_missing_file(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text("project_type,eligible_cost\nrenovation,1000000\n")
    assert run("batch", str(src), "-o", str(tmp_path / "o.csv")).returncode == 0
    r = run("batch", str(tmp_path / "none.csv"), "-o", str(tmp_path / "o.csv"))
    assert r.returncode == 2 and "no such file" in r.stderr
    src.write_text("name\nx\n")
    r = run("batch", str(src), "-o", str(tmp_path / "o.csv"), "--force")
    assert r.returncode == 2 and "missing column 'project_type'" in r.stderr


def test_sweep_prints_exact_breakpoints():
    app = json.dumps({"project_type": "construction", "eligible_cost": 1_000_000, "local_contribution": 500_000})
    r = run("sweep", "eligible_cost", "--from", "0", "--to", "5000000", "-", stdin=app)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["field"] == "eligible_cost"
    assert [(b["value"], b["binding_before"], b["binding_after"]) for b in d["breakpoints"]] == [
        ("500000.00", ["funding_need"], ["funding_need"]), ("1000000.00", ["funding_need"], ["cost_share"]),
        ("1200000.00", ["cost_share"], ["program_max"])]
    assert {"value", "award", "binding"} <= set(d["points"][0])
    r = run("sweep", "colour", "--from", "0", "--to", "5", "-", stdin=app)
    assert r.returncode == 2 and "FIELD: 'colour' cannot be swept" in r.stderr
    r = run("sweep", "eligible_cost", "--from", "5", "--to", "1", "-", stdin=app)
    assert r.returncode == 2 and "must be below" in r.stderr
