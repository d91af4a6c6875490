"""Cards named in a question: exact (case, punctuation, apostrophes forgiven) or a close
misspelling of a card name, found by scanning the question's word windows.

:class:`CardMatcher` is built once per game from its card data. :meth:`CardMatcher.find`
returns the :class:`CardMention` s of a question, longest names first and never two on the
same words. A one-word name counts only when the word is rare in the game's rules
(``is_common`` says which words are not): "Juggernaut" is a card, "Recruit" or "Guard" in a
question is more likely the rules' word. A misspelling is accepted for names of at least
:data:`FUZZY_MIN_CHARS` characters whose similarity (difflib ratio) to the question's words
is at least :data:`FUZZY_CUTOFF` ("volibare furious" finds "Volibear, Furious"), among names of
two to :data:`FUZZY_MAX_WORDS` words that start with the same two letters (a first-letter slip
is not forgiven: it keeps the scan to a few names per window).

:func:`card_keywords` reads which of a game's keyword terms a card's text uses in keyword
syntax: bracketed (``[Deflect 2]``), a sentence of its own (``Guard.``, ``Retaliate 1.``),
or granted (``gains piercing``). The same word used in passing ("deal damage") is not one.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable

from pydantic import BaseModel, ConfigDict

from ingest.cards import normalize_name
from ingest.close_names import NamePool
from ingest.models import Card

__all__ = ["FUZZY_CUTOFF", "FUZZY_MIN_CHARS", "CardMatcher", "CardMention", "card_keywords"]

FUZZY_CUTOFF = 0.88
FUZZY_MIN_CHARS = 8
MAX_NAME_WORDS = 6
FUZZY_MAX_WORDS = 4


class CardMention(BaseModel):
    """One card named in a question."""

    model_config = ConfigDict(frozen=True)

    card: Card
    said: str  # the question's words that named it (normalized)
    exact: bool


class CardMatcher:
    """Card-name matching over one game's cards (see the module docstring)."""

    def __init__(self, cards: Iterable[Card], is_common: Callable[[str], bool] = lambda _w: False) -> None:
        self._by_name: dict[str, list[Card]] = {}
        for c in cards:
            key = normalize_name(c.name)
            if key:
                self._by_name.setdefault(key, []).append(c)
        self._is_common = is_common
        # fuzzy buckets: (word count, first two letters) -> names
        self._buckets: dict[tuple[int, str], list[str]] = {}
        for key in self._by_name:
            words = key.split()
            if len(key) >= FUZZY_MIN_CHARS and 1 < len(words) <= FUZZY_MAX_WORDS:
                self._buckets.setdefault((len(words), key[:2]), []).append(key)
        self._pools = {k: NamePool(v) for k, v in self._buckets.items() if v}

    def __len__(self) -> int:
        return len(self._by_name)

    def _best(self, key: str) -> Card:
        """The printing with ability text wins over a textless one."""
        found = self._by_name[key]
        return next((c for c in found if c.text), found[0])

    def printings(self, name: str) -> list[Card]:
        """Every card of that name (a hero, a villain and a minion may share one)."""
        return list(self._by_name.get(normalize_name(name), []))

    def find(self, question: str) -> list[CardMention]:
        words = normalize_name(question).split()
        taken = [False] * len(words)
        out: list[CardMention] = []
        for size in range(min(MAX_NAME_WORDS, len(words)), 0, -1):
            for i in range(len(words) - size + 1):
                if any(taken[i : i + size]):
                    continue
                window = " ".join(words[i : i + size])
                key, exact = self._match(window, size)
                if key is None:
                    continue
                for j in range(i, i + size):
                    taken[j] = True
                out.append(CardMention(card=self._best(key), said=window, exact=exact))
        return out

    def _match(self, window: str, size: int) -> tuple[str | None, bool]:
        if window in self._by_name:
            if size == 1 and (len(window) < 4 or self._is_common(window)):
                return None, False
            return window, True
        if size == 1 or len(window) < FUZZY_MIN_CHARS:
            return None, False
        pool = self._pools.get((size, window[:2]))
        if pool is None:
            return None, False
        close = difflib.get_close_matches(window, pool.near(window, FUZZY_CUTOFF), n=1, cutoff=FUZZY_CUTOFF)
        return (close[0], False) if close else (None, False)


def _keyword_pattern(term: str) -> re.Pattern[str]:
    t = r"\s+".join(re.escape(w) for w in term.split())
    return re.compile(
        rf"\[{t}\b"  # [Deflect 2], [Hidden]
        rf"|(?:^|[.>:)\]]\s*){t}(?:\s+(?:\d+|x))?\s*[.(]"  # Guard. Retaliate 1.
        rf"|\bgains?\s+{t}\b",  # this attack gains piercing
        re.IGNORECASE,
    )


_PATTERNS: dict[str, re.Pattern[str]] = {}


def card_keywords(card: Card, terms: Iterable[str]) -> list[str]:
    """The terms (lower-case keyword names) ``card``'s text uses as keywords, in text order."""
    text = card.text
    found: list[tuple[int, str]] = []
    for term in terms:
        rx = _PATTERNS.get(term)
        if rx is None:
            rx = _PATTERNS[term] = _keyword_pattern(term)
        m = rx.search(text)
        if m:
            found.append((m.start(), term))
    found.sort()
    return list(dict.fromkeys(t for _, t in found))
