"""Riftbound: the targets guide and Core Rules 355 (Make relevant choices).

``core_doc`` is the document id of the loaded core rules: ``riftbound-core-rules``
(the default corpus's 355 excerpt, rules 355.1-355.18 without sub-rules) or a full
edition such as ``riftbound-core-rules-v1.3`` / ``riftbound-core-rules-rup4``
(``full=True``: sub-rules 355.9.a-355.14.i cited, and 355.17 is the "made on
resolution" rule there while the mandatory-requirement rule is absent).
"""

from __future__ import annotations

from typing import ClassVar

from engine.decision import RuleRef
from engine.policies.base import Policy, refs
from engine.policies.registry import register_policy
from engine.scenario import ChoiceKind, SelectionKind, When

GUIDE = "riftbound-targets-guide"


@register_policy
class RiftboundPolicy(Policy):
    """Riftbound targeting policy."""

    game: ClassVar[str] = "riftbound"
    too_few = "cannot_play"  # 355.8
    split_reduction = True  # guide p7, 355.14.h
    group_subset = True  # guide p9, 355.11
    can_change = False  # 355.15
    portion_reassigned = True  # guide p8: allocate among those the effect can still affect
    mandatory_requirements = True  # 355.17 (default corpus)
    deterministic_illegal_forbidden = True  # 355.16
    hidden_zone_kinds = frozenset({"hand", "deck", "main_deck", "rune_deck"})  # 355.10.a.1
    selection_targets: ClassVar[dict[SelectionKind, tuple[bool | None, str]]] = {
        "all": (False, "automatic_set"),
        "fixed": (False, "fixed_object"),
        "self": (False, "fixed_object"),
        "pick": (False, "pick"),
        "other_player": (False, "other_player"),
        "must": (False, "must"),
        "cost": (False, "cost_trigger_replacement"),
        "trigger_condition": (False, "cost_trigger_replacement"),
        "replacement": (False, "cost_trigger_replacement"),
        "reference": (False, "derived_reference"),
        "future": (None, "future"),
        "search": (False, "hidden_zone"),
    }
    choice_timing: ClassVar[dict[ChoiceKind, tuple[When, str]]] = {
        "targets": ("play", "timing_targets"),
        "modes": ("play", "timing_modes"),
        "move_destination": ("play", "timing_move"),
        "play_location": ("play", "timing_play_location"),
        "as_you_play": ("play", "timing_as_you_play"),
        "optional_additional_cost": ("play", "timing_as_you_play"),
        "split_amounts": ("resolution", "split_amounts_at_resolution"),
        "distribution": ("resolution", "split_amounts_at_resolution"),
        "may": ("resolution", "may_independent"),
        "group_subset": ("resolution", "group_subset"),
        "dropped_targets": ("resolution", "split_drop"),
        "triggered_ability_targets": ("play", "timing_triggered"),
        "other": ("resolution", "resolution_choices"),
    }

    def __init__(self, core_doc: str = "riftbound-core-rules", full: bool | None = None) -> None:
        self.core_doc = core_doc
        # A full edition is anything but the default corpus's 355 excerpt.
        self.full = full if full is not None else core_doc != "riftbound-core-rules"

    def citation_table(self) -> dict[str, list[RuleRef]]:
        c, g, full = self.core_doc, GUIDE, self.full

        def sub(default: str, detailed: str) -> str:
            return detailed if full else default

        t: dict[str, list[RuleRef]] = {
            "targets_without_choose": refs((g, "p1"), (c, "355.7")),
            "single_option": refs((g, "p3"), (c, sub("355.10", "355.10.d.2"))),
            "location_restriction": refs((g, "p1"), (c, sub("355.10", "355.10.b"))),
            "location_chosen": refs((g, "p1"), (c, sub("355.10", "355.10.b"))),
            "automatic_set": refs((g, "p1"), (c, sub("355.10", "355.10.d"))),
            "fixed_object": refs((g, "p4"), (c, sub("355.10", "355.10.d"))),
            "friendly_legend": refs((g, "p4"), (c, sub("355.10", "355.10.d"))),
            "derived_reference": refs((g, "p4"), (c, sub("355.10", "355.10.d"))),
            "pick": refs((c, "355.7"), (g, "p4")),
            "cost_trigger_replacement": refs((g, "p2"), (c, sub("355.10", "355.10.c"))),
            "hidden_zone": refs((g, "p2"), (c, sub("355.10", "355.10.a"))),
            "other_player": refs((g, "p2"), (c, sub("355.10", "355.10.e"))),
            "must": refs((g, "p2"), (c, sub("355.10", "355.10.f"))),
            "source_target": refs((g, "p2"), (c, sub("355.9", "355.9.c"))),
            "self_target": refs((g, "p2"), (c, sub("355.9", "355.9.c"))),
            "chain_target": refs((g, "p4"), (c, sub("355.9", "355.9.a.2"))),
            "restrictions": refs((c, sub("355.9", "355.9.b")), (c, "355.8")),
            "valid_choices_required": refs((c, "355.8"), (c, "355.9")),
            "up_to_max": refs((c, "355.13"),),
            "any_number": refs((c, "355.13"),),
            "may_targeted": refs((c, "355.12"),),
            "may_independent": refs((c, "355.12"), (c, sub("355.18", "355.17"))),
            "split_targets": refs((g, "p5"), (c, sub("355.14", "355.14.a"))),
            "split_max_targets": refs((g, "p5"), (c, sub("355.14", "355.14.c"))),
            "split_amounts_at_resolution": refs((g, "p5"), (c, sub("355.14", "355.14.e")),
                                                (g, "p6")),
            "split_min_one": refs((g, "p5"), (c, sub("355.14", "355.14.g"))),
            "split_drop": refs((g, "p7"), (c, sub("355.14", "355.14.h" if full else "355.14")),
                               (g, "p8")),
            "split_no_new_target": refs((g, "p6"), (g, "p8")),
            "costs_triggers_stay": refs((g, "p8"), (c, sub("355.14", "355.14.i"))),
            "illegal_unaffected": refs((g, "p8"),),
            "group": refs((g, "p9"), (c, sub("355.11", "355.11.a"))),
            "group_subset": refs((g, "p9"), (c, sub("355.11", "355.11.b")), (g, "p10")),
            "group_no_new_target": refs((g, "p9"), (g, "p10"), (c, sub("355.11", "355.11.b"))),
            "group_moved": refs((g, "p10"), (c, sub("355.11", "355.11.b"))),
            "deterministic_illegal": refs((c, "355.16"),),
            "no_change": refs((c, "355.15"),),
            "timing_targets": refs((c, "355.5"), (g, "p5")),
            "timing_modes": refs((c, "355.3"),),
            "timing_move": refs((c, "355.4"),),
            "timing_play_location": refs((c, "355.2"),),
            "timing_as_you_play": refs((c, "355.1"),),
            "timing_triggered": refs((c, sub("355.5", "355.5.b")),),
            "resolution_choices": refs((c, sub("355.18", "355.17")),),
        }
        if not full:
            t["mandatory_requirement"] = refs((c, "355.17"),)
        return t
