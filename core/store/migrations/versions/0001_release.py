"""The library as the first release made it: scenarios, and library_meta holding schema_version 1.

A library file written by that release has these tables but no alembic_version; the app
recognises it (core.store.db.upgrade) and stamps it at this revision before upgrading.

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "scenarios",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("application", sa.Text, nullable=False),
        sa.Column("ruleset_id", sa.String(64), nullable=False),
        sa.Column("ruleset_version", sa.String(12), nullable=False),
        sa.Column("ruleset_data", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
    )
    meta = op.create_table("library_meta", sa.Column("key", sa.String(64), primary_key=True),
                           sa.Column("value", sa.Text))
    op.bulk_insert(meta, [{"key": "schema_version", "value": "1"}])


def downgrade() -> None:
    op.drop_table("library_meta")
    op.drop_table("scenarios")
