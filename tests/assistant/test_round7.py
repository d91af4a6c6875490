"""Round 7 mechanisms: "prevent(ed) X from <verb>ing" is a negated ability to act (not a
damage-prevention restriction), and a generic damage ability read from "an ability that
deals it damage" / "damage that is dealt". Questions are our own wording."""

from __future__ import annotations

from assistant import Assistant


def _v(assistant: Assistant, q: str, game: str) -> str:
    return assistant.ask(q, game=game).verdict


def test_prevented_from_acting_is_the_negation_of_can_play(assistant: Assistant) -> None:
    q = 'With zero minions on the table, is "deal 3 damage to a minion" prevented from being played?'
    assert _v(assistant, q, "marvel-champions") == "yes"
    q2 = 'With three minions on the table, is "deal 3 damage to a minion" prevented from being played?'
    assert _v(assistant, q2, "marvel-champions") == "no"


def test_stat_zero_does_not_prevent_a_basic_power(assistant: Assistant) -> None:
    q = "Would a THW of 0 prevent my hero from making a basic thwart against a side scheme?"
    assert _v(assistant, q, "marvel-champions") == "no"


def test_generic_ability_that_deals_it_damage(assistant: Assistant) -> None:
    q = "Every point of damage to the minion will be prevented. Can an event that deals it damage still pick it as the target?"
    assert _v(assistant, q, "marvel-champions") in {"yes", "unknown"}
    q2 = "That minion's damage would all be prevented. Is it still a valid target for a card which deals it damage?"
    assert _v(assistant, q2, "marvel-champions") == "yes"
