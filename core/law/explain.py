"""The words of one result: the explanation's numbered steps and the checks beside the award.

`core.law.award.evaluate` computes the caps and the route (core.law.caps); this module only puts a
computed result into sentences a board member can read aloud. It recomputes nothing: every
amount comes from the caps or routes it is given. No internal id (cap, reading, route) is
written into a sentence; readings are named by their titles.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from core.law.application import Application
from core.law.fields import CAP, PROJECT_TYPES
from core.law.money import fmt, plain
from core.law.readings import READING, Readings

EXCEPTION_ROUTE = "on the Board's exception route"
EXCEPTION_ROUTE_CAP = "On the Board's exception route"


def pct(share: Fraction) -> str:
    value = (Decimal(share.numerator) / Decimal(share.denominator) * 100).normalize()
    return f"{value:f}%"


def types_words(types) -> str:
    """'conversion, renovation or planning, design and construction': the last joined by 'or',
    as the regulation writes it, so that a type whose name holds commas reads as one type."""
    names = [PROJECT_TYPES[t].lower() for t in types]
    if len(names) < 2:
        return "".join(names) or "none"
    return ", ".join(names[:-1]) + " or " + names[-1]


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


def reading_words(readings: Readings, reading_id: str) -> str:
    """The reading in use, by its title: 'the reading “Only grantees below $300,000”'."""
    return f"the reading “{READING[reading_id].alternative(getattr(readings, reading_id)).title}”"


@dataclass(frozen=True)
class Check:
    id: str
    label: str
    status: str            # "pass", "fail", "waived", "warning", "not_applicable"
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
class Facts:
    """What the words are made of: the application, the ruleset and readings, core.law.caps's caps
    (`law`), every route settled (`routes`: id -> core.law.award.Route) and the chosen one."""
    app: Application
    rs: object
    readings: Readings
    law: object
    routes: dict
    chosen: object

    @property
    def federal_applied(self) -> bool:
        return self.app.federal_grant > 0 and not self.app.federal_law_contrary

    @property
    def exception(self):
        return self.routes.get("bpw_exception")


# --- the explanation ------------------------------------------------------------------

def _federal(f: Facts) -> Step:
    app = f.app
    if app.federal_grant == 0:
        text = f"There is no federal grant, so the whole {fmt(app.eligible_cost)} cost of eligible work remains."
    elif app.federal_law_contrary:
        text = (f"Federal law requires otherwise, so the {fmt(app.federal_grant)} federal grant is not applied "
                f"first: the State grant comes before it, and the State share, the local match and what the "
                f"project still lacks are all measured on the whole {fmt(app.eligible_cost)} cost of eligible work.")
    else:
        text = (f"The {fmt(app.federal_grant)} federal grant is applied first, leaving {fmt(f.law.remaining)} "
                f"of the {fmt(app.eligible_cost)} cost of eligible work.")
    return Step("federal_first", text)


def _common_limits(f: Facts) -> list[Step]:
    """The limits of both routes: program maximum, funding need, prior-grant room, request."""
    app, std = f.app, f.routes["standard"].caps
    kind = "a master plan" if app.project_type == "master_plan" else PROJECT_TYPES[app.project_type].lower()
    out = [Step("program_max", f"A grant for {kind} may not exceed {fmt(std['program_max'])} (program maximum).")]
    if "funding_need" in std:
        before = "Before the federal grant, with" if app.federal_law_contrary and app.federal_grant else "With"
        out.append(Step("funding_need", f"{before} {fmt(app.local_contribution)} of local contributions, the "
                                        f"project still lacks {fmt(std['funding_need'])}; the State does not pay "
                                        f"more than that (funding need)."))
    else:
        out.append(Step("funding_need", f"Under {reading_words(f.readings, 'funding_need_cap')} there is no "
                                        f"funding-need limit: the State share and the other limits decide."))
    prior, ceiling = app.prior_program_funds, f.rs.prior_grant_ceiling
    if "prior_grant_room" in std and prior >= ceiling:
        out.append(Step("prior_grant_room", f"This grantee already received {fmt(prior)} under the program, not "
                                            f"less than {fmt(ceiling)}; under "
                                            f"{reading_words(f.readings, 'prior_grant_limit')} no additional grant "
                                            f"is available (prior-grant room: $0)."))
    elif "prior_grant_room" in std:
        out.append(Step("prior_grant_room", f"This grantee already received {fmt(prior)} under the program; an "
                                            f"additional grant is limited to {fmt(ceiling)} less that: "
                                            f"{fmt(std['prior_grant_room'])} (prior-grant room)."))
    elif prior > 0:
        out.append(Step("prior_grant_room", f"This grantee already received {fmt(prior)} under the program, not "
                                            f"less than {fmt(ceiling)}; under "
                                            f"{reading_words(f.readings, 'prior_grant_limit')} the sentence on "
                                            f"earlier grantees sets no limit here, and the other limits decide."))
    if "requested_amount" in std:
        out.append(Step("requested_amount", f"The applicant asked for {fmt(app.requested_amount)} (requested amount)."))
    return out


def _share_of(f: Facts) -> str:
    """What the State share on the standard route is taken of, in words."""
    app, base = f.app, f.law.base
    if f.federal_applied and base == f.law.remaining < app.eligible_cost:
        return f"the {fmt(base)} of the cost of eligible work remaining after the federal grant"
    if f.federal_applied and base != f.law.remaining:
        return (f"the whole {fmt(base)} cost of eligible work (under {reading_words(f.readings, 'f_reference')}, "
                f"for additional eligible work “§F” lifts the limit on the remainder after the federal grant)")
    if app.federal_grant and app.federal_law_contrary:
        return f"the whole {fmt(base)} cost of eligible work (the federal grant is not applied first)"
    return f"the {fmt(base)} cost of eligible work"


def _standard(f: Facts) -> list[Step]:
    std, rs = f.routes["standard"].caps, f.rs
    out = [Step("cost_share", f"The State share may not exceed {pct(rs.state_share)} of {_share_of(f)}: "
                              f"{fmt(std['cost_share'])} (State share limit, rounded down to the cent).")]
    if "local_match" in std:
        out.append(Step("local_match", f"Local contributions of {fmt(f.app.local_contribution)} fall short of the "
                                       f"{pct(rs.local_share)} local match of {fmt(f.law.match_required)}; under "
                                       f"{reading_words(f.readings, 'local_match_effect')} no grant may be made on "
                                       f"the standard route (local match condition: $0)."))
    return out


def _exception(f: Facts, conditions: list[Check]) -> list[Step]:
    if not f.app.bpw_exception_requested:
        return []
    failed = [c for c in conditions if c.status == "fail" and c.id != "bpw_property_value"]
    exc, std = f.exception, f.routes["standard"]
    if failed:
        text = ("The Board of Public Works exception was requested but is not available: "
                + " ".join(c.message for c in failed))
    elif f.chosen is exc:
        after = " remaining after the federal grant" if f.federal_applied else ""
        text = (f"The Board of Public Works exception may be available at the Board's discretion: the "
                f"{pct(f.rs.state_share)} limit would be lifted, but the grant may not exceed the "
                f"{fmt(f.app.local_property_value)} value of property made available locally, nor the "
                f"{fmt(exc.caps['full_cost'])} cost of eligible work{after}.")
        if "cost_share" in exc.caps:
            text += (f" Under {reading_words(f.readings, 'f_reference')} the exception lifts only the limit of "
                     f"{pct(f.rs.state_share)} of the whole cost: {pct(f.rs.state_share)} of the cost remaining "
                     f"after the federal grant ({fmt(exc.caps['cost_share'])}) still holds on that route.")
        text += (f" {EXCEPTION_ROUTE_CAP} the grant would be {fmt(exc.award)} against "
                 f"{fmt(std.award)} on the standard route, so that route is shown; it holds only if the Board "
                 f"approves.")
    else:
        text = (f"The Board of Public Works exception would give {fmt(exc.award)}, not more than the "
                f"{fmt(std.award)} of the standard route, so the standard route is used.")
    return [Step("bpw_exception", text)]


def steps(f: Facts, conditions: list[Check]) -> tuple[Step, ...]:
    """The explanation, numbered in the order of the computation."""
    where = f" {EXCEPTION_ROUTE}, if the Board approves" if f.chosen.id == "bpw_exception" else ""
    award = Step("award", f"The award is the least of these limits{where}: {fmt(f.chosen.award)}. "
                          f"Binding: {binding_text(f.chosen.binding, f.chosen.caps)}.")
    return (_federal(f), *_common_limits(f), *_standard(f), *_exception(f, conditions), award)


# --- the checks beside the award ----------------------------------------------------------

def exception_conditions(app: Application, rs, grant: int | None) -> list[Check]:
    """The four conditions of the Board exception, each pass or fail with its reason.
    `grant` is the exception route's award, which the value-of-property condition is
    measured against (None when that route is not open: the condition does not apply)."""
    eligible = app.project_type in rs.bpw_eligible_types
    return [
        Check("bpw_project_type", "Project type qualifies", "pass" if eligible else "fail", None,
              f"{PROJECT_TYPES[app.project_type]} {'is' if eligible else 'is not'} one of the types "
              f"the exception covers ({types_words(rs.bpw_eligible_types)}).", "bpw_exception"),
        _property_condition(app, grant),
        _state_funds_condition(app),
        Check("bpw_no_state_debt", "No State bonded debt on it",
              "fail" if app.state_bonded_debt else "pass", None,
              "The State is responsible for bonded debt on the property or building, so the exception "
              "is not available." if app.state_bonded_debt else
              "The State carries no bonded debt on the property or building.", "bpw_exception"),
    ]


def _property_condition(app: Application, grant: int | None) -> Check:
    value = fmt(app.local_property_value)
    if grant is None:  # the exception route is not open: nothing to measure the value against
        return Check("bpw_property_value", "Local property value covers the grant", "not_applicable",
                     app.local_property_value,
                     f"Property and improvements made available locally are worth {value}; this condition is "
                     f"measured against the grant of the exception route, which is not open here, so it does "
                     f"not apply.", "bpw_exception")
    if grant == 0:
        return Check("bpw_property_value", "Local property value covers the grant", "not_applicable",
                     app.local_property_value,
                     f"Property and improvements made available locally are worth {value}; the exception route "
                     f"gives no grant here, so there is nothing for that value to cover and the condition does "
                     f"not apply.", "bpw_exception")
    ok = app.local_property_value >= grant
    return Check("bpw_property_value", "Local property value covers the grant", "pass" if ok else "fail",
                 app.local_property_value,
                 f"Property and improvements made available locally are worth {value}, "
                 f"{'at least' if ok else 'less than'} the {fmt(grant)} grant of the exception route; on that "
                 f"route the grant may not exceed that value.", "bpw_exception")


def _state_funds_condition(app: Application) -> Check:
    if app.state_funds_in_property:
        status, text = "fail", "State funds were used for the property or building, so the exception is not available."
    elif app.prior_program_funds > 0:
        status, text = "fail", (f"This grantee already received {fmt(app.prior_program_funds)} under this program "
                                f"for this project: State funds were used for the building, so the exception is "
                                f"not available.")
    else:
        status, text = "pass", "No State funds were used to acquire, build or maintain the property or building."
    return Check("bpw_no_state_funds", "No State funds in the property", status, None, text, "bpw_exception")


def _match_measured(f: Facts) -> str:
    if not f.app.federal_grant:
        return ""
    if f.readings.local_match_base == "total_cost":
        return " of the whole cost of eligible work"
    if f.app.federal_law_contrary:
        return " of the whole cost of eligible work (the federal grant is not applied first)"
    return " of the cost remaining after the federal grant"


def _local_match(f: Facts) -> Check:
    share = pct(f.rs.local_share)
    if f.chosen.id == "bpw_exception":
        return Check("local_match", "Local match", "waived", 0,
                     f"The {share} local match would be waived {EXCEPTION_ROUTE}.", "local_match")
    required, local = f.law.match_required, f.app.local_contribution
    short = max(0, required - local)
    text = (f"Local contributions are {fmt(short)} short of the {share} match of {fmt(required)}{_match_measured(f)}."
            if short else
            f"Local contributions of {fmt(local)} meet the {share} match of {fmt(required)}{_match_measured(f)}.")
    return Check("local_match", "Local match", "fail" if short else "pass", short, text, "local_match")


def _federal_check(app: Application) -> Check:
    fed, cost = app.federal_grant, app.eligible_cost
    covers = fed > 0 and fed >= cost
    if not covers:
        text = "The federal grant does not cover the whole cost on its own."
    elif app.federal_law_contrary:
        text = (f"The {fmt(fed)} federal grant alone would cover the {fmt(cost)} cost of eligible work; federal "
                f"law requires that it not be applied first, so the State grant is measured before it.")
    else:
        text = f"The {fmt(fed)} federal grant alone covers the {fmt(cost)} cost of eligible work; no State grant is needed."
    return Check("federal_exceeds_cost", "Federal grant within the cost", "warning" if covers else "pass", fed,
                 text, "federal_first")


def _prior_check(f: Facts) -> list[Check]:
    prior, ceiling = f.app.prior_program_funds, f.rs.prior_grant_ceiling
    if prior == 0:
        return []
    room = f.routes["standard"].caps.get("prior_grant_room")
    if room is None:
        return [Check("prior_grant_room", "Prior-grant room", "not_applicable", None,
                      f"Prior funds of {fmt(prior)} are not below the {fmt(ceiling)} of the sentence on earlier "
                      f"grantees; under {reading_words(f.readings, 'prior_grant_limit')} it sets no limit here.",
                      "prior_grant_room")]
    return [Check("prior_grant_room", "Prior-grant room", "pass" if room else "fail", room,
                  f"{fmt(room)} of room remains below the {fmt(ceiling)} ceiling." if room else
                  f"Prior funds of {fmt(prior)} reach the {fmt(ceiling)} ceiling; under "
                  f"{reading_words(f.readings, 'prior_grant_limit')} no additional grant is available.",
                  "prior_grant_room")]


def checks(f: Facts, gap: int, conditions: list[Check]) -> tuple[Check, ...]:
    """The checks beside the award (they do not change it, unless a reading makes one a
    condition): the local match, full funding, the federal grant, the exception's conditions
    and the prior-grant room."""
    funded = Check("fully_funded", "Fully funded", "fail" if gap else "pass", gap,
                   f"Federal, State and local funds leave a funding gap of {fmt(gap)}." if gap else
                   "Federal, State and local funds cover the cost of eligible work.", "funding_need")
    return (_local_match(f), funded, _federal_check(f.app), *conditions, *_prior_check(f))


def other_reading_words(other: dict) -> str:
    """One entry of `Award.other_readings()` in words: 'What a short local match does: read as
    “A condition of any award”, the award would be $0 (local match condition).'"""
    r = READING[other["reading"]]
    held = f" ({' and '.join(CAP[c].label for c in other['binding'])})" if other["binding"] else ""
    where = f", {EXCEPTION_ROUTE}" if other.get("route") == "bpw_exception" else ""
    return (f"{r.title}: read as “{r.alternative(other['alternative']).title}”, the award would be "
            f"{fmt(other['award'])}{held}{where}.")


def other_readings_words(award) -> list[str]:
    """Every single reading switch that changes the award, in words ([] when none does)."""
    return [other_reading_words(o) for o in award.other_readings()]
