"""The dated-ruleset machinery (core/law/rulesets: `as_of`, `first_day`, `Dated.doubt`) on the days
that matter (issue 48: a value applied a day early, the ruleset's first day refused, a doubt note
dropped a year early or given where the day is known, all passed): every dated value of every
shipped ruleset on the day before it, its first day and the last day before the next."""
from datetime import date, timedelta

import pytest

from core.law.rulesets import DateError, available, load, parse_day

DATED = [rid for rid in available() if load(rid).is_dated]
DAY = timedelta(days=1)


def eras(rid):
    rs = load(rid)
    for p in rs.parameters.values():
        for i, v in enumerate(p.history):
            later = p.history[i + 1] if i + 1 < len(p.history) else None
            yield p.name, i, v, (p.history[i - 1] if i else None), later


@pytest.mark.parametrize("rid", DATED)
def test_each_value_holds_from_its_first_day_to_the_day_before_the_next_and_not_a_day_early(rid):
    rs = load(rid)
    for name, i, v, before, later in eras(rid):
        assert rs.as_of(v.start).parameters[name].value == v.value, (name, v.start)
        if later is not None:
            assert rs.as_of(later.start - DAY).parameters[name].value == v.value, (name, later.start - DAY)
        if before is not None:
            assert rs.as_of(v.start - DAY).parameters[name].value == before.value, (name, v.start - DAY)


@pytest.mark.parametrize("rid", DATED)
def test_the_first_day_is_the_latest_first_value_and_is_itself_accepted(rid):
    rs = load(rid)
    first = max(p.history[0].start for p in rs.parameters.values() if p.history)
    assert rs.first_day == first
    assert rs.as_of(first).as_of_date == first
    with pytest.raises(DateError, match=f"has no values before {first.isoformat()}"):
        rs.as_of(first - DAY)


def test_the_first_day_is_the_day_every_number_has_a_value_not_the_earliest_value():
    """A dated ruleset whose capital maximum is known only from 1986-07-01 has no law before then,
    though its other numbers start in 1984 (a slip of min for max took 1984-07-01)."""
    from core.law.rulesets import from_data
    data = load("statute").to_data()
    data["parameters"]["capital_cap"]["values"] = data["parameters"]["capital_cap"]["values"][1:]   # from 1986
    data.update(id="statute-from-1986", kind="variant", title="Statute with the 1986 cap first")
    rs = from_data(data)
    assert rs.first_day == date(1986, 7, 1) and rs.as_of("1986-07-01").number("capital_cap") == 30_000_000
    with pytest.raises(DateError, match="has no values before 1986-07-01"):
        rs.as_of("1986-06-30")


def test_the_regulation_has_values_from_its_editions_day_on_and_not_before():
    rs = load()
    assert rs.first_day == date(2026, 11, 29) and rs.as_of("2026-11-29").number("capital_cap") == rs.number("capital_cap")
    with pytest.raises(DateError, match="has no values before 2026-11-29"):
        rs.as_of("2026-11-28")


@pytest.mark.parametrize("rid", DATED)
def test_a_doubt_note_is_given_within_its_values_window_and_not_where_the_day_is_known(rid):
    """A value whose day is uncertain is said so on every answer between the first day it can have
    taken effect (`earliest`: `not_before`, or the year's first day where only the year is known) and
    the day it is surely in force by (`surely_by`: `known_by`, else the next year or the second January
    on), and not on that day or after; a value whose day is known, never (issue 47: no act of the
    1987 session in force on January 1, 1987; issue 48: a note dropped a year early or given where
    the day is known)."""
    rs = load(rid)
    first = rs.first_day
    for name, i, v, before, later in eras(rid):
        if later is not None and later.start.year - v.start.year < 3:
            continue   # another value's doubt would speak for the same days
        notes = lambda day: " ".join(rs.as_of(day).notes)   # noqa: E731
        if not v.uncertain:
            assert not v.doubt(v.start) and v.surely_by == v.start, name
            continue
        assert v.earliest <= v.start <= v.surely_by, (name, v.start)
        if v.start < v.surely_by:   # in force from `start`, perhaps not yet: said from it to the day before surely_by
            assert v.uncertain in notes(v.start), (name, v.start)
            last = v.surely_by - DAY
            if later is None or later.start > last:
                assert v.uncertain in notes(last), (name, last)
        if later is None or later.start > v.surely_by:
            assert v.uncertain not in notes(v.surely_by), (name, v.surely_by)
        if v.earliest > first:
            assert v.uncertain not in notes(v.earliest - DAY), (name, v.earliest - DAY)


def test_the_value_a_later_one_may_already_have_replaced_is_said_only_where_that_days_doubt_matters():
    """$300,000 took effect on a day of 1986 not read (taken as July 1): on June 30, 1986 the $200,000
    may already be replaced, so it is said; in 1985 the later value's doubt does not reach."""
    rs = load("statute")
    said = [n for n in rs.as_of("1986-06-30").notes if "it was later replaced by $300,000" in n]
    assert said and said[0].endswith("As of 1986-06-30 the capital maximum may already be $300,000.")
    assert not [n for n in rs.as_of("1985-06-30").notes if "later replaced by $300,000" in n]


@pytest.mark.parametrize("raw", ["2025-01-01x", "x2025-01-01", "2025-1-01", "20250101", "2025-01-01T00:00"])
def test_only_a_whole_day_written_yyyy_mm_dd_is_a_day(raw):
    with pytest.raises(Exception) as err:
        parse_day(raw)
    assert str(err.value) == f"--as-of: {raw!r} is not a day; write it YYYY-MM-DD, such as 2025-01-01"
