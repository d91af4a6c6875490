"""Arbiter's ingestion and retrieval: rule documents -> Chroma -> lookup and search.

Public API (other parts import only these names):

- :func:`ingest` builds or refreshes the index from a corpus (build-then-swap, idempotent);
- :func:`open_index` returns the live :class:`RuleIndex` (raises :class:`IndexMissing`);
- :func:`index_is_stale` tells ``make serve`` whether to ingest first;
- the shared models and :class:`Settings`.

Heavy dependencies (sentence-transformers, chromadb, langchain) are imported inside the
functions that need them, so importing this package is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ingest.errors import ArbiterError, IndexMissing, StoreUnavailable
from ingest.manifest import CorpusError
from ingest.models import Card, DocumentInfo, GameInfo, IngestSummary, Rule, SearchHit
from ingest.parsers import ParseError
from ingest.settings import Settings

if TYPE_CHECKING:
    from ingest.index import RuleIndex, RuleLookup

__all__ = [
    "ArbiterError",
    "Card",
    "CorpusError",
    "DocumentInfo",
    "GameInfo",
    "IndexMissing",
    "IngestSummary",
    "ParseError",
    "Rule",
    "RuleIndex",
    "RuleLookup",
    "SearchHit",
    "Settings",
    "StoreUnavailable",
    "index_is_stale",
    "ingest",
    "open_index",
]


def ingest(*args: Any, **kwargs: Any) -> IngestSummary:
    """See :func:`ingest.pipeline.ingest`."""
    from ingest.pipeline import ingest as _ingest

    return _ingest(*args, **kwargs)


def open_index(settings: Settings) -> RuleIndex:
    """See :func:`ingest.index.open_index`."""
    from ingest.index import open_index as _open

    return _open(settings)


def index_is_stale(settings: Settings) -> bool:
    """See :func:`ingest.index.index_is_stale`."""
    from ingest.index import index_is_stale as _stale

    return _stale(settings)


def __getattr__(name: str) -> Any:
    if name in {"RuleIndex", "RuleLookup"}:
        import ingest.index as _index

        return getattr(_index, name)
    raise AttributeError(name)
