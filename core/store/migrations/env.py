"""Alembic environment of the scenario library.

The app runs the migrations itself on start (core.store.db.upgrade), handing over its open
connection in `config.attributes["connection"]`. Run by hand, `alembic upgrade head` (alembic.ini
at the project root) opens SCENARIO_DB_URL, else the default SQLite file under data/.
"""
from alembic import context
from sqlalchemy import create_engine

from core.store.db import default_url
from core.store.model import metadata

target_metadata = metadata


def run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if context.is_offline_mode():
    context.configure(url=context.config.get_main_option("sqlalchemy.url") or default_url(),
                      target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif connection is not None:
    run(connection)
else:
    engine = create_engine(default_url())
    with engine.begin() as conn:
        run(conn)
    engine.dispose()
