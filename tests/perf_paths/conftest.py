"""Fixtures of the fast paths: the shared dev questions."""

from __future__ import annotations

import json

import pytest

from ingest.settings import REPO_ROOT

DEV = (REPO_ROOT / ".." / "shared" / "eval" / "dev.jsonl").resolve()
HELDOUT = REPO_ROOT / "eval" / "heldout.jsonl"


def _items(path: object) -> list[dict[str, object]]:
    from pathlib import Path

    text = Path(str(path)).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def dev_items() -> list[dict[str, object]]:
    return _items(DEV)


@pytest.fixture(scope="session")
def heldout_items() -> list[dict[str, object]]:
    return _items(HELDOUT)
