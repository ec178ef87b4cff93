"""What the law derives from one application, stated once.

Every intermediate the law works out (the cost left after the federal grant, the State share's
base, the local match and the money that counts toward it), the Board exception's test and every
cap of every route are computed here and nowhere else, in the order of the regulation's text,
each under the sentence it encodes and its provision id (paragraph letter, then id; the letters A
to H are inferred, see docs/rules.md). Whatever reads the law (the award, its words, the batch,
the breakpoints, `solve`, the portfolio) reads these named results, as OpenFisca reads a variable,
and works none of them out again.

Three engines run this same code on different numbers, supplied as an `ops` object
(core.law.engines: `INTS` one application, `ARRAYS` the batch, `EXACT` the breakpoints). A cap that
does not apply is `ops.ABSENT`.
"""
from __future__ import annotations

from dataclasses import dataclass, make_dataclass
from fractions import Fraction

from core.law.engines import EXACT, INTS
from core.law.fields import FIELDS, FUNDS, LOCAL_FUNDS, RESIDUAL_SUM
from core.law.provisions import CAP_IDS
from core.law.readings import DEFAULT, Readings


# --- the inputs the law reads ------------------------------------------------------

# The inputs the caps read: every field of the computation (the field table's, core/law/fields.py,
# but the considerations, which only rank), amounts in cents (ints, int64 arrays or fractions),
# yes/no facts as bools or bool arrays, the project type as its id (one application) or its
# TYPE_CODES (the batch); and for an amount that may be absent, `<name>_given`.
COMPUTED = tuple(f for f in FIELDS if f.group != "considerations")
OPTIONAL = tuple(f.name for f in COMPUTED if f.kind == "money" and f.default is None and not f.required)
Inputs = make_dataclass("Inputs", [f.name for f in COMPUTED] + [f"{n}_given" for n in OPTIONAL], frozen=True,
                        namespace={"__module__": __name__})



# --- what the law derives ---------------------------------------------------------

@dataclass(frozen=True)
class Intermediates:
    """The facts the law derives from one application before any cap (each engine's numbers;
    EXACT's before the clamp at zero), each stated once, in `intermediates()`."""
    contrary: object          # §D: federal law to the contrary puts the State grant first (where the law lets it)
    federal_applied: object   # §D, §E: a federal grant is applied to the cost before the State grant
    remaining: object         # the cost of eligible work left after the federal grant
    base: object              # what the State share (§C, §E) is taken of
    match_required: object    # §C: the local match, in cents
    local_funds: object       # the money that counts toward the match: every source of funds but the federal grant
    match_met: object         # whether the local funds reach the match (EXACT: the margin, met while >= 0)
    match_short: object       # how far the local funds fall short of the match (at least 0; EXACT: unclamped)


@dataclass(frozen=True)
class BoardTest:
    """The route's test (§F, or the statute's § 10-504(b)): each condition of the Board's exception
    as the law tests it, and whether the exception's route is open, in `board_test()`."""
    type_eligible: object     # the project is of a type the exception is for
    no_state_funds: object    # no State funds went into the property or building
    no_state_debt: object     # the State carries no bonded debt on it
    residual_sum: object      # the four amounts the statute's residual-value test sums (None: not this law's test, or EXACT)
    residual_exceeds: object  # the residual value exceeds that sum (None: not this law's test, or EXACT)
    open: object              # requested, and every condition of the law in force met
    margin: object = None     # EXACT only: the residual-value test as a margin (the route open while >= 0)


@dataclass(frozen=True)
class Derived:
    """Everything the law derives from one application (`derive()`): the intermediates, the route's
    test, and each route's caps (cap id -> value, in the registry's order)."""
    facts: Intermediates
    board: BoardTest
    standard: dict
    bpw_exception: dict       # meaningful where `board.open`


def derive(x: Inputs, rs, readings: Readings = DEFAULT, ops=INTS) -> Derived:
    """The intermediates, the Board exception's test and every cap of both routes, under the readings
    the law `rs` has (a reading its text gives no sentence for is at its first alternative)."""
    readings = readings.under(rs)
    facts = intermediates(x, rs, readings, ops)
    common = common_caps(x, rs, readings, ops, facts)
    return Derived(facts, board_test(x, rs, ops), _in_order(standard_caps(x, rs, readings, ops, facts) | common),
                   _in_order(exception_caps(x, rs, readings, ops, facts) | common))


def intermediates(x: Inputs, rs, readings: Readings = DEFAULT, ops=INTS) -> Intermediates:
    """The facts every cap, check, sentence and column reads."""
    # §D federal_first. "If a federal grant is available for the project, unless federal law
    # is to the contrary, the federal grant shall be applied to the costs of the project
    # before a grant under this program is applied." When federal law is to the contrary the
    # State grant comes first: every amount measured "after the federal grant" (the State
    # share, the local match, the funding need) is measured on the whole cost.
    contrary = federal_contrary(x, rs)
    remaining = ops.where(contrary, x.eligible_cost, ops.pos(x.eligible_cost - x.federal_grant))
    federal_applied = ops.both(ops.positive(x.federal_grant), ops.negate(contrary))
    # §C cost_share. "A State grant may not exceed 50 percent of the total cost of eligible work;"
    # §E federal_first. "If a federal grant is applied, a grant under this program may not exceed 50
    # percent of the total cost of eligible work remaining after the federal grant has been applied,
    # except as provided in §F of this regulation." Reading f_reference=prior_grant: §G (additional
    # eligible work) lifts the §E limit, so only §C's on the whole cost remains for a grantee with prior funds.
    base = remaining
    if readings.f_reference == "prior_grant":
        base = ops.where(ops.positive(x.prior_program_funds), x.eligible_cost, remaining)
    # §C local_match. "At least 50 percent of the cost of eligible work shall be provided from local
    # contributions." Reading local_match_base: of the remainder or of the whole. Local contributions
    # are every source of funds of the field table (`funds`) but the federal grant: non-State, non-federal money.
    match_base = x.eligible_cost if readings.local_match_base == "total_cost" else remaining
    match_required = ops.ceil_share(match_base, rs.number("local_share"))
    local = local_funds(x)
    return Intermediates(contrary, federal_applied, remaining, base, match_required, local,
                         ops.at_least(local, match_required), ops.pos(match_required - local))


def board_test(x: Inputs, rs, ops=INTS) -> BoardTest:
    """§F bpw_exception. "At the discretion of the Board of Public Works, a grant may exceed 50 percent
    of the cost of eligible work, if: The grant is for conversion, renovation or planning, design and
    construction ...; State funds have not been used for ... any real property or improvements made
    available by the applicant, or for the building to be converted or renovated; and The State is not
    responsible for any bonded indebtedness in connection with [them]." The route opens only when it
    is requested and those conditions hold."""
    # Program funds this grantee already received for the project are State funds; they fail the third
    # condition when they went into the property or building (prior_funds_for_property: presumed so
    # unless the applicant says not, as for an earlier planning grant for a new building).
    type_eligible = ops.is_type(x.project_type, rs.number("bpw_eligible_types"))
    prior_in_property = ops.both(ops.positive(x.prior_program_funds), x.prior_funds_for_property)
    no_state_funds = ops.negate(ops.either(x.state_funds_in_property, prior_in_property))
    no_state_debt = ops.negate(x.state_bonded_debt)
    conditions, total, residual, margin = ops.both(no_state_funds, no_state_debt), None, None, None
    # The statute from about 1988 (Human Services § 10-504(b)), the ruleset's bpw_test: in place of those
    # two conditions, "the residual value ... exceeds the sum of" prior amounts used as matching funds,
    # outstanding State debt on the property from another program, any prior grant under the program
    # (prior_program_funds) and any other tangible State investment. Before 1986, no exception at all.
    # On exact fractions the test is a margin along the moving input (the route opens and closes
    # there, a step like any condition): `margin`, the route open while it is >= 0.
    if rs.number("bpw_test") == "residual_value":
        if ops is EXACT:
            margin, conditions = residual_margin(x), True
        else:
            total = sum((getattr(x, n) for n in RESIDUAL_SUM), 0)
            residual = conditions = x.residual_value > total
    elif rs.number("bpw_test") in ("none", "unknown"):
        conditions = ops.both(x.bpw_exception_requested, False)
    opened = ops.both(ops.both(x.bpw_exception_requested, type_eligible), conditions)
    return BoardTest(type_eligible, no_state_funds, no_state_debt, total, residual, opened, margin)


# --- the caps of each route ---------------------------------------------------------

def standard_caps(x: Inputs, rs, readings: Readings, ops, facts: Intermediates) -> dict:
    """The caps of the standard route alone: the State share, the local match, the cost."""
    cost_share = ops.floor_share(facts.base, rs.number("state_share"))   # §C, §E: of `base`
    # §C local_match: reading local_match_effect=condition: a shortfall leaves no award on the standard route.
    local_match = ops.ABSENT
    if readings.local_match_effect == "condition":
        local_match = ops.unless(facts.match_met, 0)
    # full_cost (§D): the State grant never exceeds the cost left after the federal grant, on any route.
    # On the standard route what the project still lacks is never above it, nor is the State's share of
    # that cost; it can bind there only with no funding-need limit and the share taken of the whole cost
    # (f_reference=prior_grant, additional eligible work), and is a cap of its own only then.
    full_cost = ops.ABSENT
    if readings.funding_need_cap == "none" and readings.f_reference == "prior_grant":
        full_cost = ops.where(ops.positive(x.prior_program_funds), facts.remaining, ops.ABSENT)
    return {"cost_share": cost_share, "local_match": local_match, "full_cost": full_cost}


def exception_caps(x: Inputs, rs, readings: Readings, ops, facts: Intermediates) -> dict:
    """The caps of the Board exception's route alone: "The value of property and improvements made
    available by the local government ... equals or exceeds the amount of the State grant;" on this
    route the 50% limit and the local match yield; that value caps the grant, and the cost (§D)."""
    # (The act of 1984: conditions cut off in the copies found: whether the value of property limits the
    # grant is not known. That route is never open, core.law.explain gives its amount beside the award.)
    property_value = ops.ABSENT if rs.number("bpw_test") == "unknown" else x.local_property_value
    # Reading f_reference=prior_grant: the exception lifts only §C's limit; §E's 50% of the
    # remainder yields to §G alone, so it holds on this route whenever a federal grant is applied
    # and the grantee has no prior program funds (with them, §G lifts it here as on the standard route).
    share = ops.ABSENT
    if readings.f_reference == "prior_grant":
        remainder_holds = ops.both(facts.federal_applied, ops.negate(ops.positive(x.prior_program_funds)))
        share = ops.where(remainder_holds, ops.floor_share(facts.remaining, rs.number("state_share")), ops.ABSENT)
    return {"cost_share": share, "property_value": property_value, "full_cost": facts.remaining}


def common_caps(x: Inputs, rs, readings: Readings, ops, facts: Intermediates) -> dict:
    """The caps of both routes: the program maximum, the funding need, the top-up room, the request
    and the statute's surplus-building certification."""
    A = ops.ABSENT
    # §A-B program_max. "A grant for conversion, acquisition, renovation, equipment, or construction
    # may not exceed $600,000. A grant for the development of a master plan may not exceed $15,000."
    # (The statute before 1986 had no limit of its own for a master plan: the capital maximum holds.)
    master_plan_cap = rs.number("capital_cap") if rs.number("master_plan_cap") is None else rs.number("master_plan_cap")
    program_max = ops.where(ops.is_type(x.project_type, ("master_plan",)), master_plan_cap, rs.number("capital_cap"))
    # funding_need (no sentence: reading funding_need_cap). The State pays no more than the project
    # still lacks after the federal grant (when it is applied first) and the local funds.
    funding_need = A
    if readings.funding_need_cap == "applies":
        funding_need = ops.pos(facts.remaining - facts.local_funds)
    # requested_amount (no sentence): the award never exceeds what was asked for.
    requested_amount = ops.where(x.requested_amount_given, x.requested_amount, A)
    common = {"program_max": program_max, "funding_need": funding_need, "requested_amount": requested_amount,
              "prior_grant_room": prior_grant_room(x, rs, readings, ops), "surplus_building": surplus_building(x, rs, ops)}
    return common


def prior_grant_room(x: Inputs, rs, readings: Readings, ops=INTS):
    """§G prior_grant_room. "A grantee that has in the past received funds in a total amount of less
    than $300,000 ... may receive a grant for additional eligible work in an amount equal to the
    difference between the prior grant and $300,000 ..." Reading prior_grant_limit=below_only: the
    sentence limits only grantees below $300,000. (The statute before 1987 had no top-up sentence.)"""
    if rs.number("prior_grant_ceiling") is None:
        return ops.ABSENT
    room = ops.pos(rs.number("prior_grant_ceiling") - x.prior_program_funds)
    if readings.prior_grant_limit == "below_only":
        room = ops.unless(ops.at_least(x.prior_program_funds, rs.number("prior_grant_ceiling")), room)
    return ops.where(ops.positive(x.prior_program_funds), room, ops.ABSENT)


def surplus_building(x: Inputs, rs, ops=INTS):
    """Not the regulation's: the statute's ch. 125, (6)(i): "State funds may be used to acquire a
    building or to plan, design and construct a center only if the local government and the Office on
    Aging certify to the Board of Public Works that no surplus school building or other public building
    appropriate for use as a Senior Citizen Activities Center exists in the area." Without the
    certification (answered no) no grant for those types; not answered, read as made (the words say so)."""
    if not rs.number("surplus_certification"):
        return ops.ABSENT
    return ops.where(ops.both(ops.is_type(x.project_type, rs.number("surplus_certification")), ops.negate(x.surplus_certified)),
                     0, ops.ABSENT)


def federal_contrary(x, rs):
    """Whether the federal grant is not applied first: federal law is to the contrary, and the law in
    force has the regulation's "unless federal law is to the contrary". The statute (the ruleset's
    federal_first "always") applies the federal grant first with no such exception: the cost is
    "remaining unpaid after any federal grant", whatever federal law says."""
    return False if rs.number("federal_first") == "always" else x.federal_law_contrary


def residual_margin(x):
    """The statute's residual-value test as a margin in cents: "the residual value ... exceeds the sum
    of" the four amounts holds, on whole cents, exactly where residual - sum - 1 cent >= 0."""
    return Fraction(x.residual_value) - sum((Fraction(getattr(x, n)) for n in RESIDUAL_SUM), Fraction(0)) - 1


def _in_order(route: dict) -> dict:
    """In the registry's order (core/law/provisions.toml), whatever the order written above: the order
    caps are listed and ties named in, by every engine."""
    ordered = {c: route[c] for c in CAP_IDS if c in route}
    if len(ordered) != len(route):   # a cap the registry does not know would be dropped: say which
        raise KeyError(f"caps without a [caps.ID] in core/law/provisions.toml: {sorted(set(route) - set(ordered))}")
    return ordered


# The sources of funds besides the State award (the field table's `funds`, core/law/fields.py): the one
# statement of which money counts toward the funding gap, the local match and what the project still lacks.
FUND_NAMES = tuple(f.name for f in FUNDS)
LOCAL_FUND_NAMES = tuple(f.name for f in LOCAL_FUNDS)   # §D: the federal grant comes first; the rest is local


def local_funds(x):
    """The money besides the federal grant and the State award (local contributions and any other
    source): what counts toward the local match and is taken off what the project still lacks."""
    return sum((getattr(x, n) for n in LOCAL_FUND_NAMES), 0)


def funding_gap(x, award, ops=INTS):
    """What every source of funds and the State grant `award` leave of the cost of eligible work
    (at least 0): the same formula for one application and for the batch's arrays."""
    return ops.pos(x.eligible_cost - award - sum((getattr(x, n) for n in FUND_NAMES), 0))


def most_for_type(rs, project_type: str) -> int:
    """The most a grant of this project type may be under `rs`: the least cap on the standard route
    of an application no other limit holds (a cost without end, half of it local, nothing else
    given). Derived from the caps, so a new maximum for one type (one parameter and its cap) counts
    with no name written here."""
    from core.law.money import MAX_CENTS
    values = {f.name: (f.default or 0) if f.kind == "money" else given_or_presumed(f, f.default) for f in COMPUTED}
    values |= {"project_type": project_type, "eligible_cost": MAX_CENTS, "local_contribution": MAX_CENTS // 2}
    law = derive(Inputs(**values, **{f"{n}_given": False for n in OPTIONAL}), rs)
    return min(v for v in law.standard.values() if v is not None)


def given_or_presumed(f, value):
    """A yes/no fact as the law reads it: as given, or (not given) what the field table presumes."""
    return f.presumed if value is None and f.kind == "bool" else value


# Each input as inputs_of reads it: (name, an amount?, a yes/no's presumption when not given).
_READ = tuple((f.name, f.kind == "money", f.presumed if f.kind == "bool" else None) for f in COMPUTED)


def inputs_of(app, money=int) -> Inputs:
    """The inputs of one validated application (core.law.application.Application); `money`
    converts each amount (Fraction for the breakpoint engine). The field table's kinds are read
    once, above: every evaluation makes its inputs here (given_or_presumed, inlined)."""
    values = {}
    for name, amount, presumed in _READ:
        value = getattr(app, name)
        values[name] = money(value or 0) if amount else (presumed if value is None else value)
    return Inputs(**values, **{f"{n}_given": getattr(app, n) is not None for n in OPTIONAL})
