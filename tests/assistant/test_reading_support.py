"""Readings added after final-v17's first score: card text that itself instructs
redistribution, a proposed target the reading cannot place ("the Sentry itself"), a yes/no
question about an amount after a short lead ("with split damage do I ..."), a rule fact read
for a card whose text does not read only when retrieval found its rule, and the contrast
gate. Every question is our own wording."""

from __future__ import annotations

from assistant_fakes import BagOfWords

from assistant import Assistant
from assistant.facts import Fact, FactReading, NoFact, RuleFacts, Wording
from assistant.service import asks_number

bag = BagOfWords(512)

SICK = Fact(id="sick", game="mtg", doc="cr", rule="302.6", quote="q", ask="can a creature tap the turn it arrives",
            answer="no", wordings=(Wording(q="can my new creature tap for mana this turn", a="no"),))
QUESTION = "is a new creature of mine able to tap for mana this turn"


def test_only_a_fact_whose_rule_retrieval_found_is_read_when_only_found_rules_may_answer() -> None:
    reader = RuleFacts([SICK], bag.documents, threshold=0.3, margin=0.0, sure=1.01)
    v = bag(QUESTION)
    got = reader.read(QUESTION, v, "mtg", found=frozenset({("cr", "302.6")}), found_only=True)
    assert isinstance(got, FactReading) and got.answer == "no"
    other = reader.read(QUESTION, v, "mtg", found=frozenset({("cr", "702.10")}), found_only=True)
    assert isinstance(other, NoFact) and "not among the rules found" in other.reason


def test_a_yes_no_question_about_an_amount_after_a_short_lead_asks_no_number() -> None:
    assert not asks_number("with split damage do i only decide how much each target gets when it resolves?")
    assert asks_number("with three units out, how many are targeted?")
    assert asks_number("total damage dealt?")


def test_card_text_that_instructs_reassignment_is_the_express_instruction(assistant: Assistant) -> None:
    a = assistant.ask("the card I cast reads 'if a target becomes illegal, reassign its damage to another target.' "
                      "does the damage get reassigned then?", game="momon-wonder")
    assert a.verdict == "yes"
    assert any(c.rule == "11.4.9" for c in a.citations)


def test_card_text_that_denies_reassignment_is_no_instruction(assistant: Assistant) -> None:
    a = assistant.ask("the card I cast reads 'split 4 damage among two targets; do not reassign it.' "
                      "if one target becomes illegal, does its damage get reassigned?", game="momon-wonder")
    assert a.verdict != "yes"


def test_a_proposed_target_the_reading_cannot_place_abstains(assistant: Assistant) -> None:
    a = assistant.ask("my unit Stonewall Guard has 'When I defend, give a unit here +2 Might this turn.' "
                      "can that ability target the Guard itself?", game="riftbound")
    assert a.verdict == "unknown" and a.error


PATROL = Fact(id="patrol", game="marvel-champions", doc="rr", rule="patrol", quote="q",
              ask="with a patrol minion engaged can i thwart the main scheme", answer="no",
              wordings=(Wording(q="patrol minion engaged with me, can i thwart the main scheme", a="no"),))


def test_a_question_about_one_side_of_a_contrast_is_not_a_wording_about_the_other() -> None:
    reader = RuleFacts([PATROL], bag.documents, threshold=0.3, margin=0.0, sure=1.01)
    same = "a patrol minion is engaged with me, so can i thwart the main scheme"
    assert isinstance(reader.read(same, bag(same), "marvel-champions"), FactReading)
    other = "a patrol minion is engaged with me, so can i thwart a side scheme"
    got = reader.read(other, bag(other), "marvel-champions")
    assert isinstance(got, NoFact) and "'sid'" in got.reason


def test_a_cards_own_rules_text_leaves_out_keywords_and_reminder_text() -> None:
    from assistant.service import _own_words

    assert _own_words(["Guard.(While this minion is engaged with you, you cannot attack the villain.)"]) == frozenset()
    assert _own_words(["[Action] (Play on your turn or in showdowns.)", "Retaliate 1."]) == frozenset()
    got = _own_words(["You may control 1 additional ally (4 in all)."])
    assert {"control", "ally"} <= got and "showdown" not in got
