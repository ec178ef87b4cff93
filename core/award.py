"""Evaluate one application under one ruleset and one set of readings: the award, every
cap, the binding ones, the route, the checks and a plain-English explanation
(docs/rules.md). The caps themselves come from core.law; this module puts them in words.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from core.application import Application
from core.fields import CAP, PROJECT_TYPES
from core.money import fmt, plain
from core.law import INTS, caps, inputs_of
from core.readings import DEFAULT, READING_IDS, Readings
from core.rulesets import Ruleset, load


def pct(share: Fraction) -> str:
    value = (Decimal(share.numerator) / Decimal(share.denominator) * 100).normalize()
    return f"{value:f}%"


@dataclass(frozen=True)
class Check:
    id: str
    label: str
    status: str            # "pass", "fail", "waived", "warning"
    amount: int | None     # cents: the shortfall, the gap, the room...
    message: str
    provision: str

    def to_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "status": self.status,
                "amount": None if self.amount is None else plain(self.amount),
                "message": self.message, "provision": self.provision}


@dataclass(frozen=True)
class Step:
    provision: str
    text: str

    def to_dict(self) -> dict:
        return {"provision": self.provision, "text": self.text}


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


def binding_text(binding, caps) -> str:
    """'program maximum ($600,000)' or 'State share limit and funding need (both $500,000)'."""
    if not binding:
        return "none"
    names = [CAP[c].label for c in binding]
    amount = fmt(caps[binding[0]])
    if len(names) == 1:
        return f"{names[0]} ({amount})"
    joined = ", ".join(names[:-1]) + " and " + names[-1]
    return f"{joined} ({'both' if len(names) == 2 else 'all'} {amount})"


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
    remaining: int
    base: int
    checks: tuple
    steps: tuple
    funding: dict = field(default_factory=dict)   # federal, state, local, gap (cents)
    readings: Readings = DEFAULT
    ruleset: object = field(default=None, compare=False, repr=False)
    ruleset_edition: str = ""   # for people ("edition 1 of ..."); ruleset_version is the record

    @property
    def binding_text(self) -> str:
        return binding_text(self.binding, self.caps)

    def check(self, check_id: str) -> Check | None:
        return next((c for c in self.checks if c.id == check_id), None)

    @property
    def local_shortfall(self) -> int:
        c = self.check("local_match")
        return c.amount if c and c.status == "fail" else 0

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
            "funding": {k: plain(v) for k, v in self.funding.items()},
            "checks": [c.to_dict() for c in self.checks],
            "steps": [s.to_dict() for s in self.steps],
            "ruleset": {"id": self.ruleset_id, "version": self.ruleset_version,
                        "variant": self.is_variant, "label": self.ruleset_label},
            "application": self.application.to_dict(),
            "readings": self.readings.as_dict(),
            "other_readings": [
                {"reading": o["reading"], "alternative": o["alternative"], "award": plain(o["award"]),
                 "binding": list(o["binding"])}
                for o in self.other_readings()],
        }

    def other_readings(self) -> list[dict]:
        return other_readings(self.application, self.ruleset, self.readings, self)


def types_words(types) -> str:
    """'conversion, renovation or planning, design and construction': the last joined by 'or',
    as the regulation writes it, so that a type whose name holds commas reads as one type."""
    names = [PROJECT_TYPES[t].lower() for t in types]
    if len(names) < 2:
        return "".join(names) or "none"
    return ", ".join(names[:-1]) + " or " + names[-1]


def exception_conditions(app: Application, rs: Ruleset, grant: int | None) -> list[Check]:
    """The four conditions of the Board exception, each pass or fail with its reason.
    `grant` is the exception route's award, which the value-of-property condition is
    measured against (None when that route is not open: the condition does not apply)."""
    eligible = app.project_type in rs.bpw_eligible_types
    allowed = types_words(rs.bpw_eligible_types)
    if grant is None:  # the exception route is not open: nothing to measure the value against
        value = Check("bpw_property_value", "Local property value covers the grant", "not_applicable",
                      app.local_property_value,
                      f"Property and improvements made available locally are worth {fmt(app.local_property_value)}; "
                      f"this condition is measured against the grant of the exception route, which is not open "
                      f"here, so it does not apply.", "bpw_exception")
    else:
        value_ok = app.local_property_value >= grant
        value = Check("bpw_property_value", "Local property value covers the grant",
                      "pass" if value_ok else "fail", app.local_property_value,
                      f"Property and improvements made available locally are worth "
                      f"{fmt(app.local_property_value)}, {'at least' if value_ok else 'less than'} the "
                      f"{fmt(grant)} grant of the exception route; on that route the grant may not exceed "
                      f"that value.", "bpw_exception")
    return [
        Check("bpw_project_type", "Project type qualifies", "pass" if eligible else "fail", None,
              f"{PROJECT_TYPES[app.project_type]} {'is' if eligible else 'is not'} one of the types "
              f"the exception covers ({allowed}).", "bpw_exception"),
        value,
        Check("bpw_no_state_funds", "No State funds in the property",
              "fail" if app.state_funds_in_property else "pass", None,
              "State funds were used for the property or building, so the exception is not available."
              if app.state_funds_in_property else
              "No State funds were used to acquire, build or maintain the property or building.",
              "bpw_exception"),
        Check("bpw_no_state_debt", "No State bonded debt on it",
              "fail" if app.state_bonded_debt else "pass", None,
              "The State is responsible for bonded debt on the property or building, so the exception "
              "is not available." if app.state_bonded_debt else
              "The State carries no bonded debt on the property or building.", "bpw_exception"),
    ]


def evaluate(app: Application, ruleset: Ruleset | None = None, readings: Readings = DEFAULT) -> Award:
    rs = ruleset or load()
    readings = readings or DEFAULT
    steps: list[Step] = []
    say = lambda provision, text: steps.append(Step(provision, text))  # noqa: E731
    kind = "a master plan" if app.project_type == "master_plan" else PROJECT_TYPES[app.project_type].lower()
    cost, fed, local, prior = app.eligible_cost, app.federal_grant, app.local_contribution, app.prior_program_funds

    # Every cap, once, in core.law; here only the words.
    law = caps(inputs_of(app), rs, readings, INTS)
    remaining, base = law.remaining, law.base
    if fed == 0:
        say("federal_first", f"There is no federal grant, so the whole {fmt(cost)} cost of eligible work remains.")
    elif app.federal_law_contrary:
        say("federal_first", f"Federal law requires otherwise, so the {fmt(fed)} federal grant is not applied "
                             f"first; the State share is taken of the whole {fmt(cost)} cost of eligible work.")
    else:
        say("federal_first", f"The {fmt(fed)} federal grant is applied first, leaving {fmt(remaining)} "
                             f"of the {fmt(cost)} cost of eligible work.")

    std = {c: v for c, v in law.standard.items() if v is not None}
    say("program_max", f"A grant for {kind} may not exceed {fmt(std['program_max'])} (program maximum).")
    if "funding_need" in std:
        say("funding_need", f"With {fmt(local)} of local contributions, the project still lacks "
                            f"{fmt(std['funding_need'])}; the State does not pay more than that (funding need).")
    else:
        say("funding_need", "Under the reading funding_need_cap=none there is no funding-need limit: "
                            "the State share and the other limits decide.")
    if "prior_grant_room" in std:
        say("prior_grant_room", f"This grantee already received {fmt(prior)} under the program; an additional "
                                f"grant is limited to {fmt(rs.prior_grant_ceiling)} less that: "
                                f"{fmt(std['prior_grant_room'])} (prior-grant room).")
    if "requested_amount" in std:
        say("requested_amount", f"The applicant asked for {fmt(app.requested_amount)} (requested amount).")

    # 4. Standard route: the State share of the base.
    if fed > 0 and base == remaining and remaining < cost:
        of = f"the {fmt(base)} of the cost of eligible work remaining after the federal grant"
    elif fed > 0 and prior > 0 and readings.f_reference == "prior_grant" and not app.federal_law_contrary:
        of = (f"the whole {fmt(base)} cost of eligible work (reading f_reference=prior_grant: for additional "
              f"eligible work §F lifts the limit on the remainder after the federal grant)")
    else:
        of = f"the {fmt(base)} cost of eligible work"
    say("cost_share", f"The State share may not exceed {pct(rs.state_share)} of {of}: {fmt(std['cost_share'])} "
                      f"(State share limit, rounded down to the cent).")
    if "local_match" in std:
        say("local_match", f"Local contributions of {fmt(local)} fall short of the {pct(rs.local_share)} local match "
                           f"of {fmt(law.match_required)}; under the reading local_match_effect=condition no grant "
                           f"may be made on the standard route (local match condition: $0).")
    routes = {"standard": _settle("standard", std)}

    # 5. Board exception route: only when requested and its conditions can hold.
    checks: list[Check] = []
    if law.exception_open:
        routes["bpw_exception"] = _settle(
            "bpw_exception", {c: v for c, v in law.bpw_exception.items() if v is not None})

    # 6. The route with the larger award; on a tie, the standard route.
    chosen = routes["standard"]
    exc = routes.get("bpw_exception")
    if exc and exc.award > chosen.award:
        chosen = exc
    if app.bpw_exception_requested:
        conditions = exception_conditions(app, rs, exc.award if exc else None)
        failed = [c for c in conditions if c.status == "fail" and c.id != "bpw_property_value"]
        if failed:
            say("bpw_exception", "The Board of Public Works exception was requested but is not available: "
                                 + " ".join(c.message for c in failed))
        elif chosen is exc:
            say("bpw_exception", f"The Board of Public Works exception may be available at the Board's discretion: "
                                 f"the {pct(rs.state_share)} limit would be lifted, but the grant may not exceed the "
                                 f"{fmt(app.local_property_value)} value of property made available locally. The "
                                 f"exception route gives {fmt(exc.award)} against {fmt(routes['standard'].award)} on "
                                 f"the standard route, so it is shown.")
        else:
            say("bpw_exception", f"The Board of Public Works exception would give {fmt(exc.award)}, not more than "
                                 f"the {fmt(routes['standard'].award)} of the standard route, so the standard "
                                 f"route is used.")
        checks.extend(conditions)

    # 7. The award and every cap that holds it down.
    say("award", f"The award is the least of these limits: {fmt(chosen.award)}. "
                 f"Binding: {binding_text(chosen.binding, chosen.caps)}.")

    # Checks beside the award (they do not change it, unless local_match_effect=condition).
    required = law.match_required
    measured = (" of the whole cost of eligible work" if readings.local_match_base == "total_cost" and fed else
                " of the cost remaining after the federal grant" if fed else "")
    if chosen.id == "bpw_exception":
        checks.insert(0, Check("local_match", "Local match", "waived", 0,
                               f"The {pct(rs.local_share)} local match is waived on the Board exception route.",
                               "local_match"))
    else:
        short = max(0, required - local)
        checks.insert(0, Check(
            "local_match", "Local match", "fail" if short else "pass", short,
            f"Local contributions are {fmt(short)} short of the {pct(rs.local_share)} match of {fmt(required)}"
            f"{measured}."
            if short else
            f"Local contributions of {fmt(local)} meet the {pct(rs.local_share)} match of {fmt(required)}"
            f"{measured}.",
            "local_match"))
    gap = funding_gap(app, chosen.award)
    checks.insert(1, Check(
        "fully_funded", "Fully funded", "fail" if gap else "pass", gap,
        f"Federal, State and local funds leave a funding gap of {fmt(gap)}." if gap else
        "Federal, State and local funds cover the cost of eligible work.", "funding_need"))
    covers = fed > 0 and fed >= cost
    checks.insert(2, Check(
        "federal_exceeds_cost", "Federal grant within the cost", "warning" if covers else "pass", fed,
        f"The {fmt(fed)} federal grant alone covers the {fmt(cost)} cost of eligible work; no State grant is needed."
        if covers else "The federal grant does not cover the whole cost on its own.", "federal_first"))
    if prior > 0:
        room = std["prior_grant_room"]
        checks.append(Check(
            "prior_grant_room", "Prior-grant room", "pass" if room else "fail", room,
            f"{fmt(room)} of room remains below the {fmt(rs.prior_grant_ceiling)} ceiling." if room else
            f"Prior funds of {fmt(prior)} reach the {fmt(rs.prior_grant_ceiling)} ceiling; no additional "
            f"grant is available.", "prior_grant_room"))

    return Award(
        application=app, ruleset_id=rs.id, ruleset_version=rs.version, ruleset_label=rs.label,
        is_variant=rs.is_variant, amount=chosen.award, route=chosen.id, caps=chosen.caps,
        binding=chosen.binding, routes=routes, remaining=remaining, base=base,
        checks=tuple(checks), steps=tuple(steps),
        funding={"federal": fed, "state": chosen.award, "local": local, "gap": gap},
        readings=readings, ruleset=rs,
        ruleset_edition=rs.edition,
    )


def funding_gap(app: Application, award: int) -> int:
    """What federal, State (`award`) and local funds leave of the cost of eligible work (cents, at least 0)."""
    return max(0, app.eligible_cost - app.federal_grant - award - app.local_contribution)


def award_amount(app: Application, ruleset: Ruleset | None = None, readings: Readings = DEFAULT) -> int:
    """`evaluate(app, ruleset, readings).amount` without the words, for core.analysis, which
    asks for the award at many points: the better route's least cap, at least zero (a tie
    keeps the standard route, which gives the same amount)."""
    law = caps(inputs_of(app), ruleset or load(), readings or DEFAULT, INTS)
    amount = _settle("standard", {c: v for c, v in law.standard.items() if v is not None}).award
    if law.exception_open:
        amount = max(amount, _settle("bpw_exception",
                                     {c: v for c, v in law.bpw_exception.items() if v is not None}).award)
    return amount


def other_readings(app: Application, rs: Ruleset | None = None, readings: Readings = DEFAULT,
                   current: "Award | None" = None) -> list[dict]:
    """For each single switch of a reading that would change the award: the reading, the
    alternative, the award and binding caps it would give (none for switches that would not)."""
    rs = rs or load()
    current = current or evaluate(app, rs, readings)
    out = []
    for rid in READING_IDS:
        other = readings.switched(rid)
        # The amount alone first (no words): most switches leave it, and the calculator asks on every move.
        if award_amount(app, rs, other) != current.amount:
            a = evaluate(app, rs, other)
            out.append({"reading": rid, "alternative": getattr(other, rid), "award": a.amount,
                        "binding": a.binding, "route": a.route})
    return out
