"""The day whose law a scenario was made under (issue 37): a dated ruleset (the statute) is read
as of that day when the scenario is opened again, and the library says what differs today.
Scenarios saved before keep NULL: the law of their ruleset as it was saved, undated.

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.add_column(sa.Column("as_of", sa.String(10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.drop_column("as_of")
