"""Cards named in a question (real card data from ../shared/corpus-extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.card_lookup import CardMatcher, card_keywords
from ingest.cards import parse_cards
from ingest.models import Card
from ingest.parsers import DocSource, parse_document
from ingest.structure import RuleStructure


@pytest.fixture(scope="module")
def riftbound_cards(shared_dir: Path) -> list[Card]:
    return parse_cards(shared_dir / "corpus-extra" / "riftbound-cards-riftboundoc-2026-03-28.json", "riftbound")


@pytest.fixture(scope="module")
def marvel(shared_dir: Path) -> tuple[list[Card], RuleStructure]:
    extra = shared_dir / "corpus-extra"
    cards = parse_cards(extra / "marvelcdb-cards-all.json", "marvel-champions")
    rules = parse_document(DocSource(id="mc", game="marvel-champions", path=extra / "marvel-champions-rules-reference.md", numbered=False))
    return cards, RuleStructure(rules)


def test_card_named_in_any_case_and_punctuation_is_found(riftbound_cards: list[Card]) -> None:
    matcher = CardMatcher(riftbound_cards)
    found = matcher.find("if i target pouty poro with a fury spell do i pay in fury?")
    assert [m.card.name for m in found] == ["Pouty Poro"] and found[0].exact
    assert [m.card.name for m in matcher.find("KOGMAW CAUSTIC dies, what now")] == ["Kog'Maw, Caustic"]
    assert [m.card.name for m in matcher.find("kog'maw, caustic deathknell")] == ["Kog'Maw, Caustic"]


def test_close_misspelling_of_a_card_name_is_found_but_marked_inexact(riftbound_cards: list[Card]) -> None:
    found = CardMatcher(riftbound_cards).find("volibare furious attacks and splits 5 damage")
    assert [(m.card.name, m.exact) for m in found] == [("Volibear, Furious", False)]


def test_printing_with_ability_text_wins(riftbound_cards: list[Card]) -> None:
    found = CardMatcher(riftbound_cards).find("pouty poro")
    assert found[0].card.text.startswith("[Deflect]")


def test_one_word_name_that_is_a_common_rules_word_is_not_a_card(marvel: tuple[list[Card], RuleStructure]) -> None:
    cards, structure = marvel
    assert structure.word_is_common("controller")
    matcher = CardMatcher(cards, is_common=structure.word_is_common)
    assert matcher.find("who is the controller of this upgrade?") == []
    assert [m.card.name for m in matcher.find("can i stun juggernaut with an event")] == ["Juggernaut"]


def test_longest_name_wins_and_words_are_not_reused(marvel: tuple[list[Card], RuleStructure]) -> None:
    cards, structure = marvel
    found = CardMatcher(cards, is_common=structure.word_is_common).find("attacking with captain america's shield on")
    assert [m.card.name for m in found] == ["Captain America's Shield"]


def test_keywords_are_read_only_in_keyword_syntax(marvel: tuple[list[Card], RuleStructure], riftbound_cards: list[Card]) -> None:
    cards, structure = marvel
    terms = list(structure.terms)
    by_name = {c.name: c for c in cards if c.text}
    assert card_keywords(by_name["Armored Guard"], terms) == ["guard", "toughness"]
    assert "piercing" in card_keywords(by_name["Deadpool's Katana"], terms)  # "This attack gains piercing."
    assert "restricted" in card_keywords(by_name["Deadpool's Katana"], terms)
    katana = card_keywords(by_name["Deadpool's Katana"], terms)
    assert "damage" not in katana and "enemy" not in katana  # words used in passing
    poro = next(c for c in riftbound_cards if c.name == "Volibear, Furious" and c.text)
    assert card_keywords(poro, ["deflect", "shield", "hidden"]) == ["deflect"]  # [Deflect 2]
