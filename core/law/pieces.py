"""The pieces a browser evaluates while a slider moves (ui/components/live_award.js): every cap of
every open route along one input as exact integers (core.law.lines, the one core.law.caps on
fractions), checked against the award itself at the ends.
"""
from __future__ import annotations

from functools import lru_cache

from core.law.application import Application
from core.law.award import _routes
from core.law.lines import SWEEP_FIELDS, lines_along
from core.law.money import plain
from core.law.readings import DEFAULT, Readings
from core.law.rulesets import Ruleset, load


@lru_cache(maxsize=512)
def _pieces(app: Application, rs: Ruleset, field: str, hi: int, readings: Readings) -> dict | None:
    at_zero = _routes(app, rs, readings)[2]   # app has the field at 0 (pieces)
    lines = lines_along(app, rs, field, readings)
    out = {"field": field, "to": hi, "d": lines.d,
           "zero": {"award": at_zero.award, "route": at_zero.id, "binding": list(at_zero.binding),
                    "caps": [[c, v] for c, v in at_zero.caps.items()]},
           "routes": [{"route": route, "caps": [{"cap": c, "a": a, "b": b, "margin": None if m is None else list(m)}
                                                for c, a, b, m in caps]}
                      for route, caps in lines.scaled]}
    # The lines are the caps' own (core.law.caps run on fractions), and the law's rounding is a
    # floor on each: checked against `evaluate` at the ends, so that an input or cap the lines do
    # not describe (a future rule that is not affine along this input) falls back to a rerun.
    # (At 1 cent the rounding and the choice of route; at the top, that nothing bends in between.)
    for x in {1, max(1, hi)}:
        chosen = _routes(app.replace(**{field: x}), rs, readings)[2]
        if piece_value(out, x) != (chosen.award, chosen.id, chosen.binding):
            return None
    return out


def pieces(app: Application, field: str, hi: int, rs: Ruleset | None = None,
           readings: Readings = DEFAULT) -> dict | None:
    """Along `field` from 0 to `hi` cents, the others as in `app`: every cap of every open route
    as exact integers, for a browser to evaluate at each position of a slider without asking the
    server (ui/components/live_award.js). Serialisable (ints, strings, lists):

    - `d`: one common denominator; `routes`: [{route, caps: [{cap, a, b, margin}]}] in the
      route's order (the regulation's, core.law.caps), where at x cents (x >= 1) the cap is
      max(0, floor((a·x + b) / d)), present while `margin` is null or (m0·x + m1) / d < 0
      (a condition on the moving amount, such as the local match under the condition reading);
    - each route's award is the least of its present caps, binding the caps equal to it in
      that order; the award is the larger route's, a tie keeping the standard route (as
      core.law.award settles it);
    - `zero`: the award, route, binding and the chosen route's caps ([cap, cents]) at 0, where
      some caps or routes do not exist yet.

    None where the pieces do not hold (checked against `evaluate`): the page reruns instead."""
    rs = rs or load()
    readings = readings or DEFAULT
    if field not in SWEEP_FIELDS:
        raise ValueError(f"field: {field!r} cannot be swept; use one of {', '.join(SWEEP_FIELDS)}")
    if hi < 0:
        raise ValueError(f"range: to {plain(hi)} is below zero")
    # Remembered by everything but the moving amount: moving it again finds the same pieces.
    return _pieces(app.replace(**{field: 0}), rs, field, hi, readings)


def piece_value(p: dict, x: int) -> tuple[int, str, tuple]:
    """(award, route, binding) at x cents from `pieces`' output alone: what the browser computes
    (ui/components/live_award.js does the same arithmetic in BigInt), for the tests to compare
    with `evaluate`."""
    if x == 0:
        z = p["zero"]
        return z["award"], z["route"], tuple(z["binding"])
    d = p["d"]
    best = None
    for r in p["routes"]:
        values = {}
        for c in r["caps"]:
            m = c["margin"]
            if m is None or m[0] * x + m[1] < 0:
                values[c["cap"]] = max(0, (c["a"] * x + c["b"]) // d)   # floor, as the law rounds a share
        award = min(values.values())
        if best is None or award > best[0]:
            best = (award, r["route"], tuple(k for k, v in values.items() if v == award))
    return best
