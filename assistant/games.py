"""Which game a question is about: the explicit argument, an explicit mention, a card or
known example name, then the vocabulary of each loaded game (``GameInfo.terms``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.models import GameInfo


@dataclass(frozen=True)
class GameGuess:
    game: str | None
    because: str
    scores: dict[str, float]


def _term_re(term: str) -> re.Pattern[str]:
    plural = r"(?:s|es)?" if term[-1:].isalpha() else ""
    if term.islower():
        return re.compile(rf"\b{re.escape(term)}{plural}\b", re.IGNORECASE)
    if term.isupper():
        return re.compile(rf"\b{re.escape(term)}\b")
    # Capitalised game terms ("Might", "Ability", "Controller") count when capitalised
    # mid-sentence; at the start of a sentence they are just ordinary words.
    return re.compile(rf"(?<![.?!:]\s)(?<!^)\b{re.escape(term)}{plural}\b")


def detect_game(
    question: str, games: list[GameInfo], named: dict[str, str] | None = None
) -> GameGuess:
    """``named``: game ids of abilities/cards the question names (already matched)."""
    scores: dict[str, float] = {g.id: 0.0 for g in games}
    why: dict[str, list[str]] = {g.id: [] for g in games}
    low = question.lower()
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
            if hits:
                scores[g.id] += 1.0 * min(len(hits), 2) + (0.5 if " " in t else 0)
                why[g.id].append(repr(t))
    for name, gid in (named or {}).items():
        if gid in scores:
            scores[gid] += 5
            why[gid].append(f"names {name!r}")
    if not scores:
        return GameGuess(None, "no game is loaded", scores)
    best = max(scores, key=lambda k: scores[k])
    ranked = sorted(scores.values(), reverse=True)
    if ranked[0] <= 0:
        return GameGuess(None, "no game's vocabulary or card names appear", scores)
    if len(ranked) > 1 and ranked[0] == ranked[1]:
        return GameGuess(None, "the wording fits more than one game equally", scores)
    return GameGuess(best, "words: " + ", ".join(why[best]), scores)
