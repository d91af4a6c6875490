"""The policy interface: what differs between games, each choice citing its rule.

The core asks a policy; it never branches on game names. A policy is mostly data:
which document and rule each concept cites (``citations``), and the game's answers to
the questions where games differ (when distributions are chosen, what an all-illegal
resolution does, what happens when too few targets exist, what "valid target" means).
python-chess's ``variant.py`` is the model: one small class per game, registered by id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Literal

from engine.decision import RuleRef
from engine.scenario import Ability, ChoiceKind, Effect, SelectionKind, When

if TYPE_CHECKING:
    from engine.world import Entity, World

Note = Callable[[str, str, str], None]
"""Records a trace step: (concept, what was checked, result)."""

Failure = tuple[str, str]
"""(concept, why): one reason an object is not a valid target."""

TooFew = Literal["cannot_play", "ceases_to_exist"]
AllIllegal = Literal["no_effect", "untargeted_parts_still"]
Validity = Literal["meets_restrictions", "any_part_can_affect"]
MinTargets = Literal["count", "at_least_one"]


class Policy:
    """Base policy. Subclasses set the class attributes and :meth:`citation_table`."""

    game: ClassVar[str] = ""
    validity: ClassVar[Validity] = "meets_restrictions"
    """``any_part_can_affect``: a target is valid only if some part of the ability can
    affect it (Marvel Champions 'Target')."""
    min_targets: ClassVar[MinTargets] = "count"
    """``count``: an exact count needs that many legal targets; ``at_least_one``: a
    targeting ability can be initiated with at least one valid target."""
    too_few: ClassVar[TooFew] = "cannot_play"
    all_illegal: ClassVar[AllIllegal | None] = None
    """What an ability whose every target is illegal at resolution does to its
    untargeted parts; ``None``: the loaded rules do not say."""
    distinct_slots: ClassVar[bool] = False
    """The same object cannot fill more than one target slot unless allowed."""
    type_must_be_identified: ClassVar[bool] = False
    """A target type (player, object, location) is legal only when the text names it."""
    split_reduction: ClassVar[bool] = False
    """At resolution, too little of a split amount drops only the necessary targets."""
    group_subset: ClassVar[bool] = False
    """A failed group requirement is resolved by a subset of the original targets."""
    portion_reassigned: ClassVar[bool | None] = None
    can_change: ClassVar[bool | None] = None
    """Whether play-time choices may be changed without an instruction to do so."""
    mandatory_requirements: ClassVar[bool] = False
    deterministic_illegal_forbidden: ClassVar[bool] = False
    hidden_zone_kinds: ClassVar[frozenset[str]] = frozenset({"hand", "deck", "main_deck"})
    type_aliases: ClassVar[dict[str, frozenset[str]]] = {}
    """Pool type words that stand for several object types or traits."""
    selection_targets: ClassVar[dict[SelectionKind, tuple[bool | None, str]]] = {}
    """For each non-``choose`` selection kind: is it targeting, and the concept cited."""
    choice_timing: ClassVar[dict[ChoiceKind, tuple[When, str]]] = {}
    """When each kind of choice is made, and the concept cited."""
    timing_overrides: ClassVar[dict[str, str]] = {}
    """Where the ability's own text may move a choice: ``earlier`` (a resolution-time
    choice the text requires earlier) and ``defer`` (a play-time choice the text
    explicitly defers), each with the concept cited; absent: the rules do not say."""

    not_target_reasons: ClassVar[dict[str, str]] = {}
    """The answer's reason, in the game's terms, when a concept makes something not a
    target (the core has generic wording for the shared concepts)."""
    timing_labels: ClassVar[dict[When, str]] = {}
    """How the game names the moments of choice ("as the spell is cast or put on the
    stack"); the core's generic wording otherwise."""

    def citation_table(self) -> dict[str, list[RuleRef]]:
        """Concept -> citations, most decisive first."""
        return {}

    def target_failures(self, e: Entity, ef: Effect, ab: Ability, w: World,
                        note: Note) -> list[Failure]:
        """Game-specific reasons ``e`` is not a valid target of ``ef`` beyond the pool's
        filters (keywords such as hexproof, "any part can affect it"). Called only for an
        object the pool accepts; ``note`` records trace steps. Default: none."""
        return []

    def cite(self, concept: str) -> list[RuleRef]:
        """The citations of a concept, most decisive first (empty when not covered)."""
        return list(self.citation_table().get(concept, []))

    def covers(self, concept: str) -> bool:
        """Whether the loaded rules cite anything for this concept."""
        return bool(self.citation_table().get(concept))


def refs(*pairs: tuple[str, str]) -> list[RuleRef]:
    """Build a citation list from (doc, rule) pairs."""
    return [RuleRef(doc=d, rule=r) for d, r in pairs]
