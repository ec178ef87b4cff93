"""axe-core over every page and state (tests/a11y_states.py): violations and incomplete counts.

    python bench/axe_survey.py            # a fresh server with an empty library in a temp dir
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.a11y_states import STATES, axe, summary  # noqa: E402
from tests.serve import browser, streamlit_server  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, \
            streamlit_server(env={"SCENARIO_DB_URL": f"sqlite:///{tmp}/lib.db"}) as url, browser() as b:
        print(f"{'state':40} violations(rules/nodes) incomplete-nodes")
        for name, go in STATES.items():
            page = b.new_page(viewport={"width": 1400, "height": 1600})
            try:
                go(page, url)
                r = axe(page)
                nodes = sum(len(v["nodes"]) for v in r["violations"])
                inc = sum(len(v["nodes"]) for v in r["incomplete"])
                print(f"{name:40} {len(r['violations'])}/{nodes:<20} {inc}")
                for line in summary(r):
                    print("    " + line)
            except Exception as err:  # a survey: report and go on
                print(f"{name:40} FAILED: {err}")
            finally:
                page.close()


if __name__ == "__main__":
    main()
