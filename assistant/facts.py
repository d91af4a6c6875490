"""Rule facts: what a rule document settles, as data, and a reader that answers a question
by the fact it asks about.

A fact (``assistant/facts/*.jsonl``, written from the rule documents alone) is a question a
rule settles beyond doubt, its answer, the rule that settles it with a verbatim quote, and
players' wordings of it, each with its own answer as worded. The questions of our read
question sets (``assistant/facts/asked/*.jsonl``: training data once read, never a measure)
are more wordings, each labelled with the fact that settles it and where it came from. Abstract rule questions ("can a
player be a target?", "is a picked unit targeted?") have no scenario for the engine to
decide; the rule itself is the decision, and the answer cites it.

A question is read as a fact only when every gate holds; otherwise the reader stays silent
and says why:

* the wording it is read through denies the same things (the first content word after each
  negation outside quoted text: "not on resolve" is not "not before");
* the question says the turning words ("must", "only", "instead", "before", "up to",
  "opponent", ...) of that wording and those all the fact's wordings with that answer say,
  and its others are words some of them say;
* where the fact depends on numbers (some wording states one), the question's numbers
  (rule numbers aside) are that wording's numbers;
* that wording is close (cosine >= ``threshold``) and every wording with another answer
  and as many negations is at least ``margin`` further away;
* the words of the question's quoted card text, and its decisive words ("each", "same",
  "other" ...), are words the fact's wordings use;
* the question says each word nearly every wording of the fact says (its card, its subject:
  a fact about Here to Help does not answer a question about playing any unit).

When no wording fits the question in all of those ways (a story's setup numbers, a negation
of another word, a turning word one wording leaves out), the question may still be read
through its **neighbourhood**: the nearest wordings that deny as many things as it does
(cosine >= ``neighbourhood``), every one within ``margin`` of the nearest of one fact and one
answer, which together say each of the question's turning words, and one of which says no
turning word the question does not; a fact that depends on numbers must still fit them. The
remaining gates above apply to that reading too.

When neither reads it, a **learned check** may: the nearest wording that denies as many
things as the question (two by two) and states no other numbers is a candidate, and a tree
ensemble (:mod:`assistant.verifier`) trained on our read question sets
(``assistant/facts/answered/*.jsonl``: each with the answer its documents give, training data
once read, never a measure) judges from the candidate's neighbourhood how likely its answer
is the question's. At ``checked`` or more it is read; every later gate still applies.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Literal, NamedTuple

import numpy as np
from pydantic import BaseModel, ConfigDict

from assistant.coverage import ask_start
from assistant.embedded import EmbeddedTexts
from assistant.learned import LearnedClassifier
from assistant.textnorm import normalise, outside_quotes, quoted_spans
from assistant.verifier import CheckedTrees, learned_check
from assistant.words import DECISIVE, content_words, stem, tokens

__all__ = ["NEIGHBOURHOOD", "Answered", "Asked", "Fact", "FactReading", "FactWording", "NoFact", "RuleFacts", "anchored",
           "load_answered", "load_facts"]

Answer = Literal["yes", "no"] | int

_RULE_NUMBER = re.compile(r"\b\d+(?:\.\d+)+[a-z]?\b")
_NUM = re.compile(r"\b\d+\b")
_PRONOUN_ONE = re.compile(r"\b(?:quick|this|that|the|which|any|every|some|no|last|next|other|another|right|wrong|same|first|second|third|fourth|legal|illegal|remaining)\s+1\b(?!\s*(?:of|more|less)\b)",
                          re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|cannot|unable|no longer|no|none|nothing|nobody|non)\b|n't\b", re.IGNORECASE)
# A negative question ("don't I have to play it?", "isn't the battlefield a target too?")
# asks the positive one: its auxiliary's "n't", before the subject, denies nothing.
_NEGATIVE_QUESTION = re.compile(
    r"(?:^|[.?!;:,\u2014\u2013(]\s*|\b(?:so|but|and|wait|ok|okay|then|also)\s+)"
    r"((?:do|does|did|is|are|was|were|could|should|would|will|wo|ca|must|has|have|had|may|might)(?:n't|\s+not)|cannot|can't)"
    r"\s+(?:i|you|we|they|it|he|she|that|this|there|these|those|my|your|our|their|its|his|her|the|a|an|each|every|all|any|both)\b",
    re.IGNORECASE)
# A contrast tag after the asking clause ("when it's queued, right? not on resolution", "as I
# play it, not later") names the alternative the question sets aside: it denies nothing the
# question asks.
_CONTRAST_TAG = re.compile(r"(?:[,?;(]|\s[-\u2013\u2014])\s*not\b(?=[^,.;?!()]*\)?[?.!]?\s*$)", re.IGNORECASE)
# "unplayable", "untargetable", "unblockable": what cannot be done, a negation of its verb.
_CANNOT_BE = re.compile(r"\bun([a-z]{3,}?)(?:able|ible)\b", re.IGNORECASE)
_DECISIVE = frozenset(stem(w) for w in DECISIVE)
_COUNTED_SHARE = 0.25
# How many of the nearest wordings a neighbourhood reading looks at.
_NEIGHBOURS = 60
# What the learned check reads of a candidate's neighbourhood (its nearest wordings, up to
# this many), in this order.
_CHECKED_NEIGHBOURS = 80
NEIGHBOURHOOD = ("cosine", "nearest cosine", "rank", "margin to another answer", "margin to another fact",
                 "margin to the fact's other answer", "share of the nearest ten", "fact's share of the nearest ten",
                 "question's turning words no wording of the answer says", "turning words every wording of the answer says and the question does not",
                 "candidate's turning words the question does not say", "same negations", "a number", "question's words")

# A fact's core words: those at least this share of its wordings say (of a fact with at
# least this many wordings).
_CORE_SHARE = 0.9
_CORE_WORDINGS = 8
# Words that turn what is asked around without a negation ("exempt from needing",
# "excluded from being targeted", "must say choose", "an impossible choice", "for the
# whole time", "unless the text says otherwise"): a question is read as a fact only through
# a wording that says the same ones. Zero ("zero", "empty", "0 ATK") is one word here, and
# so are a few phrases.
_POLAR = frozenset(stem(w) for w in (
    "exempt", "excluded", "exclude", "barred", "bar", "prevent", "prevented", "impossible", "illegal", "invalid",
    "unaffected", "cancel", "cancels", "cancelled", "canceled", "void", "voided", "countered", "fizzle", "fizzles",
    "negated", "fail", "fails", "cease", "ceases", "stop", "stops", "decline", "declines", "refuse", "skip",
    "ignore", "ignored", "without", "must", "need", "needs", "require", "requires", "required", "only", "instead",
    "rather", "except", "unless", "forbid", "forbidden", "prohibited", "disallowed", "lose", "loses", "optional",
    "mandatory", "obligated", "automatically", "still", "anyway", "even", "after", "before", "during", "until", "while", "whole",
    "specifically", "explicitly", "expressly", "default", "otherwise", "opponent", "upto", "anynumber", "minimum",
    "maximum", "fewer", "less", "more", "same", "twice", "different", "new", "another", "other", "each", "every", "all", "both",
    "total", "altogether", "combined", "overall"))

# Turning words that say one thing (a question that says "need" is a wording that says
# "must"): each is read as the first of its group.
_SAME_TURN = {stem(w): stem(group[0]) for group in (
    ("must", "need", "needs", "require", "requires", "required", "obligated", "mandatory"),
    ("forbid", "forbidden", "barred", "bar", "prohibited", "disallowed"),
    ("exempt", "excluded", "exclude"),
    ("cancel", "cancels", "cancelled", "canceled", "void", "voided", "negated"),
    ("total", "altogether", "combined", "overall")) for w in group}

# "countered" turns what is asked; the counters a player has or puts on a card ("poison
# counters", "a +1/+1 counter") share its stem and turn nothing.
_COUNTER_NOUNS = frozenset({"counter", "counters"})

# Turning words that stress what is asked without turning it ("can I still ...?", "... anyway?",
# "can I even ...?"): a wording that says one the question does not still reads it; a
# question that says one still needs a wording of that answer that does.
_EMPHASIS = frozenset(stem(w) for w in ("still", "anyway", "even"))

# Words that name one of two contrasting things (the main scheme or a side one, a friendly
# unit or an enemy, hero form or alter-ego): a question about one is not a wording about the
# other.
_CONTRASTS = tuple((stem(a), stem(b)) for a, b in (
    ("main", "side"), ("friendly", "enemy"), ("hero", "alter"), ("first", "second"), ("fewest", "most"),
    ("minimum", "maximum"), ("top", "bottom"), ("attacker", "defender")))


def _contrast(question: str, wording: str) -> tuple[str, str] | None:
    """The pair (the question's word, the wording's) when the question says one side of a
    contrast and not the other, and the wording the other and not the first."""
    qw, ww = content_words(outside_quotes(question)), content_words(outside_quotes(wording))
    for a, b in _CONTRASTS:
        for x, y in ((a, b), (b, a)):
            if x in qw and y not in qw and y in ww and x not in ww:
                return x, y
    return None


_DENIAL = re.compile(r"\b(?:not|never|cannot|no)\b|n't\b", re.IGNORECASE)
_PHRASES = ((re.compile(r"\b(?:ruled?|rules) out\b"), "excluded"),
            (re.compile(r"\b(?:have|has|had|got) to\b|\bgotta\b|\b(?:make|makes|force|forces|forced) (?:me|you|them|him|her|the \w+)\b"
                        r"|\b(?:forced|obliged) to\b"), "must"),
            (re.compile(r"\bup to\b"), "upto"),
            (re.compile(r"\bany number\b"), "anynumber"),
            (re.compile(r"\b(?:fewest|least|min|minimum|smallest|lowest)\b"), "minimum"),
            (re.compile(r"\b(?:most|max|maximum|largest|highest|biggest)\b"), "maximum"))
_NOTHING = frozenset({"zero", "empty"})
_BOUNDS = frozenset({"upto", "anynumber"})
# Quoted card text that affects every object of a kind ("remove 1 threat from each scheme").
_EVERY = re.compile(r"\b(?:each|every|all)\b")


class Wording(BaseModel):
    model_config = ConfigDict(frozen=True)

    q: str
    a: Answer


class Fact(BaseModel):
    """One question a rule settles, with the rule, its quote and players' wordings."""

    model_config = ConfigDict(frozen=True)

    id: str
    game: str
    doc: str
    rule: str | None
    quote: str
    ask: str
    answer: Answer
    wordings: tuple[Wording, ...]


class FactWording(NamedTuple):
    """One wording of a fact as read (a named tuple: 17,000 of them are built per process)."""

    fact: Fact
    text: str
    answer: Answer
    negated: tuple[str, ...]
    numbers: tuple[int, ...]
    polar: frozenset[str]
    counts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class FactReading:
    """The question read as ``fact`` through ``wording``; ``answer`` is the answer to the
    question as worded."""

    fact: Fact
    wording: FactWording
    answer: Answer
    score: float
    margin: float
    #: Set when the learned classifier read it (its probability), not the nearest wording.
    probability: float | None = None
    #: Set when the question was read through its neighbourhood: how many of the nearest
    #: wordings, all of this fact and answer, it was read through.
    neighbours: int | None = None
    #: Set when the learned check read it: its probability that the answer is right.
    checked: float | None = None

    @property
    def how(self) -> str:
        if self.checked is not None:
            return (f"the learned check ({self.checked:.2f}) on the nearest wording "
                    f"(cosine {self.score:.2f}, margin {self.margin:.2f})")
        if self.neighbours is not None:
            return (f"the {self.neighbours} nearest wordings, all of one fact and answer "
                    f"(cosine {self.score:.2f}, margin {self.margin:.2f})")
        if self.probability is not None:
            return f"the learned classifier ({self.probability:.2f}), through a wording at cosine {self.score:.2f}"
        return f"the nearest wording (cosine {self.score:.2f}, margin {self.margin:.2f})"


@dataclass(frozen=True)
class NoFact:
    reason: str


@dataclass(frozen=True)
class _Asked:
    """What a question denies, the numbers it states and its turning words."""

    negated: tuple[str, ...]
    numbers: tuple[int, ...]
    polar: frozenset[str]
    counts: tuple[tuple[str, int], ...] = ()


def _label(w: FactWording) -> str:
    return f"{w.fact.id}|{w.answer}"


class Asked(BaseModel):
    """A question players asked (one of our read question sets), labelled with the fact that
    settles it and its answer as worded: one more wording of that fact."""

    model_config = ConfigDict(frozen=True)

    fact: str
    q: str
    a: Answer
    source: str


class Answered(BaseModel):
    """A question players asked (one of our read question sets) with the answer its documents
    give ("unknown": they do not settle it): what the learned check learns from."""

    model_config = ConfigDict(frozen=True)

    game: str
    q: str
    a: Answer | Literal["unknown"]
    source: str


def load_answered(directory: Path | None = None) -> list[Answered]:
    """The answered questions of ``directory/answered`` (default: this package's facts)."""
    root = directory or Path(str(resources.files("assistant") / "facts"))
    return [Answered.model_validate_json(line) for path in sorted((root / "answered").glob("*.jsonl"))
            for line in _lines(path)]


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_facts(directory: Path | None = None) -> list[Fact]:
    """Every fact of ``directory`` (default: this package's ``facts``), with the asked
    questions of ``directory/asked`` as more wordings of the facts they are labelled with."""
    root = directory or Path(str(resources.files("assistant") / "facts"))
    asked: dict[str, list[Wording]] = {}
    for path in sorted((root / "asked").glob("*.jsonl")):
        for line in _lines(path):
            x = Asked.model_validate_json(line)
            asked.setdefault(x.fact, []).append(Wording(q=x.q, a=x.a))
    out = [Fact.model_validate_json(line) for path in sorted(root.glob("*.jsonl")) for line in _lines(path)]
    unknown = sorted(set(asked) - {f.id for f in out})
    if unknown:
        raise ValueError(f"asked questions labelled with facts that do not exist: {', '.join(unknown[:5])}")
    return [f.model_copy(update={"wordings": f.wordings + tuple(asked[f.id])}) if f.id in asked else f for f in out]


def negations(text: str) -> tuple[str, ...]:
    """What each negation of ``text`` (normalised, outside quoted text) denies: the first
    content word after it ("hasn't finished" -> "finish", "not on resolve" -> "resolve").
    Two texts say the same negations when these are equal: "not on resolve" and "not
    before" deny different things. A negative question ("don't I have to?") denies nothing;
    "unplayable" denies "play"."""
    plain = outside_quotes(text)
    asking = [m.span(1) for m in _NEGATIVE_QUESTION.finditer(plain)]
    asking += [m.span() for m in _CONTRAST_TAG.finditer(plain)]
    out: list[str] = []
    for m in _NEGATION.finditer(plain):
        if any(a <= m.start() < b for a, b in asking):
            continue
        after = [w for w in tokens(plain[m.end():]) if content_words(w)]
        denied = stem(after[0]) if after else ""
        # "a non-attack event" names another kind of thing; it does not deny what "cannot
        # be attacked" denies.
        out.append(f"non-{denied}" if m.group().lower() == "non" else denied)
    out.extend(stem(m.group(1)) for m in _CANNOT_BE.finditer(plain))
    return tuple(sorted(out))


def _numbered(text: str) -> str:
    """``text`` outside quoted text, with rule numbers ("355.7", "11.4.5") and "one" as a
    pronoun ("quick one", "the one that ...") blanked: what is left numbers things."""
    return _PRONOUN_ONE.sub(" ", _RULE_NUMBER.sub(" ", outside_quotes(text)))


def numbers(text: str) -> tuple[int, ...]:
    """The numbers ``text`` (normalised) states, rule numbers and "one" as a pronoun aside."""
    return tuple(sorted(int(n) for n in _NUM.findall(_numbered(text))))


def counts(text: str) -> tuple[tuple[str, int], ...]:
    """What each number of ``text`` (normalised, outside quoted text) counts: the first
    content word after it ("2 Might", "5 enemy units" -> ("might", 2), ("enemi", 5))."""
    plain = _numbered(text)
    out: list[tuple[str, int]] = []
    for m in _NUM.finditer(plain):
        after = [w for w in tokens(plain[m.end():])[:3] if content_words(w)]
        if after:
            out.append((stem(after[0]), int(m.group())))
    return tuple(sorted(out))


def _counted_apart(a: tuple[tuple[str, int], ...], b: tuple[tuple[str, int], ...]) -> bool:
    """Some thing both texts count is counted differently ("2 Might" against "5 Might")."""
    def by_thing(pairs: tuple[tuple[str, int], ...]) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for thing, n in pairs:
            out.setdefault(thing, []).append(n)
        return out
    x, y = by_thing(a), by_thing(b)
    return any(sorted(x[t]) != sorted(y[t]) for t in x.keys() & y.keys())


def polar_words(text: str) -> frozenset[str]:
    """The words of ``text`` (normalised, outside quoted text) that turn what it asks, and
    the bound on a count that quoted card text states ("choose up to 3" is not "choose 3")."""
    quoted = " ".join(s.text for s in quoted_spans(text)).lower()
    bounds = {word for rx, word in _PHRASES if word in _BOUNDS and rx.search(quoted)}
    if _EVERY.search(quoted):
        bounds.add("each")  # quoted "each scheme" is not quoted "a scheme"
    plain = outside_quotes(text).lower()
    tag = _CONTRAST_TAG.search(plain)
    if tag:
        plain = plain[:tag.start()]  # "..., right? not after?": the alternative set aside turns nothing
    for rx, word in _PHRASES:
        plain = rx.sub(word, plain)
    words = tokens(plain)
    turning = {stem(w) for w in words if w not in _COUNTER_NOUNS} & _POLAR
    out = {_SAME_TURN.get(w, w) for w in turning} | bounds
    if _NOTHING & set(words) or "0" in words:
        out.add("nothing")
    return frozenset(out)


def quoted_words(text: str) -> frozenset[str]:
    return frozenset().union(*(content_words(s.text) for s in quoted_spans(text)))


def decisive_words(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in tokens(outside_quotes(text))) & _DECISIVE


#: One wording as read, in plain values: fact id, text, answer, negations, numbers, turning
#: words, counts.
WordingRow = tuple[str, str, Answer, tuple[str, ...], tuple[int, ...], tuple[str, ...], tuple[tuple[str, int], ...]]


class RuleFacts:
    """``read(text, vector, game)`` -> :class:`FactReading` or :class:`NoFact`.

    ``vector`` is the embedding of the question as normalised, quoted card text kept (the
    card's words decide which fact it is)."""

    def __init__(self, facts: Sequence[Fact], embed_documents: Callable[[list[str]], list[list[float]]],
                 cache_dir: Path | None = None, prepare: Callable[[str], str] = lambda t: t,
                 cache_key: str = "", threshold: float = 0.72, margin: float = 0.06, sure: float = 0.65,
                 neighbourhood: float = 0.80, answered: Sequence[Answered] = (), checked: float = 0.95) -> None:
        self.facts = list(facts)
        self.threshold = threshold
        self.checked = checked
        self._answered = list(answered)
        self._embed_documents = embed_documents
        self._prepare = prepare
        self._cache_key = cache_key
        self.neighbourhood = neighbourhood
        self.margin = margin
        self.sure = sure
        self._cache_dir = cache_dir
        self._models: dict[str, LearnedClassifier | None] = {}
        self._vocabularies: dict[str, frozenset[str]] = {}
        self._cores: dict[str, frozenset[str]] = {}
        self._said: dict[str, list[frozenset[str]]] = {}
        self._things: dict[str, frozenset[str]] = {}
        self._raw = [(f, w) for f in self.facts for w in f.wordings]
        self._texts = EmbeddedTexts("facts", [w.q for _, w in self._raw], embed_documents, cache_dir,
                                    lambda t: normalise(prepare(t)), cache_key=cache_key)

    def prepare(self) -> None:
        """Build now what reading derives from the wordings (their vectors and forms, each
        game's classifier and the learned check, trained once and kept in ``cache_dir``)."""
        _ = self.wordings
        for game in self._rows:
            self._classifier(game)
        _ = self._check

    @cached_property
    def wordings(self) -> list[FactWording]:
        return [FactWording(f, w.q, w.a, negations(t), numbers(t), polar_words(t), counts(t))
                for (f, w), t in zip(self._raw, self._texts.prepared)]

    def wording_rows(self) -> list[WordingRow]:
        """The wordings as read, in plain values (the fact by its id): what a build's snapshot
        keeps, so a cold process reads strings and numbers rather than 17,000 models."""
        return [(w.fact.id, w.text, w.answer, w.negated, w.numbers, tuple(sorted(w.polar)), w.counts)
                for w in self.wordings]

    def preload(self, rows: Sequence[WordingRow]) -> None:
        """Take the wordings as read from ``rows`` (:meth:`wording_rows` of the same facts)."""
        by_id = {f.id: f for f in self.facts}
        self.__dict__["wordings"] = [FactWording(by_id[fid], text, answer, negated, nums, frozenset(polar), cs)
                                     for fid, text, answer, negated, nums, polar, cs in rows]

    @cached_property
    def _rows_of_fact(self) -> dict[str, list[int]]:
        """Per fact, the indexes of its wordings (one pass, no text read)."""
        out: dict[str, list[int]] = {}
        for i, w in enumerate(self.wordings):
            out.setdefault(w.fact.id, []).append(i)
        return out

    def vocabulary(self, fact: Fact) -> frozenset[str]:
        """Every word ``fact``'s wordings, question and quote use (built for the fact read,
        not for all 1,000: a cold process reads one question)."""
        got = self._vocabularies.get(fact.id)
        if got is None:
            prepared = self._texts.prepared
            out: set[str] = set().union(*self._wording_words(fact))
            for i in self._rows_of_fact.get(fact.id, []):
                out |= decisive_words(prepared[i])
            out |= content_words(fact.ask) | content_words(fact.quote) | decisive_words(fact.ask) | decisive_words(fact.quote)
            got = self._vocabularies[fact.id] = frozenset(out)
        return got

    def _counted_things(self, fact: Fact) -> frozenset[str]:
        """What ``fact``'s "how many/much" wordings count (:func:`counted_thing`)."""
        got = self._things.get(fact.id)
        if got is None:
            prepared = self._texts.prepared
            got = self._things[fact.id] = frozenset(
                t for i in self._rows_of_fact.get(fact.id, []) if (t := counted_thing(prepared[i])) is not None)
        return got

    def _wording_words(self, fact: Fact) -> list[frozenset[str]]:
        """The content words of each of ``fact``'s wordings (read once, for both the fact's
        vocabulary and its core words)."""
        got = self._said.get(fact.id)
        if got is None:
            prepared = self._texts.prepared
            got = self._said[fact.id] = [content_words(prepared[i]) for i in self._rows_of_fact.get(fact.id, [])]
        return got

    def _core(self, fact: Fact) -> frozenset[str]:
        """The words nearly every wording of ``fact`` says (its card, its subject): a question
        that says none of one is about something else."""
        got = self._cores.get(fact.id)
        if got is None:
            said = self._wording_words(fact)
            counts = Counter(w for words in said for w in words)
            got = self._cores[fact.id] = frozenset() if len(said) < _CORE_WORDINGS else frozenset(
                w for w, n in counts.items() if n >= _CORE_SHARE * len(said))
        return got

    @cached_property
    def _rows(self) -> dict[str, np.ndarray]:
        """Per game, the indexes of its wordings (one pass over the facts, no string array)."""
        out: dict[str, list[int]] = {}
        for i, (f, _) in enumerate(self._raw):
            out.setdefault(f.game, []).append(i)
        return {g: np.array(rows, dtype=np.int64) for g, rows in out.items()}

    @cached_property
    def _game_matrix(self) -> dict[str, np.ndarray]:
        """Per game, its wordings' vectors, sliced once."""
        return {g: np.ascontiguousarray(self._texts.matrix[rows]) for g, rows in self._rows.items()}

    @cached_property
    def _labels(self) -> np.ndarray:
        """Each wording's fact and answer (the classifier's class)."""
        return np.array([_label(w) for w in self.wordings])

    def read(self, text: str, vector: Sequence[float], game: str,
             terms: frozenset[str] = frozenset(), found: frozenset[tuple[str, str]] = frozenset(),
             found_only: bool = False, check: bool = True) -> FactReading | NoFact:
        """The fact ``text`` asks about, or why none. ``terms``: the game's own rules terms;
        one the asking sentence says must be a word of the fact (a question about "points"
        is not a fact about "Game Wins"). ``found``: the (document, rule) pairs retrieved for
        the question; ``found_only``: no other fact is read; ``check``: the learned check
        may read it."""
        rows = self._rows.get(game)
        v = np.asarray(vector, dtype=np.float32)
        n = float(np.linalg.norm(v))
        matrix = self._texts.matrix
        if rows is None or not len(rows) or n == 0.0 or matrix.shape[1] != v.shape[0]:
            return NoFact("no rule fact is close to the question")
        q = normalise(text)
        if sum(len(s.text.split()) > 1 for s in quoted_spans(q)) > 1:
            return NoFact("the question quotes two abilities; a rule fact is about one")
        asked = _Asked(negations(q), numbers(q), polar_words(q), counts(q))
        v = v / n
        sims = self._game_matrix[game] @ v  # one product, read by both readings
        nearest = self._nearest(sims, rows, asked)
        learned = self._classified(v, sims, rows, game, asked)
        if isinstance(nearest, FactReading) and learned is not None and learned.answer != nearest.answer:
            return NoFact("two readings of the question as rule facts disagree")
        reading = nearest if isinstance(nearest, FactReading) else learned
        if reading is None:
            assert isinstance(nearest, NoFact)
            around = self._neighbourhood(sims, rows, asked)
            reading = around if isinstance(around, FactReading) else (
                self._checked(sims, rows, asked, len(q.split())) if check else None)
            if reading is None:
                return nearest
        if found_only and (reading.fact.doc, reading.fact.rule) not in found:
            return NoFact("the rule the fact quotes is not among the rules found for the question")
        contrast = _contrast(q, reading.wording.text)
        if contrast:
            return NoFact(f"the question says '{contrast[0]}' where the rule fact I know says '{contrast[1]}'")
        if any(_DENIAL.search(s.text) for s in quoted_spans(q)) and not any(
                _DENIAL.search(s.text) for s in quoted_spans(reading.wording.text)):
            # Card text that denies something ("do not reassign it") is not the text of a
            # wording that never quotes a denial.
            return NoFact("the quoted card text denies something, which no wording of the rule fact I know quotes")
        thing = counted_thing(q)
        things = self._counted_things(reading.fact) if thing is not None and isinstance(reading.answer, int) else None
        if things and thing not in things:
            # "how many schemes lose threat?" is not "how much threat is removed?"
            return NoFact(f"the question counts '{thing}', which no wording of the rule fact I know counts")
        core = sorted(self._core(reading.fact) - content_words(q))
        if core:
            return NoFact(f"the rule fact I know is about {', '.join(repr(x) for x in core[:3])}, which the question does not say")
        extra = sorted((quoted_words(q) | decisive_words(q)) - self.vocabulary(reading.fact))
        if extra:
            return NoFact(f"the question says {', '.join(repr(x) for x in extra[:3])}, which the rule fact I know does not")
        unsaid = sorted((content_words(outside_quotes(q[ask_start(q):])) & terms) - self.vocabulary(reading.fact))
        if unsaid:
            return NoFact(f"the question asks about {', '.join(repr(x) for x in unsaid[:3])}, which the rule fact I know does not")
        return reading

    def _fits(self, w: FactWording, asked: _Asked, details: bool = True) -> bool:
        """``w`` denies what the question denies, says its turning words and its numbers
        (``details``: unless the fact's answer does not turn on numbers)."""
        return (w.negated == asked.negated and self._polar_fit(w, asked.polar)
                and self._numbers_fit(w, asked.numbers, asked.counts, details))

    def _nearest(self, sims: np.ndarray, rows: np.ndarray, asked: _Asked) -> FactReading | NoFact:
        """The reading through the nearest wording that fits the question, clear of every
        wording with another answer (``sims``: the cosines of the game's wordings)."""
        order = np.argsort(-sims)
        wordings = self.wordings
        first = next(((float(sims[i]), w) for i in order if self._fits(w := wordings[int(rows[i])], asked)), None)
        if first is None or first[0] < self.threshold:
            return NoFact("no rule fact is close to the question as it is worded")
        score, top = first
        if not top.polar <= asked.polar and any(
                w.answer != top.answer and w.polar <= asked.polar and self._fits(w, asked)
                for w in (wordings[i] for i in self._rows_of_fact[top.fact.id])):
            # The nearest wording stresses what the question does not ("does it still
            # attack?" against "is it stunned?"), and another of the fact's wordings, saying
            # just the question's turning words, answers the other way: which is asked?
            return NoFact("wordings of the rule fact with different answers both fit the question")
        # A wording with another answer and as many negations is a rival, whatever it denies
        # and whatever its turning words, unless it is the same fact asked the other way
        # round in words the question does not say ("does targeting end?" against "is it
        # still the target?"): that is no second reading.
        rival = next((float(sims[i]) for i in order if (w := wordings[int(rows[i])]).answer != top.answer
                      and len(w.negated) == len(asked.negated) and self._numbers_fit(w, asked.numbers, asked.counts)
                      and not (w.fact.id == top.fact.id and not self._polar_fit(w, asked.polar, strict=False))), 0.0)
        if score - rival < self.margin:
            return NoFact("rule facts with different answers are as close to the question")
        return FactReading(top.fact, top, top.answer, score, score - rival)

    def _neighbourhood(self, sims: np.ndarray, rows: np.ndarray, asked: _Asked) -> FactReading | NoFact:
        """The reading through the nearest wordings that deny as many things as the question
        (as many negations, counted two by two), when every one of them within ``margin`` of
        the nearest is of one fact and one answer, together they say each of the question's
        turning words and one of them says none the question does not; a fact that depends
        on numbers must fit the question's."""
        wordings = self.wordings
        near = [(float(sims[i]), w) for i in np.argsort(-sims)[:_NEIGHBOURS]
                if self._may_read(w := wordings[int(rows[i])], asked)]
        if not near or near[0][0] < self.neighbourhood:
            return NoFact("no rule fact is close to the question")
        score, top = near[0]

        def other(w: FactWording) -> bool:
            return w.fact.id != top.fact.id or w.answer != top.answer

        close = [w for s, w in near if s >= score - self.margin]
        if any(map(other, close)):
            return NoFact("rule facts with different answers are as close to the question")
        # These two also make the fact's turning words fit the question (:meth:`_polar_fit`,
        # not strict): every close wording is of its fact and answer.
        if not asked.polar <= frozenset().union(*(w.polar for w in close)):
            return NoFact("the question turns on a word none of the nearest wordings says")
        if not any(w.polar <= asked.polar for w in close):
            return NoFact("each of the nearest wordings turns on a word the question does not say")
        if top.fact.id in self._counted and not self._numbers_fit(top, asked.numbers, asked.counts):
            return NoFact("the rule fact depends on numbers the question states otherwise")
        rival = next((s for s, w in near if other(w)), 0.0)
        return FactReading(top.fact, top, top.answer, score, score - rival, neighbours=len(close))

    def _may_read(self, w: FactWording, asked: _Asked) -> bool:
        """``w`` denies as many things as the question (two by two) and states no other
        numbers: a wording stating other numbers than the question states is no reading of
        it (nor a rival to one); one stating none may be, for a fact that does not depend on
        numbers (the question's are its story's details)."""
        return len(w.negated) % 2 == len(asked.negated) % 2 and not (
            asked.numbers and w.numbers and not self._numbers_fit(w, asked.numbers, asked.counts))

    def _candidate(self, sims: np.ndarray, rows: np.ndarray, asked: _Asked, length: int,
                   leave_out: str | None = None) -> tuple[FactWording, list[float]] | None:
        """The learned check's candidate: the nearest wording that denies as many things as
        the question (two by two) and states no other numbers, with its neighbourhood's
        :data:`NEIGHBOURHOOD` (``length``: the question's words; ``leave_out``: a text not to
        read, the question itself when it is one of the wordings)."""
        k = min(_CHECKED_NEIGHBOURS, len(sims))
        top = np.argpartition(-sims, k - 1)[:k]
        wordings = self.wordings
        near = [(float(sims[i]), w) for i in top[np.argsort(-sims[top], kind="stable")]
                if (w := wordings[int(rows[i])]).text != leave_out]
        parity = len(asked.negated) % 2
        at = next((k for k, (_, w) in enumerate(near) if self._may_read(w, asked)), None)
        if at is None:
            return None
        score, top_w = near[at]
        label = (top_w.fact.id, str(top_w.answer))

        def best(keep: Callable[[FactWording], bool]) -> float:
            return max((s for s, w in near if keep(w)), default=0.0)

        rival = best(lambda w: (w.fact.id, str(w.answer)) != label and len(w.negated) % 2 == parity)
        other_fact = best(lambda w: w.fact.id != label[0])
        turned = best(lambda w: w.fact.id == label[0] and str(w.answer) != label[1])
        ten = near[:10]
        some, every = self._turning[label]
        return top_w, [score, near[0][0], float(at), score - rival, score - other_fact, score - turned,
                       sum((w.fact.id, str(w.answer)) == label for _, w in ten) / len(ten),
                       sum(w.fact.id == label[0] for _, w in ten) / len(ten),
                       float(len(asked.polar - some)), float(len(every - asked.polar)), float(len(top_w.polar - asked.polar)),
                       float(top_w.negated == asked.negated), float(isinstance(top_w.answer, int)), float(length)]

    def _checked(self, sims: np.ndarray, rows: np.ndarray, asked: _Asked, length: int) -> FactReading | None:
        """The candidate's reading when the learned check is sure of it (``checked``)."""
        trees = self._check
        candidate = self._candidate(sims, rows, asked, length) if trees is not None else None
        if trees is None or candidate is None:
            return None
        w, features = candidate
        p = trees.probability(features)
        if p < self.checked:
            return None
        return FactReading(w.fact, w, w.answer, features[0], features[3], checked=p)

    @cached_property
    def _check(self) -> CheckedTrees | None:
        """The learned check, trained on the answered questions of the loaded games (each
        read with its own copy, when it is a wording too, left out)."""
        answered = [a for a in self._answered if a.game in self._rows]  # of the loaded games
        if not answered:
            return None
        key = "\n".join(f"{a.game}|{a.q}|{a.a}" for a in answered) + "|" + self._texts.key + "|" + _check_source()

        def examples() -> tuple[np.ndarray, np.ndarray]:
            texts = EmbeddedTexts("answered", [a.q for a in answered], self._embed_documents, self._cache_dir,
                                  lambda t: normalise(self._prepare(t)), cache_key=self._cache_key)
            xs: list[list[float]] = []
            ys: list[int] = []
            for a, q, v in zip(answered, texts.prepared, texts.matrix):
                asked = _Asked(negations(q), numbers(q), polar_words(q), counts(q))
                candidate = self._candidate(self._game_matrix[a.game] @ v, self._rows[a.game], asked, len(q.split()), a.q)
                if candidate is not None:
                    xs.append(candidate[1])
                    ys.append(int(a.a != "unknown" and str(candidate[0].answer) == str(a.a)))
            return np.array(xs, dtype=np.float64), np.array(ys, dtype=np.int64)

        try:
            return learned_check(examples, key, self._cache_dir)
        except ValueError:
            return None  # too few answered questions to learn from: no check

    def _classified(self, v: np.ndarray, sims: np.ndarray, rows: np.ndarray, game: str,
                    asked: _Asked) -> FactReading | None:
        """The reading the learned classifier is sure of (probability >= ``sure``), through
        the closest wording of that fact and answer that fits the question."""
        model = self._classifier(game)
        if model is None:
            return None
        label, p = max(model.probabilities(v.tolist()).items(), key=lambda kv: kv[1])
        if p < self.sure:
            return None
        mine = np.nonzero(self._labels[rows] == label)[0]
        # The classifier reads no numbers: its wording must state the question's.
        fitting = [(float(sims[j]), w) for j in mine if self._fits(w := self.wordings[int(rows[j])], asked, False)]
        if not fitting:
            return None
        score, w = max(fitting, key=lambda sw: sw[0])
        return FactReading(w.fact, w, w.answer, score, 0.0, probability=p)

    def _classifier(self, game: str) -> LearnedClassifier | None:
        """The game's softmax regression from a wording's vector to its fact and answer
        (trained once on its wordings, cached beside them; built on the game's first
        question, so a process asking about one game reads one model)."""
        if game not in self._models:
            rows = self._rows.get(game)
            model = None
            if rows is not None and len(rows):
                labels = self._labels[rows].tolist()
                model = LearnedClassifier(sorted(set(labels)), self._game_matrix[game], labels, threshold=self.sure,
                                          cache_dir=self._cache_dir, name=f"facts-model-{game}")
            self._models[game] = model
        return self._models[game]

    @cached_property
    def _turning(self) -> dict[tuple[str, str], tuple[frozenset[str], frozenset[str]]]:
        """Per fact and answer: the turning words some wording with that answer says, and
        those every such wording says."""
        said: dict[tuple[str, str], list[frozenset[str]]] = {}
        for w in self.wordings:
            said.setdefault((w.fact.id, str(w.answer)), []).append(w.polar)
        return {k: (frozenset().union(*v), frozenset.intersection(*v)) for k, v in said.items()}

    def _polar_fit(self, w: FactWording, polar: frozenset[str], strict: bool = True) -> bool:
        """The question says those turning words all the fact's wordings with ``w``'s answer
        say, its others are words some of them say (so they do not turn it), and (``strict``)
        it says every turning word of ``w``."""
        some, every = self._turning[(w.fact.id, str(w.answer))]
        return polar <= some and every <= polar and (not strict or w.polar - _EMPHASIS <= polar)

    @cached_property
    def _counted(self) -> frozenset[str]:
        """The facts whose answer may depend on numbers: a quarter or more of their wordings
        state one (a number here and there is a story's detail)."""
        stated: dict[str, list[bool]] = {}
        for w in self.wordings:
            stated.setdefault(w.fact.id, []).append(bool(w.numbers))
        return frozenset(f for f, s in stated.items() if sum(s) >= _COUNTED_SHARE * len(s))

    @cached_property
    def _turns_on_numbers(self) -> frozenset[str]:
        """The facts whose answer may turn on the numbers a question states: every fact that
        answers with a number; a yes/no fact two of whose wordings that state numbers, deny
        as many things and say the same turning words answer differently ("with 4 damage,
        can I choose 5 targets?" no, "... 4 targets?" yes); and one whose wordings never
        vary the numbers they state, so nothing shows the answer holds for others."""
        said: dict[tuple[str, int, frozenset[str]], set[str]] = {}
        stated: dict[str, set[tuple[int, ...]]] = {}
        out = set()
        for w in self.wordings:
            stated.setdefault(w.fact.id, set())
            if isinstance(w.answer, int):
                out.add(w.fact.id)
            elif w.numbers:
                said.setdefault((w.fact.id, len(w.negated) % 2, w.polar), set()).add(w.answer)
                stated[w.fact.id].add(w.numbers)
        out |= {k[0] for k, v in said.items() if len(v) > 1}
        return frozenset(out | {f for f, numbers in stated.items() if len(numbers) < 2})

    def _numbers_fit(self, w: FactWording, asked: tuple[int, ...], counted: tuple[tuple[str, int], ...] = (),
                     details: bool = True) -> bool:
        """The question's numbers are the wording's (a reading that drops a stated number
        reads part of the question), each counting the same thing ("2 Might, five enemy
        units" is not "5 Might, two enemy units"); a question without any may be read
        through a wording with some only when the fact does not depend on numbers."""
        if asked:
            if details and w.fact.id not in self._turns_on_numbers:
                # The question's numbers are its story's details, unless they meet where the
                # wording's do not, or the other way round ("four targets and four become
                # illegal" is not "three targets and two become illegal").
                return _meets(asked) == _meets(w.numbers)
            return w.numbers == asked and not _counted_apart(w.counts, counted)
        return not w.numbers or w.fact.id not in self._counted


_HOW_MANY = re.compile(r"\bhow (?:many|much)\s+([a-z'-]+(?:\s+[a-z'-]+){0,3})", re.IGNORECASE)
_COUNT_MODIFIERS = frozenset(stem(w) for w in (
    "more", "extra", "additional", "total", "other", "different", "separate", "enemy", "enemies", "friendly",
    "of", "the", "my", "our", "your", "their", "his", "her", "its", "max", "maximum", "min", "minimum", "in",
    "exactly", "actual", "actually", "new", "remaining", "opposing", "possible", "legal", "individual"))


def _check_source() -> str:
    """A fingerprint of the code that reads a candidate's neighbourhood and fits the check:
    trees cached by other code are never read back."""
    from assistant import verifier

    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(Path(verifier.__file__).read_bytes())
    return h.hexdigest()[:16]


def counted_thing(text: str) -> str | None:
    """What a "how many/much ..." question counts (its first word that is not a modifier:
    "how many extra encounter cards" -> "encounter"; "how much threat" -> "threat")."""
    m = _HOW_MANY.search(text)
    if m is None:
        return None
    return next((stem(w) for w in m.group(1).lower().split() if stem(w) not in _COUNT_MODIFIERS), None)


def _meets(numbers: tuple[int, ...]) -> bool:
    """Two of ``numbers`` are the same number."""
    return len(set(numbers)) < len(numbers)


# Markdown emphasis a quote copied from a capture may keep ("*(but ...)*", "**Action**").
_EMPHASIS_MARK = re.compile(r"\*+")


def _squash(text: str) -> str:
    return " ".join(normalise(text).lower().split())


def anchored(facts: Sequence[Fact], rules_of: Callable[[str, str], Sequence[tuple[str, str]]]) -> list[Fact]:
    """The facts whose quote is in a loaded rule, each carrying that rule's number (or the
    anchor the ingester gave an unnumbered passage). ``rules_of(game, doc)``: that document's
    (number, text) pairs. A fact whose document is not loaded, or whose quote is in none of
    its rules, is left out: it could not be cited."""
    out: list[Fact] = []
    texts: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for f in facts:
        key = (f.game, f.doc)
        if key not in texts:
            texts[key] = [(n, _squash(t)) for n, t in rules_of(f.game, f.doc)]
        # A quote copied from a Markdown capture keeps its emphasis ("*(but ...)*",
        # "**Action**"); the ingested rule does not.
        plain = _EMPHASIS_MARK.sub("", f.quote)
        quote = _squash(plain)
        found = [n for n, t in texts[key] if quote in t]
        if not found:
            continue
        number = f.rule if f.rule in found else found[0]
        out.append(f.model_copy(update={"rule": number, "quote": plain}))
    return out
