"""Fixtures for the ingest tests.

Shared with tests/conftest.py: ``shared_dir``, ``default_settings`` and ``default_index``
(the default corpus ingested once per session with the real model and embedded Chroma).
Here: ``make_settings`` (a fresh index folder), ``corpus_copy`` (the default corpus copied to
a tmp folder so tests may edit it), ``fake_embed`` (a deterministic bag-of-words embedder
behind the ``embed=`` seam, for tests about storage rather than semantics) and
``chroma_server`` (a real ``chroma run`` on a free port) now lives in tests/conftest.py.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest.settings import Settings

DIM = 384


def _fake_vector(text: str) -> list[float]:
    vec = [0.0] * DIM
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big")
        vec[h % DIM] += 1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


class CountingEmbedder:
    """Embeds with ``inner`` and records how many texts it was asked for."""

    def __init__(self, inner: Callable[[list[str]], list[list[float]]] | None = None,
                 fail_after: int | None = None) -> None:
        self.inner = inner or (lambda texts: [_fake_vector(t) for t in texts])
        self.calls = 0
        self.texts: list[str] = []
        self.fail_after = fail_after

    def __call__(self, texts: list[str]) -> list[list[float]]:
        if self.fail_after is not None and self.calls >= self.fail_after:
            raise KeyboardInterrupt("simulated interruption mid-ingest")
        self.calls += 1
        self.texts.extend(texts)
        return self.inner(texts)


@pytest.fixture
def embedder_class() -> type[CountingEmbedder]:
    return CountingEmbedder


@pytest.fixture
def fake_embed() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
def make_settings(tmp_path: Path) -> Callable[..., Settings]:
    counter = iter(range(1000))

    def make(corpus: list[Path] | None = None, **kw: object) -> Settings:
        base = tmp_path / f"idx{next(counter)}"
        return Settings(corpus=corpus or [], index_dir=base, db_path=base / "db.sqlite3", **kw)

    return make


