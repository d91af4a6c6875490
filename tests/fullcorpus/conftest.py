"""The full default corpus (../shared/corpus + ../shared/corpus-extra), ingested into a
persistent index under test-artifacts/ (git-ignored): the first run embeds ~7,200 rules
(several minutes on two cores); later runs find nothing changed and reuse it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.settings import REPO_ROOT, Settings


@pytest.fixture(scope="session")
def full_settings(shared_dir: Path) -> Settings:
    """Settings() as a new user gets them, with the index kept under test-artifacts/."""
    base = REPO_ROOT / "test-artifacts" / "full-corpus"
    base.mkdir(parents=True, exist_ok=True)
    return Settings(index_dir=base / "index", db_path=base / "arbiter.sqlite3",
                    rate_limit_per_minute=0, chroma_url=None)


@pytest.fixture(scope="session")
def full_index(full_settings: Settings) -> object:
    from ingest import ingest, open_index

    summary = ingest(full_settings)
    assert not summary.errors, summary.errors
    return open_index(full_settings)
