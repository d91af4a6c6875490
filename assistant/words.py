"""The project's one stemmer and stop-word list.

Every comparison of question words with rule, lexicon or worked-case words goes through
:func:`stem` and :data:`STOP_WORDS`, so "targets", "targeted" and "targeting" meet "target"
the same way everywhere. English only; no game's words are here.
"""

from __future__ import annotations

import re

__all__ = ["DECISIVE", "FRAME_WORDS", "STOP_WORDS", "content_words", "stem", "tokens"]

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

# Function words, pronouns, auxiliaries and the chat words that carry no rules meaning.
# Negations and quantifiers are deliberately absent: they change what is asked.
STOP_WORDS = frozenset(["a", "an", "the", "of", "to", "and", "or", "is", "are", "was", "were", "be", "been", "being", "am", "it", "its", "it's", "in", "on", "at", "for", "with", "that", "this", "these", "those", "there", "their", "they", "them", "then", "than", "so", "as", "by", "from", "into", "onto", "if", "when", "whenever", "while", "what", "which", "who", "whom", "whose", "how", "why", "where", "i", "me", "my", "mine", "we", "us", "our", "you", "your", "yours", "he", "him", "his", "she", "her", "do", "does", "did", "doing", "done", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "have", "has", "had", "having", "get", "gets", "got", "just", "really", "actually", "still", "even", "too", "very", "quite", "like", "so", "well", "ok", "okay", "oh", "hey", "hi", "yo", "pls", "please", "thanks", "thank", "question", "q", "quick", "rule", "rules", "ruling", "judge", "anyone", "someone", "somebody", "something", "thing", "things", "way", "about", "here", "now", "ever", "always", "right", "correct", "true", "wrong", "yes", "yeah", "legit", "basically", "technically", "though", "although", "but", "much", "because", "since", "some", "kind", "sort", "wondering", "wonder", "want", "wanted", "know", "knows", "think", "thinks", "confused", "understand", "understanding", "mean", "means", "meant", "say", "says", "said", "tell", "asks", "ask", "asking", "happen", "happens", "happened", "happening", "what's", "does't", "whats", "let", "lets"])


_IRREGULAR = {"goes": "go", "going": "go", "gone": "go", "went": "go", "chose": "choos", "chosen": "choos",
              "made": "mak", "took": "tak", "taken": "tak", "dies": "di", "died": "di", "dying": "di",
              "paid": "pay", "dealt": "deal", "hit": "hit", "gave": "giv", "given": "giv"}


def stem(word: str) -> str:
    """A light suffix stripper: plural, -ed, -ing (never below three letters), a final
    silent e, and a few irregular verbs."""
    w = word.lower().strip("'-")
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    w = w.removesuffix("'s")
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith("ied") and len(w) > 4:
        return w[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # "targetted" -> "target", "stopped" -> "stop"
    if len(w) > 3 and w.endswith("e") and not w.endswith("ee"):
        w = w[:-1]  # "choose", "chooses", "choosing" -> "choos"; "make", "making" -> "mak"
    return w


def tokens(text: str) -> list[str]:
    """Lower-case word tokens of ``text``."""
    return _TOKEN.findall(text.lower())


# Words that change what is asked however common they are: never "light".
DECISIVE = frozenset({"all", "each", "every", "only", "both", "same", "another", "other", "new", "extra",
                      "additional", "instead", "rather", "before", "after", "until", "unless", "except",
                      "without", "more", "fewer", "less", "least", "most", "first", "last", "next", "again",
                      "twice", "also", "own", "itself", "separate", "different", "whole", "split", "up"})

# What an asked clause may say differently without asking something else ("is it legal",
# "can I pick it", "is that ok"): the predicate of permission and choosing.
FRAME_WORDS = frozenset({"legal", "valid", "allow", "allowed", "ok", "okay", "fine", "possible", "permitted",
                         "target", "targeted", "targeting", "choose", "chosen", "choosing", "pick", "picked",
                         "select", "selected", "able", "count", "counts", "considered", "use", "play", "go"})

# Negation is read by the polarity and cue checks, never as a content word.
_NEGATIONS = frozenset({"not", "no", "never", "cannot", "nor", "neither"})


def is_negation(word: str) -> bool:
    """A lower-case token that negates ("not", "never", "can't" …)."""
    return word in _NEGATIONS or word.endswith("n't")


def content_words(text: str) -> frozenset[str]:
    """The stems of ``text``'s words that are not stop words, numbers or negations."""
    return frozenset(stem(w) for w in tokens(text)
                     if w not in STOP_WORDS and not is_negation(w) and not w.isdigit() and len(w) > 1)
