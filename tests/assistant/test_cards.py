"""Cards named in questions (assistant/cards.py) over the real card data of ../shared."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from assistant.cards import CardFinder, card_pick, unread_clauses
from assistant.parse import AbilityPick
from assistant.spelling import english_words
from ingest.cards import normalize_name, parse_cards
from ingest.models import Card


@pytest.fixture(scope="module")
def finder(shared_dir: Path) -> CardFinder:
    extra = shared_dir / "corpus-extra"
    by_name: dict[tuple[str, str], list[Card]] = defaultdict(list)
    names: dict[str, list[str]] = defaultdict(list)
    for file, game in (("riftbound-cards-riftboundoc-2026-03-28.json", "riftbound"),
                       ("marvelcdb-cards-all.json", "marvel-champions")):
        for c in parse_cards(extra / file, game):
            by_name[(normalize_name(c.name), game)].append(c)
            names[game].append(c.name)
    return CardFinder(names, lambda n, g: by_name.get((normalize_name(n), g), []), english_words())


def test_exact_name_any_case_finds_the_card(finder: CardFinder) -> None:
    card = finder.find("can tibbers' play trigger hit my own units?")
    assert card is not None and (card.name, card.game) == ("Tibbers", "riftbound")
    assert "deal 3 to all units at battlefields" in card.text


def test_newest_printing_wins_and_is_named(finder: CardFinder) -> None:
    card = finder.find("does Pouty Poro make my spell cost more?")
    assert card is not None
    assert (card.printing, card.printings) == ("UNL-220/219", 2)
    assert card.label() == "Pouty Poro (printing UNL-220/219, newest of 2)"


def test_close_misspelling_finds_the_card(finder: CardFinder) -> None:
    card = finder.find("if i equip a gear onto jae madarda do i draw?")
    assert card is not None and card.name == "Jae Medarda"


def test_a_name_made_of_ordinary_words_needs_context(finder: CardFinder) -> None:
    assert finder.find("can a ground stomp of the villain hurt me?", "marvel-champions") is None
    card = finder.find("If I play Ground Stomp does the villain take damage?", "marvel-champions")
    assert card is not None and card.name == "Ground Stomp"


def test_quoted_ability_text_is_not_taken_for_a_card(finder: CardFinder) -> None:
    assert finder.find('Does "Kill a unit at a battlefield" target the battlefield?') is None


def test_every_clause_must_read() -> None:
    assert unread_clauses("Deal 3 to a unit at a battlefield.") == []
    assert unread_clauses("[Reaction] (Play any time, even before spells and abilities "
                          "resolve.) Deal 3 to a unit.")


def test_a_card_with_unreadable_text_abstains_and_says_which_part(finder: CardFinder) -> None:
    card = finder.find("can I play Navori Scout?")
    assert card is not None
    pick = AbilityPick({}, [("ability", f"card {card.name}")], card.name, card.game)
    read = card_pick(pick, finder)
    assert read is not None and read.unread
    assert "Navori Scout" in read.reason() and read.unread[0] in read.reason()


def test_a_quoted_ability_is_not_card_data(finder: CardFinder) -> None:
    pick = AbilityPick({}, [("ability", '"Kill a unit"')], quoted="Kill a unit")
    assert card_pick(pick, finder) is None


def test_a_trigger_condition_the_reading_drops_is_unread() -> None:
    # "draw 1" alone would say nothing about when it happens.
    assert unread_clauses("When you choose me with a spell, draw 1.") == [
        "When you choose me with a spell, draw 1"]
    assert unread_clauses("When you play me, deal 3 to all units at battlefields.") == []
