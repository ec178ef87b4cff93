"""The checks beside the award: the local match, full funding, the federal grant, the Board
exception's conditions, the prior-grant room and the statute's surplus-building certification.

Each check reads what core.law.caps derived (the intermediates and the route's test, through
core.law.explain's `Facts`) and chooses which of the registry's templates (core/law/provisions.toml)
says it: nothing is worked out again here.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.law.application import Application
from core.law.caps import board_test, inputs_of
from core.law.explain import Facts, no_top_up, pct, reading_words, sources_words, types_words
from core.law.fields import FIELD, PROJECT_TYPES, RESIDUAL_SUM
from core.law.money import fmt, plain
from core.law.provisions import CHECKS


@dataclass(frozen=True)
class Check:
    id: str
    label: str
    status: str            # a key of core.law.explain.STATUS_WORDS
    amount: int | None     # cents: the shortfall, the gap, the room...
    message: str
    provision: str

    def to_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "status": self.status,
                "amount": None if self.amount is None else plain(self.amount),
                "message": self.message, "provision": self.provision}


def _check(check_id: str, status: str, amount, outcome: str | None = None, **values) -> Check:
    words = CHECKS[check_id]
    return Check(check_id, words.label, status, amount, words.templates[outcome or status].format(**values),
                 words.provision)


def _state_funds(app: Application, met: bool) -> tuple[str, str]:
    """The third condition (no State funds in the property or building): its status (`met`, as
    core.law.caps.board_test tests it) and which words say why: State funds stated, or prior program
    funds that went into the building, as stated or, not stated, as presumed."""
    if app.state_funds_in_property:
        outcome = "fail"
    elif not app.prior_program_funds:
        outcome = "pass"
    elif app.prior_funds_for_property is None:
        outcome = "prior_presumed"
    else:
        outcome = "prior_stated" if app.prior_funds_for_property else "prior_not_in_property"
    return ("pass" if met else "fail"), outcome


def exception_conditions(app: Application, rs, grant: int | None, standard: int | None = None,
                         if_met: int | None = None, test=None) -> list[Check]:
    """The four conditions of the Board exception, each pass or fail with its reason.
    `grant` is the exception route's award, which the value-of-property condition is
    measured against (None when that route is not open: the condition does not apply).
    Under a law whose conditions are not known (the act of 1984), one check gives both numbers:
    `standard`, the standard route's award, and `if_met`, the Board's route's if they are met.
    `test`: core.law.caps.board_test's result for this application (worked out here when not given)."""
    test = test or board_test(inputs_of(app), rs)
    eligible = "pass" if test.type_eligible else "fail"
    funds, outcome = _state_funds(app, test.no_state_funds)
    debt = "pass" if test.no_state_debt else "fail"
    value = app.local_property_value
    property_outcome = ("closed" if grant is None else "no_grant" if grant == 0 else
                        "pass" if value >= grant else "fail")
    day = rs.as_of_date.isoformat() if rs.as_of_date else "this ruleset"
    if rs.number("bpw_test") == "none":   # a law with no Board exception
        return [_check("bpw_in_law", "fail", None, day=day)]
    if rs.number("bpw_test") == "unknown":   # the act of 1984: an exception whose conditions are cut off in the copies found
        source = rs.parameters["bpw_test"].citation
        if eligible == "fail" or if_met is None or standard is None or if_met <= standard:
            return [_check("bpw_in_law", "warning", None, "warning_type", day=day, source=source,
                           standard=fmt(standard or 0))]
        return [_check("bpw_in_law", "warning", if_met, day=day, source=source, standard=fmt(standard),
                       exception=fmt(if_met))]
    kept = [
        _check("bpw_project_type", eligible, None, type=PROJECT_TYPES[app.project_type],
               types=types_words(rs.number("bpw_eligible_types"))),
        _check("bpw_property_value", "not_applicable" if property_outcome in ("closed", "no_grant") else property_outcome,
               value, property_outcome, value=fmt(value), grant=fmt(grant or 0)),
    ]
    if rs.number("bpw_test") == "residual_value":   # the statute's test replaces the last two conditions
        amounts = {name: getattr(app, name) for name in RESIDUAL_SUM}
        return kept + [_check("bpw_residual_value", "pass" if test.residual_exceeds else "fail", None,
                              residual=fmt(app.residual_value), total=fmt(test.residual_sum),
                              match=fmt(amounts["prior_matching_funds"]), debt=fmt(amounts["outstanding_state_debt"]),
                              prior=fmt(amounts["prior_program_funds"]), other=fmt(amounts["other_state_investment"]))]
    return kept + [
        _check("bpw_no_state_funds", funds, None, outcome, prior=fmt(app.prior_program_funds),
               question=FIELD["prior_funds_for_property"].label),
        _check("bpw_no_state_debt", debt, None),
    ]


def _match_measured(f: Facts) -> str:
    words = CHECKS["local_match"].templates
    if not f.app.federal_grant:
        return ""
    if f.readings.local_match_base == "total_cost":
        return words["measured_whole"]
    return words["measured_contrary" if f.contrary else "measured_remainder"]


def _local_match(f: Facts) -> Check:
    share = pct(f.rs.number("local_share"))
    if f.chosen.id == "bpw_exception":
        return _check("local_match", "waived", 0, share=share)
    required, local, short = f.law.facts.match_required, f.law.facts.local_funds, f.law.facts.match_short
    return _check("local_match", "fail" if short else "pass", short, share=share, short=fmt(short),
                  required=fmt(required), local=fmt(local), measured=_match_measured(f))


def _federal_check(f: Facts) -> Check:
    fed, cost = f.app.federal_grant, f.app.eligible_cost
    covers = fed > 0 and fed >= cost
    outcome = "pass" if not covers else "warning_contrary" if f.contrary else "warning"
    return _check("federal_exceeds_cost", "warning" if covers else "pass", fed, outcome, federal=fmt(fed),
                  cost=fmt(cost))


def _prior_check(f: Facts) -> list[Check]:
    prior, ceiling = f.app.prior_program_funds, f.rs.number("prior_grant_ceiling")
    if prior == 0:
        return []
    if ceiling is None:   # a law with no top-up for earlier grantees (the statute before 1987)
        return [_check("prior_grant_room", "not_applicable", None, "no_provision", prior=fmt(prior),
                       **no_top_up(f.rs))]
    room = f.routes["standard"].caps.get("prior_grant_room")
    values = dict(prior=fmt(prior), ceiling=fmt(ceiling), room=fmt(room or 0),
                  reading=reading_words(f.readings, "prior_grant_limit"))
    if room is None:
        return [_check("prior_grant_room", "not_applicable", None, "no_limit", **values)]
    return [_check("prior_grant_room", "pass" if room else "fail", room, **values)]


def checks(f: Facts, gap: int, conditions: list[Check]) -> tuple[Check, ...]:
    """The checks beside the award (they do not change it, unless a reading makes one a
    condition): the local match, full funding, the federal grant, the exception's conditions
    and the prior-grant room."""
    funded = _check("fully_funded", "fail" if gap else "pass", gap, gap=fmt(gap), sources=sources_words())
    return (_local_match(f), funded, _federal_check(f), *conditions, *_prior_check(f), *_surplus_check(f))


SURPLUS_PURPOSE = {"acquisition": "acquire a building", "construction": "plan, design and construct a center"}


def _surplus_check(f: Facts) -> list[Check]:
    """The statute's surplus-building certification (ch. 125, (6)(i)), where the law in force carries it
    for this project type: made, not made ($0), or not stated (the award is given as if made)."""
    app, rs = f.app, f.rs
    if app.project_type not in (rs.number("surplus_certification") or ()):
        return []
    law = "the statute" if rs.id == "statute" else rs.in_sentence
    purpose = SURPLUS_PURPOSE.get(app.project_type, "be used for this project")
    given = app.surplus_certified
    outcome = "presumed" if given is None else "pass" if given else "fail"
    return [_check("surplus_building", "warning" if given is None else outcome, None, outcome, law=law,
                   purpose=purpose)]
