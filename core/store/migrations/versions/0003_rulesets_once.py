"""Each ruleset kept once: a `rulesets` table by the hash of its data, which scenarios name
(`ruleset_key`) instead of each row holding the ruleset's 2.3 KB again. History events written
from now on name it too; those written before keep the data in them (the history is never
rewritten going up), and the app reads both. And an index of the history's actions, through
which the deleted scenarios are found without reading every event.

Revision ID: 0003
Revises: 0002
"""
import hashlib
import json

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# The text and key of a ruleset's data as core/store/kept_rulesets.py writes them. Written out
# here, not imported: a migration must do tomorrow what it does today.


def _text(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def upgrade() -> None:
    conn = op.get_bind()
    kept = op.create_table("rulesets", sa.Column("key", sa.String(64), primary_key=True),
                           sa.Column("data", sa.Text, nullable=False))
    with op.batch_alter_table("scenarios") as batch:
        batch.add_column(sa.Column("ruleset_key", sa.String(64), nullable=True))
    rows = sa.table("scenarios", sa.column("id", sa.Integer), sa.column("ruleset_data", sa.Text),
                    sa.column("ruleset_key", sa.String))
    keys: dict[str, str] = {}
    for row_id, raw in conn.execute(sa.select(rows.c.id, rows.c.ruleset_data)).all():
        data = json.loads(raw) if raw else None
        if data is None:   # a scenario naming a shipped ruleset by id alone stays so
            continue
        text = _text(data)
        key = keys.setdefault(text, _key(text))
        conn.execute(sa.update(rows).where(rows.c.id == row_id).values(ruleset_key=key))
    if keys:
        op.bulk_insert(kept, [{"key": key, "data": text} for text, key in keys.items()])
    with op.batch_alter_table("scenarios") as batch:
        batch.create_foreign_key("fk_scenarios_ruleset_key", "rulesets", ["ruleset_key"], ["key"])
        batch.drop_column("ruleset_data")
    op.create_index("ix_history_action", "history", ["action"])


def _history_with_data(conn) -> None:
    """Put each ruleset's data back into the events that name it by key (going down only: the
    append-only triggers are lifted for it and put back in the same transaction)."""
    history = sa.table("history", sa.column("id", sa.Integer), sa.column("before", sa.Text),
                       sa.column("after", sa.Text))
    data = dict(conn.execute(sa.text("SELECT key, data FROM rulesets")).all())

    def inflated(raw):
        snap = json.loads(raw) if raw else None
        rs = snap.get("ruleset") if isinstance(snap, dict) else None
        if not (isinstance(rs, dict) and "key" in rs):
            return raw
        snap["ruleset"] = {"id": rs.get("id"), "version": rs.get("version"),
                           "data": json.loads(data[rs["key"]]) if rs["key"] else None}
        return json.dumps(snap)

    changed = []
    for row_id, before, after in conn.execute(sa.select(history.c.id, history.c.before, history.c.after)).all():
        new = (inflated(before), inflated(after))
        if new != (before, after):
            changed.append((row_id, *new))
    if not changed:
        return
    if conn.dialect.name == "postgresql":
        op.execute("ALTER TABLE history DISABLE TRIGGER history_append_only")
    elif conn.dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS history_no_update")
    for row_id, before, after in changed:
        conn.execute(sa.update(history).where(history.c.id == row_id).values(before=before, after=after))
    if conn.dialect.name == "postgresql":
        op.execute("ALTER TABLE history ENABLE TRIGGER history_append_only")
    elif conn.dialect.name == "sqlite":
        op.execute("CREATE TRIGGER history_no_update BEFORE UPDATE ON history "
                   "BEGIN SELECT RAISE(ABORT, 'history is append-only'); END")


def downgrade() -> None:
    conn = op.get_bind()
    op.drop_index("ix_history_action", "history")
    _history_with_data(conn)
    with op.batch_alter_table("scenarios") as batch:
        batch.add_column(sa.Column("ruleset_data", sa.Text, nullable=True))
    conn.execute(sa.text("UPDATE scenarios SET ruleset_data = COALESCE("
                         "(SELECT data FROM rulesets WHERE rulesets.key = scenarios.ruleset_key), 'null')"))
    with op.batch_alter_table("scenarios") as batch:
        batch.alter_column("ruleset_data", existing_type=sa.Text, nullable=False)
        batch.drop_constraint("fk_scenarios_ruleset_key", type_="foreignkey")
        batch.drop_column("ruleset_key")
    op.drop_table("rulesets")
