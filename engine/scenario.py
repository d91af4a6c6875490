"""Scenario models: the structured input the targeting engine decides on.

A scenario is what the assistant's parser builds from a players' question. It has
five parts: the game id, the ability (its effects, in order, each saying how it
selects what it affects), the game state, the timeline (choices made as the ability
is played, events before it resolves, choices made at resolution) and the question.

Everything is JSON-serialisable; ``schema_version`` is 1. Ids are free strings that
the scenario defines itself (``"you"``, ``"u1"``, ``"bf1"``); a question or choice that
names an id the state does not define is a :class:`engine.errors.ScenarioError`.

Small example (Riftbound: "Kill a unit at a battlefield" with one enemy unit there;
is that unit a target?)::

    {
      "schema_version": 1,
      "game": "riftbound",
      "ability": {
        "kind": "spell",
        "text": "Kill a unit at a battlefield.",
        "effects": [
          {"id": "e1", "action": "kill",
           "selection": {"kind": "choose",
                         "pool": {"types": ["unit"], "location": {"kind": "battlefield"}},
                         "count": {"mode": "exactly", "n": 1}}}
        ]
      },
      "state": {
        "players": [{"id": "you"}, {"id": "opp"}],
        "locations": [{"id": "bf1", "kind": "battlefield"}],
        "objects": [{"id": "u1", "type": "unit", "controller": "opp",
                     "zone": "battlefield", "location": "bf1", "stats": {"might": 2}}]
      },
      "question": {"kind": "is_target", "effect": "e1", "object": "u1"}
    }

Conventions the engine relies on:

* ``controller`` of the ability defaults to ``"you"``; pool filters say ``"you"``
  (friendly), ``"opponent"`` (enemy) or ``"any"``.
* Stats are lower-case keys: ``might``, ``atk``, ``thw``, ``sch``, ``threat``,
  ``damage``, ``hp``.
* An effect's ``selection.kind`` says *how* it picks what it affects; whether that
  is targeting is the game policy's decision, never the parser's.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 1

AbilityKind = Literal[
    "spell", "activated", "triggered", "basic_power", "event", "ability", "game_function"
]
"""What kind of ability this is (Riftbound spell/activated/triggered; Marvel Champions
basic power/event; momon-wonder "ability")."""

Action = Literal[
    "deal_damage",
    "split_damage",
    "heal",
    "kill",
    "stun",
    "ready",
    "exhaust",
    "move",
    "play",
    "draw",
    "search",
    "recycle",
    "return",
    "banish",
    "counter",
    "buff",
    "give_might",
    "add_threat",
    "remove_threat",
    "give_status",
    "attack",
    "thwart",
    "gain_life",
    "lose_life",
    "discard",
    "reveal",
    "other",
]
"""What an effect does to what it selects. ``other`` when none fits."""

SelectionKind = Literal[
    "choose",
    "all",
    "fixed",
    "self",
    "pick",
    "other_player",
    "must",
    "cost",
    "trigger_condition",
    "replacement",
    "reference",
    "future",
    "search",
]
"""How an effect selects what it affects.

* ``choose``: the ability's controller chooses specific objects/players/zones
  ("Kill a unit", "choose up to 2 targets", "Split 5 damage among units").
* ``all``: an automatic set by characteristics ("all units at battlefields",
  "each enemy", "each scheme"). With ``location.scope == "one"`` the location itself is
  chosen ("all units at *a* battlefield").
* ``fixed``: an object no choice is ever possible for ("your legend", "you").
* ``self``: the ability's own source object ("me", "this unit").
* ``pick``: an explicit "pick".
* ``other_player``: a set chosen in whole or part by another player ("each player kills
  a unit they control").
* ``must``: an instruction a player "must" complete ("You must recycle one of your runes").
* ``cost``: mentioned only in a cost ("As an additional cost, kill a friendly unit").
* ``trigger_condition``: mentioned only in a trigger condition ("When a unit dies").
* ``replacement``: mentioned only in a replacement effect.
* ``reference``: refers to what an earlier effect selected ("that enemy", "its
  controller"); set ``refers_to`` and ``ref_role``.
* ``future``: a future object ("the next card you play").
* ``search``: a search of a game area.
"""

CountMode = Literal["exactly", "up_to", "any_number"]
Restriction = Literal[
    "cannot_take_damage",
    "cannot_be_attacked",
    "cannot_be_thwarted",
    "cannot_ready",
    "cannot_exhaust",
    "cannot_be_stunned",
    "cannot_have_threat_removed",
    "cannot_be_chosen_by_enemy_spells",
    "cannot_be_targeted",
    "damage_prevented",
]
"""Restrictions on an object. ``damage_prevented``: damage dealt to it is prevented
(dealt but not taken); it does not make it an invalid target."""

ChoiceKind = Literal[
    "targets",
    "modes",
    "move_destination",
    "play_location",
    "as_you_play",
    "optional_additional_cost",
    "split_amounts",
    "distribution",
    "may",
    "group_subset",
    "dropped_targets",
    "triggered_ability_targets",
    "other",
]
"""Kinds of choices whose timing the ``choice_timing`` question asks about."""

When = Literal["play", "resolution"]
"""``play``: as the ability is played / finalized / put on the chain / enters the queue.
``resolution``: as it resolves."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- state


class Player(_Model):
    """A player. ``deck_size`` matters for draw/search questions."""

    id: str
    deck_size: int | None = None
    hand_size: int | None = None


class Zone(_Model):
    """A zone and its information status. ``kind``: hand, deck, trash, base,
    battlefield, legend, champion, facedown, chain, discard, play, ... When a zone is not
    listed, the policy's default public/hidden status for its kind is used."""

    id: str
    kind: str
    owner: str | None = None
    public: bool | None = None


class Location(_Model):
    """A place objects are at: a battlefield, a base, an Arena Space."""

    id: str
    kind: str = "battlefield"
    controller: str | None = None


class GameObject(_Model):
    """A card, unit, token, legend, scheme, spell on the chain, ...

    ``type`` is the game's card type in lower case (unit, gear, rune, legend, minion,
    villain, scheme, hero, ally, spell, ability). ``traits`` holds extra categories the
    game uses for pools (``enemy``, ``character``, ``main_scheme``, ``recruit``).
    ``zone`` is a zone id or zone kind; ``location`` a location id."""

    id: str
    type: str
    name: str | None = None
    controller: str | None = None
    owner: str | None = None
    zone: str = "board"
    location: str | None = None
    stats: dict[str, int] = Field(default_factory=dict)
    restrictions: list[Restriction] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    traits: list[str] = Field(default_factory=list)


class State(_Model):
    """The game state when the ability is played."""

    players: list[Player] = Field(default_factory=lambda: [Player(id="you"), Player(id="opp")])
    objects: list[GameObject] = Field(default_factory=list)
    zones: list[Zone] = Field(default_factory=list)
    locations: list[Location] = Field(default_factory=list)
    crisis_icons: int = 0
    """Marvel Champions: number of crisis icons in play (threat cannot be removed from
    the main scheme while any is in play)."""


# ------------------------------------------------------------------------- ability


class StatBound(_Model):
    """A per-object stat filter, e.g. Might 4 or greater: ``{"stat": "might", "min": 4}``."""

    stat: str
    min: int | None = None
    max: int | None = None


class LocationFilter(_Model):
    """Where selected objects must be.

    ``kind``: location kind (battlefield, base, arena_space). ``scope``: ``any`` (at any
    such location, "at battlefields"), ``one`` ("at a battlefield": for ``all`` selections
    the location is chosen), ``here`` (the source's location), ``specific`` (``location``
    names it). ``controlled_by``: ``you``/``opponent``/``any``."""

    kind: str | None = "battlefield"
    scope: Literal["any", "one", "here", "specific"] = "any"
    location: str | None = None
    controlled_by: Literal["you", "opponent", "any"] = "any"


class Pool(_Model):
    """The target pool / set filter: which objects (or players, locations) qualify.

    ``types`` empty means any type. ``types`` may contain ``player`` or a location kind
    (``battlefield``, ``arena_space``) to select players or locations. ``superlative``
    selects e.g. "the unit you control with the most Might": ``{"stat": "might",
    "most": true}``."""

    types: list[str] = Field(default_factory=list)
    controller: Literal["you", "opponent", "any"] = "any"
    traits: list[str] = Field(default_factory=list)
    zone: str | None = None
    location: LocationFilter | None = None
    stats: list[StatBound] = Field(default_factory=list)
    exclude_source: bool = False
    superlative: Superlative | None = None


class Superlative(_Model):
    """"with the most/least <stat>"."""

    stat: str
    most: bool = True


class Count(_Model):
    """How many: ``exactly`` n, ``up_to`` n, or ``any_number``."""

    mode: CountMode = "exactly"
    n: int | None = 1
    minimum: int | None = None
    """An explicit minimum the text states for an ``up_to`` choice (11.4.3)."""


class GroupRequirement(_Model):
    """A requirement the chosen group must meet as a whole (355.11), e.g. Fox-Fire's
    "total Might 4 or less" at one battlefield: ``{"stat": "might", "max_total": 4,
    "same_location": true}``."""

    stat: str | None = None
    max_total: int | None = None
    min_total: int | None = None
    same_location: bool = False


class AmountFrom(_Model):
    """An amount taken from a stat: "damage equal to its Might" ->
    ``{"effect": "e1", "stat": "might"}`` (the object chosen by effect e1) or
    ``{"object": "u1", "stat": "might"}``."""

    stat: str
    effect: str | None = None
    object: str | None = None


class Selection(_Model):
    """How an effect selects what it affects (see :data:`SelectionKind`)."""

    kind: SelectionKind = "choose"
    pool: Pool = Field(default_factory=Pool)
    count: Count = Field(default_factory=Count)
    duplicates: bool = False
    """The text expressly permits the same object in more than one slot (11.4.4)."""
    redistributes: bool = False
    """The text expressly instructs redistributing a portion assigned to a target that is
    illegal at resolution (11.4.9)."""
    group: GroupRequirement | None = None
    divides_amount: bool = False
    """An amount is split / distributed among the selected targets (Alpha Strike,
    "split 5 damage", distributions)."""
    refers_to: str | None = None
    """For ``reference``: the id of the earlier effect whose selection this refers to."""
    ref_role: Literal["same", "controller", "owner", "location"] = "same"
    """For ``reference``: "that enemy" is ``same``; "its controller" is ``controller``."""
    chooser: Literal["controller", "other_player", "each_player"] = "controller"


class ChoiceConstraint(_Model):
    """A requirement on how a choice is made, e.g. Here to Help's "to a battlefield you
    control" (``permissive: false``) or Rek'Sai's "you may play it here"
    (``permissive: true``: a permission, the player is not required to use it)."""

    choice: ChoiceKind = "play_location"
    text: str = ""
    location: LocationFilter | None = None
    permissive: bool = False


class Effect(_Model):
    """One instruction of the ability, in text order."""

    id: str
    text: str = ""
    action: Action = "other"
    amount: int | None = None
    amount_from: AmountFrom | None = None
    selection: Selection = Field(default_factory=Selection)
    extra_actions: list[Action] = Field(default_factory=list)
    """Further things this same instruction does to the same target ("heal 3 damage
    from and ready a character": action ``heal``, extra ``["ready"]``)."""
    optional: bool = False
    """The instruction says "may" ("You may stun up to two units")."""
    constraints: list[ChoiceConstraint] = Field(default_factory=list)
    removes_from_play: bool | None = None
    """Whether the action removes the object (kill, banish, ...). Default by action."""


class Ability(_Model):
    """The spell or ability being played, with its effects in order."""

    id: str = "ability"
    kind: AbilityKind = "spell"
    name: str | None = None
    text: str = ""
    source: str | None = None
    """Object id of the card/permanent the ability comes from."""
    controller: str = "you"
    labels: list[str] = Field(default_factory=list)
    """Marvel Champions labels: ``attack``, ``thwart``."""
    uses_stat: str | None = None
    """For basic powers/activations using a stat of the source (ATK, THW, SCH)."""
    modes: list[str] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)


# ------------------------------------------------------------------------ timeline


class TargetChoice(_Model):
    """Objects chosen for one effect's target slot(s) as the ability is played."""

    effect: str
    objects: list[str]


class AmountChoice(_Model):
    """Amounts per object for an effect (a distribution or a split)."""

    effect: str
    amounts: dict[str, int]


class PlayChoices(_Model):
    """Choices made as the ability is played / finalized / enters the queue."""

    targets: list[TargetChoice] = Field(default_factory=list)
    modes: list[str] = Field(default_factory=list)
    move_destinations: dict[str, str] = Field(default_factory=dict)
    """effect id -> location id."""
    play_location: str | None = None
    distributions: list[AmountChoice] = Field(default_factory=list)
    deterministically_illegal: bool | None = None
    """Stated by the question: a choice made now will deterministically force an illegal
    choice/action later (355.16). ``None``: let the engine work it out from the state."""
    had_alternative: bool | None = None
    """Stated by the question: the player had another legal option (355.16)."""


class Event(_Model):
    """Something that happens between play and resolution.

    * ``set_stat`` / ``modify_stat``: ``object``, ``stat``, ``value`` (new value / delta);
    * ``move``: ``object`` to ``location``;
    * ``leave_play``: ``object`` leaves play (dies, is banished, returned...);
    * ``add_restriction`` / ``remove_restriction``: ``object``, ``restriction``;
    * ``become_illegal``: ``object`` stops meeting the ability's restrictions for a
      reason the scenario does not model;
    * ``change_controller``: ``object`` now controlled by ``player``.
    """

    kind: Literal[
        "set_stat",
        "modify_stat",
        "move",
        "leave_play",
        "add_restriction",
        "remove_restriction",
        "become_illegal",
        "change_controller",
    ]
    object: str
    stat: str | None = None
    value: int | None = None
    location: str | None = None
    restriction: Restriction | None = None
    player: str | None = None


class ResolutionChoices(_Model):
    """Choices proposed at resolution (the question may also carry them)."""

    split: list[AmountChoice] = Field(default_factory=list)
    subset: list[TargetChoice] = Field(default_factory=list)
    dropped: list[TargetChoice] = Field(default_factory=list)
    perform_optional: bool | None = None


class Timeline(_Model):
    """Play-time choices, then events before resolution, then resolution choices."""

    play: PlayChoices = Field(default_factory=PlayChoices)
    events: list[Event] = Field(default_factory=list)
    resolution: ResolutionChoices = Field(default_factory=ResolutionChoices)


# ------------------------------------------------------------------------ questions


class IsTarget(_Model):
    """Is X a target of this ability? X is ``object`` (an object/player/location id) or
    ``part`` of effect ``effect``: ``selected`` (what the effect selects, e.g. "the
    units", "the player who draws"), ``location`` (its location, e.g. "the
    battlefield"), ``source`` (the ability's source), ``ability`` (the ability itself)."""

    kind: Literal["is_target"] = "is_target"
    effect: str | None = None
    object: str | None = None
    part: Literal["selected", "location", "source", "ability"] = "selected"


class ValidTarget(_Model):
    """Is ``object`` a valid (legal) choice for effect ``effect``'s target slot, at play
    (default) or at resolution (after the timeline's events)?"""

    kind: Literal["valid_target"] = "valid_target"
    effect: str | None = None
    object: str
    when: When = "play"


class CanPlay(_Model):
    """Can the ability be played / initiated / put on the chain / placed into the queue?
    With the timeline's play choices when given; else: does any legal choice exist?"""

    kind: Literal["can_play"] = "can_play"
    stage: Literal["play", "trigger"] = "play"
    """``trigger``: does the ability trigger at all (11.4.3: it may trigger and then cease
    to exist without entering the queue), rather than can it be played / enter the queue."""


class Affected(_Model):
    """At resolution, is ``object`` affected (by effect ``effect``, default any)?"""

    kind: Literal["affected"] = "affected"
    effect: str | None = None
    object: str


class EffectPerformed(_Model):
    """At resolution, is effect ``effect`` (e.g. an untargeted "gain 2 life") performed?"""

    kind: Literal["effect_performed"] = "effect_performed"
    effect: str


class TargetsToDrop(_Model):
    """How many targets must cease to be targets at resolution (split reduction)?"""

    kind: Literal["targets_to_drop"] = "targets_to_drop"
    effect: str | None = None
    count: Literal["drop", "keep"] = "drop"
    """``keep``: the value is how many targets remain instead of how many are dropped."""


class LegalSplit(_Model):
    """Is this split of the amount among the targets legal at resolution? ``amounts``
    default to the timeline's resolution split. Includes the legal options when small."""

    kind: Literal["legal_split"] = "legal_split"
    effect: str | None = None
    amounts: dict[str, int] | None = None


class LegalSubset(_Model):
    """Is this subset of the original targets legal at resolution (group requirement,
    split reduction)? ``objects`` default to the timeline's resolution subset."""

    kind: Literal["legal_subset"] = "legal_subset"
    effect: str | None = None
    objects: list[str] | None = None


class LegalTargets(_Model):
    """Is this target set legal as the ability is played? ``objects`` default to the
    timeline's play-time targets for the effect. Includes the legal options when small."""

    kind: Literal["legal_targets"] = "legal_targets"
    effect: str | None = None
    objects: list[str] | None = None


class ListOptions(_Model):
    """List every legal choice of ``of`` for effect ``effect`` (targets at play; split or
    subset at resolution). Verdict is yes when at least one exists; value is the count."""

    kind: Literal["list_options"] = "list_options"
    effect: str | None = None
    of: Literal["targets", "split", "subset"] = "targets"


class AddTarget(_Model):
    """At resolution, can ``object`` (not originally chosen) be added as a new target?"""

    kind: Literal["add_target"] = "add_target"
    effect: str | None = None
    object: str | None = None


class ChoiceTiming(_Model):
    """Is a choice of kind ``choice`` made at ``when``? ("Is the Move destination chosen
    when played?" -> ``{"choice": "move_destination", "when": "play"}``)."""

    kind: Literal["choice_timing"] = "choice_timing"
    choice: ChoiceKind
    when: When = "play"
    text_requires_earlier: bool = False
    """The ability's text requires the choice earlier than the rules' default (11.4.6)."""
    text_defers: bool = False
    """The ability's text explicitly defers the choice (11.4.7)."""


class CanChangeChoices(_Model):
    """Can play-time choices (targets, modes...) be changed later? ``instructed``: a
    spell or ability instructs making new choices."""

    kind: Literal["can_change_choices"] = "can_change_choices"
    instructed: bool = False


class IsMandatory(_Model):
    """Is constraint ``constraint`` (index) of effect ``effect`` a mandatory requirement
    that must be followed if possible?"""

    kind: Literal["is_mandatory"] = "is_mandatory"
    effect: str | None = None
    constraint: int = 0


class PortionReassigned(_Model):
    """Is the portion of a distributed amount assigned to ``object`` (illegal at
    resolution) reassigned to another target? ``object`` optional for the general case."""

    kind: Literal["portion_reassigned"] = "portion_reassigned"
    effect: str | None = None
    object: str | None = None


Question = Annotated[
    IsTarget | ValidTarget | CanPlay | Affected | EffectPerformed | TargetsToDrop | LegalSplit | LegalSubset | LegalTargets | ListOptions | AddTarget | ChoiceTiming | CanChangeChoices | IsMandatory | PortionReassigned,
    Field(discriminator="kind"),
]
"""The question, discriminated by ``kind``."""

QuestionKind = Literal[
    "is_target",
    "valid_target",
    "can_play",
    "affected",
    "effect_performed",
    "targets_to_drop",
    "legal_split",
    "legal_subset",
    "legal_targets",
    "list_options",
    "add_target",
    "choice_timing",
    "can_change_choices",
    "is_mandatory",
    "portion_reassigned",
]


class Scenario(_Model):
    """A complete scenario: game, ability, state, timeline and question (version 1)."""

    schema_version: Literal[1] = 1
    game: str
    """Game id: ``riftbound``, ``marvel-champions``, ``momon-wonder``."""
    ability: Ability = Field(default_factory=Ability)
    state: State = Field(default_factory=State)
    timeline: Timeline = Field(default_factory=Timeline)
    question: Question


Pool.model_rebuild()
