"""The engine's one error family: a scenario the engine cannot decide on.

Illegal moves are not errors (they are decisions with verdict ``no``); these are for
malformed input: a field that fails validation, an id the state does not define, a game
without a policy, a question that needs a parameter the scenario lacks.
"""

from __future__ import annotations

from collections.abc import Iterable


class ArbiterError(Exception):
    """Base of every error Arbiter raises on purpose (engine, ingest, assistant, web), so
    callers (the web app, the CLI) map them in one place. Subclasses also derive from the
    builtin that fits (``LookupError``, ``ValueError``, ``RuntimeError``)."""


class NotFound(ArbiterError, LookupError):
    """Something asked for by name or number does not exist."""


class UnknownGame(NotFound):
    """A game id with no rules loaded or no policy registered; ``games`` lists the known
    ones. The project's one unknown-game error (engine, assistant, web and CLI)."""

    def __init__(self, game: str, games: Iterable[str] = (), what: str = "loaded games") -> None:
        self.game = game
        self.games = list(games)
        self.field = "game"
        super().__init__(f"unknown game {game!r}; {what}: {', '.join(self.games) or 'none'}")


class ScenarioError(ArbiterError, ValueError):
    """Base class: the scenario is malformed. ``field`` names the offending field path."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    def __str__(self) -> str:
        msg = super().__str__()
        return f"{self.field}: {msg}" if self.field else msg


class ScenarioValidationError(ScenarioError):
    """The JSON does not match the scenario schema."""


class UnknownReferenceError(ScenarioError):
    """An id (object, effect, player, location) is used but not defined."""


class MissingInputError(ScenarioError):
    """The question needs input the scenario does not give (e.g. no target choices)."""


class UndecidableError(ScenarioError):
    """The loaded rules of this game do not decide this question (the assistant should
    answer ``unknown``)."""
