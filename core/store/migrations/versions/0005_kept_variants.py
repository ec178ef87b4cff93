"""Policy variants kept in the library (issue 48): a variant made on the Rules page was gone after a
reload. Each is named by its ruleset id, its data kept once in `rulesets` (0003), with its owner and
who changed it last; every change is appended to `variant_history` (append-only in the database,
as the scenarios' history is).

Revision ID: 0005
Revises: 0004
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    conn = op.get_bind()
    op.create_table(
        "variants",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("ruleset_key", sa.String(64), sa.ForeignKey("rulesets.key"), nullable=False),
        sa.Column("owner", sa.String(320), nullable=False),
        sa.Column("changed_by", sa.String(320), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "variant_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("actor", sa.String(320), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False, index=True),
        sa.Column("before", sa.Text, nullable=True),   # {"key", "owner", "created_at"} as JSON; None when new
        sa.Column("after", sa.Text, nullable=True),    # None after a delete
    )
    if conn.dialect.name == "postgresql":
        op.execute("CREATE FUNCTION variant_history_append_only() RETURNS trigger LANGUAGE plpgsql AS "
                   "$$ BEGIN RAISE EXCEPTION 'history is append-only'; END; $$")
        op.execute("CREATE TRIGGER variant_history_append_only BEFORE UPDATE OR DELETE ON variant_history "
                   "FOR EACH ROW EXECUTE FUNCTION variant_history_append_only()")
    elif conn.dialect.name == "sqlite":
        for verb in ("UPDATE", "DELETE"):
            op.execute(f"CREATE TRIGGER variant_history_no_{verb.lower()} BEFORE {verb} ON variant_history "
                       f"BEGIN SELECT RAISE(ABORT, 'history is append-only'); END")


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "postgresql":
        op.execute("DROP TRIGGER variant_history_append_only ON variant_history")
        op.execute("DROP FUNCTION variant_history_append_only()")
    op.drop_table("variant_history")   # (SQLite drops a table's triggers with it)
    op.drop_table("variants")
