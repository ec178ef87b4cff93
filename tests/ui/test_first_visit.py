"""A first visit (issue 53): the award is drawn before anything heavy is loaded. The library
(SQLAlchemy, Alembic), numpy, pandas, Plotly's figures and the Excel machinery load after it, in
a fresh interpreter as a fresh server's first visitor finds it; the page is the same as before."""
import json
import os
import subprocess
import sys

import pytest

from tests.support import ROOT

HEAVY = ("sqlalchemy", "alembic", "numpy", "pandas", "pyarrow", "plotly.graph_objs._figure", "openpyxl", "core.report.html",
         "core.store.model", "core.store.repository", "ui.library")


def fresh(code: str, env: dict | None = None) -> dict:
    """What `code` (which prints one JSON line last) reports, run in a new interpreter from the project."""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_what_the_calculator_needs_before_its_award_loads_nothing_heavy():
    """ui.auth read LOCAL from core.store.model and ui.state the day bounds from the file format,
    each loading SQLAlchemy and with the law numpy (core.law.caps), before any page was drawn."""
    loaded = fresh("import json, sys\n"
                   "from ui import a11y, auth, present, server, state, widgets\n"
                   "from ui.components import keys\n"
                   "from core.law.award import evaluate\n"
                   "print(json.dumps(sorted(sys.modules)))")
    assert [m for m in HEAVY if m in loaded] == []


def test_the_shared_constants_are_the_librarys_own():
    """One statement each: the library's model and file format re-export the light module's."""
    from core.store import basics, fileformat, model
    assert model.LOCAL is basics.LOCAL == "local"
    assert fileformat.first_law_day is basics.first_law_day and fileformat.last_law_day is basics.last_law_day


FIRST_RUN = """
import json, sys, time
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest
seen = {}
metric = DeltaGenerator.metric
def first_metric(self, *a, **k):
    seen.setdefault("loaded", sorted(sys.modules))
    return metric(self, *a, **k)
DeltaGenerator.metric = first_metric
at = AppTest.from_file(%(script)r, default_timeout=240)
at.run()
from ui import server
print(json.dumps({"award": at.metric[0].value, "at_award": seen["loaded"], "after": sorted(sys.modules),
                  "settled": server.settled(), "rulesets": list(at.sidebar.selectbox[0].options),
                  "exceptions": [e.stack_trace for e in at.exception]}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("kept", ["none", "variant"])
def test_a_fresh_servers_first_run_draws_the_award_then_loads_the_rest(tmp_path, kept):
    """The first run of a fresh process: nothing heavy is loaded when the award is drawn; by the
    end of the run the pages' modules are loaded and the heap settled (ui/server.py); a variant kept
    in the library is listed in the sidebar as before (the library read after the page, before the
    sidebar is drawn)."""
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    if kept == "variant":   # a variant kept in the library, by another process, before the server starts
        fresh("import json\nfrom core.law.rulesets import load\nfrom core.store.repository import ScenarioStore\n"
              f"lib = ScenarioStore({url!r})\n"
              "lib.variants().save(load().with_changes('variant-cap-raised', 'Cap raised', {'capital_cap': '1000000'}), "
              "actor='local')\nlib.dispose()\nprint(json.dumps(True))")
    code = FIRST_RUN % {"url": url, "script": str(ROOT / "dashboard.py")}
    got = fresh(code, {"SCENARIO_DB_URL": url})
    assert got["exceptions"] == []
    assert got["award"] == "$500,000"
    assert [m for m in HEAVY if m in got["at_award"]] == []
    assert got["settled"] and {"pandas", "plotly.graph_objects", "core.store.repository", "ui.library"} <= set(got["after"])
    from core.law.rulesets import available
    assert len(got["rulesets"]) == len(available()) + (kept == "variant")
    assert any("Cap raised" in label for label in got["rulesets"]) == (kept == "variant")
