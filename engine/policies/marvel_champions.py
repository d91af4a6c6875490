"""Marvel Champions Rules Reference: the 'Target' entry."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.decision import RuleRef
from engine.policies.base import Failure, Note, Policy, refs
from engine.policies.registry import register_policy
from engine.scenario import Ability, ChoiceKind, Effect, SelectionKind, When

if TYPE_CHECKING:
    from engine.world import Entity, World

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

    def target_failures(self, e: Entity, ef: Effect, ab: Ability, w: World,
                        note: Note) -> list[Failure]:
        """target.3: a valid target is one some part of the ability can affect."""
        labels = set(ab.labels)
        if "attack" in labels and "cannot_be_attacked" in e.restrictions:
            return [("cannot_be_attacked", "it cannot be attacked")]  # target.3.8
        if "thwart" in labels and "cannot_be_thwarted" in e.restrictions:
            return [("cannot_be_thwarted", "it cannot be thwarted")]  # target.3.9
        if (ab.uses_stat and ab.source in w.entities
                and w.entities[ab.source].stat(ab.uses_stat) == 0):
            note("zero_stat", f"{ab.uses_stat.upper()} 0 does not stop it", "ignored")
        misses: list[Failure] = []
        hits = 0
        for act in [ef.action, *ef.extra_actions]:
            miss = _action_miss(e, act, w, note)
            if miss is None:
                hits += 1
            else:
                misses.append(miss)
        if hits:
            if misses:
                note("multiple_effects", f"one part cannot affect {e.id} ({misses[0][1]})"
                     ", another can", "valid")
            return []
        return misses

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


def _action_miss(e: Entity, act: str, w: World, note: Note) -> Failure | None:
    """Why action ``act`` cannot affect ``e`` (target.3.x), or ``None`` when it can."""
    r = e.restrictions
    if act in ("deal_damage", "split_damage", "attack"):
        if "cannot_take_damage" in r:
            return ("cannot_take_damage", "it cannot take damage")  # target.3.7
        if "damage_prevented" in r:
            note("damage_prevented", "damage would be prevented: dealt, not taken",
                 "still affects")  # target.3.6
        return None
    if act == "heal":
        return None if e.stat("damage") > 0 else ("effect_examples", "it has no damage")
    if act == "ready":
        return ("cannot_perform", "it cannot ready") if "cannot_ready" in r else None
    if act == "exhaust":
        return ("cannot_perform", "it cannot exhaust") if "cannot_exhaust" in r else None
    if act == "stun":
        return ("cannot_perform", "it cannot be stunned") if "cannot_be_stunned" in r else None
    if act in ("remove_threat", "thwart"):
        main = "main_scheme" in e.traits or e.type == "main_scheme"
        if "cannot_have_threat_removed" in r or (main and w.crisis_icons > 0):
            return ("crisis", "threat cannot be removed from it")  # target.4.2
        if act == "thwart" and "cannot_be_thwarted" in r:
            return ("cannot_be_thwarted", "it cannot be thwarted")
        if e.stat("threat") <= 0:
            return ("effect_examples", "it has no threat to remove")
        return None
    if act == "draw":
        if e.deck_size is not None and e.deck_size <= 0:
            return ("draw", "that player's deck is empty")  # target.2.3
        note("draw", "the player has cards to draw", "valid")
        return None
    return None
