"""Training texts read like questions and embedded once: the worked cases' wordings and the
rule facts' wordings both go through :class:`EmbeddedTexts`.

Each text is prepared the way a question is read (``prepare``: the players'-register
normaliser), then embedded in the form the question is embedded (``embed_form``). Both
results are kept in ``cache_dir`` under a key of the raw texts and ``cache_key`` (what
``prepare`` depends on), so a cold start reads them back instead of recomputing them."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path

import numpy as np

__all__ = ["EmbeddedTexts"]

_KEEP = 4


class EmbeddedTexts:
    """``matrix``: one unit row per text of ``texts``; ``prepared``: the texts as read."""

    def __init__(self, name: str, texts: Sequence[str], embed_documents: Callable[[list[str]], list[list[float]]],
                 cache_dir: Path | None = None, prepare: Callable[[str], str] = lambda t: t,
                 embed_form: Callable[[str], str] = lambda t: t, cache_key: str = "") -> None:
        self._name = name
        self._texts = list(texts)
        self._embed_documents = embed_documents
        self._cache_dir = cache_dir
        self._prepare = prepare
        self._embed_form = embed_form
        raw = "\n".join(self._texts)
        self._key = hashlib.sha256(f"{cache_key}\n{raw}".encode()).hexdigest()[:16]

    @property
    def key(self) -> str:
        """What the texts' cached results are named by (the raw texts and ``cache_key``)."""
        return self._key

    def _paths(self) -> tuple[Path, Path] | None:
        if self._cache_dir is None:
            return None
        return (self._cache_dir / f"{self._name}-{self._key}.json", self._cache_dir / f"{self._name}-{self._key}.npy")

    def _cached(self) -> tuple[list[str], np.ndarray] | None:
        paths = self._paths()
        if paths is None:
            return None
        try:
            texts = json.loads(paths[0].read_text())
            matrix = np.load(paths[1])
        except (OSError, ValueError):
            return None
        if len(texts) != len(self._texts) or matrix.shape[0] != len(self._texts):
            return None
        return texts, matrix

    @cached_property
    def _built(self) -> tuple[list[str], np.ndarray]:
        cached = self._cached()
        if cached is not None:
            return cached
        texts = [self._prepare(t) for t in self._texts]
        vecs = self._embed_documents([self._embed_form(t) for t in texts]) if texts else []
        raw = np.asarray(vecs, dtype=np.float32).reshape(len(texts), -1)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        matrix: np.ndarray = (raw / np.where(norms == 0, 1.0, norms)).astype(np.float32)
        paths = self._paths()
        if paths is not None:
            try:
                paths[0].parent.mkdir(parents=True, exist_ok=True)
                # Earlier versions of these texts: the newest few are kept (indexes of other
                # corpora may share the folder), older ones removed.
                olds = sorted((p for p in paths[0].parent.glob(f"{self._name}-*.npy") if p != paths[1]),
                              key=lambda p: p.stat().st_mtime, reverse=True)
                for old in olds[_KEEP - 1:]:
                    old.unlink(missing_ok=True)
                    old.with_suffix(".json").unlink(missing_ok=True)
                paths[0].write_text(json.dumps(texts))
                np.save(paths[1], matrix)
            except OSError:
                pass  # a read-only directory only costs the work next time
        return texts, matrix

    @property
    def prepared(self) -> list[str]:
        return self._built[0]

    @property
    def matrix(self) -> np.ndarray:
        return self._built[1]
