"""The regulation's provisions: id, plain title, the regulation's own sentence, and the
interpretation this project applies where the text is ambiguous (RULES.md)."""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Provision:
    id: str
    title: str
    text: str                 # the regulation's sentence(s), verbatim; "" when no sentence says it
    interpretation: str = ""  # RULES.md's reading, shown to users, never hidden
    paragraph: str = ""       # "A".."G": inferred lettering (docs/rules.md, "Paragraph letters")

    @property
    def cite(self) -> str:
        """'§B cost_share' (paragraph, then id), or the id alone for an inference."""
        return f"§{self.paragraph} {self.id}" if self.paragraph else self.id


PROVISIONS: tuple[Provision, ...] = (
    Provision(
        "program_max", "Program maximum",
        "A grant for conversion, acquisition, renovation, equipment, or construction may not "
        "exceed $600,000. A grant for the development of a master plan may not exceed $15,000.",
    ),
    Provision(
        "cost_share", "State share of the cost",
        "Except as provided in §E of this regulation: A State grant may not exceed 50 percent "
        "of the total cost of eligible work;",
        "The share is rounded down to the cent, so no cap is ever exceeded by rounding.",
    ),
    Provision(
        "local_match", "Local match",
        "At least 50 percent of the cost of eligible work shall be provided from local contributions.",
        "With a federal grant, the 50% local share is measured on the cost remaining after it, "
        "mirroring the State share; otherwise the three sources could be required to exceed the "
        "cost. The match is a check reported beside the award, rounded up to the cent; it is "
        "waived on the Board exception route.",
    ),
    Provision(
        "federal_first", "Federal grant applied first",
        "If a federal grant is available for the project, unless federal law is to the contrary, "
        "the federal grant shall be applied to the costs of the project before a grant under this "
        "program is applied. If a federal grant is applied, a grant under this program may not "
        "exceed 50 percent of the total cost of eligible work remaining after the federal grant "
        "has been applied, except as provided in §F of this regulation.",
        "When federal law is to the contrary, the State share is taken of the whole cost of "
        "eligible work; the funding need is still measured after the federal grant.",
    ),
    Provision(
        "bpw_exception", "Board of Public Works exception",
        "At the discretion of the Board of Public Works, a grant may exceed 50 percent of the cost "
        "of eligible work, if: The grant is for conversion, renovation or planning, design and "
        "construction of an elderly citizens activity center; The value of property and "
        "improvements made available by the local government, including but not limited to "
        "eligible work, or the value of the center to be renovated, equals or exceeds the amount "
        "of the State grant; State funds have not been used for the acquisition, construction, or "
        "maintenance of any real property or improvements made available by the applicant, or for "
        "the building to be converted or renovated; and The State is not responsible for any "
        "bonded indebtedness in connection with any real property or improvements made available "
        "by the applicant, or in connection with the building to be converted, acquired, or renovated.",
        "The exception lifts the 50% limit up to the value of the property made available and up "
        "to the project's funding need; the program maximum still applies. It is used only when "
        "it pays strictly more than the standard route.",
    ),
    Provision(
        "prior_grant_room", "Top-up for earlier grantees",
        "A grantee that has in the past received funds in a total amount of less than $300,000 for "
        "an eligible project under this program may receive a grant for additional eligible work "
        "in an amount equal to the difference between the prior grant and $300,000, if the project "
        "meets the other requirements of this chapter.",
        "The text fixes $300,000, not the current cap. At or above $300,000 of prior funds no "
        "additional grant is available.",
    ),
    Provision(
        "funding_need", "Funding need",
        "",
        "No sentence of the regulation says this; it is this project's reading of the regulation as a "
        "whole (reading funding_need_cap): the State does not pay more than the project still lacks "
        "after the federal grant and local contributions.",
    ),
    Provision(
        "requested_amount", "Requested amount",
        "",
        "No sentence of the regulation says this: when the applicant names an amount, the award is at "
        "most that amount.",
    ),
    Provision(
        "considerations", "The Department's considerations",
        "In determining the amount of the grant, the Department shall also consider: The senior "
        "citizen population density of the area for which the project is proposed; The proximity "
        "of the project to existing senior centers; and Localities eligible for funding that have "
        "not received funds in the past.",
        "Decision support for ranking applications; never used to compute an award amount.",
    ),
)
# Paragraph letters, A to G in the order of the text. The regulation names two of its
# paragraphs, "§E" (the exception to the 50% limits) and "§F"; lettering the seven
# paragraphs in order makes §E the Board exception, which is what the text's "Except as
# provided in §E" requires. That is an inference, stated in docs/rules.md.
PARAGRAPH = {"program_max": "A", "cost_share": "B", "local_match": "B", "federal_first": "C–D",
             "bpw_exception": "E", "prior_grant_room": "F", "considerations": "G"}
PROVISIONS = tuple(replace(p, paragraph=PARAGRAPH.get(p.id, "")) for p in PROVISIONS)
PROVISION = {p.id: p for p in PROVISIONS}

# The sentence of §D: with a federal grant it, not §B's 50%-of-total sentence, limits the State share.
REMAINDER_SENTENCE = ("If a federal grant is applied, a grant under this program may not exceed 50 percent of the "
                      "total cost of eligible work remaining after the federal grant has been applied, except as "
                      "provided in §F of this regulation.")


def cited_sentences(award) -> dict[str, list[str]]:
    """For each provision whose cap binds: the regulation's sentences that govern it for this
    application (with a federal grant applied, the State share comes from §D's 50% of the
    remainder, not §B's 50% of the total); [] for a provision with no sentence."""
    out: dict[str, list[str]] = {}
    from core.fields import CAP
    for cap in award.binding:
        pid = CAP[cap].provision
        p = PROVISION[pid]
        if cap == "cost_share" and award.base != award.application.eligible_cost:
            out[pid] = [REMAINDER_SENTENCE]
        else:
            out[pid] = [p.text] if p.text else []
    return out


def source_words(award) -> str:
    """The 'From:' line: each binding provision by paragraph and title, the §D sentence named
    when it is the one that governs."""
    from core.fields import CAP
    parts = []
    for cap in award.binding:
        p = PROVISION[CAP[cap].provision]
        if cap == "cost_share" and award.base != award.application.eligible_cost:
            parts.append("§D State share of the cost remaining after the federal grant")
        elif p.paragraph:
            parts.append(f"§{p.paragraph} {p.title}")
        else:
            parts.append(f"{p.title} (no sentence of its own: an interpretation)")
    return "; ".join(dict.fromkeys(parts))

# The four conditions of the Board exception, each with its own sentence of the regulation.
BPW_CONDITIONS = {
    "bpw_project_type": "The grant is for conversion, renovation or planning, design and construction of an "
                        "elderly citizens activity center;",
    "bpw_property_value": "The value of property and improvements made available by the local government, "
                          "including but not limited to eligible work, or the value of the center to be "
                          "renovated, equals or exceeds the amount of the State grant;",
    "bpw_no_state_funds": "State funds have not been used for the acquisition, construction, or maintenance of "
                          "any real property or improvements made available by the applicant, or for the "
                          "building to be converted or renovated;",
    "bpw_no_state_debt": "The State is not responsible for any bonded indebtedness in connection with any real "
                         "property or improvements made available by the applicant, or in connection with the "
                         "building to be converted, acquired, or renovated.",
}
