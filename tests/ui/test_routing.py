"""Every page is drawn through dashboard.py (ui/routing.py, docs/architecture.md "How a page is
run"): each page file calls `routing.ensure_dashboard()` first, in plain sight, where it was
hidden in `ui.state.init()` (issue 50); a page file that Streamlit runs on its own (AppTest on
every rerun, a fresh server's first deep link) still gets the whole dashboard around it."""
from __future__ import annotations

import ast

import pytest

from tests.support import ROOT
from tests.support.pages import dashboard

PAGE_FILES = sorted((ROOT / "pages").glob("*.py"))


def _first_statement(path) -> str:
    """The page's first statement after its docstring and imports, as source."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):   # the docstring
            continue
        return ast.unparse(node)
    return ""


def test_there_are_pages():
    assert {p.name for p in PAGE_FILES} >= {"calculator.py", "compare.py", "sensitivity.py", "portfolio.py", "rules.py"}


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_every_page_asks_for_the_dashboard_first(path):
    assert _first_statement(path) == "routing.ensure_dashboard()"


def test_the_sessions_state_does_not_run_the_dashboard():
    """ui.state is the session's state: it neither runs scripts nor knows how a page is routed."""
    source = (ROOT / "ui" / "state.py").read_text(encoding="utf-8")
    imported = {alias.name for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names} | {node.module for node in ast.walk(ast.parse(source))
                                            if isinstance(node, ast.ImportFrom)}
    assert "runpy" not in imported and "ui.routing" not in imported and "routing" not in imported


def test_a_page_run_on_its_own_runs_the_dashboard_and_stops(monkeypatch):
    from ui import routing
    ran, stopped = [], []
    monkeypatch.setattr(routing.runpy, "run_path", lambda path, run_name: ran.append((path, run_name)))
    monkeypatch.setattr(routing.st, "stop", lambda: stopped.append(True))
    with routing.routed():            # dashboard.py drawing the page: nothing to do
        routing.ensure_dashboard()
    assert ran == [] and stopped == []
    routing.ensure_dashboard()        # the page file run on its own
    assert ran == [(str(ROOT / "dashboard.py"), "__main__")] and stopped == [True]


def test_every_rerun_of_a_page_is_drawn_inside_the_dashboard():
    """AppTest runs the page file itself on a rerun: the sidebar (dashboard.py's) is there every time,
    and the page is drawn once."""
    at = dashboard(page="pages/compare.py")
    for _ in range(2):
        assert [t.value for t in at.title] == ["Compare scenarios"]
        assert "Ruleset" in [s.label for s in at.sidebar.selectbox]
        at.run()
        assert not at.exception, at.exception
