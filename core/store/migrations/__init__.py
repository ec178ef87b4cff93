"""Alembic migrations of the scenario library (run by core.store.repository.ScenarioStore on start)."""
