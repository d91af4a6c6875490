"""Registry of policies by game id."""

from __future__ import annotations

import importlib
import pkgutil

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


_LOADED = False


def _load_builtin() -> None:
    """Import every module of :mod:`engine.policies` once, so each policy class registers
    itself (``@register_policy``): a new game is a new module, never an edit here.
    Imported lazily to avoid a circular import at package import time."""
    global _LOADED
    if _LOADED:
        return
    import engine.policies as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name not in _INFRASTRUCTURE:
            importlib.import_module(f"{package.__name__}.{info.name}")
    _LOADED = True


_INFRASTRUCTURE = frozenset({"base", "registry"})
