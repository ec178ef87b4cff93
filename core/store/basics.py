"""What the pages need of the library before the award is on screen, without SQLAlchemy or the
file format: who acts when nobody signs in, and the days whose law the app shows. Light on
purpose (issue 53, a first visit): `core.store.model` and `core.store.fileformat` re-export
these, and the UI imports them from here, so the library loads after the award is drawn."""
from __future__ import annotations

from datetime import date

from core.law.rulesets import available, load

LOCAL = "local"   # the actor when nobody signs in: one person on their own machine
YEARS_AHEAD = 25       # the "Law as of" field shows days up to the end of the year 25 years on


def first_law_day() -> date:
    """The first day whose law the app shows: the earliest first value of a shipped ruleset (the
    statute's, 1984-07-01), where the "Law as of" field begins for a ruleset with no day of its own
    (a variant: its what-if holds on any day)."""
    return min(d for rid in available() if (d := load(rid).first_day) is not None)


def last_law_day(today: date | None = None) -> date:
    """The last day whose law the app shows: the "Law as of" field goes no further (dashboard.py),
    so a scenario made under a later day could not be shown as made."""
    today = today or date.today()
    return date(today.year + YEARS_AHEAD, 12, 31)
