"""Services behind the HTTP routers and the Discord endpoint.

Routers stay thin: they validate input and call one of these methods.
"""

from __future__ import annotations

from typing import Any, Protocol

from assistant.answer import Answer
from ingest.models import GameInfo


class UnknownGame(LookupError):
    """A game id that is not loaded; ``games`` lists the loaded ones."""

    def __init__(self, game: str, games: list[str]) -> None:
        super().__init__(f"unknown game {game!r}; loaded games: {', '.join(games) or 'none'}")
        self.game = game
        self.games = games


class RuleNotFound(LookupError):
    """A rule number not in the index; ``suggestions`` are the nearest that exist."""

    def __init__(self, game: str, number: str, suggestions: list[str]) -> None:
        super().__init__(f"no rule {number!r} in {game}")
        self.game = game
        self.number = number
        self.suggestions = suggestions


class ArbiterServices(Protocol):
    """What the web routers and the Discord endpoint need."""

    def ask(
        self, question: str, game: str | None = None, conversation_id: str | None = None
    ) -> Answer:
        """Answer a question; the result carries ``answer_id`` and ``conversation_id``.
        Raises UnknownGame for a game that is not loaded."""
        ...

    def rule(self, game: str, number: str, children: bool = True) -> dict[str, Any]:
        """{"game", "rule": {...Rule}, "children": [...], "editions": [...]}.
        Raises UnknownGame / RuleNotFound."""
        ...

    def games(self) -> list[GameInfo]: ...

    def get_answer(self, answer_id: str) -> Answer | None: ...

    def guild_game(self, guild_id: str) -> str | None:
        """Per-Discord-guild default game."""
        ...

    def set_guild_game(self, guild_id: str, game: str) -> None: ...
