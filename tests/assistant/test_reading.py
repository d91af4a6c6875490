"""Players' register read as plain wording: filler, shorthand, contractions, typos, unknown
words, concept gates and game detection. Pure units: no index, no model."""

from __future__ import annotations

import pytest

from assistant.games import detect_game
from assistant.gates import ConceptGate, filled_concepts
from assistant.lexicon import LexiconError, load_lexicon
from assistant.normalize import Normaliser
from assistant.spelling import Speller, rules_vocabulary
from ingest.models import GameInfo

RULES = [
    "Kill a unit at a battlefield targets the unit; the battlefield is a location restriction.",
    "A spell or ability cannot target itself. Choose every required target.",
    "Deal 3 damage to an enemy. Enemies that cannot take damage are not valid targets.",
    "The Trigger Queue holds abilities; the Controller chooses targets.",
]

ZIPF = {"heals": 3.3, "helps": 4.7, "the": 7.0, "card": 5.0, "hand": 5.0, "tournament": 4.0,
        "ability": 4.5, "player": 4.8}


def reader() -> Normaliser:
    lexicon = load_lexicon()
    speller = Speller(rules_vocabulary(RULES, lexicon.words()), lambda w: ZIPF.get(w, 0.0))
    return Normaliser(lexicon, speller)


@pytest.mark.parametrize("asked, read", [
    ("Doesn't it target?", "Does not it target?"),
    ("it isnt a target and u cant pick it", "it is not a target and you cannot pick it"),
    ("can't I", "cannot I"),
    ("won't it", "will not it"),
])
def test_every_contraction_and_bare_negation_reads_as_not(asked: str, read: str) -> None:
    assert reader().normalise(asked).text == read


def test_table_shorthand_is_written_out_outside_quotes_and_only_card_shorthand_inside() -> None:
    # No card prints "dmg": inside quoted card text only the lexicon's card_text is written out.
    n = reader().normalise('does "deal 3 dmg to opp" hit the opp unit on the bf')
    assert n.text == 'does "deal 3 damage to opp" hit the opponent unit on the battlefield'
    assert any(e.why == "shorthand in quoted card text" for e in n.edits)


def test_chat_filler_around_a_question_is_dropped() -> None:
    n = reader().normalise("quick q: does kill a unit target? (asking for a tournament) thx")
    assert n.text == "does kill a unit target?"
    assert {e.why for e in n.edits} == {"filler", "shorthand"}


def test_a_swapped_letter_typo_is_repaired_to_the_rules_word() -> None:
    n = reader().normalise("does it traget the batltefield or the untis")
    assert n.text == "does it target the battlefield or the units"
    assert [e.now for e in n.edits if e.why == "typo"] == ["target", "battlefield", "units"]


def test_a_repair_prefers_swapped_letters_to_a_commoner_word() -> None:
    # "helas" is one edit from both "helps" (commoner) and "heals" (two letters swapped).
    assert reader().normalise("an ability helas a unit").text == "an ability heals a unit"


def test_a_word_nobody_knows_is_reported_not_guessed() -> None:
    n = reader().normalise("is a blorptastic unit targeted")
    assert n.unknown == ("blorptastic",)


def test_quoted_card_text_is_never_changed() -> None:
    n = reader().normalise("can \"Kill a unti. Doesn't draw\" target")
    assert '"Kill a unti. Doesn\'t draw"' in n.text


def test_a_broken_lexicon_file_names_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "common.toml").write_text("[slang\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="common.toml"):
        load_lexicon([tmp_path])


def test_a_game_lexicon_adds_table_talk_without_code(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "newgame.toml").write_text('[slang]\nzz = "zone"\n', encoding="utf-8")
    lexicon = load_lexicon([tmp_path])
    assert "newgame" in lexicon.games and lexicon.slang["zz"] == "zone"


GATE_QUESTION = "Ability text says the targets may be the same object. Can I fill both slots with one unit?"


def test_a_reported_permission_the_reading_ignored_blocks_the_ruling() -> None:
    gate = ConceptGate(load_lexicon())
    unread = gate.unread(GATE_QUESTION, ["fill both slots", "same object"])
    assert [u.concept for u in unread] == ["text_says"]
    assert "says the targets may" in unread[0].reason()


def test_text_quoted_after_says_is_the_ability_not_a_permission() -> None:
    gate = ConceptGate(load_lexicon())
    assert gate.unread('The card says "you may choose a unit". Is it a target?', ['"you may choose a unit"']) == []


def test_a_cost_is_read_only_by_a_cost_slot() -> None:
    gate = ConceptGate(load_lexicon())
    q = "Do I get back the costs I paid for targeting those units?"
    assert {u.word for u in gate.unread(q, ["targeting"])} == {"costs", "paid"}
    scenario = {"ability": {"effects": [{"selection": {"kind": "cost"}}]}}
    assert gate.unread(q, ["targeting"], filled_concepts(scenario)) == []


def test_an_action_outside_a_quoted_ability_blocks_the_ruling() -> None:
    gate = ConceptGate(load_lexicon())
    q = "when I split damage, is each unit targeted for a 'when this is targeted' trigger?"
    unread = gate.unread(q, ["'when this is targeted'"], quoted_ability=True)
    assert {u.word for u in unread} == {"split", "damage"}


GAMES = [GameInfo(id="riftbound", name="Riftbound", terms=["unit", "battlefield"]),
         GameInfo(id="momon-wonder", name="Comprehensive Rules 1.0.0 (momon-wonder)", terms=["Trigger Queue"])]


def test_an_inflected_game_term_counts() -> None:
    g = detect_game("are both battlefields chosen?", GAMES)
    assert g.game == "riftbound"


def test_the_closest_rules_vote_for_their_game_when_they_agree() -> None:
    hits = [("momon-wonder", 3.0), ("momon-wonder", 2.9), ("momon-wonder", 2.5)]
    assert detect_game("is the may choice made on resolution?", GAMES, hit_games=hits).game == "momon-wonder"


def test_closest_rules_that_disagree_name_no_game() -> None:
    hits = [("riftbound", 2.9), ("momon-wonder", 2.7), ("riftbound", 2.5)]
    g = detect_game("is the third target still affected?", GAMES, hit_games=hits)
    assert g.game is None


def test_a_rule_number_names_the_game_that_numbers_it() -> None:
    g = detect_game("what does 11.4.6 mean for my choice?", GAMES, numbered={"11.4.6": "momon-wonder"})
    assert g.game == "momon-wonder"


def test_a_game_phrase_typed_in_lower_case_still_names_its_game() -> None:
    g = detect_game("do i announce the split when it enters the trigger queue?", GAMES)
    assert g.game == "momon-wonder" and not g.by_retrieval_only


def test_a_game_placed_by_the_retrieval_vote_alone_says_so() -> None:
    hits = [("riftbound", 0.9), ("riftbound", 0.8), ("riftbound", 0.7)]
    g = detect_game("can i just choose 1 if i want?", GAMES, hit_games=hits)
    assert g.game == "riftbound" and g.by_retrieval_only
    g = detect_game("can i choose 1 unit if i want?", GAMES, hit_games=hits)
    assert g.game == "riftbound" and not g.by_retrieval_only


def test_a_label_the_reading_does_not_give_the_ability_is_unread() -> None:
    gate = ConceptGate(load_lexicon())
    q = "attack-labeled event: 'deal 3 damage to an enemy'. is the villain a valid target?"
    assert [u.concept for u in gate.unread(q, ["deal 3 damage to"])] == ["labels"]
    assert gate.unread(q, ["deal 3 damage to"], frozenset({"labels"})) == []
