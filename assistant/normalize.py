"""Players' register -> plain wording, before anything reads the question.

Outside quoted card text only: chat filler around the question is dropped, shorthand
("opp", "dmg", "bf") and contractions ("doesn't", "isnt") are written out from the
lexicons, and typos are repaired against the loaded rules' words. Quoted text is the
card's own wording and stays as written, but for the few shorthands no card prints
('deal 3 dmg', the lexicons' ``card_text``). Every change is kept as an
:class:`Edit` so ``--explain`` can show what was read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.lexicon import Lexicon
from assistant.spelling import Speller
from assistant.textnorm import map_inside_quotes, map_outside_quotes, plain_quotes

__all__ = ["Edit", "Normalised", "Normaliser"]


@dataclass(frozen=True)
class Edit:
    """``was`` in the question was read as ``now`` (``why``: filler, shorthand, contraction, typo)."""

    was: str
    now: str
    why: str


@dataclass(frozen=True)
class Normalised:
    original: str
    text: str
    edits: tuple[Edit, ...] = field(default_factory=tuple)
    unknown: tuple[str, ...] = field(default_factory=tuple)
    """Words outside quoted text that are neither known nor repairable (a typo the speller
    could not place, or a word no loaded rule or lexicon uses)."""


_TOKEN = re.compile(r"[A-Za-z][A-Za-z'/.]*[A-Za-z/]|[A-Za-z]")


def _phrase_re(phrases: tuple[str, ...]) -> str:
    alts = sorted({re.escape(p.lower()) for p in phrases if p.strip()}, key=len, reverse=True)
    return "|".join(a.replace(r"\ ", r"[\s,]+") for a in alts) or r"(?!x)x"


class Normaliser:
    """``Normaliser(lexicon, speller)``; :meth:`normalise` is pure and cheap (no model)."""

    def __init__(self, lexicon: Lexicon, speller: Speller | None = None) -> None:
        self.lexicon = lexicon
        self.speller = speller
        f = lexicon.filler
        self._lead = re.compile(rf"^\s*(?:(?:{_phrase_re(f.leading)})\s*[:,\-–—!.]*\s+)+", re.IGNORECASE)
        self._trail = re.compile(rf"(?:[\s,]+(?:{_phrase_re(f.trailing)})[\s!.]*)+(?=[?!.]*\s*$)", re.IGNORECASE)
        self._aside = re.compile(r"\s*\(([^()\"]{1,80})\)\s*")
        card = sorted(lexicon.card_text, key=len, reverse=True)
        self._card_text = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in card) + r")\b", re.IGNORECASE) if card else None
        contr = sorted(lexicon.contractions, key=len, reverse=True)
        # Whole contracted words first ("can't", "it's"), then the bare suffixes ("n't").
        suffixes = [c for c in contr if c.startswith(("'", "n'"))]
        words = [c for c in contr if c not in suffixes]
        self._contr_word = re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, words)) + r")(?![\w'])", re.IGNORECASE) if words else None
        self._contr_suffix = re.compile(r"(?<=[a-z])(" + "|".join(map(re.escape, suffixes)) + r")(?![\w'])", re.IGNORECASE) if suffixes else None

    # ------------------------------------------------------------------ pieces
    def _filler(self, text: str, edits: list[Edit]) -> str:
        m = self._lead.match(text)
        if m and m.end() < len(text):
            rest = text[m.end():]
            edits.append(Edit(m.group(0).strip(), "", "filler"))
            text = rest[:1].upper() + rest[1:] if rest[:1].islower() and text[:1].isupper() else rest
        m2 = self._trail.search(text)
        if m2 and m2.start() > 0:
            edits.append(Edit(m2.group(0).strip(), "", "filler"))
            text = text[: m2.start()] + text[m2.end():]
        for m3 in list(self._aside.finditer(text)):
            inner = m3.group(1).lower()
            toks = re.findall(r"[a-z']+", inner)
            if toks and all(t in self.lexicon.filler.aside_words for t in toks):
                edits.append(Edit(m3.group(0).strip(), "", "filler"))
                text = text.replace(m3.group(0), " ", 1)
        text = re.sub(r"\?{2,}", "?", text)
        return re.sub(r"\s+", " ", text).strip()

    def _contractions(self, seg: str, edits: list[Edit]) -> str:
        table = self.lexicon.contractions

        def word(m: re.Match[str]) -> str:
            now = table[m.group(1).lower()]
            edits.append(Edit(m.group(1), now, "contraction"))
            return now

        def suffix(m: re.Match[str]) -> str:
            now = table[m.group(1).lower()]
            edits.append(Edit(m.group(1), now.strip(), "contraction"))
            return now

        if self._contr_word is not None:
            seg = self._contr_word.sub(word, seg)
        if self._contr_suffix is not None:
            seg = self._contr_suffix.sub(suffix, seg)
        return seg

    def _card_shorthand(self, seg: str, edits: list[Edit]) -> str:
        assert self._card_text is not None

        def one(m: re.Match[str]) -> str:
            now = self.lexicon.card_text[m.group(0).lower()]
            edits.append(Edit(m.group(0), now, "shorthand in quoted card text"))
            return now

        return self._card_text.sub(one, seg)

    def _words(self, seg: str, edits: list[Edit], unknown: list[str] | None = None) -> str:
        slang = self.lexicon.slang

        def one(m: re.Match[str]) -> str:
            tok = m.group(0)
            low = tok.lower()
            if low in slang and (len(low) > 1 or tok.islower()):
                now = slang[low]
                if now.lower() != low:
                    edits.append(Edit(tok, now, "shorthand"))
                return now
            base, poss = (tok[:-2], tok[-2:]) if low.endswith("'s") else (tok, "")
            if self.speller is not None and base.isalpha():
                fixed = self.speller.correct(base)
                if fixed is not None:
                    if base.isupper() and len(base) > 1:
                        fixed = fixed.upper()
                    elif base[:1].isupper():
                        fixed = fixed[:1].upper() + fixed[1:]
                    edits.append(Edit(tok, fixed + poss, "typo"))
                    return fixed + poss
                if unknown is not None and base[:1].islower() and len(base) >= 3 and not self.speller.known(base):
                    unknown.append(base)
            return tok

        return _TOKEN.sub(one, seg)

    # ------------------------------------------------------------------ public
    def normalise(self, question: str) -> Normalised:
        text = re.sub(r"\s+", " ", plain_quotes(question)).strip()
        edits: list[Edit] = []
        unknown: list[str] = []
        read = map_outside_quotes(text, lambda seg: self._words(self._contractions(seg, edits), edits, unknown))
        if self._card_text is not None:
            read = map_inside_quotes(read, lambda seg: self._card_shorthand(seg, edits))
        text = self._filler(re.sub(r"\s+", " ", read).strip(), edits)
        return Normalised(original=question, text=text, edits=tuple(edits), unknown=tuple(unknown))
