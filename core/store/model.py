"""The scenario as the library keeps it: the entity, the checks of its name and notes, who
acts, and the database tables (kept by Alembic: core/store/migrations)."""
from __future__ import annotations

import getpass
from dataclasses import dataclass, field
from datetime import date, datetime, timezone

from sqlalchemy import Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

from core.law.application import Application
from core.law.award import Award, evaluate
from core.law.money import ValidationError
from core.law.names import check_text
from core.law.readings import DEFAULT as DEFAULT_READINGS, Readings
from core.law.rulesets import Ruleset, available, differences, load, read_saved
from core.store.basics import LOCAL  # noqa: F401 - re-exported: stated once, in a module without SQLAlchemy

MAX_NAME = 120
MAX_NOTES = 5_000

metadata = MetaData()
# Each ruleset once, by the hash of its data (core/store/kept_rulesets.py; migration 0003).
rulesets = Table(
    "rulesets", metadata,
    Column("key", String(64), primary_key=True),     # sha256 of the data as kept_rulesets.text_of writes it
    Column("data", Text, nullable=False),            # the ruleset itself, so variants can be recomputed
)
scenarios = Table(
    "scenarios", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(MAX_NAME), nullable=False, unique=True),
    Column("notes", Text, nullable=False, default=""),
    Column("application", Text, nullable=False),     # Application.to_dict() as JSON
    Column("ruleset_id", String(64), nullable=False),
    Column("ruleset_version", String(12), nullable=False),
    Column("ruleset_key", String(64), ForeignKey("rulesets.key"), nullable=True),  # None: the shipped one by id
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
    Column("uid", String(32), nullable=False, unique=True),  # stays with the scenario through renames
    Column("owner", String(320), nullable=False, server_default=LOCAL),
    Column("changed_by", String(320), nullable=False, server_default=LOCAL),
    Column("as_of", String(10), nullable=True),   # YYYY-MM-DD: the day whose law it was made under (0004)
)
# Most recent first, with the name beside it: a page of the library (and a search by name)
# walks this index and reads only the rows it shows, however large the library (issue 19).
# (Created by the migrations: core/store/migrations/versions/0002_owners_history.py.)
recent_index = Index("ix_scenarios_recent", scenarios.c.updated_at, scenarios.c.id, scenarios.c.name)
history = Table(
    "history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String(32), nullable=False),
    Column("actor", String(320), nullable=False),
    Column("action", String(16), nullable=False),
    Column("scenario", String(MAX_NAME), nullable=False),
    Column("scenario_uid", String(32), nullable=False),
    # The scenario as JSON, None when it did not exist; its ruleset as {"id", "version", "key"}
    # (events written before migration 0003 hold the ruleset's data itself).
    Column("before", Text, nullable=True),
    Column("after", Text, nullable=True),            # None after a delete
    Index("ix_history_scenario_uid", "scenario_uid"),
    Index("ix_history_action", "action"),            # the deleted scenarios, without reading the whole history (0003)
)
# Policy variants kept in the library, by their ruleset id (migration 0005; core/store/variants.py).
variants = Table(
    "variants", metadata,
    Column("id", String(64), primary_key=True),
    Column("ruleset_key", String(64), ForeignKey("rulesets.key"), nullable=False),
    Column("owner", String(320), nullable=False),
    Column("changed_by", String(320), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("updated_at", String(32), nullable=False),
)
variant_history = Table(
    "variant_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String(32), nullable=False),
    Column("actor", String(320), nullable=False),
    Column("action", String(16), nullable=False),
    Column("variant", String(64), nullable=False, index=True),
    Column("before", Text, nullable=True),   # {"key", "owner", "created_at"} as JSON; None when it was new
    Column("after", Text, nullable=True),    # None after a delete
)
ACTIONS = ("save", "overwrite", "rename", "duplicate", "delete", "import", "restore", "redact")
class ScenarioError(ValueError):
    """A request the library cannot honour; the message says why."""


class ScenarioExists(ScenarioError):
    pass


class NotAllowed(ScenarioError):
    """The actor may not make this change; the message says whose scenario it is and what they may do."""


class ScenarioStale(ScenarioError):
    """The scenario picked was deleted, changed or restored by someone else since: nothing was done.
    `template` holds a {} for each of `names` (a page shows them as typed); str() quotes them."""

    def __init__(self, template: str, *names: str):
        super().__init__(template.format(*(f"“{n}”" for n in names)))
        self.template, self.names = template, names


@dataclass(frozen=True)
class Pick:
    """A scenario as someone picked it: its uid (kept through renames), its version (the id of its
    last history event: every change appends one) and its name then; `deleted` for one picked
    among the deleted. An action given a Pick acts on that scenario in that version, or not at all."""
    uid: str
    version: int
    name: str
    deleted: bool = False

    def stale(self, exists: bool, now_name: str | None = None) -> ScenarioStale:
        """Why this pick can no longer be acted on, in words; `exists`: the scenario is in the library now."""
        if self.deleted:
            done = "restored" if exists else "changed (restored and deleted again)"
        else:
            done = "changed" if exists else "deleted"
        renamed = exists and now_name and now_name != self.name
        return ScenarioStale("{} was " + done + " by someone else since you picked it"
                             + (" (it is now called {})" if renamed else "") + "; nothing was changed."
                             + (" It is shown as it is now: look at it again, then try again." if exists else ""),
                             self.name, *([now_name] if renamed else []))


def default_actor() -> str:
    """Who the command line acts as when not told: the operating-system user."""
    try:
        return getpass.getuser() or LOCAL
    except (KeyError, OSError):
        return LOCAL


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def check_name(name, field: str = "name") -> str:
    if not isinstance(name, str):
        raise ValidationError(field, name, "must be text")
    name = name.strip()
    if not name:
        raise ValidationError(field, name, "is empty; give the scenario a name")
    if len(name) > MAX_NAME:
        raise ValidationError(field, name, f"is {len(name):,} characters long; at most {MAX_NAME} are allowed")
    return check_text(name, field, MAX_NAME, what="scenario")   # no controls, bidi overrides, zero-width


def check_notes(notes, field: str = "notes") -> str:
    if notes is None:
        return ""
    if not isinstance(notes, str):
        raise ValidationError(field, notes, "must be text")
    if len(notes) > MAX_NOTES:
        raise ValidationError(field, notes, f"is {len(notes):,} characters long; at most {MAX_NOTES:,} are allowed")
    check_text(notes, field, MAX_NOTES, multiline=True, required=False)
    return notes


@dataclass(frozen=True)
class Scenario:
    name: str
    application: Application
    ruleset_id: str = "regulation"
    ruleset_version: str = ""
    ruleset_data: dict | None = None
    notes: str = ""
    created_at: str = ""
    updated_at: str = ""
    readings: Readings = DEFAULT_READINGS   # the readings of the regulation it was saved under
    owner: str = LOCAL
    changed_by: str = LOCAL
    uid: str = ""
    as_of: str = ""   # YYYY-MM-DD: the day whose law it was made under ("": saved before days were kept)
    # inputs a newer release saved that this one has no field for: kept as they were (core/store/unread.py)
    unread: dict = field(default_factory=dict, compare=False)

    def saved_ruleset(self) -> Ruleset:
        """The ruleset exactly as it was when the scenario was saved, as of the day it was made
        under (a dated ruleset's values are those of that day)."""
        rs = read_saved(self.ruleset_data) if self.ruleset_data else load(self.ruleset_id)   # a newer release's too
        return rs.as_of(self.as_of) if rs.is_dated and self.as_of else rs

    def current_ruleset(self) -> Ruleset | None:
        """The ruleset of the same id as it stands now (None for a variant made in a session); a
        dated one as of today."""
        if self.ruleset_id not in available():
            return None
        rs = load(self.ruleset_id)
        return rs.as_of() if rs.is_dated else rs

    def differs_today(self) -> list[tuple[str, str, str]]:
        """What of the law it was made under differs today: (the number, its value then, today),
        for each parameter of a dated ruleset whose value as of today is not the one of its day."""
        if not self.as_of or self.as_of == date.today().isoformat():
            return []
        then = self.saved_ruleset()
        if not then.is_dated:
            return []
        return differences(then, then.as_of())

    def award_today(self) -> Award:
        """The award of the same inputs under the same ruleset (its dated values as of today)."""
        then = self.saved_ruleset()
        return evaluate(self.application, then.as_of() if then.is_dated else then, self.readings)

    @property
    def outdated(self) -> bool:
        current = self.current_ruleset()
        return current is not None and current.version != self.ruleset_version

    def award(self) -> Award:
        return evaluate(self.application, self.saved_ruleset(), self.readings)

    def to_dict(self) -> dict:
        return ({"name": self.name, "notes": self.notes, "application": self.application.to_dict(),
                "ruleset": {"id": self.ruleset_id, "version": self.ruleset_version, "data": self.ruleset_data},
                "created_at": self.created_at, "updated_at": self.updated_at,
                "readings": self.readings.as_dict(), "owner": self.owner, "changed_by": self.changed_by}
                | ({"as_of": self.as_of} if self.as_of else {}))

    def snapshot(self) -> dict:
        """The scenario as history keeps it: everything, including who owns it and its uid."""
        return self.to_dict() | {"uid": self.uid}


