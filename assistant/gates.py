"""Gates every extracted reading passes before the engine is asked.

A reading (the parse's slots, each with the words of the question it came from) may
rule only when the question's words that change what is asked are read by some slot:
the concept words of the lexicons (zones, actions, costs, what the card's text is said
to say, triggers) outside quoted card text. A concept word that no slot read means the
reading answers another question than the one asked: it abstains, and says which word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from assistant.lexicon import Lexicon
from assistant.textnorm import outside_quotes, quoted_spans
from assistant.words import content_words, stem

__all__ = ["ConceptGate", "Unread", "filled_concepts"]


def filled_concepts(scenario: dict[str, object] | None) -> frozenset[str]:
    """The concepts a scenario's slots already read: a cost or a trigger condition as the
    way an effect picks what it names, a hidden zone an object is in."""
    if not scenario:
        return frozenset()
    out: set[str] = set()
    ability = scenario.get("ability")
    if isinstance(ability, dict) and ability.get("labels"):
        out.add("labels")
    effects = ability.get("effects", []) if isinstance(ability, dict) else []
    for e in effects if isinstance(effects, list) else []:
        sel = e.get("selection", {}) if isinstance(e, dict) else {}
        kind = sel.get("kind") if isinstance(sel, dict) else None
        if kind == "cost":
            out.add("costs")
        if kind in ("trigger_condition", "replacement"):
            out.add("triggers")
    return frozenset(out)

_LABELS = {
    "zones": "where the card is",
    "actions": "what the ability does",
    "costs": "a cost",
    "text_says": "what the card's text says",
    "triggers": "a trigger",
    "labels": "the ability's label",
}


def _pattern(entries: Iterable[str]) -> re.Pattern[str]:
    alts = sorted((e[3:] if e.startswith("re:") else r"\b" + re.escape(e) + r"\b" for e in entries), key=len, reverse=True)
    return re.compile("|".join(f"(?:{a})" for a in alts), re.IGNORECASE)


@dataclass(frozen=True)
class Unread:
    concept: str
    word: str

    def reason(self) -> str:
        label = _LABELS.get(self.concept, self.concept)
        return f"The question says '{self.word}' ({label}), which my reading of it does not use."


class ConceptGate:
    def __init__(self, lexicon: Lexicon) -> None:
        self._rx = [(name, _pattern(words)) for name, words in lexicon.concepts.items() if words]

    def unsaid(self, question: str, said: frozenset[str]) -> list[Unread]:
        """Concept words of ``question`` (outside quotes) whose content words are not all in
        ``said`` (stems: what a rule fact's quote and wordings say). What an ability does
        ("exhaust them", "kill it") is the story a fact is told in, not a concept it misses."""
        text = outside_quotes(question)
        return [Unread(name, m.group(0)) for name, rx in self._rx if name != "actions"
                for m in rx.finditer(text) if not content_words(m.group(0)) <= said]

    def unread(self, question: str, evidence: Iterable[str], slots: frozenset[str] = frozenset(),
               quoted_ability: bool = False) -> list[Unread]:
        """Concept words of ``question`` (outside quotes) that no evidence span contains and
        no filled slot of that concept (``slots``: concept names the reading filled) reads."""
        text = question
        quotes = [(q.start, q.end) for q in quoted_spans(question)]
        low = outside_quotes(question).lower()
        spans: list[tuple[int, int]] = []
        evidence = list(evidence)
        said = {stem(w) for ev in evidence for w in re.findall(r"[a-z]+", (ev or "").lower())}
        for ev in evidence:
            e = (ev or "").strip().strip('"').lower()
            if len(e) < 2:
                continue
            for m in re.finditer(re.escape(e), low):
                spans.append((m.start(), m.end()))
        out: list[Unread] = []
        for name, rx in self._rx:
            if name in slots or (name == "actions" and not quoted_ability):
                continue
            for m in rx.finditer(text):
                if any(a <= m.start() < b for a, b in quotes):
                    continue
                words = re.findall(r"[a-z]+", m.group(0).lower())
                if all(stem(w) in said for w in words):
                    continue  # the slot's own words (the ability text it read) say it
                if not any(a <= m.start() and m.end() <= b for a, b in spans):
                    out.append(Unread(name, m.group(0)))
        return out
