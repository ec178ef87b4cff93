"""Policy variants kept in the scenario library (issue 48: a variant made on the Rules page was gone
after a reload): kept by id with an owner, listed for everyone, changed only by their owner or an
administrator, every change in an append-only history, restorable, exported and imported with the
library; on SQLite and PostgreSQL."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import text

from core.law.rulesets import RulesetError, load
from core.store.imports import import_export, preview
from core.store.model import NotAllowed, ScenarioError, ScenarioExists
from core.store.repository import ScenarioStore
from core.store.variants import parse_variants
from tests.support.store import APP

OWNER, OTHER, ADMIN = "ann@agency.gov", "bob@agency.gov", "boss@agency.gov"


def variant(title="Cap raised", cap="1000000", vid=None):
    return load().with_changes(vid or "variant-" + title.lower().replace(" ", "-"), title, {"capital_cap": cap})


@pytest.fixture
def lib(url):
    s = ScenarioStore(url, admins=[ADMIN])
    yield s
    s.dispose()


def test_a_kept_variant_is_there_for_a_new_session_with_its_owner(lib, url):
    lib.variants().save(variant(), actor=OWNER)
    other = ScenarioStore(url)   # another session, another process's view of the same library
    try:
        kept = other.variants().list()
        assert [(k.id, k.ruleset.title, k.owner, k.changed_by) for k in kept] == [
            ("variant-cap-raised", "Cap raised", OWNER, OWNER)]
        assert kept[0].ruleset.number("capital_cap") == 100_000_000 and kept[0].ruleset.version == variant().version
        assert other.variants().get("variant-cap-raised").ruleset == kept[0].ruleset
        assert other.variants().get("nothing") is None
    finally:
        other.dispose()


def test_only_a_variant_not_a_shipped_ruleset_is_kept(lib):
    with pytest.raises(RulesetError, match="must be a variant"):
        lib.variants().save(load(), actor=OWNER)
    shipped_id = load("cap-800k")
    with pytest.raises(RulesetError, match="is a ruleset shipped with the app"):
        lib.variants().save(load().with_changes("cap-800k", "Mine", {"capital_cap": "1"}), actor=OWNER)
    assert shipped_id.id == "cap-800k" and lib.variants().list() == []


def test_another_variant_of_the_same_id_replaces_only_when_asked_and_only_by_its_owner(lib):
    v = lib.variants()
    v.save(variant(), actor=OWNER)
    assert v.save(variant(), actor=OTHER).owner == OWNER   # the very same one: nothing to do
    with pytest.raises(ScenarioExists, match="is already kept"):
        v.save(variant(cap="2000000"), actor=OWNER)
    with pytest.raises(NotAllowed, match=f"belongs to {OWNER}; only its owner or an administrator may replace"):
        v.save(variant(cap="2000000"), actor=OTHER, overwrite=True)
    replaced = v.save(variant(cap="2000000"), actor=ADMIN, overwrite=True)
    assert (replaced.owner, replaced.changed_by, replaced.ruleset.number("capital_cap")) == (OWNER, ADMIN, 200_000_000)
    assert [e.action for e in v.history("variant-cap-raised")] == ["save", "overwrite"]


def test_delete_and_restore_follow_the_owner_and_the_history_keeps_every_version(lib):
    v = lib.variants()
    v.save(variant(), actor=OWNER)
    with pytest.raises(NotAllowed):
        v.delete("variant-cap-raised", actor=OTHER)
    v.delete("variant-cap-raised", actor=OWNER)
    assert v.list() == []
    gone = v.history("variant-cap-raised")[-1]
    assert gone.action == "delete" and gone.after is None and gone.state.ruleset.number("capital_cap") == 100_000_000
    with pytest.raises(NotAllowed):
        v.restore(gone.id, actor=OTHER)
    back = v.restore(gone.id, actor=OWNER)
    assert (back.owner, back.ruleset.version) == (OWNER, variant().version)
    assert [e.action for e in v.history()] == ["save", "delete", "restore"]
    with pytest.raises(ScenarioError, match="no variant history event 999"):
        v.restore(999, actor=OWNER)
    with pytest.raises(ScenarioError, match="no variant with the id 'nothing'"):
        v.delete("nothing", actor=OWNER)


def test_the_variants_history_is_append_only_in_the_database(lib):
    lib.variants().save(variant(), actor=OWNER)
    with pytest.raises(Exception, match="append-only"):
        with lib.engine.begin() as c:
            c.execute(text("DELETE FROM variant_history"))
    assert len(lib.variants().history()) == 1


def test_the_library_export_carries_its_variants_and_an_import_keeps_them_as_the_importers(lib, url, tmp_path):
    lib.variants().save(variant(), actor=OWNER)
    lib.save("Under it", APP, variant(), actor=OWNER)
    raw = json.dumps(lib.export()).encode()
    assert [d["ruleset"]["id"] for d in json.loads(raw)["variants"]] == ["variant-cap-raised"]
    assert preview(raw, "f.json").variants == ("Cap raised",)
    other_url = f"sqlite:///{tmp_path / 'other.db'}"
    assert import_export(raw, "f.json", other_url, actor=OTHER) == 1
    other = ScenarioStore(other_url)
    try:
        kept = other.variants().list()
        assert [(k.id, k.owner) for k in kept] == [("variant-cap-raised", OTHER)]
        assert [e.action for e in other.variants().history()] == ["import"]
        assert other.get("Under it").award().amount == 50_000_000
    finally:
        other.dispose()


def test_an_import_whose_scenarios_clash_keeps_none_of_its_variants(lib):
    lib.save("Under it", APP, actor=OWNER)
    doc = lib.export() | {"variants": [{"ruleset": variant().to_data()}]}
    with pytest.raises(ScenarioExists):
        import_export(json.dumps(doc).encode(), "f.json", lib.url, actor=OWNER)
    assert lib.variants().list() == []   # all or nothing


def test_a_bad_variant_in_a_file_is_named_and_never_hides_the_good_ones():
    good = variant().to_data()
    shipped = load().to_data()
    kept, errors = parse_variants([{"ruleset": good}, {"ruleset": shipped}, 5, {"ruleset": "x"}, {"ruleset": good}])
    assert [rs.id for rs in kept] == ["variant-cap-raised"]
    assert [e.split(":")[0] for e in errors] == ["variants[1].ruleset", "variants[2]", "variants[3].ruleset",
                                                 "variants[4].ruleset"]
    assert "must be a variant" in errors[0] and "appears twice" in errors[3]
    assert parse_variants(None) == ([], []) and parse_variants("x") == ([], ["variants: must be a list"])


def test_the_retention_rule_redacts_the_people_in_the_variants_history_too(lib, monkeypatch):
    """The history's redaction (`scenarios history --before DATE --redact`) covers the kept
    variants' history: their actors, owners and last changers become pseudonyms, the data stays."""
    from datetime import datetime, timedelta, timezone

    import core.store.variants
    from core.store.history import is_pseudonym
    old = (datetime.now(timezone.utc) - timedelta(days=400)).isoformat(timespec="seconds")
    monkeypatch.setattr(core.store.variants, "now", lambda: old)
    lib.variants().save(variant(), actor=OWNER)
    monkeypatch.undo()
    lib.variants().save(variant("Recent"), actor=OTHER)
    cutoff = (datetime.now(timezone.utc) - timedelta(days=30)).date()
    done = lib.redact_history(cutoff, actor=ADMIN, apply=True)
    assert done.events == 1 and done.people == 1
    first, recent = lib.variants().history()
    assert is_pseudonym(first.actor) and is_pseudonym(first.after.owner) and is_pseudonym(first.after.changed_by)
    assert first.after.ruleset.version == variant().version                       # every figure kept
    assert (recent.actor, recent.after.owner) == (OTHER, OTHER)                     # after the date: as it was
    with pytest.raises(Exception, match="append-only"):                             # and append-only again
        with lib.engine.begin() as c:
            c.execute(text("UPDATE variant_history SET actor = 'x'"))
