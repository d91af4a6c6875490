"""The LangChain ``Embeddings`` of the index (the langchain-chroma vector store and the
LangChain retriever use it); kept apart from :mod:`ingest.embedding` so embedding a question
does not import LangChain."""

from __future__ import annotations

from pathlib import Path

from langchain_core.embeddings import Embeddings

from ingest.embedding import embed_documents, embed_query
from ingest.settings import DEFAULT_MODEL

__all__ = ["QueryEmbeddings"]


class QueryEmbeddings(Embeddings):
    """LangChain ``Embeddings``: questions through ONNX (:func:`embed_query`), documents
    through sentence-transformers (:func:`embed_documents`, loaded on first use only)."""

    def __init__(self, name: str = DEFAULT_MODEL, cache_dir: Path | None = None, threads: int = 1) -> None:
        self.name = name
        self.cache_dir = cache_dir
        self.threads = threads

    def embed_query(self, text: str) -> list[float]:
        return embed_query(text, self.name, self.cache_dir, self.threads)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return embed_documents(texts, self.name)
