"""The words of one result: the explanation's numbered steps and the award box's lines (the checks
beside the award are core/law/checks.py's).

`core.law.award.evaluate` computes the caps and the route (core.law.caps); this module only
chooses, for a computed result, which of the registry's templates (core/law/provisions.toml)
says it, and fills them in. It recomputes nothing: every amount comes from the caps or routes
it is given. No internal id (cap, reading, route) is written into a sentence; readings are named
by their titles.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from core.law.application import Application
from core.law.fields import FUNDING_PLAN, LOCAL_FUNDS, PROJECT_TYPES
from core.law.provisions import CAP, STEPS
from core.law.money import fmt, plain
from core.law.readings import READING, Readings

if TYPE_CHECKING:   # the checks read this module's words; the steps only name their type
    from core.law.checks import Check

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


def joined(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def sources_words(start: bool = True) -> str:
    """'Federal, State and local funds' (`start`: at the start of a sentence) or 'federal, State and
    local': every source of funds of the field table (`funds`, each key an adjective), the State's
    after the federal grant's."""
    words = joined([key if name else "State" for key, _, name in FUNDING_PLAN])
    return words[0].upper() + words[1:] + " funds" if start else words


def local_funds_words(app) -> str:
    """'$500,000 of local contributions': the money besides the federal grant that what the project
    still lacks is measured after (core.law.caps.local_funds), each source given, the first always."""
    said = [f for i, f in enumerate(LOCAL_FUNDS) if i == 0 or getattr(app, f.name)]
    return joined([f"{fmt(getattr(app, f.name))} of {f.label.lower()}{'' if f.label.endswith('s') else 's'}"
                   for f in said])


def binding_text(binding, caps) -> str:
    """'the program maximum ($600,000)' or 'the State's share of the cost and what the project still lacks (both $500,000)'."""
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


# A check's status in words, the same on every surface (the calculator, Compare, the report).
STATUS_WORDS = {"pass": "Pass", "fail": "Fail", "waived": "Would be waived", "warning": "Warning",
                "not_applicable": "Does not apply"}


@dataclass(frozen=True)
class Unmet:
    """A requirement of the regulation the application does not yet meet (the local match, on
    the standard route): what it asks, how far short the application is, and the award once it
    is met (core.law.award works it out: more local money can lower what the project still lacks)."""
    id: str
    required: int          # cents
    short: int             # cents
    award_once_met: int    # cents

    @property
    def text(self) -> str:
        """'$600,000 once the local match reaches $1,050,000: it is $150,000 short.'"""
        return STEPS["unmet"][self.id].format(once=fmt(self.award_once_met), required=fmt(self.required),
                                              short=fmt(self.short))

    def to_dict(self) -> dict:
        return {"id": self.id, "required": plain(self.required), "short": plain(self.short),
                "award_once_met": plain(self.award_once_met), "text": self.text}


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
    def contrary(self) -> bool:
        """Federal law is to the contrary and the law in force lets that put the State grant first."""
        return bool(self.law.facts.contrary)

    @property
    def federal_applied(self) -> bool:
        return bool(self.law.facts.federal_applied)

    @property
    def exception(self):
        return self.routes.get("bpw_exception")


def _step(provision: str, case: str = "default", **values) -> Step:
    return Step(provision, STEPS[provision][case].format(**values))


# --- the explanation ------------------------------------------------------------------

def _federal(f: Facts) -> Step:
    app = f.app
    case = ("none" if app.federal_grant == 0 else "contrary" if f.contrary else
            "contrary_not_in_law" if app.federal_law_contrary else "applied")
    return _step("federal_first", case, cost=fmt(app.eligible_cost), federal=fmt(app.federal_grant),
                 remaining=fmt(f.law.facts.remaining))


def _prior(f: Facts, std: dict) -> list[Step]:
    prior, ceiling = f.app.prior_program_funds, f.rs.number("prior_grant_ceiling")
    if prior == 0:
        return []
    if ceiling is None:   # a law with no top-up for earlier grantees (the statute before 1987)
        return [_step("prior_grant_room", "no_provision", prior=fmt(prior), **no_top_up(f.rs))]
    case = ("no_limit" if "prior_grant_room" not in std else "at_ceiling" if prior >= ceiling else "room")
    return [_step("prior_grant_room", case, prior=fmt(prior), ceiling=fmt(ceiling),
                  room=fmt(std.get("prior_grant_room", 0)), reading=reading_words(f.readings, "prior_grant_limit"))]


def no_top_up(rs) -> dict:
    """The day and the source of a law with no top-up for earlier grantees, for the words."""
    return {"day": rs.as_of_date.isoformat() if rs.as_of_date else "this ruleset",
            "source": rs.parameters["prior_grant_ceiling"].citation}


def _common_limits(f: Facts) -> list[Step]:
    """The limits of both routes: program maximum, funding need, prior-grant room, request."""
    app, std = f.app, f.routes["standard"].caps
    kind = "a master plan" if app.project_type == "master_plan" else PROJECT_TYPES[app.project_type].lower()
    need = ("none" if "funding_need" not in std else
            "before_federal" if f.contrary and app.federal_grant else "applies")
    out = [_step("program_max", kind=kind, program_max=fmt(std["program_max"])),
           _step("funding_need", need, funds=local_funds_words(app), need=fmt(std.get("funding_need", 0)),
                 reading=reading_words(f.readings, "funding_need_cap")), *_prior(f, std)]
    if "requested_amount" in std:
        out.append(_step("requested_amount", requested=fmt(app.requested_amount)))
    if "surplus_building" in std:
        out.append(_step("surplus_building"))
    return out


def _share_of(f: Facts) -> str:
    """What the State share on the standard route is taken of, in words."""
    app, base, remaining = f.app, f.law.facts.base, f.law.facts.remaining
    case = ("of_remainder" if f.federal_applied and base == remaining < app.eligible_cost else
            "of_prior_grant" if f.federal_applied and base != remaining else
            "of_contrary" if app.federal_grant and f.contrary else "of_cost")
    return STEPS["cost_share"][case].format(base=fmt(base), reading=reading_words(f.readings, "f_reference"))


def _standard(f: Facts) -> list[Step]:
    std, rs = f.routes["standard"].caps, f.rs
    out = [_step("cost_share", share=pct(rs.number("state_share")), of=_share_of(f), amount=fmt(std["cost_share"]))]
    if "full_cost" in std:
        out.append(_step("federal_first", "limit", remaining=fmt(std["full_cost"])))
    if "local_match" in std:
        out.append(_step("local_match", "condition", local=fmt(f.law.facts.local_funds), share=pct(rs.number("local_share")),
                         required=fmt(f.law.facts.match_required),
                         reading=reading_words(f.readings, "local_match_effect")))
    return out


def _exception(f: Facts, conditions: list[Check]) -> list[Step]:
    if not f.app.bpw_exception_requested:
        return []
    failed = [c for c in conditions if c.status == "fail" and c.id != "bpw_property_value"]
    exc, std, words = f.exception, f.routes["standard"], STEPS["bpw_exception"]
    unknown = [c for c in conditions if c.id == "bpw_in_law" and c.status == "warning"]
    if unknown:   # the act of 1984: conditions not known, both numbers said
        return [_step("bpw_exception", "unknown", why=unknown[0].message)]
    if failed:
        return [_step("bpw_exception", "unavailable", why=" ".join(c.message for c in failed))]
    if f.chosen is not exc:
        return [_step("bpw_exception", "not_more", exception=fmt(exc.award), standard=fmt(std.award))]
    share = pct(f.rs.number("state_share"))
    text = words["chosen"].format(share=share, value=fmt(f.app.local_property_value),
                                  full_cost=fmt(exc.caps["full_cost"]),
                                  after=words["after_federal"] if f.federal_applied else "")
    if "cost_share" in exc.caps:
        text += words["keeps_remainder"].format(reading=reading_words(f.readings, "f_reference"), share=share,
                                                amount=fmt(exc.caps["cost_share"]))
    text += words["compared"].format(exception=fmt(exc.award), standard=fmt(std.award))
    return [Step("bpw_exception", text)]


def award_words(award) -> str:
    """The award as an amount, with the Board's discretion where it rests on it:
    '$550,000.01 if the Board approves'."""
    return fmt(award.amount) + (" if the Board approves" if award.route == "bpw_exception" else "")


def shortfall_words(award) -> str:
    """The local match shortfall as an amount, or "Would be waived" on the Board exception's
    route (its conditions replace the match)."""
    return fmt(award.local_shortfall) if award.route == "standard" else STATUS_WORDS["waived"]


def exception_line(award) -> str:
    """One line for the award box when the Board exception was asked for ('' when it was not):
    what the exception would give and why it is or is not used."""
    if not award.application.bpw_exception_requested:
        return ""
    words, std = STEPS["bpw_summary"], award.routes["standard"]
    exc = award.routes.get("bpw_exception")
    unknown = award.check("bpw_in_law")
    if exc is None and unknown is not None and unknown.status == "warning" and unknown.amount is not None:
        return words["unknown"].format(exception=fmt(unknown.amount), standard=fmt(std.award))
    if exc is None:
        failed = [f"“{c.label}”" for c in award.checks
                  if c.provision == "bpw_exception" and c.status == "fail" and c.id != "bpw_property_value"]
        conditions = (failed[0] if len(failed) == 1 else ", ".join(failed[:-1]) + " and " + failed[-1]) \
            if failed else "its conditions"
        return words["unavailable"].format(conditions=("the condition " if len(failed) == 1 else "the conditions ")
                                           + conditions if failed else conditions,
                                           is_are="is" if len(failed) == 1 else "are")
    if award.route == "bpw_exception":
        return words["chosen"].format(exception=fmt(exc.award), more=fmt(exc.award - std.award),
                                      standard=fmt(std.award))
    return words["not_more"].format(exception=fmt(exc.award), standard=fmt(std.award))


def steps(f: Facts, conditions: list[Check]) -> tuple[Step, ...]:
    """The explanation, numbered in the order of the computation."""
    award = _step("award", "exception" if f.chosen.id == "bpw_exception" else "default", amount=fmt(f.chosen.award),
                  binding=binding_text(f.chosen.binding, f.chosen.caps))
    return (_federal(f), *_common_limits(f), *_standard(f), *_exception(f, conditions), award)


def maximum_words(award) -> str:
    """What the award is a maximum of. Where what the project still lacks holds it (funding_need, no
    sentence of the law: the Department's reading), that is said, with the award read without that
    limit, as the other readings are; elsewhere, the most the State may give under the law."""
    law = ("this variant (a what-if, not the law in force)" if award.is_variant
           else "the statute" if award.ruleset_id == "statute" else "the regulation")
    short = law.split(" (")[0]
    other = next((o for o in award.other_readings() if o["reading"] == "funding_need_cap"), None)
    if "funding_need" in award.binding and other is not None:
        where = f", {EXCEPTION_ROUTE}" if other["route"] == "bpw_exception" else ""
        return (f"The most the State may give under {law} as the Department reads it: no more than the project "
                f"still lacks, which no sentence of {short} says; read without that limit, the most would be "
                f"{fmt(other['award'])}{where}. The Department sets the amount within it.")
    return f"The most the State may give under {law}; the Department sets the amount within it."


def other_reading_words(other: dict) -> str:
    """One entry of `Award.other_readings()` in words: 'What a short local match does: read as
    “A condition of any award”, the award would be $0 (the local match requirement).'"""
    r = READING[other["reading"]]
    held = f" ({' and '.join(CAP[c].label for c in other['binding'])})" if other["binding"] else ""
    where = f", {EXCEPTION_ROUTE}" if other.get("route") == "bpw_exception" else ""
    return (f"{r.title}: read as “{r.alternative(other['alternative']).title}”, the award would be "
            f"{fmt(other['award'])}{held}{where}.")


def other_readings_words(award) -> list[str]:
    """Every single reading switch that changes the award, in words ([] when none does)."""
    return [other_reading_words(o) for o in award.other_readings()]


def source_line(award) -> tuple[str, str]:
    """Where the limit that holds the award is written: ("In the regulation", its citations); under
    the statute ("In the statute", each limit's subsection, act and number as of the day); under a
    variant ("In the variant", its own values, then the regulation's sentences it keeps)."""
    from core.law.provisions import source_words
    words = source_words(award)
    rs = award.ruleset
    if rs is None or (award.ruleset_id == "regulation" and not award.is_variant):
        return "In the regulation", words
    if award.is_variant:
        return "In the variant", words
    return ("In the statute" if award.ruleset_id == "statute" else f"In {rs.in_sentence}"), words
