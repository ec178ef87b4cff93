"""The side-by-side comparison table of saved scenarios (pure pandas, no Streamlit)."""
from __future__ import annotations

import re

import pandas as pd

from core.law.award import Award
from core.law.fields import FIELD, FIELDS, PROJECT_TYPES
from core.law.provisions import ROUTES
from core.law.money import fmt, plain

# The answer first (what a board asks), then the inputs that produce it. Every input of the
# computation has a column: two scenarios with different awards never show identical inputs
# (a test checks it on random pairs).
ANSWER = ("State grant award", "Held down by", "Route", "Funding gap", "Local match shortfall")
COMPUTED = tuple(f for f in FIELDS if f.group != "considerations")   # the field table's inputs
INPUTS = tuple(f.title for f in COMPUTED) + ("Ruleset", "Readings")
COLUMNS = ANSWER + INPUTS


def _cell(f, app, machine: bool) -> str:
    """One input as the table shows it; the exception's details only when it is asked for."""
    value = getattr(app, f.name)
    if f.group == "exception" and f.name != "bpw_exception_requested" and not app.bpw_exception_requested:
        return ""
    if f.kind == "money":
        return "" if value is None else (plain if machine else fmt)(value)
    if f.kind == "bool":
        return "yes" if value else "no"
    return value if machine else PROJECT_TYPES[value]


def table(named: list[tuple[str, Award]], machine: bool = False) -> pd.DataFrame:
    """One row per scenario. `machine=True` gives plain numbers and ids for CSV export."""
    money = plain if machine else fmt
    rows = []
    for name, a in named:
        app = a.application
        rows.append({
            "Scenario": name,
            **{f.title: _cell(f, app, machine) for f in COMPUTED},
            "State grant award": money(a.amount),
            "Held down by": ";".join(a.binding) if machine else a.binding_text,
            "Route": a.route if machine else ROUTES[a.route],
            "Local match shortfall": money(a.local_shortfall),
            "Funding gap": money(a.funding_gap),
            "Ruleset": f"{a.ruleset_id}@{a.ruleset_version}" if machine else a.ruleset_label,
            "Readings": a.readings.describe(),
        })
    return pd.DataFrame(rows, columns=("Scenario",) + COLUMNS)


def differs(df: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """True where a cell differs from the baseline scenario's cell in the same column."""
    base = df[df["Scenario"] == baseline].iloc[0]
    out = df[list(COLUMNS)].ne(base[list(COLUMNS)])
    out.insert(0, "Scenario", False)
    out[df["Scenario"] == baseline] = False
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def place_words(problem: str) -> str:
    """A problem's place in an imported file as a person counts it: "Scenario 2, Total cost of
    eligible work: ...", not "scenarios[1].eligible_cost: ..."."""
    m = re.match(r"^(?:scenarios)?\[(\d+)\](?:\.([A-Za-z_.]+))?:?\s*", problem)
    if not m:
        return problem
    where = f"Scenario {int(m.group(1)) + 1}"
    if m.group(2):
        last = m.group(2).split(".")[-1]
        where += f", {FIELD[last].label if last in FIELD else last.replace('_', ' ').capitalize()}"
    return f"{where}: {problem[m.end():]}"
