"""Typo repair against the loaded rules' own words.

A word the speller does not know (neither a word of the loaded rule texts, of the
lexicons, nor of the embedding model's English vocabulary) is replaced by the one rules
word within one edit (a letter dropped, added, changed, or two swapped) — the most
frequent in the rules when several are. A word it cannot repair that way is left as it
is: the guards then see an unknown word, never a silently guessed one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

__all__ = ["Speller", "english_words", "rules_vocabulary"]

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_WORD = re.compile(r"[a-z]+")


_INFLECTIONS = (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("d", ""),
                ("ing", ""), ("ing", "e"), ("ly", ""), ("er", ""), ("est", ""), ("'s", ""))


def _edits1(word: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    swaps = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaces = {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    inserts = {a + c + b for a, b in splits for c in _LETTERS}
    return deletes | swaps | replaces | inserts


class Speller:
    """``Speller(rules_words, english)``: ``rules_words`` maps each word of the loaded rules
    (and lexicons) to its frequency; ``english`` maps ordinary words to their Zipf frequency
    (``wordfreq``). A word is known when the rules use it, or when it is a common enough
    English word (or an inflection of one)."""

    def __init__(self, rules_words: Mapping[str, int], english: Callable[[str], float] | None = None,
                 min_len: int = 4, min_zipf: float = 2.0) -> None:
        self._rules = dict(rules_words)
        self._zipf: Callable[[str], float] = english or (lambda w: 0.0)
        self._min_len = min_len
        self._min_zipf = min_zipf

    def _word(self, w: str) -> bool:
        return w in self._rules or self._zipf(w) >= self._min_zipf

    def known(self, word: str) -> bool:
        """Known itself or as an inflection of a known word ("heals", "readied")."""
        w = word.lower()
        if self._word(w):
            return True
        for suffix, repl in _INFLECTIONS:
            if w.endswith(suffix) and len(w) - len(suffix) >= 3 and self._word(w[: -len(suffix)] + repl):
                return True
        return False

    def correct(self, word: str) -> str | None:
        """The repaired word, or None when ``word`` is known, too short, or not repairable."""
        w = word.lower()
        if len(w) < self._min_len or not w.isalpha() or w in self._rules or self._zipf(w) >= self._min_zipf:
            return None
        edits = _edits1(w)
        # Two swapped letters are the commonest slip: such a repair is preferred to others.
        swaps = {w[:i] + w[i + 1] + w[i] + w[i + 2:] for i in range(len(w) - 1)} & edits
        for pool in (swaps, edits):
            cands = [c for c in pool if c in self._rules]
            if cands:
                return max(cands, key=lambda c: (self._rules[c], c))
        zipf = {c: self._zipf(c) for c in edits}
        for pool in (swaps, edits):
            common = [c for c in pool if zipf[c] >= self._min_zipf + 1.0]
            if common:
                return max(common, key=lambda c: (zipf[c], c))
        if self.known(w):
            return None
        known = sorted(c for c in swaps if self.known(c))
        return known[0] if len(known) == 1 else None


def rules_vocabulary(texts: Iterable[str], extra: Iterable[str] = ()) -> Counter[str]:
    """Word frequencies over rule texts (lower case, letters only)."""
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(_WORD.findall(t.lower()))
    for w in extra:
        counts.update(_WORD.findall(w.lower()))
    return counts


def english_words() -> Callable[[str], float]:
    """A word's Zipf frequency in English (the ``wordfreq`` package's own data, offline;
    0.0 for unknown words). ``wordfreq`` is imported on the first lookup (its import costs a
    cold command ~0.3 s, and many questions never look a word up)."""

    @lru_cache(maxsize=65536)
    def zipf(word: str) -> float:
        try:
            from wordfreq import zipf_frequency
        except ImportError:  # pragma: no cover - a dependency
            return 0.0
        return float(zipf_frequency(word, "en"))

    return zipf
