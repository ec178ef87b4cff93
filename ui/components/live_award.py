"""The award that follows the hand: what a money slider of the calculator (ui/components/fields_panel.py)
needs to draw the award, the limit that holds it and the route itself while it moves
(ui/components/live_award.js), and the check of what it drew.

With each run the server sends, for each amount with the others as they stand, every cap of both
routes as exact integer pieces (core.law.pieces.pieces: the one core.law.caps, on fractions,
floored to the cent as the law rounds), the words of each limit and route, and the award it
settled on. While the hand moves the browser evaluates the pieces and draws the result in the
same frame; it sends the amount only when the hand stops (a release, a 300 ms pause), and one
run follows. The run's award is the one that stays: the browser's drawing is replaced by it,
and where the two differ that is a defect, logged here and in the browser's console.

Where the pieces cannot hold (pieces() is None: the lines do not describe the law along that
amount) the slider sends every step, as the other controls do (a project type, a switch, a
reading, a ruleset change all rerun the page).
"""
from __future__ import annotations

import logging

import streamlit as st

from core.law.pieces import pieces
from core.law.application import Application
from core.law.award import Award
from core.law.fields import FUNDING_PLAN
from core.law.money import fmt
from core.law.provisions import CAP, ROUTES
from core.report.charts.colours import SOURCES
from ui import state

_LOG = logging.getLogger(__name__)

LABELS = {c: cap.label for c, cap in CAP.items()}
TITLES = {c: cap.title for c, cap in CAP.items()}   # the headroom chart's names of the caps
COST = "Cost of eligible work"                       # the waterfall's first bar (core.report.charts.waterfall_steps)
GAP = {"gap": SOURCES["gap"][0], "beyond": "Funded beyond the cost"}


def funding(app: Application, name: str) -> dict:
    """The waterfall's amounts along the slider `name`, the others as in `app`: the cost and each
    source of funds as [label, a, b] with the amount a·x + b at x cents (a is 1 for the moving
    amount, else 0: each is an input as it stands), the State grant as [label, None, None] (the
    award the pieces give). What they leave, the cost less every source, is the funding gap, or
    the funding beyond the cost below zero (core.report.charts.waterfall_steps). No law: only
    inputs, added and taken away as the chart does."""
    def at(field: str) -> list:
        return [1, 0] if field == name else [0, getattr(app, field)]
    return {"cost": [COST, *at("eligible_cost")],
            "sources": [[SOURCES[key][0], None, None] if field is None else [SOURCES[key][0], *at(field)]
                        for key, _, field in FUNDING_PLAN],
            "left": GAP}


def funding_value(f: dict, x: int, award: int) -> list[tuple[str, int]]:
    """The waterfall's (label, cents) at x cents from `funding`'s output and the award: what
    ui/components/live_award.js draws, for the tests to compare with core.report.charts.waterfall_steps."""
    cost = f["cost"][1] * x + f["cost"][2]
    rows, level = [(f["cost"][0], cost)], cost
    for label, a, b in f["sources"]:
        v = award if a is None else a * x + b
        rows.append((label, v))
        level -= v
    return rows + [(f["left"]["gap" if level >= 0 else "beyond"], abs(level))]


def _settled(a: Award) -> dict:
    """What the page draws for this award (pages/calculator.py's answer box), in the browser's terms."""
    return {"award": fmt(a.amount), "limit": a.binding_text, "route": ROUTES[a.route]}


def settled() -> dict:
    return _settled(state.award())


def inputs() -> tuple:
    """(application, ruleset, readings, settled award) as the session holds them: read once per run
    for all of its money sliders (reading them again for each was ~2% of a loaded replica's CPU)."""
    a = state.award()
    return a.application, a.ruleset, a.readings, _settled(a)


def live(name: str, top_dollars: int, given: tuple | None = None) -> dict:
    """For the money slider `name` (0 to `top_dollars`): its pieces, with integers as text (the
    page reads JSON numbers as doubles, exact only to 2**53; it computes in BigInt), the words, and
    the settled award; only the settled award where the pieces do not hold. `given`: inputs() of
    this run, if already read."""
    app, rs, readings, settled_now = given or inputs()
    p = pieces(app, name, top_dollars * 100, rs, readings)
    if p is None:
        return {"settled": settled_now}
    f = funding(app, name)
    return {"d": str(p["d"]), "zero": p["zero"] | {"caps": [[c, str(v)] for c, v in p["zero"]["caps"]]},
            "funding": {"cost": [f["cost"][0], *map(str, f["cost"][1:])],
                        "sources": [[label, None if a is None else str(a), None if b is None else str(b)]
                                    for label, a, b in f["sources"]], "left": f["left"]},
            "titles": TITLES,
            "routes": [{"route": r["route"], "caps": [[c["cap"], str(c["a"]), str(c["b"]),
                                                       None if c["margin"] is None else [str(m) for m in c["margin"]]]
                                                      for c in r["caps"]]} for r in p["routes"]],
            "labels": LABELS, "routes_words": ROUTES, "settled": settled_now}


DEFECTS = "live:defects"   # session state: how many drawings differed from the server's in this session


def check(name: str, cents: int, drawn) -> None:
    """After a slider's amount is applied: what the browser drew for it (the award, the limit that
    holds it, the route) against the server's own. The server's is the one shown; a difference is a
    defect of the pieces, logged. The drawing is whatever the browser sent, so a hostile page could
    send a flood of them: the first of a session is logged whole (an ERROR), and the count again at
    10, 100, 1000... of them, so that the line meant to catch a real defect cannot be flooded."""
    if not isinstance(drawn, dict):
        return
    want = settled()
    got = {k: drawn.get(k) for k in want}
    if got == want:
        return
    count = st.session_state[DEFECTS] = st.session_state.get(DEFECTS, 0) + 1
    if count == 1:
        _LOG.error("live award defect: %s at %s cents: the browser drew %r, the law gives %r",
                   name, cents, {k: str(v)[:200] for k, v in got.items()}, want)
    elif _power_of_ten(count):
        _LOG.error("live award defects: %d in this session so far (the first logged whole above; "
                   "the last: %s at %s cents)", count, name, cents)


def _power_of_ten(n: int) -> bool:
    while n % 10 == 0 and n > 1:
        n //= 10
    return n == 1
