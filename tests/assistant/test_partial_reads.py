"""End to end on the real index: a reading that leaves part of the card text unread, or a
number that would come from a fact the question never stated, is an abstention with the
reason; a question the grammar has no form for is classified by the learned classifier."""

from __future__ import annotations

from assistant import Assistant


def test_card_text_read_only_in_part_is_not_ruled_on(assistant: Assistant) -> None:
    a = assistant.ask("card says 'an opponent chooses a unit they control and kills it'. "
                      "is my opp's unit targeted by my card?", game="riftbound")
    assert a.verdict == "unknown"
    assert "only part of the ability's text" in a.answer


def test_a_situation_run_into_the_described_ability_is_not_dropped(assistant: Assistant) -> None:
    a = assistant.ask("trigger says choose 2 targets but only 1 legal thing exists. "
                      "does it go into the queue with just the one?", game="momon-wonder")
    assert a.verdict == "unknown"


def test_a_number_from_an_unstated_count_is_not_given(assistant: Assistant) -> None:
    a = assistant.ask("Alpha Strike, my friendly unit has 4 might when i play it. what's the max "
                      "number of enemy units i can choose to split the damage between?", game="riftbound")
    assert a.verdict == "unknown" and a.value is None
    assert "how many targets were chosen" in a.answer


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


def test_quoted_card_text_no_part_of_the_reading_used_is_not_replaced_by_a_generic_ability(assistant: Assistant) -> None:
    a = assistant.ask('Ability text: "Distribute 3 damage among up to 3 targets. If a target becomes illegal, '
                      'redistribute its damage among the remaining targets." One target goes illegal. '
                      "Is its damage reassigned to the others?", game="momon-wonder")
    assert a.verdict == "unknown"
    assert "card text you quoted" in a.answer


def test_a_label_the_question_gives_quoted_text_is_read(assistant: Assistant) -> None:
    a = assistant.ask("attack-labeled event: 'deal 3 damage to an enemy and stun it'. the villain can't be "
                      "attacked but could be stunned. is the villain a valid target?", game="marvel-champions")
    assert a.verdict == "no"


def test_a_sentence_of_quoted_text_is_not_read_by_the_questions_own_words(assistant: Assistant) -> None:
    a = assistant.ask('Ability text: "Choose two targets. The same target may be chosen for both." '
                      "Can I choose the same object for both target slots?", game="momon-wonder")
    assert a.verdict == "unknown"
