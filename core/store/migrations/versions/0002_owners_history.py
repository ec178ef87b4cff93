"""Owners and history: every scenario gets a stable uid, an owner and who changed it last
(`local` for scenarios saved before sign-in existed); a history table of every change;
library_meta (the hand-written schema version) gives way to Alembic's own table.

Revision ID: 0002
Revises: 0001
"""
import uuid

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.add_column(sa.Column("uid", sa.String(32), nullable=True))
        batch.add_column(sa.Column("owner", sa.String(320), nullable=False, server_default="local"))
        batch.add_column(sa.Column("changed_by", sa.String(320), nullable=False, server_default="local"))
    conn = op.get_bind()
    rows = sa.table("scenarios", sa.column("id", sa.Integer), sa.column("uid", sa.String))
    for (row_id,) in conn.execute(sa.select(rows.c.id)).all():
        conn.execute(sa.update(rows).where(rows.c.id == row_id).values(uid=uuid.uuid4().hex))
    with op.batch_alter_table("scenarios") as batch:
        batch.alter_column("uid", existing_type=sa.String(32), nullable=False)
        batch.create_unique_constraint("uq_scenarios_uid", ["uid"])
    # The page-of-the-library index (issue 19); a library opened by a build that made it already has it.
    op.create_index("ix_scenarios_recent", "scenarios", ["updated_at", "id", "name"], if_not_exists=True)
    op.create_table(
        "history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("actor", sa.String(320), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("scenario", sa.String(120), nullable=False),
        sa.Column("scenario_uid", sa.String(32), nullable=False, index=True),
        sa.Column("before", sa.Text, nullable=True),
        sa.Column("after", sa.Text, nullable=True),
    )
    # Append-only in the database itself, not just by the app's good manners.
    if conn.dialect.name == "postgresql":
        op.execute("CREATE FUNCTION history_append_only() RETURNS trigger LANGUAGE plpgsql AS "
                   "$$ BEGIN RAISE EXCEPTION 'history is append-only'; END; $$")
        op.execute("CREATE TRIGGER history_append_only BEFORE UPDATE OR DELETE ON history "
                   "FOR EACH ROW EXECUTE FUNCTION history_append_only()")
        op.execute("CREATE TRIGGER history_no_truncate BEFORE TRUNCATE ON history "
                   "FOR EACH STATEMENT EXECUTE FUNCTION history_append_only()")
    elif conn.dialect.name == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER history_no_{verb.lower()} BEFORE {verb} ON history "
                       f"BEGIN SELECT RAISE(ABORT, 'history is append-only'); END")
    op.drop_table("library_meta")


def downgrade() -> None:
    meta = op.create_table("library_meta", sa.Column("key", sa.String(64), primary_key=True),
                           sa.Column("value", sa.Text))
    op.bulk_insert(meta, [{"key": "schema_version", "value": "1"}])
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER history_no_truncate ON history")
        op.execute("DROP TRIGGER history_append_only ON history")
        op.execute("DROP FUNCTION history_append_only()")
    op.drop_table("history")   # (SQLite drops a table's triggers with it)
    with op.batch_alter_table("scenarios") as batch:
        batch.drop_constraint("uq_scenarios_uid", type_="unique")
        batch.drop_column("changed_by")
        batch.drop_column("owner")
        batch.drop_column("uid")
