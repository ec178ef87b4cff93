"""The portfolio's spreadsheets: a template to start from, and the results, as an Excel
workbook and as CSV, in rank order.

The workbook's first sheet is for people: their column titles, dollars as numbers with a
dollar format, "Held down by" in words, a frozen header and a filter. "For programs" holds
the same rows with the ids and codes (the row in the file, project_type, binding, route, the
amounts to the cent), each code with its words beside it; the CSV is that sheet. Every sheet is
written by core/report/workbook.py, its text made safe for spreadsheets.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from core.law.analysis import caps_words
from core.law.engines import TYPE_CODES
from core.law.fields import EXCEPTION_FIELDS, FIELD, PORTFOLIO_FIELDS, PROJECT_TYPES, yes_no
from core.law.money import fmt
from core.law.provisions import ROUTES
from core.report.export import csv_bytes
from core.report.workbook import (DOLLARS, SCORE, WHOLE, Sheet, as_dollars, as_number, dollars, new_workbook, saved,
                                  width_of)

OUTPUTS = ("award", "binding", "route", "standard_award", "priority_score", "rank", "allocated", "local_shortfall",
           "unmet_requirements", "error")
MONEY_OUTPUTS = ("award", "standard_award", "allocated")
_TYPE_OF_CODE = {code: PROJECT_TYPES[t] for t, code in TYPE_CODES.items()}

# The template's one row: a fictional application, labelled so wherever it is shown.
TEMPLATE_EXAMPLE = {
    "name": "Illustrative: Example County senior center", "locality": "Example County",
    "project_type": "renovation", "eligible_cost": 1_450_000, "federal_grant": 0,
    "local_contribution": 725_000, "prior_program_funds": 0, "requested_amount": None,
    "federal_law_contrary": "no", "bpw_exception_requested": "no", "local_property_value": None,
    "state_funds_in_property": "no", "state_bonded_debt": "no", "senior_density": 850,
    "distance_to_center_miles": 12.5, "previously_funded": "no",
}
TEMPLATE_NOTE = ("Portfolio template. The row below the column titles is ILLUSTRATIVE (a fictional application): "
                 "replace it with your applications, one a row, and keep the titles.")


# --- the template -----------------------------------------------------------------------------


def _what_to_enter(f) -> str:
    if f.kind == "money":
        return "Dollars, cents allowed: 1250000 or 1,250,000.50"
    if f.kind == "bool":
        return "yes or no (true/false and 1/0 are read too)"
    if f.kind == "choice":
        return "One of: " + "; ".join(f"{k} ({v})" for k, v in PROJECT_TYPES.items())
    if f.kind == "number":
        return "A number, 0 or more"
    return "Text, at most 120 characters, on one line"


def _if_empty(f) -> str:
    if f.required:
        return "Required"
    if f.kind == "text":
        return "Left blank"
    if f.group == "considerations":
        return "Not known: left out of the row's priority score (the other weights share it)"
    if f.kind == "money":
        return "$0" if f.default == 0 else "None given"
    if f.kind == "bool":
        return "no" if f.default is False else yes_no(f, None).capitalize()
    return "None"


def _more(f) -> str:
    only = f" and {FIELD[f.only_with].label} is above 0" if f.only_with else ""
    extra = (f" Read only when {FIELD['bpw_exception_requested'].label} is yes{only}." if f.name in EXCEPTION_FIELDS else
             " It orders applications and never changes an award." if f.group == "considerations" else "")
    return (f.help + extra).strip()


def template_csv() -> bytes:
    """The template as CSV: a note line (read back as a note), the column titles in words, the
    illustrative row. The code names are read as titles too (docs/user-guide.md lists them)."""
    row = {f.label: "" if TEMPLATE_EXAMPLE.get(f.name) is None else str(TEMPLATE_EXAMPLE[f.name])
           for f in PORTFOLIO_FIELDS}
    body = csv_bytes(pd.DataFrame([row], columns=[f.label for f in PORTFOLIO_FIELDS]))
    return f"# {TEMPLATE_NOTE}\r\n".encode() + body


def template_xlsx() -> bytes:
    """The template as a workbook: "Applications" (titles, the illustrative row, lists for the
    project type and the yes/no columns) and "Notes" (each column explained, from the field table)."""
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation
    wb = new_workbook()
    names = [f.name for f in PORTFOLIO_FIELDS]
    formats = {f.name: DOLLARS for f in PORTFOLIO_FIELDS if f.kind == "money"}
    widths = {f.name: max(14, min(len(f.label) // 2 + 4, 30)) for f in PORTFOLIO_FIELDS} | {"name": 44, "locality": 18}
    sheet = Sheet(wb, "Applications", names, formats, widths, titles={f.name: f.label for f in PORTFOLIO_FIELDS})
    last = 20_001   # the portfolio's 20,000 rows under the titles
    lists = {"choice": ",".join(PROJECT_TYPES), "bool": "yes,no"}
    for kind, allowed in lists.items():
        columns = [get_column_letter(i) for i, f in enumerate(PORTFOLIO_FIELDS, start=1) if f.kind == kind]
        dv = DataValidation(type="list", formula1=f'"{allowed}"', allow_blank=True, errorStyle="warning",
                            showErrorMessage=True,
                            error=f"Use one of: {allowed.replace(',', ', ')}", errorTitle="Not in the list")
        dv.sqref = " ".join(f"{c}2:{c}{last}" for c in columns)   # MultiCellRange reads spaces
        sheet.ws.data_validations.append(dv)
    sheet.append([TEMPLATE_EXAMPLE.get(n) for n in names])
    notes = Sheet(wb, "Notes", ["Column", "Code name (for programs)", "What to enter", "If left empty", "More"],
                   widths={"Column": 34, "Code name (for programs)": 28, "What to enter": 46, "If left empty": 26,
                           "More": 70},
                   wrap=("Column", "What to enter", "If left empty", "More"))
    for f in PORTFOLIO_FIELDS:
        notes.append([f.label, f.name, _what_to_enter(f), _if_empty(f), _more(f)])
    notes.append([None])
    notes.append(["ILLUSTRATIVE", "The row of the Applications sheet is a fictional example; replace it with "
                  "your applications, one a row. Row 1 keeps the column titles; a row left blank is skipped. "
                  "A column may be titled by its words or by its code name (case and spacing aside).",
                  None, None, "Upload the workbook (its first sheet) on the Portfolio page, or: "
                  "python -m core allocate portfolio.xlsx --budget 4000000 -o results.xlsx"])
    return saved(wb)


# --- the results ------------------------------------------------------------------------------


def ranked(result) -> tuple[np.ndarray, np.ndarray]:
    """(positions of the rows used, in rank order; positions of the rows not used, in file order)."""
    good = np.flatnonzero(result.good)
    rank = pd.to_numeric(result.table["rank"], errors="coerce").to_numpy()
    return good[np.argsort(rank[good], kind="stable")], np.flatnonzero(~result.good)


def _type_words(result, i: int) -> str:
    if result.good[i]:
        return _TYPE_OF_CODE.get(int(result.values["type_code"].iat[i]), "")
    raw = result.table["project_type"].iat[i] if "project_type" in result.table else ""
    return PROJECT_TYPES.get(str(raw).strip().lower(), "")


def _binding_words(binding: str) -> str:
    return caps_words(binding.split(";")) if binding else ""


def people(result, positions: np.ndarray | None = None) -> pd.DataFrame:
    """The rows used, as people read them, in rank order: their titles; money in cents (ints),
    the extra the Board's exception gives (None where it gives none), the score as a number."""
    if positions is None:
        positions = ranked(result)[0]
    t = result.table
    text = lambda col: [str(t[col].iat[i]) for i in positions] if col in t else [""] * len(positions)  # noqa: E731
    return pd.DataFrame({
        "Rank": [int(t["rank"].iat[i]) for i in positions],
        "Application": [v or f"Row {int(result.rows[i])}" for v, i in zip(text("name"), positions)],
        "Locality": text("locality"),
        "Project type": [_type_words(result, i) for i in positions],
        "Maximum award": [int(result.awards[i]) for i in positions],
        "Held down by": [_binding_words(result.binding[i]) for i in positions],
        "Board's exception": pd.Series([int(result.best[i] - result.standard[i])
                                        if result.best[i] > result.standard[i] else None for i in positions],
                                       dtype=object),
        "Priority score (0 to 1)": [float(t["priority_score"].iat[i]) for i in positions],
        "Allocated": [int(result.allocated[i]) for i in positions],
        "Not yet met": [str(result.table["unmet_requirements"].iat[i]) for i in positions],
    }, columns=PEOPLE_COLUMNS)


PEOPLE_COLUMNS = ["Rank", "Application", "Locality", "Project type", "Maximum award", "Held down by",
                  "Board's exception", "Priority score (0 to 1)", "Allocated", "Not yet met"]
PEOPLE_MONEY = ("Maximum award", "Board's exception", "Allocated")


def programs(result) -> pd.DataFrame:
    """Every row, for programs: the rows used in rank order, then the rows not used in file
    order; the row's number in the file, the input columns as read, each code with its words."""
    used, unused = ranked(result)
    order = np.concatenate([used, unused])
    t = result.table.iloc[order]
    inputs = [c for c in result.table.columns if c not in OUTPUTS and c != "project_type_words"]
    # The row's number in the file; a column of the file already called "row" keeps its name.
    out = {"row" if "row" not in inputs else "row_in_file": result.rows[order], "rank": t["rank"].to_numpy()}
    for c in inputs:
        out[c] = t[c].to_numpy()
        if c == "project_type":
            out["project_type_words"] = [_type_words(result, i) for i in order]
    binding = t["binding"].to_numpy()
    route = t["route"].to_numpy()
    out |= {"award": t["award"].to_numpy(), "binding": binding,
            "binding_words": [_binding_words(b) for b in binding],
            "route": route, "route_words": [ROUTES.get(r, "") for r in route],
            "standard_award": t["standard_award"].to_numpy(), "priority_score": t["priority_score"].to_numpy(),
            "allocated": t["allocated"].to_numpy(), "local_shortfall": t["local_shortfall"].to_numpy(),
            "unmet_requirements": t["unmet_requirements"].to_numpy(), "error": t["error"].to_numpy()}
    return pd.DataFrame(out)


def results_csv(result) -> bytes:
    """The "For programs" table as CSV, safe for spreadsheets."""
    return csv_bytes(programs(result))


def settings(result, rs, mode_words: str, weights_words: str, source: str) -> list[tuple[str, object]]:
    """What the allocation was made of, for the workbook's About sheet: (title, value)."""
    from core.law.portfolio import EXCEPTIONS
    return [("Applications from", source), ("Ruleset", rs.label), ("Ruleset fingerprint", rs.version),
            ("Budget", dollars(result.budget)), ("Allocation", mode_words),
            ("Board of Public Works exception", EXCEPTIONS[result.exceptions]), ("Priority score", weights_words),
            ("Rows used", int(result.good.sum())), ("Rows not used", int((~result.good).sum()))]


def results_xlsx(result, about: list[tuple[str, object]] = (), findings: list[str] = ()) -> bytes:
    """The workbook: "Results" for people, "For programs", "Rows not used" (when some were not)
    and "About" (what the allocation was made of, and the findings)."""
    wb = new_workbook()
    used, unused = ranked(result)
    _results_sheet(wb, result, used)
    _programs_sheet(wb, result, used, unused)
    if len(unused):
        _unused_sheet(wb, result, unused)
    _about_sheet(wb, about, findings)
    return saved(wb)


def _results_sheet(wb, result, used) -> None:
    """People's sheet: the rows used in rank order, dollars as numbers, and a total row."""
    table = people(result, used)
    shown = table.copy()
    for c in PEOPLE_MONEY:
        shown[c] = [None if v is None or v != v else dollars(v) for v in table[c]]
    widths = {c: width_of(shown[c].tolist(), c) for c in PEOPLE_COLUMNS} | {
        "Rank": 7, "Maximum award": 16, "Allocated": 16, "Board's exception": 18, "Priority score (0 to 1)": 13,
        "Held down by": min(48, width_of(shown["Held down by"].tolist(), "Held down by")),
        "Not yet met": min(34, width_of(shown["Not yet met"].tolist(), "Not yet met"))}
    sheet = Sheet(wb, "Results", PEOPLE_COLUMNS, {**{c: DOLLARS for c in PEOPLE_MONEY},
                                                   "Priority score (0 to 1)": SCORE, "Rank": WHOLE},
                   widths, wrap=("Application", "Held down by", "Priority score (0 to 1)", "Not yet met"), filter_rows=len(shown),
                   titles={"Board's exception": "Board's exception adds" if result.exceptions == "assumed"
                           else "Board's exception would add (not counted)"})
    for row in shown.itertuples(index=False):
        sheet.append(list(row))
    total = dict.fromkeys(PEOPLE_COLUMNS) | {
        "Application": "Total", "Maximum award": dollars(int(np.sum(result.awards[used]))),
        "Allocated": dollars(int(np.sum(result.allocated[used]))),
        "Not yet met": _unmet_total(result, used)}
    sheet.append(list(total.values()))   # below the filtered rows: sorting and filtering leave it where it is


def _unmet_total(result, used) -> str:
    """The total row's word on the rows not yet meeting the local match: how many, and what they are allocated."""
    unmet = used[result.unmet[used]]
    if not len(unmet):
        return ""
    return f"{len(unmet):,} not yet meeting the local match, allocated {fmt(int(np.sum(result.allocated[unmet])))}"


def _programs_sheet(wb, result, used, unused) -> None:
    """Programs' sheet: every row with its ids and codes; numbers where a row was read as one."""
    frame = programs(result)
    money = {c for c in frame.columns if c in MONEY_OUTPUTS or (c in FIELD and FIELD[c].kind == "money")}
    numbers = {c for c in frame.columns if c in FIELD and FIELD[c].kind == "number"}
    formats = {c: DOLLARS for c in money} | {"priority_score": "0.0000", "rank": WHOLE, frame.columns[0]: WHOLE}
    good = np.concatenate([np.ones(len(used), bool), np.zeros(len(unused), bool)])
    for c in frame.columns:   # numbers where the row was read as one; the text as given otherwise
        values = frame[c].to_numpy(dtype=object)
        if c in money:
            frame[c] = [as_dollars(v) if ok or c in MONEY_OUTPUTS else v for v, ok in zip(values, good)]
        elif c in numbers or c == "priority_score":
            frame[c] = [as_number(v) if ok else v for v, ok in zip(values, good)]
        elif c == "rank":
            frame[c] = [int(v) if v not in ("", None) else None for v in values]
    widths = {c: width_of(frame[c].tolist(), c, hi=40) for c in frame.columns}
    sheet = Sheet(wb, "For programs", list(frame.columns), formats, widths, filter_rows=len(frame))
    for row in frame.itertuples(index=False):
        sheet.append([int(v) if isinstance(v, np.integer) else v for v in row])


def _unused_sheet(wb, result, unused) -> None:
    names = result.table["name"] if "name" in result.table else pd.Series([""] * len(result.table))
    sheet = Sheet(wb, "Rows not used", ["Row of the file", "Application", "Problem"], {"Row of the file": WHOLE},
                   {"Row of the file": 10, "Application": 40, "Problem": 100}, wrap=("Application", "Problem"),
                   filter_rows=len(unused))
    for i in unused:
        sheet.append([int(result.rows[i]), str(names.iat[i]), str(result.table["error"].iat[i])])


def _about_sheet(wb, about, findings) -> None:
    sheet = Sheet(wb, "About", ["About this allocation", ""], {"": DOLLARS}, {"About this allocation": 34, "": 100},
                   wrap=("",), freeze=False)
    for title, value in about:
        sheet.append([title, value])
    if findings:
        sheet.append([None, None])
        sheet.append(["Findings", None], bold=True)
        for line in findings:
            sheet.append([None, line])


# --- batch results ------------------------------------------------------------------------------


def batch_xlsx(out: pd.DataFrame) -> bytes:
    """`python -m core batch ... -o results.xlsx`: one sheet "Results", the columns of the CSV,
    the computed amounts as dollars (numbers) where the row was evaluated."""
    from core.law.batch import MONEY_OUTPUTS as AMOUNTS
    wb = new_workbook()
    columns = list(out.columns)
    amounts = [c for c in columns if c in AMOUNTS or (c in FIELD and FIELD[c].kind == "money")]
    widths = {c: width_of(out[c].tolist(), c, hi=40) for c in columns}
    sheet = Sheet(wb, "Results", columns, {c: DOLLARS for c in amounts}, widths, filter_rows=len(out))
    for row in out.itertuples(index=False):
        values = dict(zip(columns, row))
        if values.get("error", "") == "":   # amounts as numbers where the row was read; as given otherwise
            for c in amounts:
                values[c] = as_dollars(values[c])
        sheet.append([values[c] for c in columns])
    return saved(wb)
