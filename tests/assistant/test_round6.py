"""Round 6 mechanisms: plural anaphora bound to the group the situation singled out,
"only the original targets" as the converse of adding a target, "whose text identifies
only X" target types with the asked type read from the rest of the question, "the whole
ability does nothing" as the converse of the rest being performed, "N targets and M of
them became illegal" counts, and negative validity predicates ("invalid", "excluded as a
target"). Questions are our own wording, not any evaluation set's."""

from __future__ import annotations

from assistant import Assistant


def _v(assistant: Assistant, q: str, game: str) -> str:
    return assistant.ask(q, game=game).verdict


# ------------------------------------------------------------ 1. plural anaphora
def test_plural_anaphor_binds_to_the_illegal_group(assistant: Assistant) -> None:
    # The situation singles out the illegal pair: they are unaffected (11.4.5).
    assert _v(assistant, "At resolution 2 of an Ability's 4 targets are illegal. Do those two get affected?", "momon-wonder") == "no"
    assert _v(assistant, "3 of an Ability's 4 targets are still legal when it resolves. Are those three affected?", "momon-wonder") == "yes"


def test_plural_anaphor_with_the_wrong_size_abstains(assistant: Assistant) -> None:
    assert _v(assistant, "At resolution 2 of an Ability's 4 targets are illegal. Do those three get affected?", "momon-wonder") == "unknown"


def test_singular_that_target_binds_or_abstains(assistant: Assistant) -> None:
    assert _v(assistant, "When the Ability resolves only 1 of its 4 targets is still legal. Is that target affected?", "momon-wonder") == "yes"
    # Two legal targets: "that target" names none of them in particular.
    assert _v(assistant, "When the Ability resolves 2 of its 4 targets are still legal. Is that target affected?", "momon-wonder") == "unknown"


# ------------------------------------------------------------ 2. only the original targets
def test_only_the_original_targets_is_the_converse_of_adding_one(assistant: Assistant) -> None:
    q = "After I picked the targets for Alpha Strike my unit got bigger. Does the damage still go only to the initially chosen units?"
    a = assistant.ask(q, game="riftbound")
    assert a.verdict == "yes"


# ------------------------------------------------------------ 3. "identifies only X"
def test_text_naming_only_one_type_rejects_another(assistant: Assistant) -> None:
    assert _v(assistant, "An Ability's text names only players. Could an Arena Space be chosen as its target?", "momon-wonder") == "no"
    assert _v(assistant, "An Ability's text names only players. Could a player be chosen as its target?", "momon-wonder") == "yes"


def test_asked_type_differs_from_the_identified_type(assistant: Assistant) -> None:
    # Positive "identifies X as its target type" with another type asked about.
    q = "Can an Ability whose text identifies Arena Spaces as its target type be aimed at a player?"
    assert _v(assistant, q, "momon-wonder") == "no"


def test_two_asked_types_abstain(assistant: Assistant) -> None:
    q = "An Ability's text identifies only game objects. May a player or an Arena Space be chosen?"
    assert _v(assistant, q, "momon-wonder") == "unknown"


# ------------------------------------------------------------ 4. does nothing / fizzles
def test_whole_ability_does_nothing_only_when_every_target_is_illegal(assistant: Assistant) -> None:
    assert _v(assistant, "Every target of an Ability has become illegal by resolution. Does it fizzle?", "momon-wonder") == "yes"
    assert _v(assistant, "An Ability has four targets and one becomes illegal before it resolves. Does the entire Ability have no effect?",
              "momon-wonder") == "no"


def test_n_targets_and_m_illegal_is_m_of_n(assistant: Assistant) -> None:
    # Not "all four illegal": the second number is the illegal count.
    q = "An Ability has four targets and two become illegal before it resolves. Is the remaining legal one affected?"
    assert _v(assistant, q, "momon-wonder") == "unknown"  # two remain legal: "the one" names none
    q2 = "An Ability has four targets and four become illegal before it resolves. Does the whole Ability do nothing?"
    assert _v(assistant, q2, "momon-wonder") == "yes"


# ------------------------------------------------------------ 5. negative validity predicates
def test_invalid_target_is_the_converse_of_valid(assistant: Assistant) -> None:
    q = 'Would an enemy that "cannot take damage" be an invalid target for "deal 4 damage to an enemy"?'
    assert _v(assistant, q, "marvel-champions") == "yes"
    q2 = 'Would a minion be an invalid target for "deal 4 damage to a minion"?'
    assert _v(assistant, q2, "marvel-champions") == "no"


def test_excluded_as_a_target(assistant: Assistant) -> None:
    q = "For an attack-labeled card, is an enemy that cannot be attacked excluded as a target?"
    assert _v(assistant, q, "marvel-champions") == "yes"


def test_only_effect_is_damage_describes_the_ability(assistant: Assistant) -> None:
    q = "A card's only effect is to deal damage. Is an enemy that cannot take damage an ineligible target for it?"
    assert _v(assistant, q, "marvel-champions") == "yes"


def test_no_effect_predicate_is_a_negation_cue(assistant: Assistant) -> None:
    from assistant.coverage import uncovered

    # "there is no effect" names an absence: unaccounted, it must make the answer abstain.
    q = "An Ability has four targets and one becomes illegal before it resolves. Is there no effect from the Ability?"
    assert _v(assistant, q, "momon-wonder") == "unknown"
    # "no effect allows it" is a determiner phrase, not a predicate.
    assert not [c for c in uncovered("Can I change targets if no effect allows it?", []) if "no effect" in c.text]


def test_the_character_whose_stat_is_used_is_the_source_not_the_proposed_target(assistant: Assistant) -> None:
    # "Hero with 0 THW ... basic thwart a scheme": the hero uses its THW; the scheme is the target.
    q = "Hero with 0 THW (thanks, encounter card) wants to basic thwart a scheme that has threat on it. Allowed?"
    assert _v(assistant, q, "marvel-champions") == "yes"


def test_the_asking_clauses_own_subject_is_the_asked_object(assistant: Assistant) -> None:
    # The battlefield is mentioned after the asked subject ("the unit"): the unit is asked about.
    q = ('If a card reads "kill a unit at a battlefield", is the unit the thing being targeted, with the '
         "battlefield just limiting where it can be?")
    assert _v(assistant, q, "riftbound") == "yes"
    assert _v(assistant, 'Does "Kill a unit at a battlefield" target the battlefield?', "riftbound") == "no"
