"""Alembic migrations of the scenario library (run by core.scenarios.ScenarioStore on start)."""
