"""momon-wonder Comprehensive Rules 1.0.0, 11.4 Targets and Choices."""

from __future__ import annotations

from typing import ClassVar

from engine.decision import RuleRef
from engine.policies.base import Policy, refs
from engine.policies.registry import register_policy
from engine.scenario import ChoiceKind, SelectionKind, When

DOC = "momon-wonder-cr"


@register_policy
class MomonWonderPolicy(Policy):
    """momon-wonder targeting policy."""

    game: ClassVar[str] = "momon-wonder"
    too_few = "ceases_to_exist"  # 11.4.3
    all_illegal = "no_effect"  # 11.4.5, express exception to 1.8
    distinct_slots = True  # 11.4.4
    type_must_be_identified = True  # 11.4.1
    portion_reassigned = False  # 11.4.9
    can_change = False  # 11.4.8
    selection_targets: ClassVar[dict[SelectionKind, tuple[bool | None, str]]] = {}
    choice_timing: ClassVar[dict[ChoiceKind, tuple[When, str]]] = {
        "targets": ("play", "timing_targets"),
        "triggered_ability_targets": ("play", "timing_targets"),
        "modes": ("play", "timing_other"),
        "move_destination": ("play", "timing_other"),
        "play_location": ("play", "timing_other"),
        "as_you_play": ("play", "timing_other"),
        "distribution": ("play", "distribution_at_queue"),
        "split_amounts": ("play", "distribution_at_queue"),
        "may": ("resolution", "may"),
        "other": ("play", "timing_other"),
    }
    timing_overrides: ClassVar[dict[str, str]] = {
        "earlier": "may",  # 11.4.6 "unless the text requires the choice earlier"
        "defer": "timing_other",  # 11.4.7 "unless the text explicitly defers a choice"
    }

    def __init__(self, doc: str = DOC) -> None:
        self.doc = doc

    def citation_table(self) -> dict[str, list[RuleRef]]:
        d = self.doc
        return {
            "slots": refs((d, "11.4.1"),),
            "type_identified": refs((d, "11.4.1"),),
            "restrictions": refs((d, "11.4.2"),),
            "exact_count": refs((d, "11.4.2"), (d, "11.4.3")),
            "up_to_max": refs((d, "11.4.2"),),
            "any_number": refs((d, "11.4.3"), (d, "11.4.2")),
            "up_to_zero": refs((d, "11.4.2"), (d, "11.4.3")),
            "too_few": refs((d, "11.4.3"),),
            "valid_choices_required": refs((d, "11.4.3"), (d, "11.4.2")),
            "distinct_slots": refs((d, "11.4.4"),),
            "illegal_unaffected": refs((d, "11.4.5"),),
            "all_illegal": refs((d, "11.4.5"),),
            "partial_resolution": refs((d, "11.4.5"),),
            "may": refs((d, "11.4.6"),),
            "timing_targets": refs((d, "11.4.1"), (d, "11.4.7")),
            "timing_other": refs((d, "11.4.7"),),
            "distribution_at_queue": refs((d, "11.4.8"), (d, "11.4.7")),
            "no_change": refs((d, "11.4.8"),),
            "portion_not_reassigned": refs((d, "11.4.9"),),
            "distribution_legal": refs((d, "11.4.8"), (d, "11.4.9")),
        }
