"""One table of metadata for every input field and project type (caps, routes, checks and
readings are in the registry, core/law/provisions.toml).

Names are those of docs/rules.md; labels are the plain English users see. Pages, the CLI,
CSV columns and URL query parameters all read these tables instead of repeating them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    name: str           # docs/rules.md field name; also the CSV column and URL parameter
    label: str          # what users see
    kind: str           # "money", "bool", "choice", "number"
    default: object     # value when absent or empty (None = not given)
    required: bool = False
    help: str = ""
    group: str = "application"   # "application", "exception", "considerations"
    column: str = ""    # a shorter title for tables, where the label is long ("" = the label)
    slider: tuple = ()  # money: the calculator slider's top in dollars, (capital project, master plan)
    ask: str = ""       # an optional amount: the switch that asks for it ("The applicant requests ...")
    presumed: object = None   # a yes/no the law must decide when it is not given: what it is taken to be
    only_with: str = ""  # asked and shown only where this amount is above $0 (it means nothing otherwise)
    # Money that counts toward the funding gap (a source of funds): its key in the funding plan
    # (Award.funding, the waterfall, the report's plan). The one statement of which money that is:
    # the gap, what the project still lacks, the batch, the charts and the words all read FUNDS; every
    # source but the federal grant is a local contribution and counts toward the local match (LOCAL_FUNDS).
    funds: str = ""
    board_test: str = ""  # a condition of the Board's exception: asked only under this test (bpw_test)
    sparse: bool = False  # written in a record only when not its default: records kept before it stay as they were
    law_param: str = ""   # asked only where the law in force lists the project type in this parameter (a ruleset's)

    @property
    def title(self) -> str:
        return self.column or self.label


FIELDS: tuple[Field, ...] = (
    Field("project_type", "Project type", "choice", None, required=True,
          help="What the grant pays for; a master plan has its own, lower maximum."),
    Field("eligible_cost", "Total cost of eligible work", "money", None, required=True,
          help="The whole cost of the eligible work, before any grant.", slider=(5_000_000, 100_000)),
    Field("federal_grant", "Federal grant", "money", 0, funds="federal",
          help="A federal grant available for the project; applied to the cost first.", slider=(3_000_000, 60_000)),
    Field("local_contribution", "Local contribution", "money", 0, funds="local",
          help="All non-State, non-federal funds pledged: local government, nonprofit, private.",
          slider=(3_000_000, 60_000)),
    Field("prior_program_funds", "Prior program funds", "money", 0,
          help="What this grantee already received under this program for this project.", slider=(600_000, 600_000)),
    Field("requested_amount", "Requested amount", "money", None,
          help="The amount the applicant asks for, if any; the award never exceeds it.", slider=(1_000_000, 30_000),
          ask="The applicant requests a specific amount"),
    Field("federal_law_contrary", "Federal law requires otherwise", "bool", False,
          help="Federal law forbids applying the federal grant before the State grant."),
    Field("bpw_exception_requested", "Request the Board of Public Works exception", "bool", False,
          group="exception", column="Board exception",
          help="Ask the Board to let the grant exceed 50% of the cost of eligible work."),
    Field("local_property_value", "Value of property made available locally", "money", 0,
          group="exception", slider=(3_000_000, 100_000),
          help="Value of property and improvements made available by the local government "
               "(eligible work included), or the value of the center to be renovated."),
    Field("state_funds_in_property", "State funds went into that property or building", "bool", False,
          group="exception", board_test="state_funds"),
    Field("state_bonded_debt", "The State carries bonded debt on it", "bool", False,
          group="exception", board_test="state_funds"),
    # Asked only where there are prior program funds. Not given, they are presumed to have gone into the
    # property (the safe answer: it closes the Board's route); "no" for, say, a planning grant for a new building.
    Field("prior_funds_for_property", "Prior program funds went into this property or building", "bool", None,
          group="exception", presumed=True, only_with="prior_program_funds", board_test="state_funds",
          help="Whether the earlier program funds paid for acquiring, building or keeping up this property or "
               "building. Not given, they are presumed to have (State funds in the building); answer no if they "
               "did not, for example an earlier planning grant for a new building."),
    # The statute's residual-value test (Human Services § 10-504(b)): read only under a ruleset whose Board
    # test is it (the statute from about 1988). The fourth amount it sums, any prior grant under the
    # program, is prior_program_funds: one fact, stated once.
    Field("residual_value", "Residual value of that property and its improvements", "money", 0,
          group="exception", board_test="residual_value", sparse=True, slider=(3_000_000, 100_000),
          help="The residual value of the real property and existing improvements the local government provides."),
    Field("prior_matching_funds", "Prior amounts used as matching funds", "money", 0,
          group="exception", board_test="residual_value", sparse=True, slider=(3_000_000, 100_000),
          help="Amounts of that property's value already used as matching funds."),
    Field("outstanding_state_debt", "Outstanding State debt on it from another program", "money", 0,
          group="exception", board_test="residual_value", sparse=True, slider=(3_000_000, 100_000),
          help="State debt on the property still outstanding, from another program."),
    Field("other_state_investment", "Other tangible State investment in it", "money", 0,
          group="exception", board_test="residual_value", sparse=True, slider=(3_000_000, 100_000),
          help="Any other tangible State investment in the property."),
    # The statute's surplus-building certification (ch. 125, (6)(i)): asked only where the law in force carries
    # it for the project type (the ruleset's surplus_certification). Not given, the award is given as if it is
    # made, and says so; "no" leaves no grant for that project.
    Field("surplus_certified", "Certified: no surplus public building fit for a center in the area", "bool", None,
          presumed=True, sparse=True, law_param="surplus_certification",
          help="Whether the local government and the Office on Aging certify to the Board of Public Works that no "
               "surplus school building or other public building appropriate for use as a senior center exists "
               "in the area. The statute (ch. 125) asks it before State funds acquire a building or plan, design "
               "and construct a center. Not stated, the award is given as if it is made."),
    Field("senior_density", "Senior population density", "number", None, group="considerations",
          help="Seniors per square mile in the area served (for ranking only)."),
    Field("distance_to_center_miles", "Miles to the nearest senior center", "number", None,
          group="considerations", help="For ranking only."),
    Field("previously_funded", "Locality funded before", "bool", None, group="considerations",
          help="For ranking only."),
)
FIELD = {f.name: f for f in FIELDS}
# A portfolio's columns that say which application a row is; not inputs of the law (kind "text").
RECORD_FIELDS: tuple[Field, ...] = (
    Field("name", "Application", "text", None, group="record",
          help="What the application is called: shown in the ranking, the charts and the downloads."),
    Field("locality", "Locality", "text", None, group="record", help="The county, city or town it serves."),
)
# Every column of a portfolio file, in the order of the template and the illustrative sample.
PORTFOLIO_FIELDS: tuple[Field, ...] = RECORD_FIELDS + FIELDS
RECORD_NAMES = tuple(f.name for f in RECORD_FIELDS)
MONEY_FIELDS = tuple(f.name for f in FIELDS if f.kind == "money")


def title_key(title) -> str:
    """A column title as it is matched: case and spacing aside ("  total COST of eligible  work")."""
    return " ".join(str(title).split()).casefold()


# A portfolio file's column titles: each column by its words (the label, or its shorter title) or
# by its code name (what programs and files made before the titles were words use).
COLUMN_OF_TITLE: dict[str, str] = {title_key(t): f.name for f in PORTFOLIO_FIELDS for t in (f.name, f.label, f.title)}


def portfolio_columns(titles) -> tuple[list[str], list[str]]:
    """A file's column titles as the fields' code names (a title not a field's stays as it is),
    and the titles that are no field's, in the file's order."""
    names = [COLUMN_OF_TITLE.get(title_key(t), t) for t in titles]
    return names, [t for t, n in zip(titles, names) if n not in FIELD and n not in RECORD_NAMES]
# The sources of funds besides the State award, in the table's order (the federal grant first: §D
# applies it before the State grant; the State award follows it in the funding plan).
FUNDS: tuple[Field, ...] = tuple(f for f in FIELDS if f.funds)
# The local funds: every source but the federal grant (non-State, non-federal money, the regulation's "local
# contributions"): what counts toward the local match (§C) and is taken off what the project still lacks
# (core.law.caps.intermediates reads it; a new source flagged `funds` counts toward both with no other change).
LOCAL_FUNDS: tuple[Field, ...] = tuple(f for f in FUNDS if f.funds != "federal")
# The funding plan's sources in order, as (key, label, field name): the field table's sources, and
# the State award (no field of its own) after the federal grant. Its keys are adjectives ("Federal,
# State and local funds").
FUNDING_PLAN: tuple[tuple[str, str, str | None], ...] = tuple(
    entry for f in FUNDS for entry in ((f.funds, f.label, f.name),)
    + ((("state", "State grant award", None),) if f.name == "federal_grant" else ()))
EXCEPTION_FIELDS = tuple(f.name for f in FIELDS if f.group == "exception" and f.name != "bpw_exception_requested")

PROJECT_TYPES: dict[str, str] = {
    "conversion": "Conversion",
    "acquisition": "Acquisition",
    "renovation": "Renovation",
    "construction": "Planning, design and construction",
    "equipment": "Capital equipment",
    "master_plan": "Master plan",
}


def yes_no(f: Field, value) -> str:
    """A yes/no field's value in words; one not given says what the law presumes ("not stated:
    presumed yes"), or "not stated"."""
    if value is None:
        return "not stated" if f.presumed is None else f"not stated: presumed {'yes' if f.presumed else 'no'}"
    return "yes" if value else "no"


# The amounts the residual-value test sums against the residual value (the statute's four).
RESIDUAL_SUM = ("prior_matching_funds", "outstanding_state_debt", "prior_program_funds", "other_state_investment")


def asked(f: Field, values, board_test: str | None = None, rs=None) -> bool:
    """Whether a field means anything for these values (an object with the fields as attributes,
    or a dict): the field's `only_with` amount is above $0, if it has one; a condition of the
    Board's exception only under its test (`board_test`, the ruleset's bpw_test; None: any); a
    question of one law only where the law in force (`rs`; None: any) carries it for the project type."""
    if f.board_test and board_test is not None and f.board_test != board_test:
        return False
    if f.law_param and rs is not None:
        kind = values.get("project_type") if isinstance(values, dict) else getattr(values, "project_type", None)
        return kind in (rs.number(f.law_param) or ())
    if not f.only_with:
        return True
    amount = values.get(f.only_with) if isinstance(values, dict) else getattr(values, f.only_with)
    return bool(amount)
