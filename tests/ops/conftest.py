"""Operations tests: real `arbiter serve`, real `arbiter ingest` and a real Chroma server,
each a separate process, as in a deployment."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def arbiter_env(tmp_path: Path, corpus_copy: Path) -> Callable[..., dict[str, str]]:
    """Environment for `arbiter` subprocesses over the corpus copy and a tmp index."""

    def make(**extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_")}
        env.update(
            ARBITER_CORPUS=str(corpus_copy),
            ARBITER_INDEX_DIR=str(tmp_path / "index"),
            ARBITER_DB_PATH=str(tmp_path / "arbiter.sqlite3"),
            ARBITER_RATE_LIMIT_PER_MINUTE="0",
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
            ANONYMIZED_TELEMETRY="False",
        )
        env.update(extra)
        return env

    return make
