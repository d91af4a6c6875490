"""What the assistant needs from its collaborators, as protocols, so tests can pass a small
in-memory index and the web part can pass its own conversation store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ingest.models import Card, GameInfo, Rule, SearchHit


@runtime_checkable
class RuleIndexLike(Protocol):
    """The subset of ``ingest.RuleIndex`` the assistant uses."""

    def search(self, query: str, game: str | None = None, k: int = 5,
               vector: Sequence[float] | None = None) -> list[SearchHit]:
        """``vector``: the question's embedding when the caller has it (not embedded again)."""
        ...
    def get(self, doc: str, number: str) -> Rule | None: ...
    def verify_quote(self, doc: str, number: str, quote: str) -> bool: ...
    def games(self) -> list[GameInfo]: ...
    def card(self, name: str, game: str | None = None) -> Card | None: ...
    def card_names(self, game: str | None = None) -> list[str]: ...
    def embed_query(self, text: str) -> list[float]: ...
    def embed_documents(self, texts: list[str]) -> list[list[float]]: ...


class ConversationStore(Protocol):
    """Keeps the last parse of each conversation so a follow-up can change one part of it."""

    def load(self, conversation_id: str) -> dict[str, Any] | None: ...
    def save(self, conversation_id: str, state: dict[str, Any]) -> None: ...


class MemoryConversationStore:
    """Default store: a bounded in-process dict (oldest conversations forgotten first)."""

    def __init__(self, limit: int = 1000) -> None:
        self._data: dict[str, dict[str, Any]] = {}
        self._limit = limit

    def load(self, conversation_id: str) -> dict[str, Any] | None:
        return self._data.get(conversation_id)

    def save(self, conversation_id: str, state: dict[str, Any]) -> None:
        self._data.pop(conversation_id, None)
        self._data[conversation_id] = state
        while len(self._data) > self._limit:
            self._data.pop(next(iter(self._data)))
