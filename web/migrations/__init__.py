"""Alembic migrations of the state database (see web/db.py)."""
