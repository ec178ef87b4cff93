"""Helpers the tests share (not tests): fixtures for a real Chromium, Hypothesis strategies of
applications, readers of the calculator's custom elements in AppTest, and the project's root."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def worked_examples() -> list[dict]:
    """The worked examples of docs/rules.md, once, as data (tests/cases/worked_examples.json):
    each with its application as a user writes it and the award, binding caps and route."""
    import json
    return json.loads((ROOT / "tests" / "cases" / "worked_examples.json").read_text(encoding="utf-8"))
