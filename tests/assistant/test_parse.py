"""Parsing: ability grammar, numbers as words, question kinds in many phrasings."""

from __future__ import annotations

import pytest

from assistant.abilities import parse_ability
from assistant.intents import KindClassifier
from assistant.textnorm import fold, normalise, words_to_digits


def test_numbers_as_words() -> None:
    assert words_to_digits("four 1-Might Recruits and two targets") == "4 1-Might Recruits and 2 targets"
    assert normalise("“Kill a unit”  twice") == '"Kill a unit" twice'
    assert fold("Rek'Sai") == fold("reksai") == fold("Rek Sai")


@pytest.mark.parametrize(
    ("text", "kind", "count"),
    [
        ("Kill a unit", "choose", ("exactly", 1)),
        ("Stun up to two units", "choose", ("up_to", 2)),
        ("Choose any number of units", "choose", ("any_number", None)),
        ("Choose 3 targets", "choose", ("exactly", 3)),
        ("choose three targets", "choose", ("exactly", 3)),
        ("Deal 2 to all units at a battlefield", "all", None),
        ("remove 1 threat from each scheme", "all", None),
        ("Ready your legend", "fixed", None),
        ("Pick a unit", "pick", None),
        ("When a unit dies", "trigger_condition", None),
    ],
)
def test_ability_grammar(text: str, kind: str, count: tuple[str, int | None] | None) -> None:
    pa = parse_ability(text)
    assert pa is not None
    sel = pa.ability["effects"][0]["selection"]
    assert sel["kind"] == kind
    if count:
        assert (sel["count"]["mode"], sel["count"]["n"]) == count
    assert pa.because, "every parse records the words behind it"


def test_location_scope_and_reference() -> None:
    one = parse_ability("Kill all units at a battlefield")
    anyb = parse_ability("Stun all units at battlefields")
    assert one and anyb
    assert one.ability["effects"][0]["selection"]["pool"]["location"]["scope"] == "one"
    assert anyb.ability["effects"][0]["selection"]["pool"]["location"]["scope"] == "any"
    two = parse_ability("Deal 5 damage to an enemy. Stun that enemy.")
    assert two and two.ability["effects"][1]["selection"]["kind"] == "reference"
    ctl = parse_ability("Kill a unit; its controller draws 2")
    assert ctl and ctl.ability["effects"][1]["selection"]["ref_role"] == "controller"


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ('Does "Kill a unit" target the unit?', "is_target"),
        ('Is the unit targeted by "Stun a unit"?', "is_target"),
        ("Would that count as a target?", "is_target"),
        ("Can I play it with zero targets?", "can_play"),
        ("Can it be initiated?", "can_play"),
        ("Does the Ability enter the Trigger Queue?", "can_play"),
        ("Can a hero with ATK 0 make a basic attack?", "can_play"),
        ("How many targets must I drop?", "targets_to_drop"),
        ("How many targets do I have to give up?", "targets_to_drop"),
        ("Is the damage amount chosen at resolution?", "choice_timing"),
        ("When is the destination decided?", "choice_timing"),
        ("Can targets be changed after finalization?", "can_change"),
        ("Can I swap the targets later?", "can_change"),
        ("Is it a mandatory requirement?", "is_mandatory"),
        ("Is the portion redistributed?", "portion_reassigned"),
        ("Is a minion that cannot take damage a valid target?", "valid_target"),
        ("Does it need a target to be initiated?", "needs_target"),
        ("Can I keep three targets?", "legal_subset"),
        ("Can I add a new target at resolution?", "add_target"),
        ("May one player fill two target slots?", "legal_targets"),
        ("Is the third target still affected?", "affected"),
        ("Is the untargeted part still performed?", "effect_performed"),
    ],
)
def test_question_kinds(question: str, kind: str) -> None:
    assert KindClassifier().classify(question).kind == kind


def test_situation_sentence_does_not_decide_kind() -> None:
    # "requires a target unit" describes the spell; the asking sentence is "Can I cast it?".
    g = KindClassifier().classify("My spell requires a target unit but there are none. Can I cast it?")
    assert g.kind == "can_play"


def test_embedding_fallback_threshold() -> None:
    # A wording the grammar does not know goes to the embedding model; below the threshold
    # the kind is unknown (answer abstains).
    c = KindClassifier(lambda t: [1.0, 0.0], lambda ts: [[0.0, 1.0] for _ in ts])
    g = c.classify("Tell me a story about dragons")
    assert g.kind is None and g.via == "embedding"
