"""Citations: the engine's rules, each with the most relevant verbatim sentence of the rule
text fetched from the index, verified with ``verify_quote``; unverifiable ones are dropped."""

from __future__ import annotations

import re
from collections.abc import Iterable

from assistant.answer import Citation, Passage
from assistant.seams import RuleIndexLike
from ingest.models import SearchHit

_SENT = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)]?\s+(?=[\"'\u201c\u2018(]?[A-Z0-9])")
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    ["a", "an", "the", "of", "to", "and", "or", "is", "are", "be", "it", "its", "in", "on", "at", "for", "with", "that", "this", "can", "does", "do", "i", "my", "me", "you", "your", "if", "as", "by", "from", "not", "no", "yes", "any", "still", "when", "what", "which", "there", "their", "they", "them", "than", "then", "so"]
)


def sentences(text: str) -> list[str]:
    """Split rule text into sentences; each is a verbatim substring of ``text``."""
    out: list[str] = []
    pos = 0
    for m in _SENT.finditer(text):
        piece = text[pos : m.start() + len(m.group(0).rstrip())].strip()
        if piece:
            out.append(piece)
        pos = m.end()
    tail = text[pos:].strip()
    if tail:
        out.append(tail)
    return out


def _tokens(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1}


def best_sentence(text: str, focus: str, max_chars: int = 300) -> str:
    """The sentence of ``text`` sharing most words with ``focus`` (ties: the earlier one)."""
    sents = sentences(text) or [text]
    want = _tokens(focus)
    best, best_score = sents[0], -1.0
    for i, s in enumerate(sents):
        toks = _tokens(s)
        score = len(toks & want) / (1 + 0.02 * len(toks)) - 0.001 * i
        if score > best_score:
            best, best_score = s, score
    if len(best) > max_chars:
        best = best[:max_chars].rsplit(" ", 1)[0]
    return best


def cite(
    index: RuleIndexLike, rules: Iterable[tuple[str, str]], focus: str, limit: int = 4
) -> list[Citation]:
    """One verified citation per rule, in the given (most decisive first) order."""
    out: list[Citation] = []
    seen: set[tuple[str, str]] = set()
    for doc, number in rules:
        if (doc, number) in seen:
            continue
        seen.add((doc, number))
        rule = index.get(doc, number)
        if rule is None or not rule.text.strip():
            continue
        quote = best_sentence(rule.text, focus)
        if not index.verify_quote(doc, number, quote):
            quote = rule.text.strip()[:300]
            if not index.verify_quote(doc, number, quote):
                continue
        out.append(Citation(doc=doc, rule=number, quote=quote, edition=rule.version))
        if len(out) >= limit:
            break
    return out


def verified(index: RuleIndexLike, citations: Iterable[Citation]) -> list[Citation]:
    """Keep only citations whose rule exists and whose quote is verbatim (forgeries dropped)."""
    return [c for c in citations if index.get(c.doc, c.rule) is not None and index.verify_quote(c.doc, c.rule, c.quote)]


def passages_from_hits(hits: Iterable[SearchHit], limit: int = 5) -> list[Passage]:
    out: list[Passage] = []
    for h in hits:
        rule = h.rule
        out.append(Passage(doc=rule.doc, rule=rule.number, text=rule.text, score=float(getattr(h, "score", 0.0))))
        if len(out) >= limit:
            break
    return out
