"""What the assistant builds from the loaded rules, kept per index build.

The speller's vocabulary, the game-detection vocabulary, the card-name table and the
worked cases' prepared wordings are computed from the index's rules and cards (and this
package's code, lexicons and wordings). The index's :class:`~ingest.snapshot.BuildCache`
keeps them on disk for its build, keyed by a fingerprint of the ``assistant``, ``engine``
and ``ingest`` packages' files (the artifacts hold classes of all three), so a cold process reads them back instead of rebuilding them;
an index without a cache (a test's in-memory index) builds them every time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ingest.snapshot import source_key

__all__ = ["build_cached", "preload_wordings"]

T = TypeVar("T")


def build_cached(index: Any, name: str, make: Callable[[], T], shared: dict[str, object] | None = None) -> T:
    """``make()``, read from (or written to) ``index.cache`` when the index has one.
    ``shared``: live objects the artifact refers to (callables such as the card printings
    lookup), stored by name and given back on reading."""
    cache = getattr(index, "cache", None)
    if cache is None or not hasattr(cache, "get"):
        return make()
    got: T = cache.get(f"assistant-{name}", source_key("assistant", "engine", "ingest"), make, shared)
    return got


def preload_wordings(extractor: Any, wordings: object) -> None:
    """Give a :class:`~assistant.worked.WorkedCases` its prepared wordings (its ``wordings``
    cached property) as read back from the build cache. (:class:`~assistant.facts.RuleFacts`
    keeps its own as plain rows: :meth:`~assistant.facts.RuleFacts.preload`.)"""
    extractor.__dict__["wordings"] = wordings
