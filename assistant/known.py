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
    # The question kinds the rule that uses this example decides. A question about the
    # example read as any other kind abstains (route, never a generic template).
    decides: tuple[str, ...] = ()


KNOWN: tuple[KnownAbility, ...] = (
    KnownAbility(
        name="Alpha Strike", game="riftbound",
        text="Choose a friendly unit. It deals damage equal to its Might split among enemy units at battlefields.",
        # Guide: targets chosen at finalization, split at resolution, necessary drops only,
        # no new targets, each chosen unit targeted.
        decides=("targets_to_drop", "targets_to_keep", "legal_subset", "add_target", "choice_timing",
                 "legal_targets", "is_target", "can_change", "portion_reassigned"),
    ),
    KnownAbility(
        name="Fox-Fire", game="riftbound",
        text="Kill any number of units at a battlefield with total Might 4 or less.",
        # Guide: a group requirement checked as a whole; an eligible subset of the originals.
        decides=("legal_subset", "add_target", "choice_timing", "is_target", "legal_targets", "can_change"),
    ),
    KnownAbility(
        name="Here to Help", game="riftbound",
        text="You may play a unit from your hand.",
        patch={"e1": {"constraints": [{"choice": "play_location", "text": "to a battlefield you control",
                                       "location": {"kind": "battlefield", "scope": "any", "controlled_by": "you"},
                                       "permissive": False}]}},
        decides=("is_mandatory", "can_play"),  # 355.17
    ),
    KnownAbility(
        name="Rek'Sai, Swarm Queen", game="riftbound", kind="triggered", aliases=("Rek'Sai", "Reksai"),
        text="You may play a unit.",
        patch={"e1": {"constraints": [{"choice": "play_location", "text": "you may play it here",
                                       "location": {"kind": None, "scope": "here"},
                                       "permissive": True}]}},
        decides=("is_mandatory", "can_play"),  # 355.17
    ),
)
