"""Evaluate one application under one ruleset and one set of readings: the award, every
cap, the binding ones, the route, the checks and a plain-English explanation
(docs/rules.md). The caps themselves come from core.law.caps; the words from core.law.explain.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from core.law import checks as _checks, explain, provisions
from core.law.application import Application
from core.law.checks import Check, exception_conditions
from core.law.explain import Step, Unmet, binding_text, pct, types_words  # noqa: F401
from core.law.money import plain
from core.law import caps as _caps
from core.law.caps import Intermediates, derive, inputs_of
from core.law.engines import INTS
from core.law.fields import FUNDING_PLAN
from core.law.readings import DEFAULT, READING, READING_IDS, Readings
from core.law.rulesets import Ruleset, load


@dataclass(frozen=True)
class Route:
    id: str
    award: int
    caps: dict             # cap id -> cents, canonical order
    binding: tuple

    def to_dict(self) -> dict:
        return {"award": plain(self.award), "caps": {k: plain(v) for k, v in self.caps.items()},
                "binding": list(self.binding)}


def _settle(route_id: str, caps: dict) -> Route:
    award = max(0, min(caps.values()))
    return Route(route_id, award, caps, tuple(c for c, v in caps.items() if v == award))


@dataclass(frozen=True)
class Award:
    application: Application
    ruleset_id: str
    ruleset_version: str
    ruleset_label: str
    is_variant: bool
    amount: int
    route: str
    caps: dict
    binding: tuple
    routes: dict           # route id -> Route, every route evaluated
    facts: Intermediates   # what the law derived on the way (core.law.caps.intermediates), in cents
    checks: tuple
    steps: tuple
    funding: dict = field(default_factory=dict)   # federal, state, local, gap (cents)
    readings: Readings = DEFAULT
    ruleset: object = field(default=None, compare=False, repr=False)
    ruleset_edition: str = ""   # for people ("edition 1 of ..."); ruleset_version is the record
    unmet: tuple = ()           # Unmet: the requirements not yet met, said beside the award
    as_of: object = None        # the day whose law this is (None: the ruleset as it stands, undated)
    law_notes: tuple = ()       # what a reader must know of the law applied: caveats, uncertain days

    @property
    def binding_text(self) -> str:
        return binding_text(self.binding, self.caps)

    def check(self, check_id: str) -> Check | None:
        return next((c for c in self.checks if c.id == check_id), None)

    @property
    def remaining(self) -> int:
        """The cost of eligible work left after the federal grant."""
        return self.facts.remaining

    @property
    def base(self) -> int:
        """What the State share is taken of."""
        return self.facts.base

    @property
    def local_shortfall(self) -> int:
        """How far the local funds fall short of the match, on the standard route (the exception's
        conditions replace the match: 0 there)."""
        return self.facts.match_short if self.route == "standard" else 0

    @property
    def funding_gap(self) -> int:
        return self.funding["gap"]

    def to_dict(self) -> dict:
        return {
            "award": plain(self.amount),
            "binding": list(self.binding),
            "binding_text": self.binding_text,
            "route": self.route,
            "caps": {k: plain(v) for k, v in self.caps.items()},
            "routes": {k: r.to_dict() for k, r in self.routes.items()},
            "remaining": plain(self.remaining),
            "base": plain(self.base),
            "local_shortfall": plain(self.local_shortfall),
            "funding_gap": plain(self.funding_gap),
            "unmet": [u.to_dict() for u in self.unmet],
            "funding": {k: plain(v) for k, v in self.funding.items()} | {
                "route": self.route, "if_board_approves": self.route == "bpw_exception",
                "state_without_board_approval": plain(self.routes["standard"].award)},
            "checks": [c.to_dict() for c in self.checks],
            "steps": [s.to_dict() for s in self.steps],
            "ruleset": {"id": self.ruleset_id, "version": self.ruleset_version,
                        "variant": self.is_variant, "label": self.ruleset_label},
            "application": self.application.to_dict(),
            **({"as_of": self.as_of.isoformat()} if self.as_of else {}),
            **({"law_notes": list(self.law_notes)} if self.law_notes else {}),
            "readings": self.readings.as_dict(),
            "citations": [{"paragraph": c.paragraph, "title": c.title, "sentences": list(c.sentences)}
                          | ({"law": c.words} if c.law else {})   # under another law: its act, value and day
                          for c in provisions.citations(self)],
            "other_readings": [
                {"reading": o["reading"], "alternative": o["alternative"], "award": plain(o["award"]),
                 "binding": list(o["binding"]), "route": o["route"],
                 "if_board_approves": o["route"] == "bpw_exception"}
                for o in self.other_readings()],
        }

    def other_readings(self) -> list[dict]:
        """Worked out once per award: the calculator's answer box and its reading switches both
        ask on every slider move, and each ask is an evaluation per reading."""
        if "_other_readings" not in self.__dict__:
            object.__setattr__(self, "_other_readings", tuple(other_readings(self.application, self.ruleset,
                                                                            self.readings, self)))
        return list(self.__dict__["_other_readings"])



def _present(caps: dict) -> dict:
    """The caps that apply (core.law.caps marks the others absent)."""
    return {c: v for c, v in caps.items() if v is not None}


def _routes(app: Application, rs: Ruleset, readings: Readings) -> tuple:
    """What core.law.caps derives, every open route settled, and the chosen route: the larger award; on
    a tie the standard route (the exception is only used when it helps)."""
    law = derive(inputs_of(app), rs, readings, INTS)
    routes = {"standard": _settle("standard", _present(law.standard))}
    if law.board.open:
        routes["bpw_exception"] = _settle("bpw_exception", _present(law.bpw_exception))
    chosen = max(routes.values(), key=lambda r: (r.award, r.id == "standard"))
    return law, routes, chosen


def evaluate(app: Application, ruleset: Ruleset | None = None, readings: Readings = DEFAULT) -> Award:
    rs = ruleset or load()
    readings = (readings or DEFAULT).under(rs)   # the readings this law has: those the result says it used
    law, routes, chosen = _routes(app, rs, readings)
    facts = explain.Facts(app, rs, readings, law, routes, chosen)
    exc = routes.get("bpw_exception")
    if_met = None
    if rs.number("bpw_test") == "unknown" and app.bpw_exception_requested:   # its conditions not known: both numbers said
        if_met = _settle("bpw_exception", _present(law.bpw_exception)).award
    conditions = (exception_conditions(app, rs, exc.award if exc else None, routes["standard"].award, if_met,
                                       law.board) if app.bpw_exception_requested else [])
    gap = funding_gap(app, chosen.award)
    checks = _checks.checks(facts, gap, conditions)
    return Award(
        application=app, ruleset_id=rs.id, ruleset_version=rs.version, ruleset_label=rs.label,
        is_variant=rs.is_variant, amount=chosen.award, route=chosen.id, caps=chosen.caps,
        binding=chosen.binding, routes=routes, facts=law.facts,
        checks=checks, steps=explain.steps(facts, conditions),
        funding=funding_plan(app, chosen.award, gap),
        readings=readings, ruleset=rs, ruleset_edition=rs.edition, unmet=_unmet(app, rs, readings, chosen, law),
        as_of=rs.as_of_date, law_notes=rs.law_notes,
    )


def _unmet(app: Application, rs: Ruleset, readings: Readings, chosen: Route, law) -> tuple:
    """The local match, where it falls short on the standard route: what it asks, how short it is,
    and the award with it met (more local money can lower what the project still lacks; under the
    reading that the match is a condition, the award appears)."""
    short = law.facts.match_short
    if chosen.id != "standard" or not short:
        return ()
    once = award_amount(app.replace(local_contribution=app.local_contribution + short), rs, readings)
    return (Unmet("local_match", law.facts.match_required, short, once),)


def funding_gap(app: Application, award: int) -> int:
    """What every source of funds and the State grant (`award`) leave of the cost of eligible work
    (cents, at least 0): core.law.caps.funding_gap, which the batch runs too."""
    return _caps.funding_gap(inputs_of(app), award)


def funding_plan(app: Application, award: int, gap: int) -> dict:
    """Each source of funds (the field table's `funds`) by its key, the State award after the federal
    grant (§D applies that first), and the gap they leave: what the waterfall, the report and the
    JSON show."""
    return {key: award if name is None else getattr(app, name) for key, _, name in FUNDING_PLAN} | {"gap": gap}


def award_amount(app: Application, ruleset: Ruleset | None = None, readings: Readings = DEFAULT) -> int:
    """`evaluate(app, ruleset, readings).amount` without the words, for core.law.analysis, which
    asks for the award at many points: the better route's least cap, at least zero (a tie
    keeps the standard route, which gives the same amount)."""
    return _routes(app, ruleset or load(), readings or DEFAULT)[2].award


def award_and_route(app: Application, ruleset: Ruleset | None = None, readings: Readings = DEFAULT) -> tuple[int, str]:
    """The award and the route it is on, without the words."""
    chosen = _routes(app, ruleset or load(), readings or DEFAULT)[2]
    return chosen.award, chosen.id


def other_readings(app: Application, rs: Ruleset | None = None, readings: Readings = DEFAULT,
                   current: "Award | None" = None) -> list[dict]:
    """For each single switch of a reading that would change the award: the reading, the
    alternative, the award and binding caps it would give (none for switches that would not)."""
    rs = rs or load()
    current = current or evaluate(app, rs, readings)
    out = []
    for rid in READING_IDS:
        if not READING[rid].applies(rs):   # no such sentence in this law: nothing to switch
            continue
        other = readings.switched(rid)
        # The amount alone first (no words): most switches leave it, and the calculator asks on every move.
        if award_amount(app, rs, other) != current.amount:
            a = evaluate(app, rs, other)
            out.append({"reading": rid, "alternative": getattr(other, rid), "award": a.amount,
                        "binding": a.binding, "route": a.route})
    return out


def law_differs(app: Application, readings: Readings = DEFAULT, day=None, award: "Award | None" = None) -> str:
    """One line where the statute in force and the regulation give this application different
    awards as of `day` (today when None): "This application's award under the statute in force would be
    $800,000; under the regulation, $600,000." ('' where they agree, or where either has no values for that day.)"""
    from core.law.money import fmt
    from core.law.rulesets import DateError
    try:
        statute, regulation = load("statute").as_of(day), load("regulation").as_of(day)
    except DateError:
        return ""
    amounts = {}
    for rs in (statute, regulation):
        if award is not None and award.ruleset_id == rs.id and award.ruleset_version == rs.version:
            amounts[rs.id] = award.amount
        else:
            amounts[rs.id] = award_amount(app, rs, readings)
    if amounts["statute"] == amounts["regulation"]:
        return ""
    from datetime import date
    when = "in force" if statute.as_of_date == date.today() else f"as of {statute.as_of_date.isoformat()}"
    # One meaning: this application's award under each law (not either law's maximum). Where the statute's
    # Board route is asked for and its residual-value test reads a residual value never given, say so.
    taken = ""
    if app.bpw_exception_requested and statute.number("bpw_test") == "residual_value" and not app.residual_value:
        taken = (" (the residual value of the property was not given and is taken as $0, which closes the "
                 "statute's Board route; give it to see that route)")
    return (f"This application's award under the statute {when} would be {fmt(amounts['statute'])}{taken}; "
            f"under the regulation, {fmt(amounts['regulation'])}.")
