"""Which game a question is about: the explicit argument, an explicit mention, a card or
known example name, then the vocabulary of each loaded game (``GameInfo.terms``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from assistant.words import stem
from ingest.models import GameInfo

# The retrieval vote's reasons: a guess that gives only these rests on the vote alone.
_VOTE_ALL = "the closest rules are all its own"
_VOTE_LEAD = "the closest rules are its own"


@dataclass(frozen=True)
class GameGuess:
    game: str | None
    because: str
    scores: dict[str, float]
    by_retrieval_only: bool = False
    """The guess rests on the retrieval vote alone: no name, term, word or rule number of
    the question speaks for the game."""


def _term_re(term: str) -> re.Pattern[str]:
    plural = r"(?:s|es)?" if term[-1:].isalpha() else ""
    if term.islower():
        return re.compile(rf"\b{re.escape(term)}{plural}\b", re.IGNORECASE)
    if term.isupper():
        return re.compile(rf"\b{re.escape(term)}\b")
    if " " in term:
        # A phrase of the game's own terms ("Trigger Queue", "Arena Space") is distinctive in
        # any case: players type it in lower case.
        return re.compile(rf"\b{re.escape(term)}{plural}\b", re.IGNORECASE)
    # Capitalised game terms ("Might", "Ability", "Controller") count when capitalised
    # mid-sentence; at the start of a sentence they are just ordinary words.
    return re.compile(rf"(?<![.?!:]\s)(?<!^)\b{re.escape(term)}{plural}\b")


_WORD = re.compile(r"[a-z][a-z'\-]{3,}")


def distinctive_vocabulary(texts: dict[str, list[str]]) -> dict[str, frozenset[str]]:
    """Per game, the (stemmed) words its loaded rule texts use and no other game's do.
    Computed from the index, so it follows whatever documents are loaded."""
    words = {g: {stem(w) for t in ts for w in _WORD.findall(t.lower())} for g, ts in texts.items()}
    # A game's own terms are the words its rules capitalise mid-sentence ("Might", "Chain",
    # "Recruit", "Trigger Queue"): ordinary English words ("still", "making") are not.
    terms = {g: {stem(m.group(1).lower()) for t in ts for m in _TERM.finditer(t)} for g, ts in texts.items()}
    out: dict[str, frozenset[str]] = {}
    for g, ws in words.items():
        others = set().union(*(v for k, v in words.items() if k != g)) if len(words) > 1 else set()
        out[g] = frozenset((terms[g] & ws) - others - _FUNCTION)
    # Two-word phrases only one game's rules use, at least twice ("take damage",
    # "target slot", "Trigger Queue"): a phrase is far less ambiguous than a word.
    pairs = {g: _bigrams(" ".join(ts)) for g, ts in texts.items()}
    for g, ps in pairs.items():
        others_p: set[str] = set().union(*(set(v) for k, v in pairs.items() if k != g)) if len(pairs) > 1 else set()
        out[g] = out[g] | frozenset(p for p, n in ps.items() if n >= 2 and p not in others_p)
    return out


def rules_terms(texts: dict[str, list[str]], names: Iterable[str] = ()) -> frozenset[str]:
    """The (stemmed) terms any loaded game's rules use as their own (capitalised mid-sentence:
    "Mulligan", "Rune", "Ally", "Hexproof") and the games' names: words that make a question
    one about those rules. Shared terms count: "mulligan" is a rules word of two games."""
    out: set[str] = set()
    for ts in texts.values():
        out |= {stem(m.group(1).lower()) for t in ts for m in _TERM.finditer(t)}
    out |= {stem(w) for n in names for w in _WORD.findall(n.lower())}
    return frozenset(out - _FUNCTION)


def rare_terms(texts: list[str], terms: frozenset[str], share: float = 0.05) -> frozenset[str]:
    """Of one game's ``terms`` (:func:`rules_terms` of its ``texts``), those at most ``share``
    of its rules use: what a question is specifically about ("points", "Ambush", "destroy"),
    not the words every rule says ("card", "unit", "spell")."""
    df: dict[str, int] = {}
    for t in texts:
        for w in {stem(w) for w in _WORD.findall(t.lower())} & terms:
            df[w] = df.get(w, 0) + 1
    return frozenset(w for w, n in df.items() if n <= share * max(len(texts), 1))


def _bigrams(text: str) -> dict[str, int]:
    toks = [stem(w) for w in re.findall(r"[a-z][a-z'\-]*", text.lower())]
    out: dict[str, int] = {}
    for a, b in pairwise(toks):
        if len(a) < 3 or len(b) < 3 or a in _FUNCTION or b in _FUNCTION or a in _GLUE or b in _GLUE:
            continue
        k = f"{a} {b}"
        out[k] = out.get(k, 0) + 1
    return out


_GLUE = frozenset({"the", "and", "for", "can", "not", "are", "its", "you", "your", "any", "all", "one",
                   "has", "have", "only", "but", "was", "were", "will", "may", "must", "into", "onto",
                   "than", "more", "also", "even", "just", "does", "did"})


_TERM = re.compile(r"(?<=[a-z,;] )([A-Z][a-z][A-Za-z'\-]{2,})")
_FUNCTION = frozenset({"this", "that", "these", "those", "when", "then", "there", "their", "they", "with",
                       "from", "example", "exception", "note", "section", "rule", "rules", "see", "each"})


def detect_game(
    question: str, games: list[GameInfo], named: dict[str, str] | None = None,
    vocab: dict[str, frozenset[str]] | None = None, hit_games: Sequence[tuple[str, float]] = (),
    numbered: Mapping[str, str] | None = None,
) -> GameGuess:
    """``named``: game ids of abilities/cards the question names (already matched);
    ``vocab``: each game's distinctive words (:func:`distinctive_vocabulary`);
    ``hit_games``: (game, score) of the best retrieval hits for the question, best first
    (the retrieval vote); ``numbered``: rule numbers written in the question -> the one game
    whose loaded documents number them."""
    scores: dict[str, float] = {g.id: 0.0 for g in games}
    why: dict[str, list[str]] = {g.id: [] for g in games}
    low = question.lower()
    stems = {stem(w) for w in re.findall(r"[a-z][a-z'\-]*", low)}
    for g in games:
        names = {g.id.replace("-", " "), g.id}
        if g.name:
            names.add(g.name.split(":")[0].strip().lower())
            names.add(g.name.split("(")[-1].rstrip(")").strip().lower())
        for n in names:
            if n and len(n) > 3 and re.search(rf"\b{re.escape(n.lower())}\b", low):
                scores[g.id] += 10
                why[g.id].append(f"mentions {n!r}")
        for t in g.terms:
            hits = _term_re(t).findall(question)
            if not hits and t[:1].islower() and " " not in t and stem(t.lower()) in stems:
                hits = [t]  # an inflected form ("battlefields", "finalized")
            if hits:
                scores[g.id] += 1.0 * min(len(hits), 2) + (0.5 if " " in t else 0)
                why[g.id].append(repr(t))
    if vocab:
        toks = {stem(w) for w in _WORD.findall(low)} | set(_bigrams(low))
        vhits = {gid: sorted(toks & vocab.get(gid, frozenset())) for gid in scores}
        # Words only one game's documents use count when they point one way only; two or
        # more are needed when nothing else speaks for that game.
        pointing = [gid for gid, h in vhits.items() if h]
        if len(pointing) == 1:
            gid = pointing[0]
            if scores[gid] > 0 or len(vhits[gid]) >= 2:
                scores[gid] += 0.75 * min(len(vhits[gid]), 3)
                why[gid].append("only its rules use " + ", ".join(repr(h) for h in vhits[gid][:3]))
    for name, gid in (named or {}).items():
        if gid in scores:
            scores[gid] += 5
            why[gid].append(f"names {name!r}")
    for number, gid in (numbered or {}).items():
        if gid in scores:
            scores[gid] += 5
            why[gid].append(f"its documents number rule {number}")
    # The retrieval vote: the best three passages all from one game's documents.
    top = [g for g, _ in hit_games[:3] if g in scores]
    if len(top) == 3 and len(set(top)) == 1:
        scores[top[0]] += 2.0
        why[top[0]].append(_VOTE_ALL)
    elif top:
        lead, lead_score = hit_games[0]
        rival = max((sc for g, sc in hit_games if g != lead), default=0.0)
        if len(top) >= 2 and top[0] == top[1] or lead_score >= 1.25 * rival:
            scores[lead] += 1.0
            why[lead].append(_VOTE_LEAD)
    if not scores:
        return GameGuess(None, "no game is loaded", scores)
    best = max(scores, key=lambda k: scores[k])
    ranked = sorted(scores.values(), reverse=True)
    if ranked[0] <= 0:
        return GameGuess(None, "no game's vocabulary or card names appear", scores)
    if len(ranked) > 1 and ranked[0] == ranked[1]:
        return GameGuess(None, "the wording fits more than one game equally", scores)
    return GameGuess(best, "words: " + ", ".join(why[best]), scores,
                     by_retrieval_only=all(w in (_VOTE_ALL, _VOTE_LEAD) for w in why[best]))
