"""Registry of policies by game id."""

from __future__ import annotations

from engine.errors import UnknownGame
from engine.policies.base import Policy

_REGISTRY: dict[str, type[Policy]] = {}


def register_policy(cls: type[Policy]) -> type[Policy]:
    """Register a policy class under its ``game`` id (usable as a decorator)."""
    if not cls.game:
        raise ValueError("a policy needs a game id")
    _REGISTRY[cls.game] = cls
    return cls


def get_policy(game: str) -> Policy:
    """A default-configured policy for ``game``; :class:`UnknownGame` if none."""
    _load_builtin()
    try:
        return _REGISTRY[game]()
    except KeyError:
        raise UnknownGame(game, sorted(_REGISTRY), what="games with a policy") from None


def available_games() -> list[str]:
    """Game ids with a registered policy."""
    _load_builtin()
    return sorted(_REGISTRY)


def _load_builtin() -> None:
    # Imported lazily so the built-in policies register themselves on first use
    # without a circular import at package import time.
    from engine.policies import marvel_champions, momon_wonder, riftbound  # noqa: F401
