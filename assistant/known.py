"""Abilities the rules themselves use as worked examples, known even when no card data is
loaded. Each is written in the ability grammar's own words (paraphrased, not copied), plus
the facts the grammar cannot read from text. Card data, when loaded, adds every other name."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class KnownAbility:
    name: str
    game: str
    text: str
    kind: str = "spell"
    # Extra per-effect fields merged over the grammar's parse (e.g. constraints).
    patch: dict[str, dict[str, Any]] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()


KNOWN: tuple[KnownAbility, ...] = (
    KnownAbility(
        name="Alpha Strike", game="riftbound",
        text="Choose a friendly unit. It deals damage equal to its Might split among enemy units at battlefields.",
    ),
    KnownAbility(
        name="Fox-Fire", game="riftbound",
        text="Kill any number of units at a battlefield with total Might 4 or less.",
    ),
    KnownAbility(
        name="Here to Help", game="riftbound",
        text="You may play a unit from your hand.",
        patch={"e1": {"constraints": [{"choice": "play_location", "text": "to a battlefield you control",
                                       "location": {"kind": "battlefield", "scope": "any", "controlled_by": "you"},
                                       "permissive": False}]}},
    ),
    KnownAbility(
        name="Rek'Sai, Swarm Queen", game="riftbound", kind="triggered", aliases=("Rek'Sai", "Reksai"),
        text="You may play a unit.",
        patch={"e1": {"constraints": [{"choice": "play_location", "text": "you may play it here",
                                       "location": {"kind": None, "scope": "here"},
                                       "permissive": True}]}},
    ),
)
