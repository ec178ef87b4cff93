"""Readings: the places where the regulation's text can be read two ways (RULES.md,
"Readings"), stored as data like the parameters of a ruleset.

A `Readings` value names the alternative chosen for each of the five readings; every one
of the 32 combinations is valid. The default of each reading is the one RULES.md's
"The computation" applies.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product


class ReadingError(ValueError):
    """An unknown reading id or alternative; the message names it."""


@dataclass(frozen=True)
class Alternative:
    id: str
    title: str          # a few words, for a switch
    meaning: str        # the plain description of what this reading does


@dataclass(frozen=True)
class Reading:
    id: str
    title: str
    provision: str      # provision id whose sentence is read
    sentence: str       # the sentence read ("" when the reading is an inference of no sentence)
    alternatives: tuple  # of Alternative, the default first

    @property
    def default(self) -> str:
        return self.alternatives[0].id

    def alternative(self, alt_id: str) -> Alternative:
        for a in self.alternatives:
            if a.id == alt_id:
                return a
        raise ReadingError(f"reading {self.id}: unknown alternative {alt_id!r}; use one of "
                           f"{', '.join(a.id for a in self.alternatives)}")

    @property
    def other(self) -> str:
        """The alternative that is not the default (every reading has two)."""
        return self.alternatives[1].id


READINGS: tuple[Reading, ...] = (
    Reading(
        "f_reference", "What \"§F\" refers to", "federal_first",
        "If a federal grant is applied, a grant under this program may not exceed 50 percent of the "
        "total cost of eligible work remaining after the federal grant has been applied, except as "
        "provided in §F of this regulation.",
        (Alternative("board_exception", "§F is the Board exception",
                     "The 50%-of-remainder limit yields only on the Board exception route."),
         Alternative("prior_grant", "§F is the top-up for earlier grantees",
                     "Lettering the text's seven paragraphs A to G in order, §F is the paragraph on earlier "
                     "grantees: for additional eligible work (prior program funds above $0) the "
                     "50%-of-remainder limit does not apply, while the 50%-of-total-cost limit still does. The "
                     "Board's exception then lifts only the 50%-of-total-cost limit: on its route the "
                     "50%-of-remainder limit still holds whenever a federal grant is applied.")),
    ),
    Reading(
        "local_match_base", "What the 50% local match is measured on", "local_match",
        "At least 50 percent of the cost of eligible work shall be provided from local contributions.",
        (Alternative("remaining", "The cost left after the federal grant",
                     "Local contributions must cover 50% of the cost left after the federal grant, "
                     "mirroring the State share."),
         Alternative("total_cost", "The whole cost of eligible work",
                     "Local contributions must cover 50% of the whole cost of eligible work, whatever "
                     "the federal grant.")),
    ),
    Reading(
        "local_match_effect", "What a short local match does", "local_match",
        "At least 50 percent of the cost of eligible work shall be provided from local contributions.",
        (Alternative("check", "A check beside the award",
                     "A shortfall is reported beside the award; the award is unchanged."),
         Alternative("condition", "A condition of any award",
                     "On the standard route a shortfall makes the application ineligible: the award is "
                     "$0, held by the local match. The Board exception route waives the match either way.")),
    ),
    Reading(
        "funding_need_cap", "Whether the State pays only what the project lacks", "funding_need",
        "",
        (Alternative("applies", "Only what the project still lacks",
                     "The State pays no more than the cost left after the federal grant and local "
                     "contributions (funding need)."),
         Alternative("none", "No funding-need limit",
                     "No sentence says so, so there is no funding-need cap; the other limits decide.")),
    ),
    Reading(
        "prior_grant_limit", "Whom the $300,000 top-up sentence limits", "prior_grant_room",
        "A grantee that has in the past received funds in a total amount of less than $300,000 for an "
        "eligible project under this program may receive a grant for additional eligible work in an amount "
        "equal to the difference between the prior grant and $300,000, if the project meets the other "
        "requirements of this chapter.",
        (Alternative("ceiling", "Every earlier grantee, up to $300,000 in all",
                     "Any grantee with prior program funds may receive at most $300,000 less those funds; at "
                     "or above $300,000 of prior funds no additional grant is available."),
         Alternative("below_only", "Only grantees below $300,000",
                     "The sentence speaks only of grantees who received less than $300,000: they may receive "
                     "the difference. A grantee at or above $300,000 is held by the other limits alone.")),
    ),
)
READING = {r.id: r for r in READINGS}
READING_IDS = tuple(r.id for r in READINGS)


@dataclass(frozen=True)
class Readings:
    """The alternative used for each reading (hashable: results are cached per readings)."""
    f_reference: str = "board_exception"
    local_match_base: str = "remaining"
    local_match_effect: str = "check"
    funding_need_cap: str = "applies"
    prior_grant_limit: str = "ceiling"

    def __post_init__(self):
        for r in READINGS:
            r.alternative(getattr(self, r.id))

    def as_dict(self) -> dict:
        return {r: getattr(self, r) for r in READING_IDS}

    def switched(self, reading_id: str) -> "Readings":
        """The same readings with one reading switched to its other alternative."""
        r = READING[reading_id]
        now = getattr(self, reading_id)
        return self.replace(**{reading_id: r.other if now == r.default else r.default})

    def replace(self, **changes) -> "Readings":
        for k in changes:
            if k not in READING:
                raise ReadingError(f"unknown reading {k!r}; known: {', '.join(READING_IDS)}")
        return Readings(**(self.as_dict() | changes))

    @property
    def is_default(self) -> bool:
        return self == DEFAULT

    def changed(self) -> dict:
        """Readings that differ from the default: id -> alternative."""
        return {k: v for k, v in self.as_dict().items() if v != READING[k].default}

    def describe(self) -> str:
        """'default readings' or 'f_reference=prior_grant, local_match_effect=condition'."""
        ch = self.changed()
        return "default readings" if not ch else ", ".join(f"{k}={v}" for k, v in ch.items())


DEFAULT = Readings()


def parse(pairs) -> Readings:
    """['f_reference=prior_grant', ...] (CLI, URL) -> Readings; unknown ids and alternatives
    raise ReadingError naming them."""
    changes = {}
    for pair in pairs or ():
        rid, sep, alt = str(pair).partition("=")
        rid, alt = rid.strip(), alt.strip()
        if not sep:
            raise ReadingError(f"reading {pair!r}: write ID=ALTERNATIVE, e.g. f_reference=prior_grant")
        if rid not in READING:
            raise ReadingError(f"unknown reading {rid!r}; known: {', '.join(READING_IDS)}")
        READING[rid].alternative(alt)
        changes[rid] = alt
    return DEFAULT.replace(**changes)


def from_dict(data) -> Readings:
    """{'f_reference': 'prior_grant', ...} (saved scenarios, JSON) -> Readings."""
    if not data:
        return DEFAULT
    if not isinstance(data, dict):
        raise ReadingError(f"readings: a table of reading ids, not {data!r}")
    return parse(f"{k}={v}" for k, v in data.items())


def every() -> list[Readings]:
    """All 32 combinations, the default first."""
    return [Readings(*combo) for combo in product(*[[a.id for a in r.alternatives] for r in READINGS])]
