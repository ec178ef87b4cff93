"""A library written by a newer release (an input and a ruleset number this release does not know) is
listed and opened, its unknown values kept as they were when a scenario is written back, and said
(issue 50: one scenario saved with a new input left the previous release unable to list the library)."""
from __future__ import annotations

import json

from sqlalchemy import insert, select, update

from core.law.rulesets import load
from core.store import unread
from core.store.kept_rulesets import key_of, text_of
from core.store.model import rulesets, scenarios
from tests.support.store import APP

NEW_INPUT = {"energy_rebate": "25000.00"}
NEW_NUMBER = {"solar_cap": {"value": "100000.00", "unit": "USD", "provision": "program_max",
                                "description": "Most a solar-panel grant may be", "citation": "A newer number"}}


def _as_a_newer_release_writes_it(store, name: str) -> str:
    """The scenario's row rewritten as a newer release saves it: an input and a ruleset number more."""
    data = load("cap-800k").to_data()
    data["parameters"] |= NEW_NUMBER
    text = text_of(data)
    with store.engine.begin() as conn:
        app = json.loads(conn.execute(select(scenarios.c.application).where(scenarios.c.name == name)).scalar())
        app |= NEW_INPUT | {"bpw_exception": {"local_property_value": "1000.00", "heritage_value": "5.00"}}
        conn.execute(insert(rulesets).values(key=key_of(text), data=text))
        conn.execute(update(scenarios).where(scenarios.c.name == name)
                     .values(application=json.dumps(app), ruleset_key=key_of(text), ruleset_id="cap-800k"))
    return key_of(text)


def _row(store, name: str):
    with store.engine.connect() as conn:
        row = conn.execute(select(scenarios).where(scenarios.c.name == name)).first()
    return json.loads(row.application), row.ruleset_key


def test_a_scenario_of_a_newer_release_is_listed_opened_and_says_what_it_did_not_read(store):
    store.save("Older", APP)
    store.save("Newer", APP, rs=load("cap-800k"))
    _as_a_newer_release_writes_it(store, "Newer")
    assert sorted(s.name for s in store.list()) == ["Newer", "Older"]
    sc = store.get("Newer")
    assert sc.application.local_property_value == 100_000 and sc.application.bpw_exception_requested
    assert sc.unread == NEW_INPUT | {"bpw_exception": {"heritage_value": "5.00"}}
    assert unread.words(sc.unread) == (
        "Saved by a newer release of this tool: energy_rebate, bpw_exception.heritage_value not read by "
        "this release (the award is worked out without it); the saved values are kept as they were.")
    rs = sc.saved_ruleset()
    assert rs.number("capital_cap") == 80_000_000 and rs.version == load("cap-800k").version
    assert "the number 'solar_cap' not read by this release" in " ".join(rs.notes)
    assert sc.award().amount == 50_000_000 and any("solar_cap" in n for n in sc.award().law_notes)


def test_written_back_the_newer_releases_values_are_kept_untouched(store):
    store.save("Newer", APP, rs=load("cap-800k"))
    key = _as_a_newer_release_writes_it(store, "Newer")
    store.rename("Newer", "Renamed")
    app, kept = _row(store, "Renamed")
    assert app["energy_rebate"] == "25000.00" and app["bpw_exception"]["heritage_value"] == "5.00"
    assert kept == key   # the ruleset, its unknown number with it, as it was saved
    store.save("Renamed", APP.replace(federal_grant=100), rs=load("cap-800k"), overwrite=True)
    app, _ = _row(store, "Renamed")
    assert app["energy_rebate"] == "25000.00" and store.get("Renamed").application.federal_grant == 100


def test_a_kept_variant_of_a_newer_release_is_listed(store):
    from core.store.model import variants
    data = load().with_changes("newer-cap", "Newer cap", {"capital_cap": "700000"}).to_data()
    data["parameters"] |= NEW_NUMBER
    text = text_of(data)
    with store.engine.begin() as conn:
        conn.execute(insert(rulesets).values(key=key_of(text), data=text))
        conn.execute(insert(variants).values(id="newer-cap", ruleset_key=key_of(text), owner="local",
                                             changed_by="local", created_at="2026-12-01", updated_at="2026-12-01"))
    kept = store.variants().get("newer-cap")
    assert kept.ruleset.number("capital_cap") == 70_000_000
    assert "the number 'solar_cap' not read" in " ".join(kept.ruleset.notes)
    assert [k.id for k in store.variants().list()] == ["newer-cap"]
