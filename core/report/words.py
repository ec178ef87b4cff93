"""Dates as people write them: "December 1, 2026, 7:16 a.m. UTC" (the library keeps ISO 8601 in
UTC, which sorts as text; people read this)."""
from __future__ import annotations

from datetime import datetime, timezone


def when_words(stamp: str) -> str:
    """An ISO 8601 stamp in words, in UTC; '' for ''; a stamp that is not one is given back as it is."""
    if not stamp:
        return ""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    when = (when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when).astimezone(timezone.utc)
    hour = when.hour % 12 or 12
    noon = "a.m." if when.hour < 12 else "p.m."
    return f"{when:%B} {when.day}, {when.year}, {hour}:{when.minute:02d} {noon} UTC"
