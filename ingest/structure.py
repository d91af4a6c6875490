"""The shape of one game's rules, for ranking: families, titled sections, cross-references.

:class:`RuleStructure` is built once per game from its rules:

- **terms**: names of the game's titled sections and glossary entries, lower-case, mapped to
  the rules that define them. A numbered rule whose whole text is a short title and that has
  subrules (``809. Deflect``, ``702.21. Ward``) is a titled section; an unnumbered glossary
  entry (``### RETALIATE X``, the MTG glossary's "Hexproof") is named by its heading: each
  comma-separated name, without quotes, a bracketed qualifier or a trailing ``X``
  (``CONFUSE, CONFUSED`` -> ``confuse``, ``confused``; ``ATTACK (PLAYER ACTION)`` ->
  ``attack (player action)`` and ``attack``).
- **family** of a rule: the rule and all its descendants (parents come from rule numbers).
- **group** of a rule, for keeping one family from filling every result: its first two
  number tokens (``355.14.h.1`` -> ``355.14``, ``702.21a`` -> ``702.21``) or its glossary entry.
- **refs**: the rules a rule's cross-references name ("See rule 355.6", "See also: Guard"),
  resolved in the same document first, then in the game's newest edition.
- **rarity** of a term: ``1 - log(1 + df) / log(1 + N)`` over the game's N rules, df the
  rules whose text contains it. "Patrol" is rare, "attack" is everywhere: a rule named by a
  rare word is strong evidence, one named by a common word is weak.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable

from ingest.cards import normalize_name
from ingest.models import Rule
from ingest.numbers import find_refs, normalize_number, tokens

__all__ = ["MAX_TITLE_WORDS", "RuleStructure", "heading_names"]

MAX_TITLE_WORDS = 4
MAX_TERM_WORDS = 4
POINTER_WORDS = 60


def heading_names(heading: str) -> list[str]:
    """Names a glossary heading stands for, normalized (see the module docstring)."""
    out: list[str] = []
    for part in heading.split(","):
        part = part.strip().strip("\"'\u201c\u201d\u2018\u2019 ")
        if not part:
            continue
        bare = re.sub(r"\s*\([^)]*\)\s*", " ", part).strip()
        bare = re.sub(r"\s+x$", "", bare, flags=re.IGNORECASE)
        for name in (part, bare):
            n = normalize_name(name)
            if n and n not in out:
                out.append(n)
    return out


def _is_title(rule: Rule) -> bool:
    text = rule.text.strip()
    return (
        0 < len(text.split()) <= MAX_TITLE_WORDS
        and not text.endswith((".", ":", ";", ","))
        and text[:1].isupper()
    )


class RuleStructure:
    """Families, titled sections, glossary terms and cross-references of one game's rules."""

    def __init__(self, rules: Iterable[Rule], stem: Callable[[str], str] = lambda w: w) -> None:
        self.rules = list(rules)
        self._stem = stem
        self.by_key = {r.key: r for r in self.rules}
        self._by_doc_number = {(r.doc, normalize_number(r.number)): r for r in self.rules}
        self._by_number: dict[str, list[Rule]] = {}
        for r in self.rules:
            self._by_number.setdefault(normalize_number(r.number), []).append(r)
        self.children: dict[str, list[str]] = {}
        for r in self.rules:
            if r.parents:
                parent = self._by_doc_number.get((r.doc, normalize_number(r.parents[0])))
                if parent is not None:
                    self.children.setdefault(parent.key, []).append(r.key)
        self.titles: set[str] = set()
        self.terms: dict[str, list[str]] = {}
        for r in self.rules:
            names: list[str] = []
            if r.numbered and r.key in self.children and _is_title(r):
                self.titles.add(r.key)
                names = [normalize_name(r.text)]
            elif not r.numbered and "." not in r.number and r.heading:
                names = heading_names(r.heading)
            for name in names:
                if name and len(name.split()) <= MAX_TERM_WORDS:
                    self.terms.setdefault(name, []).append(r.key)
        #: stemmed spelling -> term ("equipping" finds "equip")
        self._stemmed = {self._stem_phrase(t): t for t in sorted(self.terms, key=len, reverse=True)}
        self._texts = [" " + normalize_name(r.text) + " " for r in self.rules]
        self._df: dict[str, int] = {}
        self._pointer: dict[str, bool] = {}

    # ----------------------------------------------------------------- families
    def family(self, key: str, limit: int = 200) -> list[str]:
        """``key`` and its descendants, in document order, at most ``limit``."""
        out = [key]
        i = 0
        while i < len(out) and len(out) < limit:
            out.extend(self.children.get(out[i], []))
            i += 1
        return out[:limit]

    def group(self, rule: Rule) -> str:
        if not rule.numbered:
            return f"{rule.doc}::{rule.number.split('.')[0]}"
        return f"{rule.doc}::{'.'.join(tokens(rule.number)[:2])}"

    def is_title(self, key: str) -> bool:
        return key in self.titles

    def is_pointer(self, rule: Rule) -> bool:
        """A glossary entry of a numbered rulebook that defines a term in a line and points
        to the rule that governs it ("Ward: ... See rule 702.21"): the rule it points to is
        the answer, not the pointer."""
        found = self._pointer.get(rule.key)
        if found is None:
            found = self._pointer[rule.key] = (
                not rule.numbered and bool(find_refs(rule.text)) and len(rule.text.split()) <= POINTER_WORDS
            )
        return found

    # ----------------------------------------------------------------- references
    def refs(self, rule: Rule) -> list[str]:
        """Rules the rule's text points to ("See rule 702.21"); a glossary's "See also" list
        is related reading, not a pointer, and is left out."""
        out: list[str] = []
        for ref in find_refs(rule.text):
            target = self.resolve(ref, rule.doc)
            if target is not None and target.key != rule.key and target.key not in out:
                out.append(target.key)
        return out

    def resolve(self, ref: str, doc: str) -> Rule | None:
        num = normalize_number(ref)
        same = self._by_doc_number.get((doc, num))
        if same is not None:
            return same
        found = self._by_number.get(num, [])
        return max(found, key=lambda r: r.version) if found else None

    # ----------------------------------------------------------------- terms
    def rarity(self, term: str) -> float:
        df = self._df.get(term)
        if df is None:
            needle = f" {term} "
            df = self._df[term] = sum(1 for t in self._texts if needle in t)
        n = max(len(self.rules), 2)
        return max(0.0, 1.0 - math.log1p(df) / math.log1p(n))

    def _stem_phrase(self, phrase: str) -> str:
        return " ".join(self._stem(w) for w in phrase.split())

    def terms_in(self, text: str) -> list[str]:
        """Terms of this game named in ``text`` (longest first, never two on the same words;
        inflections forgiven through the stemmer)."""
        words = [self._stem(w) for w in normalize_name(text).split()]
        taken = [False] * len(words)
        out: list[str] = []
        for size in range(min(MAX_TERM_WORDS, len(words)), 0, -1):
            for i in range(len(words) - size + 1):
                if any(taken[i : i + size]):
                    continue
                term = self._stemmed.get(" ".join(words[i : i + size]))
                if term is not None:
                    if term not in out:
                        out.append(term)
                    for j in range(i, i + size):
                        taken[j] = True
        return out

    def word_is_common(self, word: str, limit: int = 3) -> bool:
        """True when ``word`` appears in more than ``limit`` rules (a rules word, not a name)."""
        needle = f" {word} "
        count = 0
        for t in self._texts:
            if needle in t:
                count += 1
                if count > limit:
                    return True
        return False
