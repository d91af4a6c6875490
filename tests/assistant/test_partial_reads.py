"""End to end on the real index: a reading that leaves part of the card text unread, or a
number that would come from a fact the question never stated, is an abstention with the
reason; a question the grammar has no form for is classified by the learned classifier."""

from __future__ import annotations

import pytest

from assistant import Assistant

# A reading that would rule on part of what the question says abstains, and says why.
PARTIAL = [
    pytest.param('Ability text: "Distribute 3 damage among up to 3 targets. Then return a card from your discard to '
                 'your hand." One target goes illegal. Is its damage reassigned to the others?', "momon-wonder",
                 "card text you quoted", id="quoted-text-no-reading-uses"),
    pytest.param('Ability text: "Choose two targets. Then shuffle your graveyard into your deck." Can I choose the '
                 "same object for both target slots?", "momon-wonder", "only part of the ability's text",
                 id="card-sentence-read-only-by-the-question"),
]


@pytest.mark.parametrize(("question", "game", "reason"), PARTIAL)
def test_a_partial_reading_abstains_and_says_why(assistant: Assistant, question: str, game: str, reason: str) -> None:
    a = assistant.ask(question, game=game)
    assert a.verdict == "unknown" and a.value is None
    assert reason in a.answer


# Card text the grammar reads only in part, whose whole sentence is what a rule settles: the
# rule fact answers, cites the rule and states its reading (or, for a quoted instruction to
# redistribute, the grammar reads it as 11.4.9's express instruction).
@pytest.mark.parametrize(("question", "rule", "reading"), [
    (('Ability text: "Distribute 3 damage among up to 3 targets. If a target becomes illegal, redistribute its '
     'damage among the remaining targets." One target goes illegal. Is its damage reassigned to the others?'), "11.4.9",
     "expressly instructs redistribution"),
    (('Ability text: "Choose two targets. The same target may be chosen for both." Can I choose the same object for '
     "both target slots?"), "11.4.4", "I read the question as"),
])
def test_card_text_a_rule_settles_whole_is_answered_by_that_rule(assistant: Assistant, question: str,
                                                                 rule: str, reading: str) -> None:
    a = assistant.ask(question, game="momon-wonder")
    assert a.verdict == "yes", a.answer
    assert reading in a.answer
    assert a.citations and a.citations[0].rule == rule


def test_a_wording_no_grammar_form_knows_is_classified_by_the_learned_classifier(assistant: Assistant) -> None:
    question = "a minion can't be attacked — can I pick it for an attack-labeled ability?"
    via = assistant.explain(question, game="marvel-champions")["kind_via"]
    assert via.startswith("classifier:"), via
    a = assistant.ask(question, game="marvel-champions")
    assert a.verdict == "no"


def test_the_answer_comes_with_the_frame_it_was_decided_from(assistant: Assistant) -> None:
    from engine import Scenario

    question = 'Is "Kill all units at a battlefield" targeting the units?'
    done = assistant.explained(question, game="riftbound")
    assert done.answer.verdict == assistant.ask(question, game="riftbound").verdict == "no"
    frame = done.understanding.frame if done.understanding else None
    assert frame is not None and frame.extractor == "grammar" and frame.kind == "is_target"
    assert frame.scenarios and all(isinstance(s, Scenario) for s in frame.scenarios)
    for slot in frame.slots:
        if slot.evidence.stated:
            assert frame.question[slot.evidence.start:slot.evidence.end].lower() == \
                slot.evidence.words.strip().lower()  # type: ignore[misc]


def test_an_abstention_without_a_reading_has_no_frame(assistant: Assistant) -> None:
    done = assistant.explained("what is the best deck right now?", game="riftbound")
    assert done.answer.verdict == "unknown"
    assert done.understanding is None or done.understanding.frame is None


def test_a_question_no_vocabulary_places_is_placed_by_the_learned_game_classifier(assistant: Assistant) -> None:
    question = 'Can I play "deal 3 damage to an enemy" when no enemies are in play?'
    done = assistant.explained(question)
    u = done.understanding
    assert u is not None and u.game == "marvel-champions"
    assert u.game_because.startswith("the learned game classifier")
    assert done.answer.verdict == "no"


def test_a_kind_the_grammar_cannot_build_gives_way_to_the_learned_classifiers_sure_kind(assistant: Assistant) -> None:
    from assistant.intents import KindClassifier
    from assistant.textnorm import normalise

    # The grammar reads "can I use" as "can it be played?", which this situation cannot
    # fill; the learned classifier reads "is it a valid target?".
    question = "there's a minion out that can't be attacked. can I use an attack-labeled event on it?"
    done = assistant.explained(question, game="marvel-champions")
    u = done.understanding
    grammar = KindClassifier().classify(normalise(u.read if u else question))
    assert grammar.kind == "can_play"
    assert u is not None and u.kind == "valid_target" and u.kind_via.startswith("classifier:")
    assert done.answer.verdict == "no"


def test_a_number_a_classifier_read_question_states_must_be_used(assistant: Assistant) -> None:
    # No question form names the kind; the learned classifier does. "2 enemies" is a fact
    # the basic-attack reading would drop.
    a = assistant.ask("two-gun kid's basic attack — can i pick the guard minion thats engaged with me "
                      "AND the villain as my 2 enemies?", game="marvel-champions")
    assert a.verdict == "unknown"


def test_the_object_whose_stat_a_basic_power_uses_is_its_source_not_its_target(assistant: Assistant) -> None:
    a = assistant.ask("A character with ATK 0 wants to basic attack a minion that can otherwise be attacked. "
                      "Is that allowed?", game="marvel-champions")
    assert a.verdict == "yes"


def test_a_label_the_question_gives_quoted_text_is_read(assistant: Assistant) -> None:
    a = assistant.ask("attack-labeled event: 'deal 3 damage to an enemy and stun it'. the villain can't be "
                      "attacked but could be stunned. is the villain a valid target?", game="marvel-champions")
    assert a.verdict == "no"
