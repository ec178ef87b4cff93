"""The caps of the regulation, stated once.

Every cap of every route is computed here and nowhere else, in the order of the
regulation's text, each under the sentence it encodes and its provision id (paragraph
letter, then id; the letters A to H are inferred, see docs/rules.md). Three engines run
this same code on different numbers:

- one application (`core.law.award`): Python ints of cents, shares rounded down to the cent;
- the batch (`core.law.batch`): numpy int64 arrays of cents, one element per row;
- the breakpoints (`core.law.analysis`): exact fractions of a cent, before rounding and
  before the clamp at zero, so that each cap is an exact line along any one input.

What differs between them is only the arithmetic, supplied as an `ops` object
(`INTS`, `ARRAYS`, `EXACT`). A cap that does not apply is `ops.ABSENT` (dropped by the
one-application engine, the largest int64 in the batch so that it never binds).
"""
from __future__ import annotations

from dataclasses import dataclass, make_dataclass
from fractions import Fraction

from core.law.fields import FIELDS, FUNDS, PROJECT_TYPES, RESIDUAL_SUM
from core.law.provisions import CAP_IDS
from core.law.readings import DEFAULT, Readings

# Project types as small integers, for the batch's arrays.
TYPE_CODES = {t: i for i, t in enumerate(PROJECT_TYPES)}


# --- the arithmetic of each engine -------------------------------------------------

class _Ints:
    """One application: exact integer cents."""
    name = "ints"
    ABSENT = None

    @staticmethod
    def floor_share(cents, share: Fraction):
        return cents * share.numerator // share.denominator

    @staticmethod
    def ceil_share(cents, share: Fraction):
        return -((-cents * share.numerator) // share.denominator)

    @staticmethod
    def pos(x):
        return max(0, x)

    @staticmethod
    def where(cond, a, b):
        return a if cond else b

    @staticmethod
    def both(a, b):
        return a and b

    @staticmethod
    def either(a, b):
        return a or b

    @staticmethod
    def negate(a):
        return not a

    @staticmethod
    def is_type(project_type, types):
        return project_type in types

    @staticmethod
    def positive(x):
        return x > 0

    @staticmethod
    def at_least(a, b):
        return a >= b

    @staticmethod
    def unless(cond, value):
        """`value` as a cap, absent when `cond` holds."""
        return None if cond else value


def _numpy():
    """numpy, imported when the batch first runs: one application needs none of it, and a first
    visit's award is drawn before it would be loaded (issue 53)."""
    import numpy
    return numpy


class _Arrays(_Ints):
    """The batch: numpy int64 arrays, one element per application."""
    name = "arrays"
    ABSENT = 2 ** 63 - 1   # np.iinfo(np.int64).max, the largest int64 (tests/law/test_batch.py checks it)

    @staticmethod
    def pos(x):
        return _numpy().maximum(0, x)

    @staticmethod
    def where(cond, a, b):
        return _numpy().where(cond, a, b)

    @staticmethod
    def both(a, b):
        return _numpy().logical_and(a, b)

    @staticmethod
    def either(a, b):
        return _numpy().logical_or(a, b)

    @staticmethod
    def negate(a):
        return _numpy().logical_not(a)

    @staticmethod
    def is_type(project_type, types):
        return _numpy().isin(project_type, [TYPE_CODES[t] for t in types])

    @staticmethod
    def unless(cond, value):
        return _numpy().where(cond, _Arrays.ABSENT, value)


@dataclass(frozen=True)
class Step:
    """EXACT only: a cap of `value` that applies while `margin` < 0 and is absent from
    `margin` >= 0 on (a condition such as 'local contributions at least the match').
    The award jumps where the margin crosses zero."""
    margin: Fraction
    value: Fraction


class _Exact(_Ints):
    """Breakpoints: exact fractions before rounding and before the clamp at zero, so that
    every cap is affine along one input. A condition on a moving amount becomes a `Step`."""
    name = "exact"

    @staticmethod
    def floor_share(cents, share: Fraction):
        return share * cents

    @staticmethod
    def ceil_share(cents, share: Fraction):
        # local >= ceil(share*x) <=> local >= share*x for whole cents of local
        return share * cents

    @staticmethod
    def pos(x):
        return x           # the clamp is applied to the award, after the least cap

    @staticmethod
    def at_least(a, b):
        return Fraction(a) - Fraction(b)   # a margin: the condition holds while >= 0

    @staticmethod
    def unless(margin, value):
        return Step(Fraction(margin), Fraction(value))


INTS, ARRAYS, EXACT = _Ints(), _Arrays(), _Exact()


# --- the inputs the caps read -----------------------------------------------------

# The inputs the caps read: every field of the computation (the field table's, core/law/fields.py,
# but the considerations, which only rank), amounts in cents (ints, int64 arrays or fractions),
# yes/no facts as bools or bool arrays, the project type as its id (one application) or its
# TYPE_CODES (the batch); and for an amount that may be absent, `<name>_given`.
COMPUTED = tuple(f for f in FIELDS if f.group != "considerations")
OPTIONAL = tuple(f.name for f in COMPUTED if f.kind == "money" and f.default is None and not f.required)
Inputs = make_dataclass("Inputs", [f.name for f in COMPUTED] + [f"{n}_given" for n in OPTIONAL], frozen=True,
                        namespace={"__module__": __name__})


@dataclass(frozen=True)
class Caps:
    remaining: object              # cost of eligible work left after the federal grant
    base: object                   # what the State share is taken of
    match_required: object         # the local match, in cents
    standard: dict                 # cap id -> value, regulation order
    bpw_exception: dict            # cap id -> value, regulation order (meaningful where exception_open)
    exception_open: object
    # EXACT only: the residual-value test as a margin (None: no such test); the route is open while
    # it is >= 0, as the margins of core.law.caps.Step
    exception_margin: object = None


def caps(x: Inputs, rs, readings: Readings = DEFAULT, ops=INTS) -> Caps:
    """Every cap of both routes, in the order of the regulation's text."""
    A = ops.ABSENT

    # §A-B program_max. "A grant for conversion, acquisition, renovation, equipment, or
    # construction may not exceed $600,000. A grant for the development of a master plan
    # may not exceed $15,000."
    # (The statute before 1986 had no limit of its own for a master plan: the capital maximum holds.)
    master_plan_cap = rs.number("capital_cap") if rs.number("master_plan_cap") is None else rs.number("master_plan_cap")
    program_max = ops.where(ops.is_type(x.project_type, ("master_plan",)), master_plan_cap, rs.number("capital_cap"))

    # §D federal_first. "If a federal grant is available for the project, unless federal law
    # is to the contrary, the federal grant shall be applied to the costs of the project
    # before a grant under this program is applied." When federal law is to the contrary the
    # State grant comes first: every amount measured "after the federal grant" (the State
    # share, the local match, the funding need) is measured on the whole cost.
    # The statute (the ruleset's federal_first "always") applies the federal grant first with no such
    # exception: the cost is "remaining unpaid after any federal grant", whatever federal law says.
    contrary = federal_contrary(x, rs)
    remaining = ops.where(contrary, x.eligible_cost, ops.pos(x.eligible_cost - x.federal_grant))
    federal_applied = ops.both(ops.positive(x.federal_grant), ops.negate(contrary))

    # §C cost_share. "Except as provided in §E of this regulation [the Board exception, §F
    # here]: A State grant may not exceed 50 percent of the total cost of eligible work;"
    # §E federal_first. "If a federal grant is applied, a grant under this program may not
    # exceed 50 percent of the total cost of eligible work remaining after the federal grant
    # has been applied, except as provided in §F of this regulation." (the reading
    # f_reference says which paragraph that §F is). Reading f_reference=prior_grant: §G
    # (additional eligible work) lifts the §E limit, so only §C's limit on the whole cost
    # remains for a grantee with prior funds.
    base = remaining
    if readings.f_reference == "prior_grant":
        base = ops.where(ops.positive(x.prior_program_funds), x.eligible_cost, remaining)
    cost_share = ops.floor_share(base, rs.number("state_share"))

    # §C local_match. "At least 50 percent of the cost of eligible work shall be provided
    # from local contributions." Reading local_match_base: of the remainder or of the whole.
    # Reading local_match_effect=condition: a shortfall leaves no award on the standard route.
    match_base = x.eligible_cost if readings.local_match_base == "total_cost" else remaining
    match_required = ops.ceil_share(match_base, rs.number("local_share"))
    local_match = A
    if readings.local_match_effect == "condition":
        local_match = ops.unless(ops.at_least(x.local_contribution, match_required), 0)

    # §F bpw_exception. "At the discretion of the Board of Public Works, a grant may exceed 50
    # percent of the cost of eligible work, if: The grant is for conversion, renovation or
    # planning, design and construction ...; State funds have not been used for ... any real
    # property or improvements made available by the applicant, or for the building to be
    # converted or renovated; and The State is not responsible for any bonded indebtedness in
    # connection with [them]." Program funds this grantee already received for the project are
    # State funds; they fail the third condition when they went into the property or building
    # (prior_funds_for_property: presumed so unless the applicant says not, as for an earlier
    # planning grant for a new building). The route opens only when it is requested and those
    # conditions hold.
    prior_in_property = ops.both(ops.positive(x.prior_program_funds), x.prior_funds_for_property)
    no_state_funds = ops.negate(ops.either(x.state_funds_in_property, prior_in_property))
    conditions = ops.both(no_state_funds, ops.negate(x.state_bonded_debt))
    # The statute from about 1988 (Human Services § 10-504(b)), the ruleset's bpw_test: in place of those
    # two conditions, "the residual value ... exceeds the sum of" prior amounts used as matching funds,
    # outstanding State debt on the property from another program, any prior grant under the program
    # (prior_program_funds) and any other tangible State investment. Before 1986, no exception at all.
    # On exact fractions the test is a margin along the moving input (the route opens and closes
    # there, a step like any condition): `exception_margin`, the route open while it is >= 0.
    exception_margin = None
    if rs.number("bpw_test") == "residual_value":
        if ops is EXACT:
            exception_margin = residual_margin(x)
            conditions = True
        else:
            conditions = x.residual_value > sum((getattr(x, n) for n in RESIDUAL_SUM), 0)
    elif rs.number("bpw_test") in ("none", "unknown"):
        conditions = ops.both(x.bpw_exception_requested, False)
    exception_open = ops.both(ops.both(x.bpw_exception_requested, ops.is_type(x.project_type, rs.number("bpw_eligible_types"))),
                              conditions)
    # "The value of property and improvements made available by the local government ...
    # equals or exceeds the amount of the State grant;" On the exception route the 50% limit
    # and the local match yield; that value caps the grant.
    # (The act of 1984: conditions cut off in the copies found: whether the value of property limits the
    # grant is not known. That route is never open, core.law.explain gives its amount beside the award.)
    property_value = A if rs.number("bpw_test") == "unknown" else x.local_property_value
    # Reading f_reference=prior_grant: the exception lifts only §C's limit; §E's 50% of the
    # remainder yields to §G alone, so it holds on this route whenever a federal grant is applied
    # and the grantee has no prior program funds (with them, §G lifts it here as on the standard route).
    exception_share = A
    if readings.f_reference == "prior_grant":
        remainder_holds = ops.both(federal_applied, ops.negate(ops.positive(x.prior_program_funds)))
        exception_share = ops.where(remainder_holds, ops.floor_share(remaining, rs.number("state_share")), A)

    # §G prior_grant_room. "A grantee that has in the past received funds in a total amount
    # of less than $300,000 ... may receive a grant for additional eligible work in an amount
    # equal to the difference between the prior grant and $300,000 ..." Reading
    # prior_grant_limit=below_only: the sentence limits only grantees below $300,000.
    # (The statute before 1987 had no top-up sentence: no such limit.)
    if rs.number("prior_grant_ceiling") is None:
        prior_grant_room = A
    else:
        room = ops.pos(rs.number("prior_grant_ceiling") - x.prior_program_funds)
        if readings.prior_grant_limit == "below_only":
            room = ops.unless(ops.at_least(x.prior_program_funds, rs.number("prior_grant_ceiling")), room)
        prior_grant_room = ops.where(ops.positive(x.prior_program_funds), room, A)

    # funding_need (no sentence: reading funding_need_cap). The State pays no more than the
    # project still lacks after the federal grant (when it is applied first) and local contributions.
    # Its money is every source of funds of the field table (`funds`) but the federal grant, which
    # `remaining` has already taken off.
    funding_need = A
    if readings.funding_need_cap == "applies":
        funding_need = ops.pos(remaining - later_funds(x))

    # full_cost (§D): "the federal grant shall be applied to the costs of the project before a
    # grant under this program is applied", so the State grant never exceeds the cost left after
    # it, on any route (a grant may exceed 50 percent of the cost of eligible work, never the
    # cost). On the exception route it is always named. On the standard route what the project
    # still lacks is never above it, nor is the State's share of that cost; it can bind there
    # only with no funding-need limit and the share taken of the whole cost (f_reference=
    # prior_grant, additional eligible work), and is a cap of its own only then.
    full_cost = remaining
    standard_full_cost = A
    if readings.funding_need_cap == "none" and readings.f_reference == "prior_grant":
        standard_full_cost = ops.where(ops.positive(x.prior_program_funds), full_cost, A)

    # surplus_building (not the regulation's: the statute's ch. 125, (6)(i)): "State funds may be used to
    # acquire a building or to plan, design and construct a center only if the local government and the
    # Office on Aging certify to the Board of Public Works that no surplus school building or other public
    # building appropriate for use as a Senior Citizen Activities Center exists in the area." Without the
    # certification (answered no) no grant for those types; not answered, read as made (the words say so).
    surplus_building = A
    if rs.number("surplus_certification"):
        surplus_building = ops.where(ops.both(ops.is_type(x.project_type, rs.number("surplus_certification")),
                                              ops.negate(x.surplus_certified)), 0, A)

    # requested_amount (no sentence): the award never exceeds what was asked for.
    requested_amount = ops.where(x.requested_amount_given, x.requested_amount, A)

    common = {"funding_need": funding_need, "prior_grant_room": prior_grant_room,
              "requested_amount": requested_amount, "surplus_building": surplus_building}
    standard = {"program_max": program_max, "cost_share": cost_share, "local_match": local_match,
                "full_cost": standard_full_cost} | common
    exception = {"program_max": program_max, "cost_share": exception_share, "property_value": property_value,
                 "full_cost": full_cost} | common
    # In the registry's order (core/law/provisions.toml), whatever the order written above: the order
    # caps are listed and ties named in, by every engine.
    return Caps(remaining, base, match_required, _in_order(standard), _in_order(exception), exception_open,
                exception_margin)


def federal_contrary(x, rs):
    """Whether the federal grant is not applied first: federal law is to the contrary, and the law in
    force has the regulation's "unless federal law is to the contrary" (the statute has none)."""
    return False if rs.number("federal_first") == "always" else x.federal_law_contrary


def residual_margin(x):
    """The statute's residual-value test as a margin in cents: "the residual value ... exceeds the sum
    of" the four amounts holds, on whole cents, exactly where residual - sum - 1 cent >= 0."""
    return Fraction(x.residual_value) - sum((Fraction(getattr(x, n)) for n in RESIDUAL_SUM), Fraction(0)) - 1


def _in_order(route: dict) -> dict:
    ordered = {c: route[c] for c in CAP_IDS if c in route}
    if len(ordered) != len(route):   # a cap the registry does not know would be dropped: say which
        raise KeyError(f"caps without a [caps.ID] in core/law/provisions.toml: {sorted(set(route) - set(ordered))}")
    return ordered


# The sources of funds besides the State award (the field table's `funds`, core/law/fields.py):
# the one statement of which money counts toward the funding gap and what the project still lacks.
FUND_NAMES = tuple(f.name for f in FUNDS)
LATER_FUNDS = tuple(n for n in FUND_NAMES if n != "federal_grant")   # §D: the federal grant comes first


def later_funds(x):
    """The money besides the federal grant and the State award (local contributions and any other source)."""
    return sum((getattr(x, n) for n in LATER_FUNDS), 0)


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
    law = caps(Inputs(**values, **{f"{n}_given": False for n in OPTIONAL}), rs)
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
