"""Screening before any parsing: injection, URLs, role-play, and questions that are not
about rules at all. A screened question is answered ``unknown`` and nothing is fetched."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from assistant.words import stem

_URL = re.compile(r"\b(?:https?://|ftp://|www\.)\S+|\b[a-z0-9-]+\.(?:com|net|org|io|gg|dev|ai|co)\b(?:/\S*)?", re.IGNORECASE)
_INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.?!]{0,40}\b(?:previous|prior|above|earlier|all|your|the)\b"
    r"[^.?!]{0,20}\b(?:instructions?|prompts?|rules|directions|guidelines|messages?)\b"
    r"|\b(?:system prompt|developer mode|jailbreak|DAN mode)\b"
    r"|\b(?:pretend|act|roleplay|role-play|role play)\b[^.?!]{0,20}\b(?:you are|you're|to be|as)\b"
    r"|\byou are (?:now|no longer)\b"
    r"|\bfrom now on\b"
    r"|\b(?:reveal|print|show|repeat)\b[^.?!]{0,30}\b(?:prompt|instructions|secrets?|api key|token|password)s?\b",
    re.IGNORECASE,
)
# Words that signal a rules question about card-game play; without any of them (and with no
# quoted card text or game term) the question is not something the rules can answer.
_RULES_WORDS = re.compile(
    r"\b(?:target\w*|choose|chosen|choice|play(?:ed)?|spell|abilit\w+|effect|resolv\w+|resolution|"
    r"chain|queue|damage|might|unit|legend|battlefield|minion|villain|hero|scheme|threat|enemy|"
    r"enemies|attack\w*|thwart\w*|valid|illegal|legal|trigger\w*|initiat\w*|cost|split|distribut\w*|"
    r"select\w*|pick\w*|finaliz\w*|card|kill|stun|ready|deal|draw|search|mandatory|requirement|"
    r"destination|move|might|slot|controller|arena|icon|heal\w*|exhaust\w*|drop|recruit\w*)\b",
    re.IGNORECASE,
)
_OPINION = re.compile(
    r"\b(?:best|strongest|worst|meta|tier list|deck ?list|price|cost to buy|buy|sell|worth|"
    r"release date|when (?:is|does) .* come out|tournament results?|favou?rite|recommend)\b",
    re.IGNORECASE,
)


def _names_a_term(question: str, terms: Callable[[], frozenset[str]] | None) -> bool:
    if terms is None:
        return False
    known = terms()
    return any(stem(w) in known for w in re.findall(r"[a-z][a-z'-]{2,}", question.lower()))


@dataclass(frozen=True)
class Screen:
    ok: bool
    reason: str = ""


def screen(question: str, max_chars: int = 2000,
           terms: Callable[[], frozenset[str]] | None = None) -> Screen:
    """Decide whether a question may go on to parsing at all. ``terms``: the loaded rules'
    own terms and game names (stemmed), read only when the fixed words above say nothing:
    "can my creature with reach block a flyer?" is a rules question of a loaded game."""
    q = question.strip()
    if not q:
        return Screen(False, "The question is empty.")
    if len(q) > max_chars:
        return Screen(False, f"The question is longer than {max_chars} characters.")
    if _URL.search(q):
        return Screen(False, "Links are not followed: ask about the rules in your own words.")
    if _INJECTION.search(q):
        return Screen(False, "That reads as instructions to the assistant, not a rules question.")
    if _OPINION.search(q) and not re.search(r"\b(?:target|choose|resolv|legal|valid)\w*", q, re.IGNORECASE):
        return Screen(False, "That is not a rules question; I only rule on how the loaded rules apply.")
    if not _RULES_WORDS.search(q) and '"' not in q and not _names_a_term(q, terms):
        return Screen(False, "That is not a rules question; I only rule on how the loaded rules apply.")
    return Screen(True)
