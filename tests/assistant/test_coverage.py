"""Polarity, coverage abstention, condition clauses, game vocabulary and the question kinds
added for them. Questions here are our own wording, not any evaluation set's."""

from __future__ import annotations

import pytest

from assistant import Assistant
from assistant.coverage import baseline_spans, cues, polarity, uncovered
from assistant.games import distinctive_vocabulary
from assistant.words import stem


# ------------------------------------------------------------------ unit: polarity
def test_asserted_negation_is_inverted() -> None:
    p = polarity('Is it true that "Stun a unit" does not target it?')
    assert p.negated and p.words == "not"
    assert polarity("So the legend isn't targeted, right?").negated


def test_negation_describing_the_situation_is_not_polarity() -> None:
    text = "Is it true that a minion that cannot take damage is a valid target?"
    start = text.index("cannot take damage")
    p = polarity(text, [(start, start + len("cannot take damage"))])
    assert not p.negated


def test_leading_negative_auxiliary_asks_the_positive_question() -> None:
    p = polarity("Isn't the unit a target of that spell?")
    assert not p.negated and p.spans  # credited, not inverted


def test_double_negation_is_not_guessed() -> None:
    assert not polarity("Is it true that it can't never be chosen?").negated


def test_negative_predicate_inverts() -> None:
    assert polarity("Are events exempt from needing a target?").negated


# ------------------------------------------------------------------ unit: cues
def test_cues_name_logic_words() -> None:
    cats = {c.category for c in cues("Unless the text expressly permits it, can I choose more than 2 and ignore the rest?")}
    assert {"condition", "express", "quantity", "predicate"} <= cats


def test_uncovered_respects_credited_spans() -> None:
    text = "May I choose only 2 targets?"
    i = text.index("only 2")
    assert uncovered(text, []) and not uncovered(text, [(i, i + 6)])


def test_baseline_statements_are_not_conditions() -> None:
    text = "The card says nothing about redistribution and has no exception."
    spans = baseline_spans(text)
    assert not uncovered(text, spans)


def test_distinctive_vocabulary_keeps_only_one_games_terms() -> None:
    v = distinctive_vocabulary({
        "a": ["Put it on the Chain. Then the Chain resolves. The unit takes damage here."],
        "b": ["Place it in the Trigger Queue. The Trigger Queue empties. It takes damage here."],
    })
    assert "chain" in v["a"] and "chain" not in v["b"]
    assert f"trigger {stem('queue')}" in v["b"]  # terms are kept stemmed, as questions are read
    assert "take" not in v["a"] | v["b"]  # shared and ordinary words never count


# ------------------------------------------------------------------ end to end
def _ask(assistant: Assistant, q: str, game: str | None) -> tuple[str, int | None, list[str]]:
    a = assistant.ask(q, game=game)
    return a.verdict, a.value, [c.rule for c in a.citations]


@pytest.mark.parametrize(
    ("plain", "negated", "game"),
    [
        ('Does "Stun a unit" target the unit?', 'Is it true that "Stun a unit" does not target the unit?', "riftbound"),
        ('Does "Ready your legend" target?', "\"Ready your legend\" doesn't target, correct?", "riftbound"),
        ("Is a minion that cannot take damage a valid target for \"deal 2 damage to a minion\"?",
         "Is it true that a minion that cannot take damage isn't a valid target for \"deal 2 damage to a minion\"?",
         "marvel-champions"),
    ],
)
def test_negated_statement_inverts_the_verdict(assistant: Assistant, plain: str, negated: str, game: str) -> None:
    v1, _, c1 = _ask(assistant, plain, game)
    v2, _, c2 = _ask(assistant, negated, game)
    assert v1 in {"yes", "no"}
    assert v2 == ("no" if v1 == "yes" else "yes")
    assert c1[:1] == c2[:1]  # the same deciding rule
    ans = assistant.ask(negated, game=game)
    assert "statement is" in ans.answer


@pytest.mark.parametrize(
    ("question", "game"),
    [
        ('Unless the text says otherwise, does "Stun a unit" target the unit?', "riftbound"),
        ("Does targeting let me ignore the total Might limit of the group?", "riftbound"),
        ("Is the ability's cost taken into account when deciding if it can affect a minion?", "marvel-champions"),
        ("For 'choose 2 targets', can I choose more than 2?", "momon-wonder"),
        ("Is it true that it can't never be chosen for 'choose 2 targets'?", "momon-wonder"),
        ('Does Alpha Strike\'s reduction open up the choice so "Kill a unit" can pick new targets?', "riftbound"),
    ],
)
def test_unaccounted_words_abstain(assistant: Assistant, question: str, game: str) -> None:
    a = assistant.ask(question, game=game)
    assert a.verdict == "unknown", (a.answer, a.scenario)


def test_condition_clause_changes_the_scenario(assistant: Assistant) -> None:
    base = assistant.ask("Can one object fill 2 target slots of the same Ability?", game="momon-wonder")
    cond = assistant.ask("If an Ability expressly permits duplicate targets, can one object fill 2 of its target slots?",
                         game="momon-wonder")
    assert (base.verdict, cond.verdict) == ("no", "yes")
    assert cond.citations[0].rule == "11.4.4"
    assert cond.scenario and cond.scenario["ability"]["effects"][0]["selection"]["duplicates"] is True


def test_express_redistribution_and_earlier_choice(assistant: Assistant) -> None:
    v, _, c = _ask(assistant, "When the Ability explicitly instructs redistribution, does the portion on an illegal "
                   "target get reassigned?", "momon-wonder")
    assert (v, c[0]) == ("yes", "11.4.9")
    v, _, c = _ask(assistant, "Is the 'may' decision made at resolution if the ability's text requires the choice earlier?",
                   "momon-wonder")
    assert (v, c[0]) == ("no", "11.4.6")


def test_how_many_kept_is_a_number(assistant: Assistant) -> None:
    a = assistant.ask("Alpha Strike: my unit started at 4 Might with 4 enemy targets and fell to 3 Might. "
                      "How many targets remain?", game="riftbound")
    assert a.value == 3 and a.citations[0].doc == "riftbound-targets-guide"


def test_that_target_needs_the_earlier_effect(assistant: Assistant) -> None:
    a = assistant.ask("Could 'Deal 3 damage to an enemy. Exhaust that enemy.' be used to exhaust an enemy that "
                      "cannot take damage?", game="marvel-champions")
    assert a.verdict == "no" and a.citations[0].rule == "target.3.10"


def test_up_to_more_than_allowed_cites_the_count_rule(assistant: Assistant) -> None:
    a = assistant.ask("'Choose up to 3 targets': may I pick 4?", game="momon-wonder")
    assert a.verdict == "no" and a.citations[0].rule == "11.4.2"


def test_triggers_but_does_not_enter_queue(assistant: Assistant) -> None:
    a = assistant.ask("'Choose 3 targets' and only 2 are legal: does the Ability still trigger?", game="momon-wonder")
    assert a.verdict == "yes" and a.citations[0].rule == "11.4.3"


def test_game_from_rule_vocabulary(assistant: Assistant) -> None:
    a = assistant.ask('"Choose 3 targets" with just 2 legal targets: is it put into the Trigger Queue?')
    assert a.game == "momon-wonder" and a.verdict == "no"


def test_other_than_is_a_contrast_the_reading_must_use() -> None:
    text = "may the unit be played somewhere other than here?"
    assert [c.text for c in uncovered(text, []) if c.category == "contrast"] == ["other than"]


def test_the_same_object_in_players_words_is_a_quantity_the_reading_must_use() -> None:
    text = "can i put the same guy in two of the slots?"
    assert [c.text for c in uncovered(text, []) if c.category == "quantity"] == ["the same guy"]


def test_a_sentence_ending_inside_quoted_text_ends_before_the_asking_sentence() -> None:
    from assistant.parse import ask_clause

    assert ask_clause('Ability text: "choose 3 targets." How many do I need?') == "How many do I need?"


def test_a_clause_naming_a_total_without_a_yes_no_question_asks_for_a_number() -> None:
    from assistant.service import asks_number

    assert asks_number("Total damage dealt?")
    assert asks_number("how much damage does the other target take?")
    assert not asks_number("Is the total Might 4 or less?")
    assert not asks_number("For split damage, do I decide how much each target gets while finalizing?")
    assert not asks_number("Is zero a permitted number of targets?")


def test_a_number_asked_for_after_quoted_card_text_and_a_dash_is_asked_for() -> None:
    from assistant.service import asks_number

    assert asks_number('"up to 4 units" \u2014 what\'s the fewest targets I can pick?')
    assert asks_number("split 4 dmg: how much does the other unit take?")
    assert not asks_number('"up to 4 units" \u2014 can I pick none of them?')


def test_an_empty_board_is_an_absence_the_reading_must_use() -> None:
    text = "board is empty of minions. can i play it anyway?"
    assert [c.text for c in uncovered(text, []) if c.category == "negation"] == ["empty"]


def test_a_proposal_made_instead_is_a_contrast_the_reading_must_use() -> None:
    text = "can i pick an arena space as that target instead?"
    assert [c.text for c in uncovered(text, []) if c.category == "contrast"] == ["instead"]


def test_a_number_asked_for_after_a_scene_setting_comma_is_asked_for() -> None:
    from assistant.service import asks_number

    assert asks_number("Once I cast it, what's the largest number of units I can pick?")
    assert asks_number("ok so, how many do I keep?")
    assert not asks_number("if it has 2 targets, is the total 4?")


def test_a_situation_lacking_what_the_reading_assumes_is_a_negation_the_reading_must_use() -> None:
    for text, word in [("can i basic attack when there's no valid enemy?", "no valid"),
                       ("no minions are in play. can i still play it?", "no minions")]:
        assert [c.text for c in uncovered(text, []) if c.category == "negation"] == [word]


def test_a_denied_necessity_is_not_a_denied_property() -> None:
    text = "is it true that an area effect doesn't need every unit to be a legal target?"
    assert [c.category for c in uncovered(text, []) if c.category == "necessity"] == ["necessity"]


def test_a_moment_before_resolution_is_not_resolution(assistant: Assistant) -> None:
    ans = assistant.ask('My unit says "As you play me, choose an enemy unit." Do I pick that enemy while I play the card, '
                        "before anything resolves?", game="riftbound")
    assert ans.verdict == "yes", ans.answer


def test_the_choice_asked_about_is_the_object_of_the_asked_choosing_verb(assistant: Assistant) -> None:
    ans = assistant.ask("with split damage, do i pick the targets while i'm playing the spell?", game="riftbound")
    assert ans.verdict == "yes", ans.answer
    assert "targets" in ans.answer


def test_a_game_state_the_reading_does_not_use_is_not_ruled_on(assistant: Assistant) -> None:
    # A scheme's threat decides what may be thwarted; a reading that assumes a scheme
    # with threat answers another question.
    ans = assistant.ask("can my hero basic thwart if every scheme sits at 0 threat?", game="marvel-champions")
    assert ans.verdict != "yes", ans.answer


def test_game_states_are_concepts_a_reading_must_use() -> None:
    from assistant.gates import ConceptGate
    from assistant.lexicon import load_lexicon

    gate = ConceptGate(load_lexicon())
    q = 'The crisis icon is out. My card says "Remove 1 threat from a scheme." Is the main scheme a valid target?'
    assert [u.word for u in gate.unread(q, ["Remove 1 threat from a scheme", "valid target"])] == ["crisis"]
    assert gate.unread(q, ["crisis", "Remove 1 threat from a scheme", "valid target"]) == []
    assert [u.word for u in gate.unread("my ally is stunned, can i ready it?", ["ready"])] == ["stunned"]
