"""Imports validate every field's type and day as the command line does (issue 48): a ruleset
given as a number or an id given as an object, a day the ruleset has no values for (or the date
field cannot show) and a version of `true` are refused, each naming its field; a bad record
never hides the good ones."""
from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import given, settings, strategies as st

from core.law.rulesets import load
from core.store.fileformat import EXPORT_FORMAT, check_as_of, last_law_day, parse_export
from core.store.imports import preview
from tests.support.store import APP

PLAIN = APP.to_dict()
GOOD = {"name": "Good", **PLAIN}


def errors_of(items, version=1):
    good, errors = parse_export({"format": EXPORT_FORMAT, "version": version, "scenarios": items})
    return [sc.name for sc in good], errors


@pytest.mark.parametrize("ruleset, field, problem", [
    ({"id": "statute"}, "scenarios[1].ruleset", "must be a ruleset id written as text"),
    (5, "scenarios[1].ruleset", "must be a ruleset id written as text"),
    (["statute"], "scenarios[1].ruleset", "must be a ruleset id written as text"),
    (False, "scenarios[1].ruleset", "must be a ruleset id written as text"),
])
def test_a_plain_application_names_its_ruleset_by_an_id_as_text(ruleset, field, problem):
    """Finding: `"ruleset": {"id": "statute"}` or `"ruleset": 5` imported silently under the regulation."""
    names, errors = errors_of([GOOD, {"name": "Bad", **PLAIN, "ruleset": ruleset}])
    assert names == ["Good"]
    assert errors == [f"{field}: {ruleset!r} {problem}, such as \"statute\" (a plain application names its "
                      f"ruleset by id)"]


@pytest.mark.parametrize("ruleset, field", [
    (5, "scenarios[1].ruleset"), (0, "scenarios[1].ruleset"), ("", "scenarios[1].ruleset"),
    ([], "scenarios[1].ruleset"), ({"id": 5}, "scenarios[1].ruleset.id"),
    ({"id": {"id": "statute"}}, "scenarios[1].ruleset.id"), ({"id": ["statute"]}, "scenarios[1].ruleset.id"),
    ({"id": "statute", "version": 3}, "scenarios[1].ruleset.version"),
    ({"id": "statute", "data": "x"}, "scenarios[1].ruleset.data"),
    ({"id": "statute", "data": ""}, "scenarios[1].ruleset.data"), ({"id": "statute", "data": 0}, "scenarios[1].ruleset.data"),
    ({"id": "statute", "data": []}, "scenarios[1].ruleset.data"),
])
def test_an_exported_scenarios_ruleset_is_checked_part_by_part(ruleset, field):
    names, errors = errors_of([{"name": "Good", "application": PLAIN},
                               {"name": "Bad", "application": PLAIN, "ruleset": ruleset}])
    assert names == ["Good"] and len(errors) == 1 and errors[0].startswith(f"{field}: ")
    part = ruleset if field.endswith("ruleset") else ruleset[field.rsplit(".", 1)[1]]
    assert errors[0].split(" must be ")[0] == (f"{field}: {part!r}" if part != "" else f"{field}:")


def test_a_ruleset_named_by_id_as_text_is_still_read():
    good, errors = parse_export([{"name": "S", **PLAIN, "ruleset": "statute"},
                                 {"name": "E", "application": PLAIN, "ruleset": {"id": "statute"}}])
    assert not errors and [sc.ruleset_id for sc in good] == ["statute", "statute"]


@pytest.mark.parametrize("readings", [0, "", [], "prior_grant", 5])
def test_readings_that_are_not_an_object_are_refused(readings):
    """0, "" and [] read as the default readings, silently."""
    names, errors = errors_of([GOOD, {"name": "Bad", **PLAIN, "readings": readings}])
    assert names == ["Good"] and len(errors) == 1
    assert errors[0].startswith(f"scenarios[1].readings: {readings!r} must be an object of reading ids"
                                if readings != "" else "scenarios[1].readings: must be an object of reading ids")


def test_a_plain_application_may_carry_its_readings():
    good, errors = parse_export([{"name": "R", **PLAIN, "readings": {"f_reference": "prior_grant"}}])
    assert not errors and good[0].readings.f_reference == "prior_grant"


@pytest.mark.parametrize("ruleset, day, first", [
    (None, "1900-01-01", "2026-11-29"), (None, "2026-11-28", "2026-11-29"),
    ("statute", "1900-01-01", "1984-07-01"), ("statute", "1984-06-30", "1984-07-01"),
])
def test_a_day_the_ruleset_has_no_values_for_is_refused(ruleset, day, first):
    """Finding: "1900-01-01" and "2026-11-28" were accepted for the regulation, though --as-of and
    links refuse them; the library then showed one day and the report used another."""
    bad = {"name": "Bad", **PLAIN, "as_of": day} | ({"ruleset": ruleset} if ruleset else {})
    names, errors = errors_of([GOOD, bad])
    assert names == ["Good"]
    assert len(errors) == 1 and errors[0].startswith(f"scenarios[1].as_of: {day!r} cannot be used: ")
    assert f" has no values before {first} (" in errors[0] and errors[0].endswith(f"; choose {first} or later")


@pytest.mark.parametrize("ruleset, day", [(None, "2026-11-29"), ("statute", "1984-07-01"), ("cap-800k", "2040-06-30")])
def test_the_first_day_and_later_are_kept(ruleset, day):
    good, errors = parse_export([{"name": "S", **PLAIN, "as_of": day} | ({"ruleset": ruleset} if ruleset else {})])
    assert not errors and good[0].as_of == day


def test_a_variants_day_before_the_first_the_date_field_shows_is_refused():
    """A variant's what-if holds on any day, but the "Law as of" field begins at 1984-07-01 (a link
    /?as_of=1980-01-01&ruleset=cap-800k broke every page)."""
    names, errors = errors_of([GOOD, {"name": "Old", **PLAIN, "ruleset": "cap-800k", "as_of": "1980-01-01"}])
    assert names == ["Good"] and errors == ["scenarios[1].as_of: '1980-01-01' is before 1984-07-01, the first day "
                                            "whose law the app shows; choose 1984-07-01 or later"]


def test_a_day_the_date_field_cannot_show_is_refused():
    """An imported scenario made "as of 9999-12-31" broke every page once opened in the Calculator."""
    names, errors = errors_of([GOOD, {"name": "Far", **PLAIN, "ruleset": "statute", "as_of": "9999-12-31"}])
    last = last_law_day().isoformat()
    assert names == ["Good"] and errors == [f"scenarios[1].as_of: '9999-12-31' is after {last}, the last day whose "
                                            f"law the app shows; choose a day up to {last}"]


def test_the_last_day_the_field_shows_is_its_years_end_25_years_on():
    today = date(2026, 12, 6)
    assert last_law_day(today) == date(2051, 12, 31)
    rs = load("statute")
    assert check_as_of("2051-12-31", rs, "as_of", today) == "2051-12-31"
    with pytest.raises(ValueError, match="is after 2051-12-31"):
        check_as_of("2052-01-01", rs, "as_of", today)


@pytest.mark.parametrize("version", [True, 1.0, "1", [1], None])
def test_only_the_number_1_passes_the_version_check(version):
    """Finding: a version of `true` passed (True == 1 in Python)."""
    names, errors = errors_of([GOOD], version)
    assert names == [] and errors == [f"version: {version!r} is not supported (this app reads version 1)"]


def test_the_preview_lists_the_good_beside_each_bad_one():
    raw = json.dumps({"format": EXPORT_FORMAT, "version": 1, "scenarios": [
        {"name": "A", **PLAIN, "ruleset": 5}, GOOD, {"name": "C", **PLAIN, "as_of": "1900-01-01"},
        {"name": "D", **PLAIN, "ruleset": "statute", "as_of": "2030-01-01"}]}).encode()
    seen = preview(raw, "f.json")
    assert seen.names == ("Good", "D") and [e.split(":")[0] for e in seen.errors] == [
        "scenarios[0].ruleset", "scenarios[2].as_of"]


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids,
                                                                                      max_size=3), max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(ruleset=json_values, as_of=json_values, readings=json_values)
def test_any_value_of_the_three_fields_is_read_or_refused_by_name(ruleset, as_of, readings):
    """Whatever a file puts there: no exception but ValidationError's, each naming its field, and
    the good scenario beside it always kept."""
    item = {"name": "Any", "application": PLAIN, "ruleset": ruleset, "as_of": as_of, "readings": readings}
    good, errors = parse_export([GOOD, item])
    assert good[0].name == "Good"
    if len(good) == 1:
        assert len(errors) == 1 and errors[0].split(":")[0].startswith(
            ("scenarios[1].ruleset", "scenarios[1].as_of", "scenarios[1].readings"))
    else:
        assert not errors and isinstance(ruleset, (dict, type(None))) and isinstance(readings, (dict, type(None)))
