"""Policy variants kept in the scenario library (issue 48): a variant an analyst builds on the Rules
page was held by the session alone and lost on a reload. Kept here, each is listed for everyone,
named by its ruleset id, and has an owner: as for a scenario, only its owner or an administrator
may replace, delete or restore it (/work/shared/DESIGN.md "Who may see and change what"). Every
change is appended to `variant_history` in the change's transaction; a deleted variant comes back
from there. Its data is kept once in `rulesets`, by hash (kept_rulesets.py), as a scenario's is.

Exported with the library (fileformat.export_document: "variants") and imported with it, checked as
a ruleset file loaded on the Rules page is (verify.accept_loaded_variant).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import delete, insert, select, update

from core.law.rulesets import Ruleset, RulesetError, from_data, read_saved
from core.store.kept_rulesets import Keeper, data_of
from core.store.model import LOCAL, NotAllowed, ScenarioError, ScenarioExists, now, variant_history, variants
from core.store.verify import accept_loaded_variant

MAX_TITLE = 80            # a variant's name, as the Rules page takes it
MAX_IMPORT_VARIANTS = 1_000
VARIANT_ACTIONS = ("save", "overwrite", "delete", "restore", "import")


@dataclass(frozen=True)
class KeptVariant:
    """A variant as the library keeps it: the ruleset, whose it is, who changed it last and when."""
    ruleset: Ruleset
    owner: str
    changed_by: str
    created_at: str
    updated_at: str

    @property
    def id(self) -> str:
        return self.ruleset.id


@dataclass(frozen=True)
class VariantEvent:
    """One change of a kept variant: when, who, what, and the variant before and after (None: not there)."""
    id: int
    at: str
    actor: str
    action: str
    variant: str
    before: KeptVariant | None
    after: KeptVariant | None

    @property
    def state(self) -> KeptVariant | None:
        """The variant as this event left it (as it was before, for a delete)."""
        return self.after if self.after is not None else self.before


def check_variant(rs: Ruleset) -> Ruleset:
    """A ruleset the library may keep as a variant: a variant, not a shipped id, a clean title
    (RulesetError says why not)."""
    accept_loaded_variant(rs, {}, MAX_TITLE)
    return rs


def variant_from_data(data, field: str = "variant") -> Ruleset:
    """A kept or exported variant's data -> the ruleset, checked; RulesetError naming `field`."""
    if not isinstance(data, dict):
        raise RulesetError(f"{field}: must be a ruleset's data (an object), as exported")
    try:
        return check_variant(from_data(data))
    except RulesetError as err:
        raise RulesetError(f"{field}: {err}") from None


class VariantLibrary:
    """The kept variants of the library `store` (a core.store.repository.ScenarioStore: its engine
    and its administrators)."""

    def __init__(self, store):
        self.store = store
        self.engine = store.engine

    # -- reading ------------------------------------------------------------------------------
    def list(self) -> list[KeptVariant]:
        """Every kept variant, by id."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(variants).order_by(variants.c.id)).all()
            data = data_of(conn, [r.ruleset_key for r in rows])
        return [self._kept(r, data) for r in rows]

    def get(self, vid: str) -> KeptVariant | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(variants).where(variants.c.id == vid)).first()
            return self._kept(row, data_of(conn, [row.ruleset_key])) if row else None

    @staticmethod
    def _kept(row, data: dict) -> KeptVariant:
        return KeptVariant(read_saved(data[row.ruleset_key]), row.owner, row.changed_by, row.created_at, row.updated_at)

    def history(self, vid: str | None = None) -> list[VariantEvent]:
        """Every change of the kept variants (of `vid` alone if given), oldest first."""
        query = select(variant_history).order_by(variant_history.c.id)
        if vid is not None:
            query = query.where(variant_history.c.variant == vid)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            snaps = [(r, json.loads(r.before) if r.before else None, json.loads(r.after) if r.after else None)
                     for r in rows]
            data = data_of(conn, [s["key"] for _, *pair in snaps for s in pair if s])
        return [VariantEvent(r.id, r.at, r.actor, r.action, r.variant, self._snap(b, data), self._snap(a, data))
                for r, b, a in snaps]

    @staticmethod
    def _snap(snap: dict | None, data: dict) -> KeptVariant | None:
        if snap is None:
            return None
        return KeptVariant(read_saved(data[snap["key"]]), snap["owner"], snap.get("changed_by", snap["owner"]),
                           snap.get("created_at", ""), snap.get("updated_at", ""))

    # -- writing: every change and its history event in one transaction --------------------------
    def _check(self, kept: KeptVariant, actor: str, verb: str) -> None:
        if kept.owner.lower() != actor.strip().lower() and not self.store.is_admin(actor):
            raise NotAllowed(f"the variant “{kept.ruleset.title}” ({kept.id}) belongs to {kept.owner}; only its "
                             f"owner or an administrator may {verb} it. You may make a variant of your own.")

    @staticmethod
    def _record(conn, actor: str, action: str, vid: str, before: KeptVariant | None, after: KeptVariant | None,
                keeper: Keeper) -> None:
        def snap(k):
            return None if k is None else json.dumps(
                {"key": keeper.key(k.ruleset.to_data()), "owner": k.owner, "changed_by": k.changed_by,
                 "created_at": k.created_at, "updated_at": k.updated_at})
        row = dict(at=now(), actor=actor, action=action, variant=vid, before=snap(before), after=snap(after))
        keeper.keep(conn)
        conn.execute(insert(variant_history).values(**row))

    def _locked(self, conn, vid: str) -> KeptVariant | None:
        row = conn.execute(select(variants).where(variants.c.id == vid).with_for_update()).first()
        return self._kept(row, data_of(conn, [row.ruleset_key])) if row else None

    def _write(self, conn, kept: KeptVariant, exists: bool, keeper: Keeper) -> None:
        values = dict(ruleset_key=keeper.key(kept.ruleset.to_data()), owner=kept.owner, changed_by=kept.changed_by,
                      created_at=kept.created_at, updated_at=kept.updated_at)
        keeper.keep(conn)
        if exists:
            conn.execute(update(variants).where(variants.c.id == kept.id).values(**values))
        else:
            conn.execute(insert(variants).values(id=kept.id, **values))

    def save(self, rs: Ruleset, actor: str = LOCAL, overwrite: bool = False, action: str = "save",
             conn=None) -> KeptVariant:
        """Keep the variant `rs` as the actor's; a variant of the same id is replaced only with
        overwrite=True, and only by its owner or an administrator (it keeps its owner)."""
        check_variant(rs)
        if conn is None:
            with self.engine.begin() as conn:
                return self.save(rs, actor, overwrite, action, conn)
        stamp, keeper = now(), Keeper()
        old = self._locked(conn, rs.id)
        if old is not None and old.ruleset.version == rs.version and old.ruleset.title == rs.title:
            return old   # the very same variant, kept already: nothing to record
        if old is not None and not overwrite:
            raise ScenarioExists(f"a variant with the id {rs.id!r} is already kept (“{old.ruleset.title}”, "
                                 f"{old.owner}'s); give this one another name")
        if old is not None:
            self._check(old, actor, "replace")
        kept = KeptVariant(rs, old.owner if old else actor, actor, old.created_at if old else stamp, stamp)
        self._write(conn, kept, old is not None, keeper)
        self._record(conn, actor, ("overwrite" if action == "save" else action) if old else action, rs.id,
                     old, kept, keeper)
        return kept

    def delete(self, vid: str, actor: str = LOCAL) -> KeptVariant:
        with self.engine.begin() as conn:
            old = self._locked(conn, vid)
            if old is None:
                raise ScenarioError(f"no variant with the id {vid!r} is kept")
            self._check(old, actor, "delete")
            conn.execute(delete(variants).where(variants.c.id == vid))
            self._record(conn, actor, "delete", vid, old, None, Keeper())
        return old

    def restore(self, event_id: int, actor: str = LOCAL) -> KeptVariant:
        """The variant as history event `event_id` left it (as it was before a delete), back in the
        library: over the kept one of its id (its owner's or an administrator's to change), or, deleted,
        under its owner then (only they or an administrator may bring it back). Recorded as a restore."""
        if isinstance(event_id, bool) or not isinstance(event_id, int):
            raise ScenarioError(f"no variant history event {str(event_id)[:30]}")
        with self.engine.begin() as conn:
            row = conn.execute(select(variant_history).where(variant_history.c.id == event_id)).first()
            if row is None:
                raise ScenarioError(f"no variant history event {event_id}")
            snap = json.loads(row.after or row.before)
            then = self._snap(snap, data_of(conn, [snap["key"]]))
            cur = self._locked(conn, row.variant)
            self._check(cur or then, actor, "restore")
            stamp = now()
            back = KeptVariant(then.ruleset, cur.owner if cur else then.owner, actor,
                               cur.created_at if cur else then.created_at, stamp)
            keeper = Keeper()
            self._write(conn, back, cur is not None, keeper)
            self._record(conn, actor, "restore", row.variant, cur, back, keeper)
            return back

    # -- export and import, with the library's scenarios -------------------------------------------
    def exported(self) -> list[dict]:
        """Each kept variant as the library's export holds it: its ruleset's data and whose it is."""
        return [{"ruleset": k.ruleset.to_data(), "owner": k.owner, "created_at": k.created_at,
                 "updated_at": k.updated_at} for k in self.list()]

    def import_variants(self, conn, rulesets: list[Ruleset], actor: str, overwrite: bool) -> None:
        """Keep the imported variants as the actor's, in the caller's (the import's) transaction: one
        already kept the same is left as it is; another of the same id is replaced only with overwrite."""
        for rs in rulesets:
            self.save(rs, actor, overwrite, "import", conn)


def parse_variants(items) -> tuple[list[Ruleset], list[str]]:
    """The variants of an export's "variants" list, and an error per bad one (a bad one never hides
    the good ones); absent: none."""
    if items is None:
        return [], []
    if not isinstance(items, list):
        return [], ["variants: must be a list"]
    if len(items) > MAX_IMPORT_VARIANTS:
        return [], [f"variants: {len(items):,} variants; at most {MAX_IMPORT_VARIANTS:,} at once"]
    good, errors, seen = [], [], set()
    for i, item in enumerate(items):
        where = f"variants[{i}]"
        try:
            if not isinstance(item, dict):
                raise RulesetError(f"{where}: must be an object with the variant's ruleset")
            rs = variant_from_data(item.get("ruleset"), f"{where}.ruleset")
        except RulesetError as err:
            errors.append(str(err))
            continue
        if rs.id in seen:
            errors.append(f"{where}.ruleset: the id {rs.id!r} appears twice in the file")
            continue
        seen.add(rs.id)
        good.append(rs)
    return good, errors
