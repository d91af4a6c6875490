"""The engine's one error family: a scenario the engine cannot decide on.

Illegal moves are not errors (they are decisions with verdict ``no``); these are for
malformed input: a field that fails validation, an id the state does not define, a game
without a policy, a question that needs a parameter the scenario lacks.
"""

from __future__ import annotations


class ScenarioError(ValueError):
    """Base class: the scenario is malformed. ``field`` names the offending field path."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    def __str__(self) -> str:
        msg = super().__str__()
        return f"{self.field}: {msg}" if self.field else msg


class ScenarioValidationError(ScenarioError):
    """The JSON does not match the scenario schema."""


class UnknownGameError(ScenarioError):
    """No policy is registered for the scenario's game id."""


class UnknownReferenceError(ScenarioError):
    """An id (object, effect, player, location) is used but not defined."""


class MissingInputError(ScenarioError):
    """The question needs input the scenario does not give (e.g. no target choices)."""


class UndecidableError(ScenarioError):
    """The loaded rules of this game do not decide this question (the assistant should
    answer ``unknown``)."""
