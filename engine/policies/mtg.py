"""Magic: The Gathering Comprehensive Rules: 115 (Targets), 601.2b-d (announcing modes,
targets and divisions as a spell is cast), 602.2b / 603.3d (activated and triggered
abilities' targets), 608.2b (targets rechecked at resolution), 702.11 / 702.16 / 702.18 /
702.21 (hexproof, protection, shroud, ward) and 707.10 (copies keep their targets).

Keywords are read from the object's ``keywords`` (``hexproof``, ``hexproof from blue``,
``shroud``, ``protection from red``, ``protection from everything``, ``ward``). The
qualities of the spell or ability (for protection and "hexproof from") are the ability's
``labels`` plus the type and traits of its source (a red instant: ``labels: ["red"]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.decision import RuleRef
from engine.policies.base import Failure, Note, Policy, refs
from engine.policies.registry import register_policy
from engine.scenario import Ability, ChoiceKind, Effect, SelectionKind, When

if TYPE_CHECKING:
    from engine.world import Entity, World

DOC = "mtg-cr"


@register_policy
class MagicPolicy(Policy):
    """Magic: The Gathering targeting policy."""

    game: ClassVar[str] = "mtg"
    too_few = "cannot_play"  # 601.2c (cast), 603.3d (a trigger is removed from the stack)
    all_illegal = "no_effect"  # 608.2b: the spell or ability doesn't resolve
    distinct_slots = False  # 115.3: once per instance of "target", not across instances
    type_must_be_identified = True  # 115.2: only permanents unless it says otherwise
    portion_reassigned = False  # 601.2d / 608.2d note: the division was announced on casting
    can_change = False  # 115.1: only another spell or ability that says so
    hidden_zone_kinds = frozenset({"hand", "library", "deck"})
    type_aliases: ClassVar[dict[str, frozenset[str]]] = {
        # 115.4: "any target" is a creature, player, planeswalker or battle.
        "any_target": frozenset({"creature", "player", "planeswalker", "battle"}),
        "permanent": frozenset({"creature", "artifact", "enchantment", "land",
                                "planeswalker", "battle"}),
    }
    selection_targets: ClassVar[dict[SelectionKind, tuple[bool | None, str]]] = {
        "all": (False, "each_all"),  # 115.10a: affected is not targeted
        "fixed": (False, "you_not_target"),  # 115.10b: "you" is not a target
        "self": (False, "not_targeted"),
        "pick": (False, "not_targeted"),
        "other_player": (False, "not_targeted"),
        "must": (False, "not_targeted"),
        "cost": (False, "not_targeted"),
        "trigger_condition": (False, "not_targeted"),
        "replacement": (False, "not_targeted"),
        "reference": (False, "not_targeted"),
        "future": (False, "not_targeted"),
        "search": (False, "not_targeted"),
    }
    choice_timing: ClassVar[dict[ChoiceKind, tuple[When, str]]] = {
        "targets": ("play", "timing_targets"),  # 601.2c, 602.2b
        "triggered_ability_targets": ("play", "timing_triggered"),  # 603.3d
        "modes": ("play", "timing_modes"),  # 601.2b, 700.2a
        "optional_additional_cost": ("play", "timing_modes"),  # 601.2b
        "distribution": ("play", "timing_distribution"),  # 601.2d
        "split_amounts": ("play", "timing_distribution"),  # 601.2d
        "may": ("resolution", "resolution_choices"),  # 608.2d
        "other": ("resolution", "resolution_choices"),  # 608.2d
    }

    not_target_reasons: ClassVar[dict[str, str]] = {
        "each_all": "Affecting every object that matches (\"each\", \"all\") doesn't target: "
                    "only what the text calls \"target\" is a target.",
        "not_targeted": "Being affected doesn't make it a target: only what the text calls "
                        "\"target\" is a target.",
        "you_not_target": "\"You\" in a spell's or ability's text is not a target.",
    }
    timing_labels: ClassVar[dict[When, str]] = {
        "play": "as the spell is cast, the ability activated, or the trigger put on the stack",
        "resolution": "as it resolves",
    }

    def __init__(self, doc: str = DOC) -> None:
        self.doc = doc

    def target_failures(self, e: Entity, ef: Effect, ab: Ability, w: World,
                        note: Note) -> list[Failure]:
        """Shroud, hexproof (and "hexproof from"), protection; ward is noted, not a bar."""
        kws = e.keywords
        if "shroud" in kws:
            return [("shroud", "it has shroud")]  # 702.18a
        opponent = e.controller is not None and e.controller != ab.controller
        if "hexproof" in kws and opponent:
            why = "it has hexproof and an opponent controls the spell or ability"
            return [("hexproof", why)]  # 702.11b/c
        qualities = _qualities(ab, w)
        for kw in sorted(kws):
            if kw.startswith("hexproof from ") and opponent and \
                    _quality(kw, "hexproof from ") in qualities:
                return [("hexproof_from", f"it has {kw}")]  # 702.11d
            if kw == "protection from everything":
                return [("protection_everything", "it has protection from everything")]
            if kw.startswith("protection from ") and _quality(kw, "protection from ") in qualities:
                return [("protection", f"it has {kw}")]  # 702.16b
        if opponent and any(k == "ward" or k.startswith("ward ") for k in kws):
            note("ward", "it has ward: can it still be targeted?",
                 "yes; ward triggers and counters the spell or ability unless its cost is paid")
        return []

    def citation_table(self) -> dict[str, list[RuleRef]]:
        d = self.doc
        return {
            "choose": refs((d, "115.1a"), (d, "115.1c"), (d, "115.1d"), (d, "115.1")),
            "definition": refs((d, "115.1"),),
            "restrictions": refs((d, "115.1"), (d, "601.2c")),
            "valid_choices_required": refs((d, "601.2c"), (d, "602.2b"), (d, "603.3d")),
            "type_identified": refs((d, "115.2"), (d, "115.4")),
            "exact_count": refs((d, "601.2c"), (d, "115.3")),
            "up_to_max": refs((d, "601.2c"),),
            "any_number": refs((d, "115.6"),),
            "up_to_zero": refs((d, "115.6"),),
            "distinct_slots": refs((d, "115.3"),),
            "self_target": refs((d, "115.5"),),
            "each_all": refs((d, "115.10a"), (d, "115.10")),
            "not_targeted": refs((d, "115.10a"),),
            "you_not_target": refs((d, "115.10b"), (d, "115.10a")),
            "illegal_unaffected": refs((d, "608.2b"),),
            "partial_resolution": refs((d, "608.2b"),),
            "all_illegal": refs((d, "608.2b"),),
            "no_change": refs((d, "115.1"), (d, "115.7"), (d, "707.10c")),
            "timing_targets": refs((d, "601.2c"), (d, "602.2b")),
            "timing_triggered": refs((d, "603.3d"),),
            "timing_modes": refs((d, "601.2b"), (d, "700.2a")),
            "timing_distribution": refs((d, "601.2d"),),
            "resolution_choices": refs((d, "608.2d"),),
            "portion_not_reassigned": refs((d, "601.2d"), (d, "608.2b")),
            "distribution_legal": refs((d, "601.2d"), (d, "115.7f")),
            "hexproof": refs((d, "702.11b"), (d, "702.11c")),
            "hexproof_from": refs((d, "702.11d"),),
            "shroud": refs((d, "702.18a"),),
            "protection": refs((d, "702.16b"),),
            "protection_everything": refs((d, "702.16j"),),
            "ward": refs((d, "702.21a"),),
        }


def _quality(keyword: str, prefix: str) -> str:
    """"protection from creatures" -> "creature"."""
    q = keyword[len(prefix):].strip()
    return q[:-1] if q.endswith("s") and not q.endswith("ss") else q


def _qualities(ab: Ability, w: World) -> frozenset[str]:
    """The spell's or ability's qualities: its labels, its source's type and traits."""
    out = {x.lower() for x in ab.labels}
    src = w.entities.get(ab.source) if ab.source is not None else None
    if src is not None:
        out |= {src.type.lower(), *(t.lower() for t in src.traits)}
    return frozenset(out)
