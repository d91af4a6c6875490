"""Cards named in a question: which card, which printing, and whether its text reads fully.

A card is found by its name in the question: exactly (case, punctuation and accents
forgiven), or by a close misspelling of a name of at least two words or seven letters
(one candidate clearly closest). A name made only of ordinary English words ("Ground
Stomp", "Reinforcements") needs context: written with the name's capitals or quoted, so
"a ground stomp" in prose is not taken for the card.

When the card data holds several printings of a name (reprints, corrections), the newest
wins: the card data lists sets in release order (Riftbound: OGN, OGS, SFD, UNL), so the
last printing with ability text is the newest. The answer names that printing.

The engine reads a card's text only when every clause of it reads: :func:`unread_clauses`
lists the clauses the ability grammar cannot turn into an effect, and a card with any is
an abstention that quotes them, never a partial read.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from assistant.abilities import _split_clauses, parse_clause
from ingest.cards import normalize_name
from ingest.close_names import NamePool
from ingest.models import Card

__all__ = ["CardFinder", "CardRead", "CardText", "card_pick", "unread_clauses"]

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\u2019\-]*")
_COMMON_ZIPF = 3.0
"""A word at least this frequent in English (wordfreq Zipf scale) is an ordinary word."""
_CLOSE = 0.88
"""Similarity a misspelt name needs (difflib ratio over the normalised names)."""


@dataclass(frozen=True)
class CardText:
    """The printed text the answer uses: the newest printing's."""

    name: str
    game: str
    text: str
    printing: str
    printings: int

    def label(self) -> str:
        """"Pouty Poro (printing UNL-220/219, newest of 2)"."""
        if self.printings > 1:
            return f"{self.name} (printing {self.printing}, newest of {self.printings})"
        return f"{self.name} (printing {self.printing})" if self.printing else self.name


def unread_clauses(text: str) -> list[str]:
    """Clauses of ``text`` that the ability grammar cannot read (empty: all of it reads)."""
    out: list[str] = []
    read: list[object] = []
    for raw in _split_clauses(text):
        c = parse_clause(raw, len(read) + 1, read)  # type: ignore[arg-type]
        if c is None or (_TRIGGER.match(raw) and not any(
                part == "condition" or part.endswith((".condition", "selection=trigger_condition"))
                for part, _ in c.because)):
            # No effect read, or a trigger condition the effect does not carry ("When you
            # choose me with a spell, draw 1" read as a plain "draw 1").
            out.append(raw)
        else:
            read.append(c)
    return out


_TRIGGER = re.compile(r"\s*(?:when(?:ever)?|after|at the (?:start|end|beginning)|each time)\b",
                      re.IGNORECASE)


class CardFinder:
    """``CardFinder(names, printings, zipf)``: ``names`` per game id; ``printings(name,
    game)`` every printing of a name in card-data order; ``zipf(word)`` a word's English
    frequency (0 for unknown words)."""

    def __init__(self, names: Mapping[str, Iterable[str]],
                 printings: Callable[[str, str], list[Card]],
                 zipf: Callable[[str], float]) -> None:
        self._printings = printings
        self._zipf = zipf
        self._table: dict[str, tuple[str, str]] = {}
        for game, ns in names.items():
            for n in ns:
                key = normalize_name(n)
                if len(key) >= 3:
                    self._table.setdefault(key, (n, game))
        self._by_words: dict[int, list[str]] = {}
        for key in self._table:
            self._by_words.setdefault(len(key.split()), []).append(key)
        # The names a misspelling is compared with, by (word count, first letter, game or
        # None for every game), in table order: built once instead of per question.
        pools: dict[tuple[int, str, str | None], list[str]] = {}
        for size, keys in self._by_words.items():
            for key in keys:
                for g in (None, self._table[key][1]):
                    pools.setdefault((size, key[:1], g), []).append(key)
        self._pools = {k: NamePool(v) for k, v in pools.items()}

    def vocabulary(self) -> set[str]:
        """Every word of every card name (so the speller knows "Medarda")."""
        return {w for key in self._table for w in key.split() if w.isalpha()}

    def text(self, name: str, game: str) -> CardText | None:
        """The newest printing with ability text (else the newest printing)."""
        prints = self._printings(name, game)
        if not prints:
            return None
        with_text = [c for c in prints if c.text]
        best = (with_text or prints)[-1]
        return CardText(best.name, game, best.text, best.printing, len(prints))

    def find(self, question: str, game: str | None = None) -> CardText | None:
        """The card the question names (longest name first), or ``None``."""
        words = [(re.sub(r"['\u2019]s$", "", m.group(0)), m.start()) for m in _WORD.finditer(question)]
        quoted = _quoted_ranges(question)
        for size in range(min(6, len(words)), 0, -1):
            for i in range(len(words) - size + 1):
                chunk = [w for w, _ in words[i:i + size]]
                key = normalize_name(" ".join(chunk))
                hit = self._table.get(key)
                if hit is None or (game is not None and hit[1] != game):
                    continue
                start = words[i][1]
                if self._needs_context(key) and not (
                        _capitalised(chunk, hit[0], _sentence_start(question, start))
                        or (start, words[i + size - 1][1] + len(chunk[-1])) in quoted):
                    continue
                return self.text(*hit)
        return self._close(words, game)

    def read(self, question: str, game: str | None = None) -> CardRead | None:
        """The card the question names and the clauses of its text that do not read."""
        card = self.find(question, game)
        return None if card is None else CardRead(card, tuple(unread_clauses(card.text)))

    def _needs_context(self, key: str) -> bool:
        return all(self._zipf(w) >= _COMMON_ZIPF for w in key.split())

    def _close(self, words: list[tuple[str, int]], game: str | None) -> CardText | None:
        found: dict[str, float] = {}
        for size in range(min(4, len(words)), 0, -1):
            for i in range(len(words) - size + 1):
                key = normalize_name(" ".join(w for w, _ in words[i:i + size]))
                if key in self._table or (size == 1 and len(key) < 7) or len(key) < 7:
                    continue
                pool = self._pools.get((size, key[:1], game))
                if pool is None:
                    continue
                for k in difflib.get_close_matches(key, pool.near(key, _CLOSE), n=3, cutoff=_CLOSE):
                    if self._needs_context(k):
                        continue
                    r = difflib.SequenceMatcher(None, key, k).ratio()
                    found[k] = max(found.get(k, 0.0), r)
        if not found:
            return None
        ranked = sorted(found.items(), key=lambda kv: -kv[1])
        if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < 0.05:
            return None  # two names about as close: not a confident match
        return self.text(*self._table[ranked[0][0]])


def _capitalised(chunk: list[str], name: str, at_sentence_start: bool) -> bool:
    """The question writes the name with its capitals ("Ground Stomp", not "ground stomp");
    a capital a sentence puts on its first word is not context."""
    caps = [w[:1].isupper() for w in _WORD.findall(name)]
    got = [w[:1].isupper() for w in chunk]
    if at_sentence_start:
        caps, got = caps[1:], got[1:]
    return len(caps) == len(got) and all(g or not c for c, g in zip(caps, got)) and any(got)


def _sentence_start(text: str, i: int) -> bool:
    return not text[:i].strip() or text[:i].rstrip()[-1:] in ".?!:\"'\u201c"


def _quoted_ranges(text: str) -> set[tuple[int, int]]:
    """(start, end) of each quoted span's inner text: a name quoted on its own is context."""
    return {(m.start(1), m.end(1))
            for m in re.finditer(r"[\"\u201c']([^\"\u201d']+)[\"\u201d']", text)}


class _Pick(Protocol):
    """What the parser's ability pick carries (assistant.parse.AbilityPick)."""

    name: str | None
    game: str | None
    because: list[tuple[str, str]]


@dataclass(frozen=True)
class CardRead:
    """A card whose text the question's ability was read from, and what did not read."""

    card: CardText
    unread: tuple[str, ...]

    def reason(self) -> str:
        parts = "; ".join(f'"{c}"' for c in self.unread[:3])
        return (f"I can't read all of the text of {self.card.label()}: {parts} "
                f"{'is' if len(self.unread) == 1 else 'are'} beyond what I can check, and "
                "a ruling on part of a card would be a guess.")

    def used(self) -> str:
        return f'Card text used, {self.card.label()}: "{self.card.text}".'


def card_pick(pick: _Pick | None, finder: CardFinder) -> CardRead | None:
    """The card behind the parser's ability pick (``None`` when the ability was not read
    from card data), with the clauses of its text the grammar cannot read."""
    if pick is None or not pick.name or not pick.game:
        return None
    if pick.because[:1] != [("ability", f"card {pick.name}")]:
        return None  # a known rules example or quoted text, not card data
    card = finder.text(pick.name, pick.game)
    if card is None:
        return None
    return CardRead(card, tuple(unread_clauses(card.text)))
