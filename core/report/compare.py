"""The side-by-side comparison table of saved scenarios (pure pandas, no Streamlit)."""
from __future__ import annotations

import re

import pandas as pd

from core.law.award import Award
from core.law.explain import award_words, shortfall_words
from core.law.fields import FIELD, FIELDS, PROJECT_TYPES, asked, yes_no
from core.law.provisions import CAP, ROUTES
from core.law.money import fmt, plain

# The answer first (what a board asks), then the inputs that produce it. Every input of the
# computation has a column: two scenarios with different awards never show identical inputs
# (a test checks it on random pairs).
ANSWER = ("State grant award", "Held down by", "Route", "Funding gap", "Local match shortfall")
COMPUTED = tuple(f for f in FIELDS if f.group != "considerations")   # the field table's inputs
INPUTS = tuple(f.title for f in COMPUTED) + ("Ruleset", "Readings")
COLUMNS = ANSWER + INPUTS


def _cell(f, app, machine: bool, rs=None) -> str:
    """One input as the table shows it; the exception's details only when it is asked for; a question
    of one law (the statute's surplus-building certification) only where the law applied (`rs`) asks it."""
    value = getattr(app, f.name)
    if (f.group == "exception" and f.name != "bpw_exception_requested" and not app.bpw_exception_requested) \
            or not asked(f, app, rs=rs):
        return ""
    if f.kind == "money":
        return "" if value is None else (plain if machine else fmt)(value)
    if f.kind == "bool":
        return yes_no(f, value)
    return value if machine else PROJECT_TYPES[value]


def table(named: list[tuple[str, Award]], machine: bool = False) -> pd.DataFrame:
    """One row per scenario. `machine=True` gives plain numbers and ids for CSV export."""
    money = plain if machine else fmt
    rows = []
    for name, a in named:
        app = a.application
        rows.append({
            "Scenario": name,
            **{f.title: _cell(f, app, machine, a.ruleset) for f in COMPUTED},
            "State grant award": plain(a.amount) if machine else award_words(a),
            # the CSV too in words ("Program maximum"; "State's share of the cost; What the project still
            # lacks"), its amounts in the columns beside: the code names stay in the docs
            "Held down by": "; ".join(CAP[c].title for c in a.binding) if machine else a.binding_text,
            "Route": a.route if machine else ROUTES[a.route],
            # on the Board's route the match would be waived: "$0" there would say it was met
            "Local match shortfall": plain(a.local_shortfall) if machine else shortfall_words(a),
            "Funding gap": money(a.funding_gap),
            "Ruleset": f"{a.ruleset_id}@{a.ruleset_version}" if machine else a.ruleset_label,
            "Readings": a.readings.describe(),
        })
    return pd.DataFrame(rows, columns=("Scenario",) + COLUMNS)


def differs(df: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """True where a cell differs from the baseline scenario's cell in the same column."""
    # Cell by cell in Python: pandas' aligned comparison of a dozen rows took most of the
    # comparison's inputs table's time on every view of Compare.
    names = list(df["Scenario"])
    columns = {c: list(df[c]) for c in COLUMNS}
    at = names.index(baseline)
    return pd.DataFrame({"Scenario": [False] * len(names),
                        **{c: [k != at and v != values[at] for k, v in enumerate(values)] for c, values in columns.items()}},
                        index=df.index)


def inputs_in_order(df: pd.DataFrame, baseline: str, blank: bool = True) -> list[str]:
    """The inputs (columns of `table`) that differ from the baseline in any scenario first, then the
    rest, each in the field table's order: what sets a scenario apart is read first. blank=False
    leaves out an input no scenario has (the exception's details when none asks for it)."""
    return _in_order(df, differs(df, baseline), blank)


def _in_order(df: pd.DataFrame, differ: pd.DataFrame, blank: bool) -> list[str]:
    first = [c for c in INPUTS if differ[c].any()]
    rest = [c for c in INPUTS if c not in first and (blank or (df[c] != "").any())]
    return first + rest


def inputs_rows(df: pd.DataFrame, baseline: str, names: list[str] | None = None,
                blank: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The inputs turned on their side: a row per input (differing ones first, the input's title as
    the index), a column per scenario of `names` (all, in the table's order, if None), so that a
    dozen inputs fit a screen's width however many the exception adds. Returns the cells and a
    frame of the same shape, True where a cell differs from the baseline's. `blank` as for
    inputs_in_order (over every scenario of `df`, so that tables of some of them have the same rows)."""
    names = list(df["Scenario"]) if names is None else list(names)
    differ = differs(df, baseline)
    rows = _in_order(df, differ, blank)
    by_name, differ = df.set_index("Scenario"), differ.set_index(df["Scenario"])
    index = pd.Index(rows, name="Input")
    cells = pd.DataFrame({n: [by_name.at[n, r] for r in rows] for n in names}, index=index, columns=names)
    mask = pd.DataFrame({n: [bool(differ.at[n, r]) for r in rows] for n in names}, index=index, columns=names)
    return cells, mask


def column_groups(names: list[str], baseline: str, size: int) -> list[list[str]]:
    """`names` in groups of at most `size`, the baseline first in each (the column every other is
    read against), the others in their order."""
    others = [n for n in names if n != baseline]
    step = max(size - 1, 1)
    return [[baseline, *others[i:i + step]] for i in range(0, len(others), step)] or [[baseline]]


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
