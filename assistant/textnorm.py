"""Question text normalisation: quotes, numbers written as words, simple tokens.

Nothing here knows about a particular game; it only makes the wording regular so the
grammar in :mod:`assistant.grammar` can match it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "no": 0, "none": 0, "one": 1, "a single": 1, "single": 1, "two": 2, "both": 2,
    "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "a pair of": 2, "a couple of": 2, "couple of": 2,
}
_ORDINAL_WORDS: dict[str, int] = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
# Only count-like words are rewritten into digits; "no" and "both" stay words because they
# carry other meaning ("no units", "both units") that the grammar reads directly.
_REWRITE = {k: v for k, v in _NUMBER_WORDS.items() if k not in {"no", "none", "both", "single", "a single"}}
_NUM_RE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _REWRITE), key=len, reverse=True)) + r")\b", re.IGNORECASE)

_QUOTE_CHARS = {
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2018": "'", "\u2019": "'", "\u2032": "'", "`": "'",
}


def plain_quotes(text: str) -> str:
    """Curly quotes and backticks -> straight quotes."""
    for src, dst in _QUOTE_CHARS.items():
        text = text.replace(src, dst)
    return text


def words_to_digits(text: str) -> str:
    """"four 1-Might Recruits" -> "4 1-Might Recruits"; "two targets" -> "2 targets"."""
    return _NUM_RE.sub(lambda m: str(_REWRITE[m.group(1).lower()]), text)


def number_of(word: str) -> int | None:
    """A digit string or a number word as an int, else None."""
    w = word.strip().lower()
    if w.isdigit():
        return int(w)
    return _NUMBER_WORDS.get(w, _ORDINAL_WORDS.get(w))


@dataclass(frozen=True)
class Quoted:
    text: str
    start: int
    end: int


_DQ = re.compile(r'"([^"]{2,300})"')
# Single-quoted ability text: an opening ' not inside a word, closing ' not followed by a letter.
_SQ = re.compile(r"(?<![A-Za-z0-9])'([^']{3,300}?)'(?![A-Za-z])")


def quoted_spans(text: str) -> list[Quoted]:
    """Every quoted span (double quotes first, then single quotes outside them)."""
    spans = [Quoted(m.group(1).strip(), m.start(), m.end()) for m in _DQ.finditer(text)]
    taken = [(q.start, q.end) for q in spans]
    for m in _SQ.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        inner = m.group(1).strip()
        if " " in inner:  # a single quoted word is usually emphasis ('pick'), keep it anyway
            spans.append(Quoted(inner, m.start(), m.end()))
        else:
            spans.append(Quoted(inner, m.start(), m.end()))
    return sorted(spans, key=lambda q: q.start)


# Players' words for the rules' own words. Only the question's words are rewritten (never
# quoted card text), so the grammar of question forms reads one vocabulary. Each entry is
# a phrase with one meaning in a rules question; words with several meanings ("hit",
# "fizzle", "lose") stay as they are and are left to the grammar's own context.
SYNONYMS: list[tuple[str, str]] = [
    (r"\b(?:be|get|being) aimed at\b", "target"),
    (r"\baim(?:ing)? (?:it|this|that|them) at\b", "target"),
    (r"\baim (?P<d>my|the|this|that|your|an?) (?P<x>[\w'-]+(?: [\w'-]+){0,2}?) at (?P<o>it|them|him|her|that \w+|the \w+|an? \w+)\b",
     r"target \g<o> with \g<d> \g<x>"),
    (r"\baiming at\b", "targeting"),
    (r"\baimed at\b", "targeted"),
    (r"\baim at\b", "target"),
    (r"\bzap(?:p(?:ed|ing))?\b", "target"),
    (r"\bgo(?:es)? after\b", "target"),
    (r"\bwent after\b", "targeted"),
    (r"\bsingl(?:e|ed|ing) out\b", "target"),
    (r"\blet go(?: of)?\b", "drop"),
    # "considered targeted", "counts as a target": the hedge adds nothing to the question.
    (r"\b(?:considered|deemed) (?P<t>a target|targets|targeted)\b", r"\g<t>"),
]
_SYNONYMS = [(re.compile(p, re.IGNORECASE), r) for p, r in SYNONYMS]


def map_outside_quotes(text: str, fn: Callable[[str], str]) -> str:
    """``fn`` applied to every stretch of ``text`` outside quoted spans; quoted card text
    is kept exactly as written."""
    out, pos = [], 0
    for q in quoted_spans(text):
        out.append(fn(text[pos:q.start]))
        out.append(text[q.start:q.end])
        pos = q.end
    out.append(fn(text[pos:]))
    return "".join(out)


def map_inside_quotes(text: str, fn: Callable[[str], str]) -> str:
    """``fn`` applied to the text inside every quoted span (its quote marks kept)."""
    out, pos = [], 0
    for q in quoted_spans(text):
        out.append(text[pos:q.start])
        seg = text[q.start:q.end]
        out.append(seg[0] + fn(seg[1:-1]) + seg[-1] if len(seg) >= 2 and seg[0] in "\"'" and seg[-1] == seg[0] else fn(seg))
        pos = q.end
    out.append(text[pos:])
    return "".join(out)


def canonical(text: str) -> str:
    """Players' phrasing -> the rules' words, outside quoted text only."""

    def rewrite(seg: str) -> str:
        for rx, rep in _SYNONYMS:
            seg = rx.sub(rep, seg)
        return seg

    return map_outside_quotes(text, rewrite)


def normalise(text: str) -> str:
    """Straight quotes, collapsed whitespace, number words as digits, players' words as
    the rules' words."""
    text = plain_quotes(text)
    text = re.sub(r"\s+", " ", text).strip()
    return canonical(words_to_digits(text))


def fold(name: str) -> str:
    """Case, punctuation and apostrophes forgiven: "Rek'Sai" == "reksai" == "Rek Sai"."""
    return re.sub(r"[^a-z0-9]+", "", plain_quotes(name).lower())


def outside_quotes(text: str) -> str:
    """``text`` with quoted ability text (double quotes, or single quotes around several
    words) blanked out, so the question's own words can be read apart from the card's."""
    out = text
    for q in sorted(quoted_spans(text), key=lambda q: -q.start):
        if text[q.start] == "'" and " " not in q.text:
            continue
        out = out[: q.start] + " " * (q.end - q.start) + out[q.end :]
    return out
