"""Services behind the HTTP routers and the Discord endpoint.

Routers stay thin: they validate input and call one of these methods.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from assistant.answer import Answer
from ingest.models import GameInfo
from ingest.settings import Settings
from web.store import ConversationState, Store


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


class LocalServices:
    """The services of one process: the index, the assistant and the store.

    The index and the assistant load lazily (the model takes seconds), once.
    """

    def __init__(self, settings: Settings, index: Any = None, assistant: Any = None) -> None:
        self.settings = settings
        self._index = index
        self._assistant = assistant
        self._store: Store | None = None
        self._lock = threading.RLock()  # the assistant is built under it and needs the store

    # lazily built parts -----------------------------------------------------------
    @property
    def store(self) -> Store:
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = Store.from_settings(self.settings)
        return self._store

    @property
    def index(self) -> Any:
        if self._index is None:
            with self._lock:
                if self._index is None:
                    from ingest import open_index

                    self._index = open_index(self.settings)
        return self._index

    @property
    def assistant(self) -> Any:
        if self._assistant is None:
            index = self.index
            with self._lock:
                if self._assistant is None:
                    from assistant import Assistant

                    self._assistant = Assistant(
                        self.settings, index=index, store=ConversationState(self.store)
                    )
        return self._assistant

    def ready(self) -> dict[str, Any]:
        """Load the index and the model; report what is loaded."""
        index = self.index
        index.embed_query("ready")
        games = index.games()
        return {
            "games": [g.id for g in games],
            "rules": sum(d.rules for g in games for d in g.documents),
        }

    # the protocol ----------------------------------------------------------------------
    def game_ids(self) -> list[str]:
        return [g.id for g in self.games()]

    def check_game(self, game: str | None) -> None:
        if game is not None and game not in (ids := self.game_ids()):
            raise UnknownGame(game, ids)

    def ask(
        self, question: str, game: str | None = None, conversation_id: str | None = None
    ) -> Answer:
        self.check_game(game)
        cid = conversation_id or self.store.new_conversation()
        answer: Answer = self.assistant.ask(question, game=game, conversation_id=cid)
        self.store.save_answer(answer, cid)
        return answer

    def rule(self, game: str, number: str, children: bool = True) -> dict[str, Any]:
        self.check_game(game)
        found = self.index.lookup(number.strip(), game=game)
        if found is None:
            raise RuleNotFound(game, number, self.index.suggest(number.strip(), game=game))
        return {
            "game": game,
            "rule": found.rule,
            "children": list(found.children) if children else [],
            "editions": list(found.editions),
        }

    def search(self, query: str, game: str | None = None, k: int = 5) -> list[Any]:
        self.check_game(game)
        return list(self.index.search(query, game=game, k=k))

    def games(self) -> list[GameInfo]:
        return list(self.index.games())

    def get_answer(self, answer_id: str) -> Answer | None:
        return self.store.get_answer(answer_id)

    def feedback(self, answer_id: str, helpful: bool, comment: str | None) -> bool:
        return self.store.add_feedback(answer_id, helpful, comment)

    def guild_game(self, guild_id: str) -> str | None:
        return self.store.guild_game(guild_id)

    def set_guild_game(self, guild_id: str, game: str) -> None:
        self.check_game(game)
        self.store.set_guild_game(guild_id, game)
