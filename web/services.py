"""Services behind the HTTP routers and the Discord endpoint.

Routers stay thin: they validate input and call one of these methods.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Protocol

from assistant.answer import Answer
from ingest.errors import ArbiterError, NotFound, UnknownGame
from ingest.models import GameInfo
from ingest.settings import Settings
from web.cards import CardRulings, card_rulings
from web.store import ConversationState, Store

log = logging.getLogger("arbiter.web")

#: Asked once at start-up so the first real question finds everything loaded.
WARM_UP_QUESTION = 'Does "Kill a unit" target the unit?'


class RuleNotFound(NotFound):
    """A rule number not in the index; ``suggestions`` are the nearest that exist."""

    def __init__(self, game: str, number: str, suggestions: list[str]) -> None:
        super().__init__(f"no rule {number!r} in {game}")
        self.game = game
        self.number = number
        self.suggestions = suggestions


class NotReady(ArbiterError, RuntimeError):
    """The service is still warming up (or its warm-up failed: the reason says why)."""


class ArbiterServices(Protocol):
    """What the web routers and the Discord endpoint need."""

    def ask(
        self, question: str, game: str | None = None, conversation_id: str | None = None
    ) -> Answer:
        """Answer a question; the result carries ``answer_id`` and ``conversation_id``.
        Raises UnknownGame for a game that is not loaded."""
        ...

    def rule(
        self, game: str, number: str, children: bool = True, doc: str | None = None
    ) -> dict[str, Any]:
        """{"game", "rule": {...Rule}, "children": [...], "editions": [...]}; ``doc`` picks
        that document's edition. Raises UnknownGame / RuleNotFound."""
        ...

    def games(self) -> list[GameInfo]: ...

    def get_answer(self, answer_id: str) -> Answer | None: ...

    def rule_numbers(self, game: str) -> list[str]:
        """Every rule number of ``game``'s numbered documents, in document order."""
        ...

    def card_names(self, game: str) -> list[str]: ...

    def card(self, name: str, game: str | None = None) -> CardRulings | None:
        """A card's text and the rules on its choices; None for a name no card data has."""
        ...

    def guild_game(self, guild_id: str) -> str | None:
        """Per-Discord-guild default game."""
        ...

    def set_guild_game(self, guild_id: str, game: str) -> None: ...


class LocalServices:
    """The services of one process: the index, the assistant and the store.

    The index follows the live build: every use reads the ``arbiter_state`` pointer
    (``ingest.open_index`` caches one ``RuleIndex`` per build), so a re-ingest from another
    process is picked up by the next request, while requests already running finish on the
    build they started with (an ingest retires, never drops, the build it replaced). The
    assistant is rebuilt for each new build. :meth:`warm` loads the model and everything the
    first answer needs; :meth:`ready` reports not ready until it has run.
    """

    def __init__(self, settings: Settings, index: Any = None, assistant: Any = None) -> None:
        self.settings = settings
        self._fixed_index = index
        self._assistant = assistant
        self._assistant_index: Any = index if assistant is not None else None
        self._store: Store | None = None
        self._lock = threading.RLock()  # the assistant is built under it and needs the store
        self._warm = threading.Event()
        self._warm_thread: threading.Thread | None = None
        self._warm_error: str | None = None
        self.warm_seconds: float | None = None

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
        """The live build's index (raises IndexMissing / StoreUnavailable)."""
        if self._fixed_index is not None:
            return self._fixed_index
        from ingest import open_index

        return open_index(self.settings)

    @property
    def assistant(self) -> Any:
        index = self.index
        with self._lock:
            if self._assistant is None or self._assistant_index is not index:
                from assistant import Assistant

                self._assistant = Assistant(
                    self.settings, index=index, store=ConversationState(self.store)
                )
                self._assistant_index = index
            return self._assistant

    # start-up ------------------------------------------------------------------------
    def warm(self) -> None:
        """Load the index, the model, the search indexes and the assistant, and answer one
        question (not stored), so the first real question is as fast as any other."""
        started = time.perf_counter()
        index = self.index
        index.embed_query("warm up")
        for game in [None, *(g.id for g in index.games())]:
            index.search("target", game=game, k=1)
        self.assistant.ask(WARM_UP_QUESTION)
        self.assistant.prepare()
        self.warm_seconds = time.perf_counter() - started
        self._warm.set()

    def start_warming(self) -> None:
        """Warm in a background thread (once at a time): /healthz answers meanwhile and
        /readyz says not ready until it is done. A failed warm-up is retried by /readyz."""
        with self._lock:
            if self._warm.is_set() or (self._warm_thread and self._warm_thread.is_alive()):
                return
            self._warm_thread = threading.Thread(
                target=self._warm_in_background, name="arbiter-warm", daemon=True
            )
            self._warm_thread.start()

    def _warm_in_background(self) -> None:
        try:
            self.warm()
            self._warm_error = None
            log.info("warm: model and index loaded in %.1f s", self.warm_seconds or 0.0)
        except Exception as exc:  # noqa: BLE001 - reported by /readyz, retried there
            self._warm_error = f"{type(exc).__name__}: {exc}"
            log.warning("warm-up failed: %s", self._warm_error)

    def wait_warm(self, timeout: float | None = None) -> bool:
        return self._warm.wait(timeout)

    def ready(self) -> dict[str, Any]:
        """What is loaded; raises ``NotReady`` while warming up, and the store's error
        (``StoreUnavailable`` / ``IndexMissing``) when the index cannot be read."""
        if not self._warm.is_set():
            self.start_warming()
            reason = self._warm_error or "warming up: loading the model and the index"
            raise NotReady(reason)
        index = self.index  # reads the pointer record: fails while the store is unreachable
        games = index.games()
        return {
            "games": [g.id for g in games],
            "rules": sum(d.rules for g in games for d in g.documents),
            "build": getattr(getattr(index, "state", None), "build", None),
            "warm_seconds": round(self.warm_seconds or 0.0, 2),
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

    def rule(
        self, game: str, number: str, children: bool = True, doc: str | None = None
    ) -> dict[str, Any]:
        self.check_game(game)
        index = self.index
        number = number.strip()
        found = index.lookup(number, game=game)
        if found is not None and doc is not None and found.rule.doc != doc:
            wanted = index.get(doc, number)
            if wanted is None or wanted.game != game:
                found = None
            else:
                others = [found.rule, *found.editions]
                found.rule = wanted
                found.editions = [r for r in others if r.key != wanted.key]
                found.children = index.children(wanted)
        if found is None:
            where = f"{game} document {doc}" if doc else game
            raise RuleNotFound(where, number, index.suggest(number, game=game))
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

    def rule_numbers(self, game: str) -> list[str]:
        self.check_game(game)
        numbered = {d.id for g in self.games() if g.id == game for d in g.documents if d.numbered}
        return list(dict.fromkeys(r.number for r in self.index.rules(game=game) if r.doc in numbered and r.number))

    def card_names(self, game: str) -> list[str]:
        self.check_game(game)
        return list(self.index.card_names(game))

    def card(self, name: str, game: str | None = None) -> CardRulings | None:
        self.check_game(game)
        return card_rulings(self.index, name, game)

    def feedback(self, answer_id: str, helpful: bool, comment: str | None) -> bool:
        return self.store.add_feedback(answer_id, helpful, comment)

    def guild_game(self, guild_id: str) -> str | None:
        return self.store.guild_game(guild_id)

    def set_guild_game(self, guild_id: str, game: str) -> None:
        self.check_game(game)
        self.store.set_guild_game(guild_id, game)
