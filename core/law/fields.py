"""One table of metadata for every input field, cap, route and project type.

Names are those of RULES.md; labels are the plain English users see. Pages, the CLI,
CSV columns and URL query parameters all read these tables instead of repeating them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    name: str           # RULES.md field name; also the CSV column and URL parameter
    label: str          # what users see
    kind: str           # "money", "bool", "choice", "number"
    default: object     # value when absent or empty (None = not given)
    required: bool = False
    help: str = ""
    group: str = "application"   # "application", "exception", "considerations"


FIELDS: tuple[Field, ...] = (
    Field("project_type", "Project type", "choice", None, required=True,
          help="What the grant pays for; a master plan has its own, lower maximum."),
    Field("eligible_cost", "Total cost of eligible work", "money", None, required=True,
          help="The whole cost of the eligible work, before any grant."),
    Field("federal_grant", "Federal grant", "money", 0,
          help="A federal grant available for the project; applied to the cost first."),
    Field("local_contribution", "Local contribution", "money", 0,
          help="All non-State, non-federal funds pledged: local government, nonprofit, private."),
    Field("prior_program_funds", "Prior program funds", "money", 0,
          help="What this grantee already received under this program for this project."),
    Field("requested_amount", "Requested amount", "money", None,
          help="The amount the applicant asks for, if any; the award never exceeds it."),
    Field("federal_law_contrary", "Federal law requires otherwise", "bool", False,
          help="Federal law forbids applying the federal grant before the State grant."),
    Field("bpw_exception_requested", "Request the Board of Public Works exception", "bool", False,
          group="exception",
          help="Ask the Board to let the grant exceed 50% of the cost of eligible work."),
    Field("local_property_value", "Value of property made available locally", "money", 0,
          group="exception",
          help="Value of property and improvements made available by the local government "
               "(eligible work included), or the value of the center to be renovated."),
    Field("state_funds_in_property", "State funds went into that property or building", "bool", False,
          group="exception"),
    Field("state_bonded_debt", "The State carries bonded debt on it", "bool", False,
          group="exception"),
    Field("senior_density", "Senior population density", "number", None, group="considerations",
          help="Seniors per square mile in the area served (for ranking only)."),
    Field("distance_to_center_miles", "Miles to the nearest senior center", "number", None,
          group="considerations", help="For ranking only."),
    Field("previously_funded", "Locality funded before", "bool", None, group="considerations",
          help="For ranking only."),
)
FIELD = {f.name: f for f in FIELDS}
MONEY_FIELDS = tuple(f.name for f in FIELDS if f.kind == "money")
EXCEPTION_FIELDS = tuple(f.name for f in FIELDS if f.group == "exception" and f.name != "bpw_exception_requested")

PROJECT_TYPES: dict[str, str] = {
    "conversion": "Conversion",
    "acquisition": "Acquisition",
    "renovation": "Renovation",
    "construction": "Planning, design and construction",
    "equipment": "Capital equipment",
    "master_plan": "Master plan",
}


@dataclass(frozen=True)
class Cap:
    id: str
    label: str        # "program maximum": reads in a sentence ("Binding: program maximum")
    provision: str    # provision id of RULES.md
    meaning: str


# Canonical order: the order in which caps are listed and ties are shown.
CAPS: tuple[Cap, ...] = (
    Cap("program_max", "program maximum", "program_max",
        "the most a grant of this type may be"),
    Cap("cost_share", "State share limit", "cost_share",
        "the State's share of the cost of eligible work (after any federal grant)"),
    Cap("local_match", "local match condition", "local_match",
        "under the reading that a short local match is a condition of any award: $0 on the standard route"),
    Cap("property_value", "value of local property", "bpw_exception",
        "on the Board exception route, the grant may not exceed the value the local government makes available"),
    Cap("full_cost", "cost of eligible work", "bpw_exception",
        "on the Board exception route, the grant may exceed 50% of the cost of eligible work, never the cost "
        "itself (after the federal grant, when it is applied first)"),
    Cap("funding_need", "funding need", "funding_need",
        "what the project still lacks after the federal grant and local contributions"),
    Cap("prior_grant_room", "prior-grant room", "prior_grant_room",
        "the prior-grant ceiling less what this grantee already received"),
    Cap("requested_amount", "requested amount", "requested_amount",
        "the amount the applicant asked for"),
)
CAP = {c.id: c for c in CAPS}
CAP_IDS = tuple(c.id for c in CAPS)

ROUTES = {"standard": "Standard route (50% State share)",
          "bpw_exception": "Board of Public Works exception"}
