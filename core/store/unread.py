"""What a newer release wrote that this one does not know, so that a rollback keeps the library.

A scenario saved by a newer release may hold an input this release has no field for (a new source of
funds, say), and its ruleset a number this release has no parameter for. The library lists and opens
such a scenario: the unknown inputs are set aside (`split`), kept as they were when the scenario is
written back (`merged`), and said (`words`); an unknown number of its ruleset is left out and said by
core.law.rulesets.read_saved. An import of a file is checked whole, as before (core/store/fileformat.py).
"""
from __future__ import annotations

from core.law.application import META_KEYS
from core.law.fields import EXCEPTION_FIELDS, FIELD

EXCEPTION = "bpw_exception"


def split(data: dict) -> tuple[dict, dict]:
    """(the inputs this release reads, the ones it does not know) of a saved application's JSON."""
    known = {k: v for k, v in data.items() if k in FIELD or k in META_KEYS or k == EXCEPTION}
    unread = {k: v for k, v in data.items() if k not in known}
    exception = data.get(EXCEPTION)
    if isinstance(exception, dict) and set(exception) - set(EXCEPTION_FIELDS):
        known[EXCEPTION] = {k: v for k, v in exception.items() if k in EXCEPTION_FIELDS}
        unread[EXCEPTION] = {k: v for k, v in exception.items() if k not in EXCEPTION_FIELDS}
    return known, unread


def merged(app: dict, unread: dict) -> dict:
    """The application's JSON with the inputs a newer release wrote put back, untouched (those of the
    Board's exception only while the exception is still requested)."""
    out = app | {k: v for k, v in unread.items() if k != EXCEPTION and k not in app}
    if isinstance(unread.get(EXCEPTION), dict) and isinstance(out.get(EXCEPTION), dict):
        out[EXCEPTION] = unread[EXCEPTION] | out[EXCEPTION]
    return out


def names(unread: dict) -> list[str]:
    return [k for k in unread if k != EXCEPTION] + [f"{EXCEPTION}.{k}" for k in unread.get(EXCEPTION) or {}]


def words(unread: dict) -> str:
    """The sentence said when such a scenario is opened ("" when there is nothing to say)."""
    if not unread:
        return ""
    return (f"Saved by a newer release of this tool: {', '.join(names(unread))} not read by this release "
            "(the award is worked out without it); the saved values are kept as they were.")
