"""A card and the rules that govern the choices its text makes (``/card`` on Discord)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ingest.models import Card, Rule

RULES_MAX = 3


class CardRulings(BaseModel):
    """The card's printed text and the rules closest to the choices it makes."""

    model_config = ConfigDict(frozen=True)

    card: Card
    rules: list[Rule] = Field(default_factory=list)


def card_rulings(index: Any, name: str, game: str | None) -> CardRulings | None:
    """``None`` when no loaded card data has that name (exact, case and punctuation forgiven).
    The rules are retrieved for the card's text read as choices (targets, modes, amounts)."""
    card = index.card(name, game)
    if card is None:
        return None
    rules: list[Rule] = []
    if card.text.strip():
        hits = index.search(f"choices and targets: {card.text}", game=card.game, k=RULES_MAX)
        rules = [h.rule for h in hits]
    return CardRulings(card=card, rules=rules)


__all__ = ["CardRulings", "card_rulings"]
