"""Assistant fixtures: one real Assistant over the session's real index."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.settings import REPO_ROOT

HERE = Path(__file__).parent
DEV = (REPO_ROOT / ".." / "shared" / "eval" / "dev.jsonl").resolve()
PARAPHRASES = HERE / "paraphrases.jsonl"


@pytest.fixture(scope="session")
def assistant(default_settings, default_index):  # type: ignore[no-untyped-def]
    from assistant import Assistant

    return Assistant(default_settings, index=default_index)


@pytest.fixture(scope="session")
def dev_path() -> Path:
    return DEV


@pytest.fixture(scope="session")
def paraphrase_path() -> Path:
    return PARAPHRASES
