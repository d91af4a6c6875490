"""LangChain retriever over the rule index (hybrid: langchain-chroma dense + BM25, fused).

The assistant composes it like any ``BaseRetriever``: ``invoke(query) -> list[Document]``.
Each ``Document`` carries the rule text and metadata ``doc``, ``game``, ``rule``, ``parent``,
``version``, ``heading``, ``title``, ``score`` and ``via`` (which retrievers found it).
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from ingest.models import SearchHit


def hit_to_document(hit: SearchHit) -> Document:
    r = hit.rule
    return Document(
        page_content=r.text,
        metadata={
            "doc": r.doc,
            "game": r.game,
            "rule": r.number,
            "parent": r.parents[0] if r.parents else "",
            "version": r.version,
            "heading": r.heading,
            "title": r.title,
            "score": hit.score,
            "via": list(hit.via),
        },
    )


class RuleRetriever(BaseRetriever):
    """Hybrid search of a :class:`~ingest.index.RuleIndex` as a LangChain retriever."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    index: Any
    game: str | None = None
    k: int = 5
    mode: str = "hybrid"

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        hits = self.index.search(query, game=self.game, k=self.k, mode=self.mode)
        return [hit_to_document(h) for h in hits]
