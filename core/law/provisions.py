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
    paragraph: str = ""       # "A".."H": inferred lettering (docs/rules.md, "Paragraph letters")

    @property
    def cite(self) -> str:
        """'§C', or 'an interpretation' for a provision with no sentence of its own."""
        return f"§{self.paragraph}" if self.paragraph else "an interpretation"


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
        "cost; with federal law to the contrary, on the whole cost. The match is a check reported "
        "beside the award, rounded up to the cent; it would be waived on the Board's exception route.",
    ),
    Provision(
        "federal_first", "Federal grant applied first",
        "If a federal grant is available for the project, unless federal law is to the contrary, "
        "the federal grant shall be applied to the costs of the project before a grant under this "
        "program is applied. If a federal grant is applied, a grant under this program may not "
        "exceed 50 percent of the total cost of eligible work remaining after the federal grant "
        "has been applied, except as provided in §F of this regulation.",
        "When federal law is to the contrary, the federal grant is not applied first: the State "
        "share, the local match and what the project still lacks are all measured on the whole cost "
        "of eligible work.",
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
        "The exception lifts the 50% limit up to the value of the property made available, the cost "
        "of eligible work (after the federal grant, when it is applied first) and the project's "
        "funding need; the program maximum still applies. Program funds this grantee already "
        "received for the project are State funds used for its building, so they close the "
        "exception. It is used only when it pays strictly more than the standard route, and it is "
        "the Board's discretion: an amount on its route exists only if the Board approves.",
    ),
    Provision(
        "prior_grant_room", "Top-up for earlier grantees",
        "A grantee that has in the past received funds in a total amount of less than $300,000 for "
        "an eligible project under this program may receive a grant for additional eligible work "
        "in an amount equal to the difference between the prior grant and $300,000, if the project "
        "meets the other requirements of this chapter.",
        "The text fixes $300,000, not the current cap. By default any grantee with prior program "
        "funds may receive at most $300,000 less those funds, so at or above $300,000 no additional "
        "grant is available; the other reading (“Only grantees below $300,000”) limits only "
        "grantees below $300,000.",
    ),
    Provision(
        "funding_need", "Funding need",
        "",
        "No sentence of the regulation says this; it is this project's reading of the regulation as a "
        "whole (a reading that can be switched off on the Rules page): the State does not pay more "
        "than the project still lacks after the federal grant and local contributions.",
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
        "They order applications and guide the Department within the ceiling, never raising it: a "
        "denser senior population, a project farther from an existing senior center and a locality "
        "never funded before score higher; a missing value scores 0.",
    ),
)
# Paragraph letters, inferred: the text carries none (docs/rules.md, "Paragraph letters").
# Eight paragraphs A to H in the order of the text (the capital and the master-plan maximums
# each a paragraph) make both of the text's cross-references literal: §C's 50% limits yield "as
# provided in §E", the 50% of the cost remaining after a federal grant, and §E's limit yields
# "as provided in §F", the Board's exception. The default readings read them so.
PARAGRAPH = {"program_max": "A–B", "cost_share": "C", "local_match": "C", "federal_first": "D–E",
             "bpw_exception": "F", "prior_grant_room": "G", "considerations": "H"}
PROVISIONS = tuple(replace(p, paragraph=PARAGRAPH.get(p.id, "")) for p in PROVISIONS)
PROVISION = {p.id: p for p in PROVISIONS}
LETTERS_INFERRED = "Paragraph letters are inferred: the regulation's text carries none."
# The lettering cited, paragraph by paragraph, for people (the Rules page and the report).
LETTERING = (("A", "the maximum for conversion, acquisition, renovation, equipment or construction"),
             ("B", "the maximum for a master plan"),
             ("C", "the State's 50% limit and the 50% local match, “except as provided in §E”"),
             ("D", "a federal grant applied first, unless federal law is to the contrary"),
             ("E", "with a federal grant applied, 50% of the cost remaining after it, “except as provided in §F”"),
             ("F", "the Board of Public Works exception and its four conditions"),
             ("G", "earlier grantees below $300,000"),
             ("H", "what the Department also considers"))

# Sentences that govern one case of a provision: the maximum of each kind of grant, and §E,
# which with a federal grant applied (not §C's 50% of the total) limits the State share.
CAPITAL_SENTENCE = "A grant for conversion, acquisition, renovation, equipment, or construction may not exceed $600,000."
MASTER_PLAN_SENTENCE = "A grant for the development of a master plan may not exceed $15,000."
FEDERAL_FIRST_SENTENCE = ("If a federal grant is available for the project, unless federal law is to the contrary, the "
                          "federal grant shall be applied to the costs of the project before a grant under this program "
                          "is applied.")
REMAINDER_SENTENCE = ("If a federal grant is applied, a grant under this program may not exceed 50 percent of the "
                      "total cost of eligible work remaining after the federal grant has been applied, except as "
                      "provided in §F of this regulation.")
EXCEPTION_SENTENCE = "At the discretion of the Board of Public Works, a grant may exceed 50 percent of the cost of eligible work, if:"

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


@dataclass(frozen=True)
class Citation:
    """Where one limit of one result comes from: its paragraph (inferred; "" for an
    interpretation with no sentence), a title and the sentences that govern it."""
    paragraph: str
    title: str
    sentences: tuple

    @property
    def words(self) -> str:
        """'§E State share of the cost remaining after the federal grant', or for an interpretation
        'Funding need (an interpretation: no sentence says it)'."""
        return f"§{self.paragraph} {self.title}" if self.paragraph else f"{self.title} (an interpretation: no sentence says it)"


def _remainder_governs(award) -> bool:
    """With a federal grant applied, the State share is §E's 50% of the remainder (unless, read
    with "§F" as the top-up paragraph, additional eligible work lifts it to §C's whole cost)."""
    app = award.application
    return app.federal_grant > 0 and not app.federal_law_contrary and award.base == award.remaining


def citation(cap: str, award) -> Citation:
    """The one citation of a cap (or a provision's step) for this result, the same on every
    surface: calculator, Compare, report, PDF and the CLI's JSON."""
    from core.law.fields import CAP
    pid = CAP[cap].provision if cap in CAP else cap
    app = award.application
    if pid == "program_max":
        plan = app.project_type == "master_plan"
        return Citation("B" if plan else "A", "Program maximum", (MASTER_PLAN_SENTENCE if plan else CAPITAL_SENTENCE,))
    if cap == "cost_share" and (_remainder_governs(award) or award.route == "bpw_exception"):
        return Citation("E", "State share of the cost remaining after the federal grant", (REMAINDER_SENTENCE,))
    if pid == "federal_first":
        sentences = (FEDERAL_FIRST_SENTENCE, REMAINDER_SENTENCE) if _remainder_governs(award) else (FEDERAL_FIRST_SENTENCE,)
        return Citation("D", "Federal grant applied first", sentences)
    if cap == "property_value":
        return Citation("F", "Board of Public Works exception: value of local property",
                        (EXCEPTION_SENTENCE, BPW_CONDITIONS["bpw_property_value"]))
    if cap == "full_cost":
        return Citation("F", "Board of Public Works exception: never more than the cost", (EXCEPTION_SENTENCE,))
    p = PROVISION[pid]
    return Citation(p.paragraph, p.title, (p.text,) if p.text else ())


def citations(award) -> list[Citation]:
    """The binding caps' citations, in order, each once."""
    return list(dict.fromkeys(citation(c, award) for c in award.binding))


def source_words(award) -> str:
    """The 'From:' line: each binding cap's citation, once."""
    return "; ".join(c.words for c in citations(award))
