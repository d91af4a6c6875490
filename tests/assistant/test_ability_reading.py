"""The ability grammar accounts for every word of the text it reads: what it leaves over is
a partial read, which the answer refuses. Pure units: no index, no model."""

from __future__ import annotations

from assistant.abilities import parse_ability


def _read(text: str):  # type: ignore[no-untyped-def]
    pa = parse_ability(text)
    assert pa is not None, text
    return pa


def test_a_fully_read_ability_leaves_nothing_over() -> None:
    assert _read("Kill a unit; its controller draws 2").unread == ()
    assert _read("Deal 2 damage to each enemy minion, then heal 1 damage from your hero.").unread == ()


def test_a_situation_run_into_the_ability_text_is_left_over() -> None:
    left = _read("choose 2 targets but only 1 legal thing exists").unread
    assert {"only", "legal", "exists"} <= set(left)


def test_a_negation_the_reading_dropped_is_left_over() -> None:
    assert "can't" in _read("Stun an enemy that can't be damaged").unread


def test_an_instruction_the_grammar_cannot_read_is_left_over() -> None:
    # "chooses a unit they control": the opponent's choice is not an effect the grammar reads.
    left = _read("affect an opponent chooses a unit they control and kills it").unread
    assert "control" in left


def test_a_target_noun_phrase_reads_the_type_after_target() -> None:
    pa = _read("deal 2 to a target character")
    assert pa.ability["effects"][0]["selection"]["pool"]["types"] == ["character"]
    assert pa.unread == ()


def _described(question: str):  # type: ignore[no-untyped-def]
    from assistant.intents import KindClassifier
    from assistant.parse import Parser
    from assistant.textnorm import normalise, outside_quotes

    q = normalise(question)
    return Parser(KindClassifier()).ability(q, outside_quotes(q))


def test_an_instruction_after_the_card_that_carries_it_is_the_ability() -> None:
    pick = _described("crisis icon is out and I use an ability that removes 1 threat from each scheme. how much comes off?")
    assert pick is not None and pick.ability["effects"][0]["action"] == "remove_threat"
    assert pick.ability["effects"][0]["selection"]["kind"] == "all"


def test_an_instruction_leading_the_question_is_the_ability() -> None:
    pick = _described("Kill a unit at a battlefield — is the battlefield a target too?")
    assert pick is not None and pick.ability["effects"][0]["action"] == "kill"


def test_an_instruction_the_grammar_reads_only_in_part_is_not_taken_for_the_ability() -> None:
    assert _described("my spell says gain control of a unit until it dies. is it targeted?") is None


ONE_TARGET = {"effects": [{"id": "e1", "selection": {"kind": "choose", "count": {"mode": "exactly", "n": 1}}}]}


def test_a_counted_subject_that_went_illegal_gives_the_counts() -> None:
    from assistant.parse import illegal_stated

    assert illegal_stated("2 targets, 1 goes illegal before resolution. is the other affected?", None)[:2] == (2, 1)  # type: ignore[index]
    # One target, gone by resolution: the ability's only target.
    assert illegal_stated("the unit's gone by resolution. do i still draw?", ONE_TARGET)[:2] == (1, 1)  # type: ignore[index]


def test_an_illegal_target_with_no_count_to_place_it_is_not_guessed() -> None:
    from assistant.parse import illegal_stated

    assert illegal_stated("is a target that became illegal by resolution still affected?", None) is None
    # One illegal target of an ability with several, and nothing says another stayed legal.
    assert illegal_stated("the unit's gone by resolution. do i still draw?", None) is None


def test_the_name_of_a_step_is_no_ability() -> None:
    assert _described("does unspent mana from my upkeep carry over into the draw step?") is None
    drew = _described("my event says draw a card. can I play it with no targets around?")
    assert drew is not None and drew.ability["effects"][0]["action"] == "draw"
