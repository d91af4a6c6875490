"""The rule-fact reader's gates, with a bag-of-words embedder behind its seam (pure units:
no index, no model), and the packaged facts read end to end by the real assistant."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from assistant_fakes import BagOfWords

from assistant.facts import (
    Asked,
    Fact,
    FactReading,
    NoFact,
    RuleFacts,
    Wording,
    anchored,
    load_facts,
    negations,
)

bag = BagOfWords(512)


YesNo = Literal["yes", "no"] | int


def fact(id: str, answer: YesNo, *wordings: tuple[str, YesNo]) -> Fact:
    return Fact(id=id, game="riftbound", doc="doc", rule="1.1", quote="q", ask=wordings[0][0], answer=answer,
                wordings=tuple(Wording(q=q, a=a) for q, a in wordings))


PICK = fact("pick", "no",
            ("is a unit the card tells me to pick targeted", "no"),
            ("when a card says pick a unit is that unit targeted", "no"),
            ("a unit the card tells me to pick is not targeted, right", "yes"))
SOURCE = fact("source", "yes",
              ("can an ability target the unit it comes from", "yes"),
              ("can my unit's ability target that same unit", "yes"),
              ("can an ability target the unit it comes from before it resolves", "yes"))
SPLIT = fact("split", "no",
             ("split 3 damage spell can i choose 4 units as targets", "no"),
             ("with 3 damage to split can i pick 4 enemy units", "no"))
UPTO = fact("upto", 0, ("what is the fewest targets for choose up to 3 targets", 0),
            ("minimum targets i must pick for up to 3 targets", 0))


def facts(threshold: float = 0.5, margin: float = 0.04) -> RuleFacts:
    return RuleFacts([PICK, SOURCE, SPLIT, UPTO], bag.documents,
                     threshold=threshold, margin=margin)


def read(text: str) -> FactReading | NoFact:
    return facts().read(text, bag(text), "riftbound")


def test_a_close_wording_reads_as_its_fact_with_that_wordings_answer() -> None:
    r = read("if a card says to pick a unit, is that unit targeted?")
    assert isinstance(r, FactReading) and r.fact is PICK and r.answer == "no"


def test_a_negated_assertion_takes_the_answer_of_a_wording_that_denies_the_same_thing() -> None:
    r = read("a unit that a card tells me to pick isn't targeted, right?")
    assert isinstance(r, FactReading) and r.answer == "yes"


def test_a_negation_no_wording_of_the_fact_says_is_not_read() -> None:
    r = read("can an ability target the unit it comes from if it isn't stunned?")
    assert isinstance(r, NoFact)


def test_a_turning_word_no_wording_with_that_answer_says_is_not_read() -> None:
    # "instead" turns the question; no wording of the fact says it.
    r = read("can an ability target the unit it comes from instead?")
    assert isinstance(r, NoFact) and "worded" in r.reason


def test_a_turning_word_a_wording_with_that_answer_says_is_read() -> None:
    r = read("can the ability target the unit it comes from before it resolves?")
    assert isinstance(r, FactReading) and r.fact is SOURCE


def test_numbers_the_fact_depends_on_must_be_those_of_a_wording() -> None:
    assert isinstance(read("split 3 damage: can i choose 4 units as targets?"), FactReading)
    other = read("split 5 damage: can i choose 4 units as targets?")
    assert isinstance(other, NoFact)


def test_a_non_prefix_does_not_deny_what_a_negated_verb_denies() -> None:
    assert negations("a non-attack event") == ("non-attack",)
    assert negations("it cannot be attacked") == ("attack",)
    attacked = fact("attacked", "no", ("minion cannot be attacked can my attack event hit it", "no"),
                    ("the minion cannot be attacked so can i attack it with an event", "no"))
    reader = RuleFacts([attacked, PICK], bag.documents, threshold=0.5, margin=0.04)
    q = "the minion cannot be attacked so can a non-attack event hit it"
    assert isinstance(reader.read(q, bag(q), "riftbound"), NoFact)


@pytest.mark.parametrize("question", [
    "don't I have to play a unit with it?", "do not I have to play a unit with it?",
    "isn't the battlefield a target too?", "so wait, cannot I pick my own unit?",
])
def test_a_negative_question_asks_the_positive_one(question: str) -> None:
    assert negations(question) == ()


@pytest.mark.parametrize("question", [
    "modes get locked in when it enters the queue, right? not on resolution",
    "do i pick the unit while playing it, not later when it resolves?",
    "do you pick the mode while playing it (not when it resolves)?",
])
def test_a_contrast_tag_after_the_question_denies_nothing_it_asks(question: str) -> None:
    assert negations(question) == ()


def test_a_negation_before_the_asking_clause_still_denies() -> None:
    assert negations("it is chosen when played, not on resolution, so can I change it later?") == ("resolution",)


def test_a_negated_statement_with_a_question_tag_still_denies() -> None:
    assert negations("the battlefield is not targeted, right?") == ("target",)
    assert negations("it cannot be targeted, can it?") == ("target",)


def test_a_stated_number_no_wording_of_the_fact_states_is_read_only_through_its_neighbourhood() -> None:
    q = "can an ability with 4 targets target the unit it comes from?"
    nearest_only = RuleFacts([PICK, SOURCE, SPLIT, UPTO], bag.documents, threshold=0.5, margin=0.04,
                             neighbourhood=1.1)
    assert isinstance(nearest_only.read(q, bag(q), "riftbound"), NoFact)
    # The fact does not depend on numbers (no wording states one): the story's 4 is a detail.
    r = read(q)
    assert isinstance(r, FactReading) and r.fact is SOURCE and r.answer == "yes" and r.neighbours is not None


DUPLICATES = fact("duplicates", "no",
                  ("ability text says nothing about duplicates can the same creature fill two slots", "no"),
                  ("with no word on duplicates in the text can one creature fill two slots", "no"))
MUST = fact("must", "no", ("must i play a unit from my hand", "no"),
            ("am i required to play a unit from my hand", "no"))
TAKE = fact("take", "yes", ("is a unit the card tells me to take targeted", "yes"))


HERE_TO_HELP = fact("here-to-help", "no", *((f"{lead} here to help can i play the unit to an opponent's battlefield", "no")
                                            for lead in ("with", "using", "playing", "off", "casting", "via", "through",
                                                         "thanks to")))


def test_a_question_that_does_not_say_a_word_every_wording_of_the_fact_says_is_not_read() -> None:
    reader = RuleFacts([HERE_TO_HELP], bag.documents, threshold=0.5, margin=0.04)
    said = "with here to help, can i play the unit to an opponent's battlefield?"
    assert isinstance(reader.read(said, bag(said), "riftbound"), FactReading)
    general = "can i play the unit to an opponent's battlefield?"
    r = reader.read(general, bag(general), "riftbound")
    assert isinstance(r, NoFact) and "help" in r.reason


def neighbourhood_read(text: str, *extra: Fact) -> FactReading | NoFact:
    reader = RuleFacts([PICK, SOURCE, SPLIT, UPTO, *extra], bag.documents, threshold=0.5, margin=0.04,
                       neighbourhood=0.5)
    return reader.read(text, bag(text), "riftbound")


def test_a_negation_of_another_word_is_read_through_wordings_that_deny_as_many_things() -> None:
    q = "the text doesn't say anything about duplicates, can the same creature fill two slots?"
    r = neighbourhood_read(q, DUPLICATES)
    assert isinstance(r, FactReading) and r.fact is DUPLICATES and r.answer == "no" and r.neighbours


def test_a_neighbourhood_with_another_fact_as_close_is_not_read() -> None:
    # PICK alone would answer; TAKE, as close, is another fact with another answer.
    q = "with 3 units out, is a unit the card tells me to pick or take targeted"
    assert isinstance(neighbourhood_read(q), FactReading)
    assert isinstance(neighbourhood_read(q, TAKE), NoFact)


def test_nearest_wordings_that_each_say_a_turning_word_the_question_does_not_are_not_read() -> None:
    # "must i play ...?" is not "can i play ...?": every close wording turns on "must".
    r = neighbourhood_read("can i play a unit from my hand", MUST)
    assert isinstance(r, NoFact)
    said = neighbourhood_read("with 2 cards in it, must i play a unit from my hand", MUST)
    assert isinstance(said, FactReading) and said.fact is MUST and said.neighbours


def test_the_learned_classifier_reads_a_fact_no_wording_is_near_enough_for() -> None:
    far = RuleFacts([PICK, SOURCE, SPLIT, UPTO], bag.documents, threshold=1.1, sure=0.3)
    q = "when a card says pick a unit, is that unit targeted?"
    r = far.read(q, bag(q), "riftbound")
    assert isinstance(r, FactReading) and r.fact is PICK and r.answer == "no" and r.probability is not None


def test_a_question_quoting_two_abilities_is_not_read_as_one_fact() -> None:
    r = read('is "pick a unit" targeted like "choose a unit" is?')
    assert isinstance(r, NoFact) and "two abilities" in r.reason


def test_a_far_question_is_not_read() -> None:
    assert isinstance(read("what is the best deck for a new player?"), NoFact)


def test_facts_whose_quote_no_loaded_rule_holds_are_left_out() -> None:
    f = PICK.model_copy(update={"doc": "d", "rule": None, "quote": "Objects a card Picks are not Targeted."})
    rules = {("riftbound", "d"): [("355.6", "Targeting."), ("355.7", "Objects a card  Picks are not Targeted.")]}
    got = anchored([f, f.model_copy(update={"doc": "missing"})], lambda g, d: rules.get((g, d), []))
    assert [x.rule for x in got] == ["355.7"]


def test_asked_questions_are_more_wordings_of_the_fact_they_are_labelled_with(tmp_path: Path) -> None:
    (tmp_path / "asked").mkdir()
    (tmp_path / "g.jsonl").write_text(PICK.model_dump_json() + "\n")
    asked = Asked(fact=PICK.id, q="opp's card says pick a unit. targeted?", a="no", source="eval/x.jsonl#x-1")
    (tmp_path / "asked" / "g.jsonl").write_text(asked.model_dump_json() + "\n")
    (loaded,) = load_facts(tmp_path)
    assert loaded.wordings[-1] == Wording(q=asked.q, a="no")
    assert len(loaded.wordings) == len(PICK.wordings) + 1


def test_an_asked_question_labelled_with_no_known_fact_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "asked").mkdir()
    (tmp_path / "g.jsonl").write_text(PICK.model_dump_json() + "\n")
    (tmp_path / "asked" / "g.jsonl").write_text(
        Asked(fact="nope-1", q="q?", a="yes", source="eval/x.jsonl#x-2").model_dump_json() + "\n")
    with pytest.raises(ValueError, match="nope-1"):
        load_facts(tmp_path)


def test_every_packaged_asked_question_names_where_it_was_asked() -> None:
    root = Path(__file__).resolve().parents[2] / "assistant" / "facts" / "asked"
    lines = [Asked.model_validate_json(x) for p in root.glob("*.jsonl") for x in p.read_text().splitlines() if x]
    assert len(lines) >= 1000
    for x in lines:
        assert x.source.startswith("eval/") and "#" in x.source, x
        assert not x.source.startswith("eval/dev"), x  # the development set is never trained on


def test_every_packaged_fact_is_well_formed() -> None:
    loaded = load_facts()
    assert len(loaded) >= 200
    assert len({f.id for f in loaded}) == len(loaded)
    for f in loaded:
        assert f.quote.strip() and f.wordings, f.id
        assert {type(w.a) for w in f.wordings} <= {str, int}, f.id


# ---------------------------------------------------------------- end to end (real model)
@pytest.mark.parametrize(("question", "game", "verdict", "doc"), [
    ("quick one, can players be targeted in marvel champions?", "marvel-champions", "yes",
     "marvel-champions-rr-target"),
    ("is a unit that a card picks targeted?", "riftbound", "no",
     "riftbound-core-rules"),
    # The grammar reads only part of this card's text; the guide settles the whole question.
    ("card says 'an opponent chooses a unit they control and kills it'. is my opp's unit targeted by my card?",
     "riftbound", "no", "riftbound-targets-guide"),
    # The grammar's scenario lacks a detail; the rule settles the question as asked.
    ("trigger says choose 2 targets but only 1 legal thing exists. does it go into the queue with just the one?",
     "momon-wonder", "no", "momon-wonder-cr"),
])
def test_an_abstract_rule_question_is_answered_by_the_rule_that_settles_it(assistant, question, game, verdict,  # type: ignore[no-untyped-def]
                                                                          doc) -> None:
    ans = assistant.ask(question, game=game)
    assert ans.verdict == verdict, ans.answer
    assert ans.citations and ans.citations[0].doc == doc
    assert "I read the question as" in ans.answer
    for c in ans.citations:
        assert assistant.index.verify_quote(c.doc, c.rule, c.quote)


def test_a_number_the_rule_settles_is_the_answers_value(assistant) -> None:  # type: ignore[no-untyped-def]
    ans = assistant.ask("Alpha Strike, my friendly unit has 4 might when i play it. what's the max number of enemy units "
                        "i can choose to split the damage between?", game="riftbound")
    assert (ans.verdict, ans.value) == ("yes", 4), ans.answer
    assert ans.citations and ans.citations[0].doc == "riftbound-targets-guide"


def test_every_packaged_fact_of_a_loaded_document_is_cited_from_a_loaded_rule(assistant) -> None:  # type: ignore[no-untyped-def]
    loaded = {d.id for d in assistant.index.documents()}
    cited = assistant.facts.facts
    assert {f.id for f in cited} == {f.id for f in load_facts() if f.doc in loaded}
    for f in cited:
        assert assistant.index.get(f.doc, f.rule) is not None, f.id


def test_a_ruling_the_rule_fact_contradicts_is_not_given(assistant) -> None:  # type: ignore[no-untyped-def]
    # The grammar reads this as a choice the card's text makes mandatory; the rule fact it
    # asks about says the controller is not required to play a unit. Two readings
    # disagree: no ruling.
    ans = assistant.ask("with Here to Help, am i obliged to really play a unit from my hand?", game="riftbound")
    assert ans.verdict == "unknown", ans.answer
    assert "disagree" in ans.answer and "Here to Help" in ans.answer


def test_a_situation_without_a_valid_target_is_not_read_as_one_with_a_target(assistant) -> None:  # type: ignore[no-untyped-def]
    # "no valid target" is read: the grammar (which would assume a target in play) does not
    # rule, and the rule fact that a basic power needs a valid target does.
    ans = assistant.ask("there is no valid target for my basic power. may I still use it?", game="marvel-champions")
    assert ans.verdict == "no", ans.answer
    assert ans.citations and ans.citations[0].rule.startswith("target")


def test_quoted_text_for_one_object_is_not_read_through_a_wording_quoting_every_object(assistant) -> None:  # type: ignore[no-untyped-def]
    # A fact about "remove 1 threat from each scheme" under a crisis icon does not settle
    # whether "Remove 1 threat from a scheme" may target the main scheme.
    from assistant.facts import polar_words

    assert "each" in polar_words('can "remove 1 threat from each scheme" be used?')
    assert "each" not in polar_words('can "Remove 1 threat from a scheme" target it?')
    ans = assistant.ask('The crisis icon is out and the main scheme has 3 threat. My card says "Remove 1 threat from a '
                        'scheme." Can the main scheme be its target?', game="marvel-champions")
    assert ans.verdict != "yes", ans.answer


CARRY = fact("carry", "no",
             ("we hit stage 1 for 7 with 2 hp left do the extra 5 carry over to the next stage", "no"),
             ("stage 1 had 3 hp left and we dealt 9 do the extra 6 carry over to the next stage", "no"))


def test_story_numbers_need_not_be_a_wordings_when_the_answer_does_not_turn_on_them() -> None:
    reader = RuleFacts([CARRY, PICK], bag.documents, threshold=0.5, margin=0.04)
    q = "stage 1 had 5 hp left and we dealt 20 do the extra 15 carry over to the next stage"
    got = reader.read(q, bag(q), "riftbound")
    assert isinstance(got, FactReading) and got.fact is CARRY and got.answer == "no"


def test_story_numbers_that_meet_where_no_wordings_do_are_not_read() -> None:
    reader = RuleFacts([CARRY, PICK], bag.documents, threshold=0.5, margin=0.04)
    q = "stage 1 had 4 hp left and we dealt 4 do the extra carry over to the next stage"
    assert isinstance(reader.read(q, bag(q), "riftbound"), NoFact)


def test_a_turning_word_reads_as_the_one_it_means() -> None:
    from assistant.facts import polar_words

    must = polar_words("must i pay for it")
    assert must == polar_words("do i need to pay for it") == polar_words("is paying for it required")
    assert must == polar_words("do i have to pay for it")
    assert polar_words("is it optional to pay for it") != must


def test_a_games_own_name_is_no_rules_term_a_rule_fact_must_say(assistant) -> None:  # type: ignore[no-untyped-def]
    from assistant.words import content_words

    terms = assistant._specific_terms()
    for g in assistant.games():
        named = content_words(f"{g.id.replace('-', ' ')} {g.name or ''}")
        assert named and not named & terms.get(g.id, frozenset()), g.id


def test_counters_on_a_card_turn_nothing_but_a_countered_spell_does() -> None:
    from assistant.facts import polar_words

    assert polar_words("how many poison counters do i need to lose") == polar_words("how many poison do i need to lose")
    assert polar_words("does my spell get countered") != polar_words("does my spell resolve")


def test_unable_to_denies_what_follows_it() -> None:
    assert negations("would my aura be unable to target my shroud creature?") == negations(
        "would my aura not target my shroud creature?")


def test_a_question_asking_a_fact_the_other_way_round_says_so_and_gives_the_rules_own_answer(assistant) -> None:  # type: ignore[no-untyped-def]
    ans = assistant.ask("Two of an Ability's three targets are illegal at resolution. Is the part on the legal third one "
                        "voided and cancelled?", game="momon-wonder")
    assert ans.verdict == "no", ans.answer
    assert "the other side of" in ans.answer and ans.answer.endswith("which the rule answers: Yes)")
