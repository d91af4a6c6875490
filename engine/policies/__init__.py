"""Per-game policies, registered by game id (``riftbound``, ``marvel-champions``,
``momon-wonder``). A new game is added by writing a :class:`Policy` subclass and
registering it, never by editing the core."""

from engine.policies.base import Policy
from engine.policies.registry import available_games, get_policy, register_policy

__all__ = ["Policy", "available_games", "get_policy", "register_policy"]
