"""Marvel Champions Rules Reference: the 'Target' entry."""

from __future__ import annotations

from typing import ClassVar

from engine.decision import RuleRef
from engine.policies.base import Policy, refs
from engine.policies.registry import register_policy
from engine.scenario import ChoiceKind, SelectionKind, When

DOC = "marvel-champions-rr-target"


@register_policy
class MarvelChampionsPolicy(Policy):
    """Marvel Champions targeting policy."""

    game: ClassVar[str] = "marvel-champions"
    validity = "any_part_can_affect"  # target.3
    min_targets = "at_least_one"  # target.2, target.4
    too_few = "cannot_play"  # target.2
    hidden_zone_kinds = frozenset({"hand", "deck", "encounter_deck"})
    type_aliases: ClassVar[dict[str, frozenset[str]]] = {
        "enemy": frozenset({"villain", "minion"}),
        "character": frozenset({"hero", "ally", "villain", "minion", "alter_ego"}),
        "scheme": frozenset({"main_scheme", "side_scheme", "scheme"}),
    }
    selection_targets: ClassVar[dict[SelectionKind, tuple[bool | None, str]]] = {
        "all": (True, "each"),  # target.4: "each enemy" targets multiple game elements
        "fixed": (True, "examples"),  # target.1: "the villain", "you" are targets
        "self": (True, "examples"),
        "reference": (True, "that_target"),  # target.3.10
        "future": (False, "future"),  # target.5
        "search": (False, "search"),  # target.6
        "cost": (False, "cost_ignored"),  # target.3.3
    }
    choice_timing: ClassVar[dict[ChoiceKind, tuple[When, str]]] = {
        "targets": ("play", "choose"),  # target.2.2
    }

    def __init__(self, doc: str = DOC) -> None:
        self.doc = doc

    def citation_table(self) -> dict[str, list[RuleRef]]:
        d = self.doc
        return {
            "definition": refs((d, "target"),),
            "examples": refs((d, "target.1"), (d, "target")),
            "requires_valid": refs((d, "target.2"),),
            "valid_choices_required": refs((d, "target.2"),),
            "basic_power": refs((d, "target.2.1"), (d, "target.2")),
            "choose": refs((d, "target.2.2"),),
            "draw": refs((d, "target.2.3"),),
            "any_part": refs((d, "target.3"), (d, "target.3.1")),
            "effect_examples": refs((d, "target.3.1"), (d, "target.3")),
            "zero_stat": refs((d, "target.3.2"), (d, "target.3")),
            "cost_ignored": refs((d, "target.3.3"),),
            "multiple_effects": refs((d, "target.3.4"), (d, "target.3")),
            "cannot_perform": refs((d, "target.3.5"),),
            "damage_prevented": refs((d, "target.3.6"),),
            "cannot_take_damage": refs((d, "target.3.7"),),
            "cannot_be_attacked": refs((d, "target.3.8"),),
            "cannot_be_thwarted": refs((d, "target.3.9"),),
            "that_target": refs((d, "target.3.10"),),
            "each": refs((d, "target.4"),),
            "each_invalid_unaffected": refs((d, "target.4.1"), (d, "target.4.2")),
            "crisis": refs((d, "target.4.2"), (d, "target.4")),
            "illegal_unaffected": refs((d, "target.4.1"),),
            "future": refs((d, "target.5"),),
            "search": refs((d, "target.6"),),
            "restrictions": refs((d, "target.3"),),
        }
