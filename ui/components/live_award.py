"""The award that follows the hand: what a money slider of the calculator (ui/components/fields_panel.py)
needs to draw the award, the limit that holds it and the route itself while it moves
(ui/components/live_award.js), and the check of what it drew.

With each run the server sends, for each amount with the others as they stand, every cap of both
routes as exact integer pieces (core.law.analysis.pieces: the one core.law.caps, on fractions,
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
from functools import lru_cache

from core.law.analysis import pieces
from core.law.award import evaluate
from core.law.money import fmt
from core.law.provisions import CAP, ROUTES
from ui import state

_LOG = logging.getLogger(__name__)

LABELS = {c: cap.label for c, cap in CAP.items()}


@lru_cache(maxsize=64)
def _settled(app, rs, readings) -> dict:
    """What the page draws for this application (pages/calculator.py's answer box), in the browser's terms."""
    a = evaluate(app, rs, readings)
    return {"award": fmt(a.amount), "limit": a.binding_text, "route": ROUTES[a.route]}


def settled() -> dict:
    return _settled(state.application(), state.ruleset(), state.readings())


def live(name: str, top_dollars: int) -> dict:
    """For the money slider `name` (0 to `top_dollars`): its pieces, with integers as text (the
    page reads JSON numbers as doubles, exact only to 2**53; it computes in BigInt), the words, and
    the settled award; only the settled award where the pieces do not hold."""
    app, rs, readings = state.application(), state.ruleset(), state.readings()
    p = pieces(app, name, top_dollars * 100, rs, readings)
    if p is None:
        return {"settled": _settled(app, rs, readings)}
    return {"d": str(p["d"]), "zero": p["zero"],
            "routes": [{"route": r["route"], "caps": [[c["cap"], str(c["a"]), str(c["b"]),
                                                       None if c["margin"] is None else [str(m) for m in c["margin"]]]
                                                      for c in r["caps"]]} for r in p["routes"]],
            "labels": LABELS, "routes_words": ROUTES, "settled": _settled(app, rs, readings)}


def check(name: str, cents: int, drawn) -> None:
    """After a slider's amount is applied: what the browser drew for it against the server's own
    award. The server's is the one shown; a difference is a defect of the pieces, logged."""
    if not isinstance(drawn, dict):
        return
    want = settled()
    got = {k: drawn.get(k) for k in want}
    if got != want:
        _LOG.error("live award defect: %s at %s cents: the browser drew %r, the law gives %r",
                   name, cents, {k: str(v)[:200] for k, v in got.items()}, want)
