"""The state database on both backends: a SQLite file and a real PostgreSQL 15."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from ingest.settings import Settings


@pytest.fixture(params=["sqlite", "postgresql"])
def state_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Settings whose state database is empty: a fresh SQLite file, or a fresh database
    in the session's PostgreSQL server."""
    if request.param == "sqlite":
        return Settings(db_path=tmp_path / "state.sqlite3", rate_limit_per_minute=0)
    import psycopg

    server: str = request.getfixturevalue("postgres_url")
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return Settings(database_url=server.rsplit("/", 1)[0] + f"/{name}", rate_limit_per_minute=0)
