"""The assistant: question -> parse -> engine verdict -> verified citations, composed from
LangChain runnables (retrieve || understand -> check -> answer)."""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

import numpy as np
from langchain_core.runnables import Runnable, RunnableLambda

from assistant.abilities import unread_words
from assistant.answer import Answer, TraceStep
from assistant.caching import build_cached, preload_wordings
from assistant.cards import CardFinder, card_pick
from assistant.cite import cite, passages_from_hits
from assistant.clarify import Clarifier, clarifier_for
from assistant.coverage import CLAIM_VERBS, credited_spans
from assistant.facts import FactReading, RuleFacts, anchored, load_answered, load_facts
from assistant.frame import Extractor, Frame, frame_of
from assistant.games import detect_game, distinctive_vocabulary, rare_terms, rules_terms
from assistant.gates import ConceptGate, filled_concepts
from assistant.guard import screen
from assistant.intents import EXEMPLARS, KIND_ALIASES, KIND_NAMES, KindClassifier
from assistant.learned import LearnedClassifier
from assistant.lexicon import Lexicon, load_lexicon
from assistant.normalize import Edit, Normalised, Normaliser
from assistant.parse import AbilityPick, Parse, ParseFailure, Parser, accept, ask_clause, build
from assistant.seams import ConversationStore, MemoryConversationStore, RuleIndexLike
from assistant.spelling import Speller, english_words, rules_vocabulary
from assistant.textnorm import normalise, outside_quotes, quoted_spans
from assistant.words import content_words
from assistant.worked import NoReading, Reading, WorkedCases, load_cases
from engine import Scenario
from ingest.errors import ArbiterError, StoreUnavailable, UnknownGame
from ingest.models import GameInfo, SearchHit

_T = TypeVar("_T")


@dataclass
class Timings:
    embedding: float = 0.0
    retrieval: float = 0.0
    parsing: float = 0.0
    engine: float = 0.0


@dataclass
class Understanding:
    """Everything the parse stage produced (kept for --explain and follow-ups)."""

    game: str | None = None
    game_because: str = ""
    parse: Parse | None = None
    error: str | None = None
    kind: str | None = None
    kind_via: str = ""
    pick: AbilityPick | None = None
    text: str = ""
    worked: Reading | None = None
    fact: FactReading | None = None
    #: The abstention is final (an unknown word, a card whose text could not be read): no
    #: other extractor reads the question past it.
    final: bool = False
    #: Only a rule fact whose rule retrieval found may answer (a card whose text could not
    #: be read: the engine cannot check it, but a rules question about it may still be one
    #: the fact settles).
    facts_found_only: bool = False
    #: The words of that card's own text (reminder text and keywords aside): a fact whose
    #: rule says one of them may be the rule the card changes.
    card_words: frozenset[str] = frozenset()
    #: Why no reading rules is one no rule fact gets past (two readings disagree; "that
    #: one" could be any of several objects): the rule-fact fallback does not read it.
    conclusive: bool = False
    read: str = ""
    """The question as the extractors read it (normalised; a follow-up merged with the
    question it follows): the text the frame's evidence spans index."""
    frame: Frame | None = None

    def abstain(self, reason: str | None, *, conclusive: bool = False) -> None:
        """Record why no reading rules (``None``: a reading now does)."""
        self.error, self.conclusive = reason, conclusive


@dataclass(frozen=True)
class Request:
    """One question as asked (``question``) and as read (``text``, normalised)."""

    question: str
    text: str
    game: str | None = None
    id: str | None = None
    conversation_id: str | None = None
    blocked: str | None = None
    prior: dict[str, Any] | None = None
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True)
class Retrieved:
    request: Request
    hits: list[SearchHit]
    #: The question's one embedding, shared by retrieval (dense part), the kind classifier
    #: and the worked-case extractor: of ``reading``, the question as the classifier reads it
    #: (normalised, quoted card text blanked out); None for a blocked question.
    vector: tuple[float, ...] | None = None
    reading: str = ""


@dataclass(frozen=True)
class Understood:
    request: Request
    hits: list[SearchHit]
    understanding: Understanding
    vector: tuple[float, ...] | None = None  # the question's one embedding, of ``embedded``
    embedded: str = ""


@dataclass(frozen=True)
class Ruling:
    """The engine's decision as the answer states it."""

    verdict: Literal["yes", "no"]
    value: int | None
    rules: list[tuple[str, str]]
    reason: str
    trace: list[TraceStep]

    def disagrees(self, other: Ruling) -> bool:
        """The two rulings answer the question differently: different amounts when both
        compute one, else different verdicts (a yes/no beside an amount is not compared)."""
        if self.value is not None or other.value is not None:
            return self.value is not None and other.value is not None and self.value != other.value
        return self.verdict != other.verdict


@dataclass(frozen=True)
class Checked:
    understood: Understood
    ruling: Ruling | None


@dataclass(frozen=True)
class Answered:
    answer: Answer
    text: str
    understanding: Understanding | None = None


@dataclass(frozen=True)
class Explained:
    """An answer with what was understood on the way to it (one pass, for ``--explain``)."""

    answer: Answer
    read_as: str
    edits: tuple[Edit, ...]
    understanding: Understanding | None

    def as_dict(self) -> dict[str, Any]:
        u = self.understanding or Understanding()
        f = u.frame
        return {
            "read_as": self.read_as, "edits": [{"was": e.was, "now": e.now, "why": e.why} for e in self.edits],
            "game": u.game, "game_because": u.game_because, "kind": u.kind, "kind_via": u.kind_via,
            "extractor": f.extractor if f else "rule fact" if u.fact else None,
            "fact": ({"id": u.fact.fact.id, "asks": u.fact.fact.ask, "doc": u.fact.fact.doc, "rule": u.fact.fact.rule,
                      "wording": u.fact.wording.text, "cosine": round(u.fact.score, 3)} if u.fact else None),
            "because": [{"part": sl.name, "words": sl.evidence.words, "span": ([sl.evidence.start, sl.evidence.end]
                                                                             if sl.evidence.stated else None)}
                        for sl in (f.slots if f else ())],
            "scenario": [sc.model_dump(mode="json", exclude_none=True) for sc in f.scenarios] if f and f.scenarios else None,
            "combine": u.parse.combine if u.parse else None, "error": u.error,
        }


# The learned game classifier speaks only for a game every loaded game's wordings could
# rival, and only when nearly sure (on the question sets we have, 0.95 is 99% precise).
_MIN_GAME_WORDINGS = 50
# The learned classifier replaces a kind the grammar read but could not build only when it
# is nearly sure: the reading overrules a form the grammar saw in the question.
_FALLBACK_PROBABILITY = 0.95
_GAME_THRESHOLD = 0.95

# A rule fact takes a ruling away only when it is clearly the nearest reading: every wording
# with another answer at least this much further from the question (one and a half times
# the margin at which a fact may answer on its own).
_VETO_MARGIN = 0.09
# "Is B right?" (after normalising, whose tag words go: "Is B?", "Am I?").
_WHOSE_CLAIM = re.compile(r"\b(?:is|am|are|was)\s+(?:\w+\s+){0,2}(?:right|correct|wrong)\b|\bwho(?:'s| is) (?:right|correct)\b"
                          r"|^\s*(?:\w+,?\s+)?(?:is|am|was)\s+(?:i|he|she|opp|player\s+\w+|[ab]|my\s+\w+)\s*\?\s*$", re.IGNORECASE)
_CLAIM = re.compile(rf"\b(?:{CLAIM_VERBS}|wants? to|points? out|objects?)\b", re.IGNORECASE)
# An asking clause that offers alternatives ("a player or an Arena Space", "when played or
# on resolution") is not one yes/no question ("... or not?" is).
_ALTERNATIVES = re.compile(r"\bor\b(?!\s+(?:not|no|nah|what|something|anything|so)\b)", re.IGNORECASE)

_HOW_MUCH = re.compile(r"(?:^|[\u2014\u2013:;?!]\s*|\s-\s|,\s*(?=(?:so |then |and )?(?:how|what)))\W*(?:\w+ ){0,3}?(?:how (?:many|much)|what (?:number|amount)"
                       r"|what(?: is|'s|s)? the (?:fewest|least|most|max(?:imum)?|min(?:imum)?|smallest|largest|highest|lowest|number|amount|total))\b",
                       re.IGNORECASE)

# A yes/no question has an auxiliary before its subject ("is the total 4?", "for split
# damage, do I decide how much ..."); a clause with none that names a total, number or
# amount ("Total damage dealt?") asks for a number.
_YES_NO = re.compile(r"(?:^|[,:;]\s*)\W*(?:(?:with|for|in|on|when|after|if) (?:\w+ ){1,3}?(?=(?:do|does|did|can|must|should) (?:i|you|we|they)\b))?(?:is|are|was|were|does|do|did|can|could|may|might|must|should|would|will|has|have)"
                     r"\s+(?:i|you|it|they|he|she|we|the|a|an|that|this|these|those|my|its|their|his|her|there|each|all|any|every|some|none|zero|\d+|one|two|three|four|five)\b",
                     re.IGNORECASE)
_AMOUNT = re.compile(r"\b(?:total|number of|amount of|how (?:many|much))\b", re.IGNORECASE)
# "fewest targets I can choose for ...?", "max enemies I can pick?": a bound asked for, outside
# quoted card text ("the unit with the most Might" is the card's).
_BOUND = re.compile(r"(?<!\bno )(?<!\bwithout )\b(?:fewest|max(?:imum)?|min(?:imum)?)\b", re.IGNORECASE)


# An open question ("what does rule 1.8 say?", "why is that?", "which one counts?") with no
# yes/no question after it: a yes or a no does not answer it.
_OPEN = re.compile(r"^\W*(?:(?:like|so|and|but|ok|okay)\s+)?(?:what(?! about| if)|why|how(?! many| much| often| about| come)|which)\b",
                   re.IGNORECASE)
_THEN_YES_NO = re.compile(r"(?:[,;:\u2014-]|\bthen)\s*(?:does|do|did|is|are|was|were|can|could|would|will|should|must|am i|has|have)\b",
                          re.IGNORECASE)


def asks_open(clause: str) -> bool:
    """Whether the asking clause is an open question that no yes or no answers."""
    return bool(_OPEN.search(clause)) and not _THEN_YES_NO.search(clause) and not asks_number(clause)


def asks_number(clause: str) -> bool:
    """Whether the asking clause wants a number, not a yes or no."""
    return bool(_HOW_MUCH.search(clause)) or (
        bool(_AMOUNT.search(clause) or _BOUND.search(outside_quotes(clause))) and not _YES_NO.search(clause))


_FOLLOWUP = re.compile(r"^\s*(?:and\s+)?(?:what|how) (?:if|about)\b|^\s*(?:and )?if instead\b|\binstead\?*\s*$", re.IGNORECASE)


class Assistant:
    """``Assistant(settings, index=None)``: the index is opened lazily, once."""

    def __init__(self, settings: Any = None, index: RuleIndexLike | None = None,
                 store: ConversationStore | None = None, llm: Any = None) -> None:
        self.settings = settings
        self._index = index
        self._lock = threading.Lock()
        self.store: ConversationStore = store or MemoryConversationStore()
        self._classifier: KindClassifier | None = None
        self._kind_model: LearnedClassifier | None = None
        self._game_model: LearnedClassifier | None = None
        self._game_model_decided = False
        self._exemplars: tuple[tuple[str, ...], list[list[float]]] | None = None
        self._finder: CardFinder | None = None
        self._games: list[GameInfo] | None = None
        self._vocab: dict[str, frozenset[str]] | None = None
        self._terms: frozenset[str] | None = None
        self._per_game_terms: dict[str, frozenset[str]] | None = None
        self._rare_terms: dict[str, frozenset[str]] | None = None
        self._texts: dict[str, list[str]] | None = None
        self._lexicon: Lexicon | None = None
        self._normaliser: Normaliser | None = None
        self._gate: ConceptGate | None = None
        self._worked_cases: WorkedCases | None = None
        self._facts: RuleFacts | None = None
        self._clarifier: Clarifier | None = None
        self.timings = Timings()
        if llm is None and settings is not None and getattr(settings, "llm_provider", None):
            from assistant.llm import chat_model

            llm = chat_model(settings)  # raises LLMUnavailable with a clear message
        self._llm = llm
        self._chain = self._build_chain()

    # ------------------------------------------------------------------ resources
    @property
    def index(self) -> RuleIndexLike:
        if self._index is None:
            with self._lock:
                if self._index is None:
                    from assistant.indexing import open_or_build

                    self._index = open_or_build(self.settings)
        return self._index

    def games(self) -> list[GameInfo]:
        if self._games is None:
            self._games = list(self.index.games())
        return self._games

    def _vocabulary(self) -> dict[str, frozenset[str]] | None:
        if self._vocab is None:
            texts = self._rule_texts()
            self._vocab = self._cached("vocabulary", lambda: distinctive_vocabulary(texts) if texts else {})
        return self._vocab or None

    def _rules_terms(self) -> frozenset[str]:
        """Every loaded game's own terms and names (the screen reads them when its fixed
        words find none)."""
        if self._terms is None:
            names = [g.name or g.id for g in self.games()] + [g.id for g in self.games()]
            self._terms = frozenset().union(rules_terms({}, names), *self._game_terms().values())
        return self._terms

    def _specific_terms(self) -> dict[str, frozenset[str]]:
        """Per loaded game, its terms that few of its rules use (what a question is about);
        the game's own name is none ("in magic, ..." says which game, not which rule)."""
        if self._rare_terms is None:
            named = {g.id: content_words(f"{g.id.replace('-', ' ')} {g.name or ''}") for g in self.games()}
            self._rare_terms = self._cached(
                "specific-terms", lambda: {g: rare_terms(ts, self._game_terms()[g]) - named.get(g, frozenset())
                                           for g, ts in self._rule_texts().items()})
        return self._rare_terms

    def _game_terms(self) -> dict[str, frozenset[str]]:
        """Per loaded game, the terms its rules use as their own (stemmed)."""
        if self._per_game_terms is None:
            self._per_game_terms = self._cached(
                "game-terms", lambda: {g: rules_terms({g: ts}) for g, ts in self._rule_texts().items()})
        return self._per_game_terms

    def _cached(self, name: str, make: Callable[[], _T], shared: dict[str, object] | None = None) -> _T:
        """``make()``, kept in the index build's snapshot (assistant/caching.py) when the
        index has one: what is built from the loaded rules is built once per build."""
        return build_cached(self.index, name, make, shared)

    def _rule_texts(self) -> dict[str, list[str]]:
        """Per loaded game, its rules' headings and texts (read from the index once); empty
        for an index that cannot list its rules."""
        if self._texts is None:
            rules = getattr(self.index, "rules", None)
            self._texts = {} if rules is None else {
                g.id: [f"{r.heading or ''} {r.text}" for r in rules(game=g.id)] for g in self.games()}
        return self._texts

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = load_lexicon()
        return self._lexicon

    @property
    def normaliser(self) -> Normaliser:
        """Players' register -> plain wording; its speller knows the loaded rules' words."""
        if self._normaliser is None:
            texts = self._rule_texts()
            names = [f"{g.id.replace('-', ' ')} {g.name}" for g in self.games()] if texts else []
            vocab = self._cached("speller-vocabulary", lambda: rules_vocabulary(
                [t for ts in texts.values() for t in ts],
                [*self.lexicon.words(), *names, *(self.cards.vocabulary() if texts else ())]))
            self._normaliser = Normaliser(self.lexicon, Speller(vocab, english_words()))
        return self._normaliser

    @property
    def gate(self) -> ConceptGate:
        if self._gate is None:
            self._gate = ConceptGate(self.lexicon)
        return self._gate

    @property
    def clarifier(self) -> Clarifier:
        """Options instead of a dead end (assistant/clarify.py); re-asks without clarifying."""
        if self._clarifier is None:
            self._clarifier = clarifier_for(lambda q, g: self.ask(q, game=g, clarify=False), self.index,
                                            self.games(), self._rule_texts(), self.lexicon.words())
        return self._clarifier

    def _timed_embed_query(self, text: str) -> list[float]:
        t = time.perf_counter()
        try:
            return self.index.embed_query(text)
        finally:
            self.timings.embedding += time.perf_counter() - t

    @property
    def classifier(self) -> KindClassifier:
        if self._classifier is None:
            self._classifier = KindClassifier(self._timed_embed_query, self._exemplar_vectors, model=self.kind_model)
        return self._classifier

    def _exemplar_vectors(self, texts: list[str]) -> list[list[float]]:
        """The classifier's exemplar sentences, embedded once per process (held as numpy
        arrays: the classifier compares every question with each of them)."""
        key = tuple(texts)
        if self._exemplars is None or self._exemplars[0] != key:
            vecs = self.index.embed_documents(list(texts))
            self._exemplars = (key, [cast("list[float]", np.asarray(v, dtype=np.float64)) for v in vecs])
        return self._exemplars[1]

    def _question_classifier(self, r: Retrieved) -> KindClassifier:
        """The kind classifier for one question: the question's one embedding (the one
        retrieval used) when it reads the same text; another text (a follow-up merged with
        the previous question) is embedded on its own."""
        if r.vector is None:
            return self.classifier
        shared = cast("list[float]", np.asarray(r.vector, dtype=np.float64))

        def embed(text: str) -> list[float]:
            return shared if text == r.reading else self._timed_embed_query(text)

        return KindClassifier(embed, self._exemplar_vectors, model=self.kind_model)

    @property
    def kind_model(self) -> LearnedClassifier:
        """The learned question classifier, trained once on the worked cases' wordings and
        the exemplar sentences (the weights are cached beside the index)."""
        if self._kind_model is None:
            _, matrix = self.worked.vectors
            labels = [str(w.case.scenario["question"]["kind"]) for w in self.worked.wordings]
            pairs = [(k, s) for k, ss in EXEMPLARS.items() for s in ss]
            ex = np.asarray(self._exemplar_vectors([s for _, s in pairs]), dtype=np.float32)
            ex /= np.maximum(np.linalg.norm(ex, axis=1, keepdims=True), 1e-12)
            self._kind_model = LearnedClassifier(KIND_NAMES, np.vstack([matrix, ex]), labels + [k for k, _ in pairs],
                                                 cache_dir=self._cache_dir(), name="kind-model",
                                                 aliases=KIND_ALIASES)
        return self._kind_model

    @property
    def game_model(self) -> LearnedClassifier | None:
        """The learned game classifier (each worked case's wordings labelled with its game),
        or None when a loaded game has no wordings: it could never propose that game, so it
        would read that game's questions as another's."""
        if not self._game_model_decided:
            loaded = {g.id for g in self.games()}
            labels = [w.case.game for w in self.worked.wordings]
            if all(labels.count(g) >= _MIN_GAME_WORDINGS for g in loaded):
                _, matrix = self.worked.vectors
                self._game_model = LearnedClassifier(sorted(loaded), matrix, labels, threshold=_GAME_THRESHOLD,
                                                     cache_dir=self._cache_dir(), name="game-model")
            self._game_model_decided = True  # once: whether it can speak does not change for this index
        return self._game_model

    def _texts_cache_dir(self) -> Path | None:
        """Where embedded training texts that do not depend on the index are kept (beside
        the model's ONNX export), else the index's own folder."""
        models = getattr(self.settings, "model_cache_dir", None)
        return Path(models) / "texts" if models else self._cache_dir()

    def _cache_dir(self) -> Path | None:
        cache = getattr(self.settings, "index_dir", None)
        return Path(cache) if cache else None

    @property
    def cards(self) -> CardFinder:
        """Cards named in questions (assistant/cards.py): newest printing, misspellings."""
        if self._finder is None:
            printings = getattr(self.index, "printings", None) or (
                lambda n, g: [c for c in [self.index.card(n, g)] if c is not None])
            zipf = english_words()

            def finder() -> CardFinder:
                names: dict[str, list[str]] = {}
                for g in self.games():
                    try:
                        names[g.id] = self.index.card_names(g.id)
                    except StoreUnavailable:
                        raise
                    except Exception:  # noqa: BLE001 - an index without card data names no cards
                        names[g.id] = []
                return CardFinder(names, printings, zipf)

            self._finder = self._cached("card-finder", finder, {"printings": printings, "zipf": zipf})
        return self._finder

    def _card_lookup(self, q: str) -> tuple[str, str, str] | None:
        card = self.cards.find(q)
        return None if card is None else (card.name, card.game, card.text)

    # ------------------------------------------------------------------ pipeline
    def _build_chain(self) -> Runnable[Request, Answered]:
        """normalised request -> retrieve -> understand (game, kind, parse) -> check (engine)
        -> answer; each stage a runnable over typed objects."""
        retrieve: Runnable[Request, Retrieved] = RunnableLambda(self._retrieve, name="retrieve")
        understand: Runnable[Retrieved, Understood] = RunnableLambda(self._understand, name="understand")
        check: Runnable[Understood, Checked] = RunnableLambda(self._check, name="check")
        answer: Runnable[Checked, Answered] = RunnableLambda(self._answer, name="answer")
        return retrieve | understand | check | answer

    def _retrieve(self, req: Request) -> Retrieved:
        if req.blocked:
            return Retrieved(req, [])
        reading = _reading(req.text)  # what the kind classifier reads
        vector = tuple(self._timed_embed_query(reading))
        t = time.perf_counter()
        try:
            hits = self.index.search(req.text, game=req.game, k=5, vector=vector)
        except StoreUnavailable:
            raise  # an outage is an error to report, not "no passages"
        except Exception:  # noqa: BLE001 - a failed search is an answer without passages
            hits = []
        self.timings.retrieval += time.perf_counter() - t
        return Retrieved(req, hits, vector, reading)

    def _understand(self, r: Retrieved) -> Understood:
        t = time.perf_counter()
        try:
            u = self._understand_inner(r)
        finally:
            self.timings.parsing += time.perf_counter() - t
        hits = r.hits
        if r.request.game is None and u.game is not None:
            # Passages of the detected game only (the question embedding is cached).
            hits = [h for h in hits if h.rule.game == u.game]
            if len(hits) < 2 and not r.request.blocked:
                try:
                    hits = self.index.search(r.request.text, game=u.game, k=5, vector=r.vector)
                except StoreUnavailable:
                    raise
                except Exception:  # noqa: BLE001, S110 - keep the unfiltered passages
                    pass
        return Understood(r.request, hits, u, r.vector, r.reading)

    def _numbered(self, q: str) -> dict[str, str]:
        """Rule numbers written in the question -> the one loaded game that numbers them."""
        lookup = getattr(self.index, "lookup", None)
        out: dict[str, str] = {}
        if lookup is None:
            return out
        for m in re.finditer(r"(?<![\w.])(\d{1,3}\.\d+(?:\.[0-9a-z]+)*)(?![\w])", q.lower()):
            owners = set()
            for g in self.games():
                try:
                    if lookup(m.group(1), g.id) is not None:
                        owners.add(g.id)
                except StoreUnavailable:
                    raise
                except Exception:  # noqa: BLE001, S112 - a malformed number names no game
                    continue
            if len(owners) == 1:
                out[m.group(1)] = owners.pop()
        return out

    def _understand_inner(self, r: Retrieved) -> Understanding:
        req = r.request
        u = Understanding(text=req.text)
        if req.blocked:
            u.abstain(req.blocked)
            u.final = True
            return u
        q = normalise(req.text)
        if req.prior and _FOLLOWUP.search(q):
            q = merge_followup(str(req.prior["question"]), q)
            u.text = q
        u.read = q
        classifier = self._question_classifier(r)
        parser = Parser(classifier, self._card_lookup)
        outside = outside_quotes(q)
        pick = parser.ability(q, outside)
        named = {pick.name: pick.game} if pick and pick.name and pick.game else {}
        games = self.games()
        if req.game:
            u.game, u.game_because = req.game, "given"
        else:
            g = detect_game(q, games, named, self._vocabulary(), hit_games=[(h.rule.game, h.score) for h in r.hits],
                            numbered=self._numbered(q))
            u.game, u.game_because = g.game, g.because
            # The learned game classifier speaks when the detector places no game, or places
            # it by the retrieval vote alone (the closest passages of a large rulebook can
            # all be its own whatever the question's game).
            unsure = g.game is None or g.by_retrieval_only
            model = self.game_model if unsure else None
            proposal = model.propose(r.vector) if model is not None and r.vector is not None else None
            if proposal is not None and proposal.label != g.game:
                u.game = proposal.label
                u.game_because = f"the learned game classifier ({proposal.probability:.2f})"
        if u.game is None:
            reading = self._read_worked(r, q, None)
            if isinstance(reading, Reading):
                u.game, u.game_because = reading.case.game, "the question reads as a worked case of this game"
            else:
                u.abstain(f"I can't tell which game this is about ({u.game_because}); name the game.")
                return u
        if req.unknown:
            # A word no loaded rule, lexicon or dictionary knows may change the question: the
            # reading would silently drop it.
            words = ", ".join(f"'{w}'" for w in dict.fromkeys(req.unknown))
            u.abstain(f"I don't know the word{'s' if len(set(req.unknown)) > 1 else ''} {words}, so I can't be sure what is asked.")
            u.final = True
            return u
        if pick and pick.game and pick.game != u.game:
            pick = None
        card = card_pick(pick, self.cards) if pick is not None else self.cards.read(q, u.game)
        if card is not None and card.unread:
            u.abstain(card.reason())
            u.facts_found_only = True
            u.card_words = _own_words(card.unread)
            return u
        self._grammar(classifier, q, outside, pick, u)
        self._worked(r, q, u)
        if u.parse is None and self._llm is not None:
            from assistant.llm import llm_parse

            try:
                parse = llm_parse(self._llm, q, u.game)
                self._through_gates(q, None, parse)  # the same gates as every other reading
                u.parse, u.kind_via = parse, "llm"
                u.abstain(None)
            except ParseFailure as exc:
                u.abstain(str(exc), conclusive=exc.conclusive)
            except ValueError as exc:  # its reading did not validate (scenario, game, evidence)
                u.abstain(f"A second reading was rejected: {exc}.")
            except Exception as exc:  # noqa: BLE001 - an LLM failure is an abstention, never a crash
                if not u.error:
                    u.abstain(f"LLM parse failed: {exc}")
        return u

    def _grammar(self, classifier: KindClassifier, q: str, outside: str, pick: AbilityPick | None,
                 u: Understanding) -> None:
        """The grammar's reading of ``q`` into ``u.parse``, or the reason it has none. When
        the grammar's kind cannot be read into a scenario, the learned classifier's kind (if
        it is sure of another one) is tried under the same gates."""
        assert u.game is not None
        text = outside if outside.strip() else q
        kg = classifier.classify(text)
        u.kind, u.kind_via, u.pick = kg.kind, f"{kg.via}: {kg.because}", pick
        if kg.kind is None:
            # Two extractors' readings disagree: no third one settles it.
            u.abstain(f"Two readings of the question disagree: {kg.because}." if kg.via == "cross-check"
                      else "I could not tell what is being asked with enough confidence.",
                      conclusive=kg.via == "cross-check")
            return
        try:
            u.parse = self._read(q, u.game, pick, kg.kind, kg.confidence, kg.because, by_classifier=kg.via == "classifier")
            return
        except ParseFailure as exc:
            u.parse = None
            u.abstain(str(exc), conclusive=exc.conclusive)
        vector = classifier.vector(text)
        alt = self.kind_model.propose(vector) if vector is not None and kg.via != "classifier" else None
        if alt is None or alt.label == kg.kind or alt.probability < _FALLBACK_PROBABILITY:
            return
        try:
            u.parse = self._read(q, u.game, pick, alt.label, alt.probability,
                                 f"the learned classifier ({alt.probability:.2f})", by_classifier=True)
        except ParseFailure:
            return  # the first reading's reason stands
        u.kind, u.kind_via = alt.label, f"classifier: the learned classifier ({alt.probability:.2f})"
        u.abstain(None)

    def _read(self, q: str, game: str, pick: AbilityPick | None, kind: str, confidence: float,
              because: str, by_classifier: bool = False) -> Parse:
        """One reading of ``q`` as ``kind``, through every gate (raises ParseFailure)."""
        parse = build(q, game, pick, kind, confidence, because)
        # A kind no form of the question named (the learned classifier's) has weaker
        # evidence: every number the question states must then be a fact the reading used.
        self._through_gates(q, pick, parse, every_number=by_classifier)
        return parse

    def _through_gates(self, q: str, pick: AbilityPick | None, parse: Parse, every_number: bool = False) -> None:
        """The gates every reading passes, whichever extractor proposed it (raises
        ParseFailure): the ability read whole, polarity and every cue accounted for, the
        concepts the question names used."""
        ignored = _ignored_quote(q, parse.because)
        if ignored:
            # Card text the question quotes and no part of the reading used: the reading is
            # of some other ability (a generic one), not the card asked about.
            raise ParseFailure(f"I could not read the card text you quoted (\u201c{ignored}\u201d), "
                               "and a ruling without it would be a guess.")
        partial = _unread_ability(pick, parse.because, q)
        if partial:
            # A partial read of the ability's text is a guess about the rest of it.
            words = ", ".join(f"'{w}'" for w in partial[:4])
            raise ParseFailure(f"I could read only part of the ability's text ({words} left over), "
                               "and a ruling on part of it would be a guess.")
        accept(q, parse, every_number=every_number)
        shown = parse.alternatives[0] if parse.alternatives else parse.scenario
        quoted = any(part == "ability" and w.startswith(('"', "'")) for part, w in parse.because)
        unread = self.gate.unread(q, [w for _, w in parse.because], filled_concepts(shown), quoted)
        if unread:
            raise ParseFailure(unread[0].reason())

    @property
    def worked(self) -> WorkedCases:
        if self._worked_cases is None:
            cases = load_cases()
            worked = WorkedCases(cases, self.index.embed_documents,
                                 [g.name for g in self.games()] + [g.id for g in self.games()],
                                 cache_dir=self._cache_dir(),
                                 prepare=lambda t: self.normaliser.normalise(t).text,
                                 embed_form=_reading, cache_key=self._corpus_key())
            preload_wordings(worked, self._cached("worked-wordings", lambda: worked.wordings,
                                                  {f"case-{i}": c for i, (c, _) in enumerate(cases)}))
            self._worked_cases = worked
        return self._worked_cases

    def _corpus_key(self) -> str:
        """What the normaliser (and so the prepared wordings) depends on: the loaded games
        and their rules' words."""
        texts = self._rule_texts()
        words = "|".join(sorted(self.lexicon.words()))
        return ";".join(f"{g}:{len(ts)}:{sum(len(t) for t in ts)}" for g, ts in sorted(texts.items())) + f";{words}"

    def _read_worked(self, r: Retrieved, q: str, game: str | None) -> Reading | NoReading:
        req = r.request
        if req.unknown or (req.prior and _FOLLOWUP.search(req.text)):
            return NoReading("a follow-up or an unknown word is read by the grammar only")
        vector = r.vector if r.vector is not None else tuple(self._timed_embed_query(_reading(req.text)))
        return self.worked.read(q, vector, game)

    def _worked(self, r: Retrieved, q: str, u: Understanding) -> None:
        """The worked-case reading: the answer when the grammar has none, a cross-check
        when it has one."""
        reading = self._read_worked(r, q, u.game)
        if not isinstance(reading, Reading):
            return
        u.worked = reading
        if u.parse is None:
            u.parse = Parse(game=reading.case.game, kind=str(reading.case.scenario["question"]["kind"]),
                            scenario=reading.case.scenario, confidence=reading.score,
                            because=[("worked case", reading.wording.text)],
                            negated=reading.invert, negation=reading.negation)
            u.abstain(None)
            u.kind_via = f"worked case {reading.case.name} (cosine {reading.score:.2f}, margin {reading.margin:.2f})"

    @property
    def facts(self) -> RuleFacts:
        """The rule facts whose quote is in a loaded rule (each cites that rule)."""
        if self._facts is None:
            rules = getattr(self.index, "rules", None)

            def rules_of(game: str, doc: str) -> list[tuple[str, str]]:
                return [] if rules is None else [(r.number, r.text) for r in rules(game=game, doc=doc)]

            # The wordings are written out like a question's players' register (slang,
            # contractions, filler) by the lexicon alone, so their vectors depend on the
            # lexicon and the model, not on the index: one cache per machine serves every
            # index built from any corpus.
            plain = Normaliser(self.lexicon)
            model = str(getattr(self.settings, "embedding_model", ""))
            # Which facts a loaded rule quotes (and the rule's number) is read from the build's
            # snapshot: a cold process does not search 8,000 rule texts for 900 quotes.
            every = load_facts()
            anchors = self._cached("fact-anchors", lambda: {f.id: (f.rule, f.quote) for f in anchored(every, rules_of)})
            cited = [f if (f.rule, f.quote) == anchors[f.id] else
                     f.model_copy(update={"rule": anchors[f.id][0], "quote": anchors[f.id][1]})
                     for f in every if f.id in anchors]
            facts = RuleFacts(cited, self.index.embed_documents,
                              cache_dir=self._texts_cache_dir(),
                              prepare=lambda t: plain.normalise(t).text,
                              cache_key=model + "|" + "|".join(sorted(self.lexicon.words())),
                              answered=load_answered())
            # The wordings as read (what each denies, its numbers and turning words) are kept
            # in the build's snapshot: a cold process reads them instead of reading 6,000 texts.
            facts.preload(self._cached("fact-wording-rows", facts.wording_rows))
            self._facts = facts
        return self._facts

    def prepare(self) -> None:
        """Build now what answering derives from the index on first use (the worked cases'
        and the rule facts' embedded wordings and classifiers), so no question pays for it."""
        _ = self.worked.wordings
        self.facts.prepare()

    def _fact_reading(self, q: str, game: str, vector: Sequence[float] | None = None,
                      hits: Sequence[SearchHit] = (), found_only: bool = False,
                      check: bool = True) -> FactReading | None:
        """The rule-fact reading of ``q``: the question as normalised, quoted card text kept,
        is embedded (the card's words decide which fact it asks about), unless ``vector``
        is given (``check``: the learned check may read it)."""
        if not q:
            return None
        asking = ask_clause(q)
        if _ALTERNATIVES.search(outside_quotes(asking)):
            return None  # "may a player or an Arena Space be chosen?": one fact answers one of them
        if _WHOSE_CLAIM.search(asking) and len(_CLAIM.findall(outside_quotes(q))) >= 2:
            # "A wants X; B says Y. Is B right?": the answer is about one of two claims, and a
            # fact's wording says which one only by chance.
            return None
        reading = self.facts.read(q, vector if vector is not None else self._timed_embed_query(q), game,
                                  self._specific_terms().get(game, frozenset()),
                                  frozenset((h.rule.doc, h.rule.number) for h in hits), found_only, check)
        if not isinstance(reading, FactReading):
            return None
        if self.gate.unsaid(q, self.facts.vocabulary(reading.fact)):
            # A game concept the question states anywhere ("there's a guard minion out. can I
            # target the villain?") that neither the rule nor any wording of the fact says
            # may change what the rule settles.
            return None
        if asks_number(asking) != isinstance(reading.answer, int) or asks_open(asking):
            return None  # a number asked for and a yes/no fact, or the other way round
        return reading

    def _fact(self, q: str, u: Understanding, hits: Sequence[SearchHit] = ()) -> None:
        """The question read as a rule fact, when it reads as one."""
        reading = self._fact_reading(q, u.game, hits=hits, found_only=u.facts_found_only) if u.game is not None else None
        if reading is None:
            return
        if u.card_words & content_words(reading.fact.quote):
            return  # the card's own text speaks of what the rule settles: it may change it
        u.fact = reading
        u.abstain(None)
        u.kind_via = f"rule fact {reading.fact.id}, by {reading.how}"

    def _check(self, x: Understood) -> Checked:
        """The engine's ruling on the reading; when there is none (no reading, or one the
        engine could not decide), the rule fact the question asks about, if it reads as one."""
        checked = self._check_reading(x)
        u = x.understanding
        if checked.ruling is not None and u.game is not None and not u.final:
            # Two extractors spoke: the engine's reading and the rule fact the question reads
            # as must agree, else abstain (a wrong ruling is worse than none).
            # The check reads the question's one embedding (quoted card text blanked): it
            # can only take a ruling away, and every gate still reads the whole question.
            t = time.perf_counter()
            shared = x.vector if x.vector is not None and x.embedded == _reading(u.read) else None
            # Only a reading a gate is sure of takes a ruling away (the learned check does not).
            fact = self._fact_reading(u.read, u.game, shared, check=False)
            self.timings.parsing += time.perf_counter() - t
            if fact is not None and fact.margin >= _VETO_MARGIN and _fact_ruling(fact).disagrees(checked.ruling):
                u.abstain(_disagreement(fact.fact.ask), conclusive=True)
                return Checked(x, None)
        if checked.ruling is None and u.game is not None and not u.final and not u.conclusive:
            t = time.perf_counter()
            self._fact(u.read, u, x.hits)
            self.timings.parsing += time.perf_counter() - t
            if u.fact is not None:
                return Checked(x, _fact_ruling(u.fact))
        return checked

    def _check_reading(self, x: Understood) -> Checked:
        u = x.understanding
        if u.parse is None:
            return Checked(x, None)
        if u.parse.negated and u.parse.combine == "any":
            u.abstain("The question negates a statement I can only check part by part.")
            return Checked(x, None)
        import engine

        t = time.perf_counter()
        try:
            scenarios = u.parse.alternatives or ([u.parse.scenario] if u.parse.scenario is not None else [])
            loaded = tuple(engine.load_scenario(s) for s in scenarios)
            u.frame = self._frame(u, loaded)
            decisions = [engine.decide(s) for s in loaded]
        except ArbiterError as exc:
            u.abstain(f"The rules loaded do not decide this: {exc}")
            decisions = []
        except Exception as exc:  # noqa: BLE001  # pragma: no cover - engine bug: abstain, never guess
            u.abstain(f"engine failure: {type(exc).__name__}: {exc}")
            decisions = []
        self.timings.engine += time.perf_counter() - t
        if not decisions:
            return Checked(x, None)
        d = combine(decisions, u.parse.combine)
        if asks_number(ask_clause(u.text)) and d.value is None:
            # A how-many/how-much question answered without a number is not answered.
            u.abstain("The engine did not compute the amount asked for.")
            return Checked(x, None)
        if asks_open(ask_clause(u.text)):
            u.abstain("The question asks what, why or which, and a yes or no does not answer it.")
            return Checked(x, None)
        assumed = [part for part, w in u.parse.because if w == "default"]
        if d.value is not None and assumed:
            # The number asked for would come from a fact the question never stated (a slot
            # filled by default): the amount is a guess.
            u.abstain(f"The question does not say {_assumed_fact(assumed[0])}, and the number depends on it.")
            return Checked(x, None)
        if d.value is not None and not _HOW_MUCH.search(ask_clause(u.text)) and not _HOW_MUCH.search(u.text):
            # Contract: ``value`` is set only for how-many questions.
            d = replace(d, value=None)
        if u.parse.negated:
            verdict: Literal["yes", "no"] = "no" if d.verdict == "yes" else "yes"
            reason = (f"The statement is {'true' if verdict == 'yes' else 'false'} "
                      f"(it says '{u.parse.negation}'): {d.reason}")
            d = replace(d, verdict=verdict, reason=reason)
        w = u.worked
        if w is not None and u.frame is not None and u.frame.extractor != "worked case":
            # Two extractors spoke: they must agree, else abstain (a wrong ruling is worse).
            other = engine.decide(engine.load_scenario(w.case.scenario))
            theirs = ("no" if other.verdict == "yes" else "yes") if w.invert else other.verdict
            if theirs != d.verdict or (d.value is not None and other.value is not None and other.value != d.value):
                u.abstain(_disagreement(w.wording.text), conclusive=True)
                return Checked(x, None)
        return Checked(x, d)

    def _frame(self, u: Understanding, scenarios: tuple[Scenario, ...]) -> Frame:
        assert u.parse is not None
        extractor: Extractor = ("worked case" if any(p == "worked case" for p, _ in u.parse.because)
                                else "llm" if u.kind_via == "llm" else "grammar")
        return frame_of(extractor, u.parse.game, u.parse.kind, u.kind_via, u.read, u.parse.because,
                        u.parse.negated, scenarios)

    def _answer(self, c: Checked) -> Answered:
        u = c.understood.understanding
        return Answered(self._answer_of(c), u.text, u)

    def _answer_of(self, c: Checked) -> Answer:
        req, hits, u, d = c.understood.request, c.understood.hits, c.understood.understanding, c.ruling
        index = self.index if not req.blocked else None
        passages = passages_from_hits(hits)
        ans = Answer(id=req.id, question=req.question, game=u.game,
                     conversation_id=req.conversation_id, answer_id=uuid.uuid4().hex[:12])
        ans.passages = passages
        if u.parse is not None:
            ans.scenario = (u.parse.alternatives[0] if u.parse.alternatives else u.parse.scenario)
        if d is None:
            ans.verdict = "unknown"
            ans.error = u.error or "The question could not be decided."
            ans.answer = f"I can't rule on that. {ans.error}"
            if index is not None and hits:
                ans.citations = cite(index, [(p.doc, p.rule) for p in passages[:2]], req.question, limit=2)
            return ans
        ans.verdict = d.verdict
        ans.value = d.value
        lead = {"yes": "Yes.", "no": "No."}[d.verdict]
        if d.value is not None:
            lead = f"{d.value}."
        ans.answer = f"{lead} {d.reason}".strip()
        if u.parse is None and u.fact is not None:
            ans.answer += _fact_read_as(u.fact)
        if u.worked is not None and u.frame is not None and u.frame.extractor == "worked case":
            # The reading is stated, so a judge sees what was decided.
            ans.answer += f" (I read the question as: \u201c{u.worked.wording.text}\u201d)"
        assumed = [sl.name for sl in (u.frame.slots if u.frame else ()) if sl.evidence.words == "default"]
        if assumed:
            # A default is stated, never silent: the judge sees what the ruling assumed.
            ans.answer += f" (Assumed, as the question does not say: {'; '.join(assumed)}.)"
        card = card_pick(u.pick, self.cards) if u.pick is not None else None
        if card is not None:
            ans.answer += f" {card.used()}"
        assert index is not None
        focus = f"{req.question} {d.reason}"
        ans.citations = cite(index, d.rules, focus)
        if not ans.citations and hits:
            ans.citations = cite(index, [(p.doc, p.rule) for p in passages[:1]], focus, limit=1)
        ans.trace = d.trace
        return ans

    # ------------------------------------------------------------------ public
    def ask(self, question: str, game: str | None = None, conversation_id: str | None = None,
            id: str | None = None, clarify: bool = True) -> Answer:
        """Answer one question (see :meth:`explained`)."""
        return self.explained(question, game, conversation_id, id, clarify).answer

    def explained(self, question: str, game: str | None = None, conversation_id: str | None = None,
                  id: str | None = None, clarify: bool = True) -> Explained:
        """Answer one question, with the frame the answer was decided from. Never raises for a bad question (verdict unknown + error);
        raises :class:`UnknownGame` when ``game`` is given but not loaded. An abstention
        one decision away from a ruling carries ``clarify`` (unless ``clarify`` is False)."""
        if game is not None:
            loaded = [g.id for g in self.games()]
            if game not in loaded:
                raise UnknownGame(game, loaded)
        question = question if isinstance(question, str) else str(question)
        max_chars = getattr(self.settings, "max_question_chars", 2000) if self.settings else 2000
        fits = bool(question.strip()) and len(question) <= max_chars
        norm = self.normaliser.normalise(question) if fits else Normalised(question, question)
        s = screen(norm.text, max_chars, self._rules_terms) if fits else screen(question, max_chars)
        prior = self.store.load(conversation_id) if conversation_id else None
        blocked = None if s.ok or (prior and _FOLLOWUP.search(question)) else s.reason
        req = Request(question=question, text=norm.text, game=game, id=id, conversation_id=conversation_id,
                      blocked=blocked, prior=prior, unknown=norm.unknown)
        read_as = norm.text
        understanding: Understanding | None = None
        try:
            done = self._chain.invoke(req)
            ans, read_as, understanding = done.answer, done.text, done.understanding
        except StoreUnavailable:
            raise  # the caller reports the outage (503); an answer without rules would mislead
        except Exception as exc:  # noqa: BLE001 - the contract: unknown + error, never a crash
            ans = Answer(id=id, question=question, game=game, verdict="unknown",
                         answer="I can't rule on that. Something went wrong while answering.",
                         error=f"internal error: {type(exc).__name__}: {exc}",
                         conversation_id=conversation_id)
        if clarify and ans.verdict == "unknown" and ans.value is None and fits and not blocked:
            ans.clarify = self.clarifier.offer(ans, game, norm.unknown)
        if conversation_id and ans.verdict != "unknown" and ans.scenario is not None:
            self.store.save(conversation_id, {"question": read_as, "game": ans.game})
        return Explained(ans, norm.text, norm.edits, understanding)

    def explain(self, question: str, game: str | None = None) -> dict[str, Any]:
        """The reading behind the answer to ``question``: the frame's slots with their
        evidence spans, the extractor and the scenario (one pass; nothing is stored)."""
        return self.explained(question, game, clarify=False).as_dict()


def _fact_read_as(reading: FactReading) -> str:
    """The reading stated, so a judge sees what was decided: the fact's question, and when
    the question asks it the other way round (or checks its number), the rule's own answer."""
    fact = reading.fact
    if reading.answer == fact.answer:
        return f" (I read the question as: \u201c{fact.ask}\u201d)"
    theirs = fact.answer if isinstance(fact.answer, int) else fact.answer.capitalize()
    return (f" (I read the question as the other side of \u201c{fact.ask}\u201d, which the rule "
            f"answers: {theirs})")


def _disagreement(other: str) -> str:
    """Why two extractors' readings that rule differently give no answer, naming the other
    reading."""
    return f"Two readings of the question disagree (one reads it as \u201c{other}\u201d); please say it another way."


# Reminder text in parentheses and keywords in brackets or on their own ("Guard.",
# "[Assault]", "Retaliate 1."): what is left is the card's own rules text.
_REMINDER = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_KEYWORD_ONLY = re.compile(r"^\W*[A-Za-z][\w'-]*(?: \d+| X)?\W*$")


def _own_words(unread: Sequence[str]) -> frozenset[str]:
    """The content words of a card's unread clauses that are its own rules text."""
    words: frozenset[str] = frozenset()
    for clause in unread:
        for part in re.split(r"[.;]\s*", _REMINDER.sub(" ", clause)):
            if part.strip() and not _KEYWORD_ONLY.match(part):
                words |= content_words(part)
    return words


def _fact_ruling(reading: FactReading) -> Ruling:
    """A rule fact as a ruling: the rule that settles the question is the decision."""
    f = reading.fact
    assert f.rule is not None  # anchored facts carry their rule
    verdict: Literal["yes", "no"] = "yes" if isinstance(reading.answer, int) else reading.answer
    value = reading.answer if isinstance(reading.answer, int) else None
    result = str(value) if value is not None else verdict
    reason = f"The rule settles it: \u201c{f.quote}\u201d"
    step = TraceStep(rule=f.rule, doc=f.doc, step=f"The question asks: {f.ask}", result=result)
    return Ruling(verdict, value, [(f.doc, f.rule)], reason, [step])


def _assumed_fact(part: str) -> str:
    """The unstated fact behind a defaulted slot ("targets chosen=2" -> how many targets
    were chosen), in players' words."""
    if part.startswith("friendly unit Might"):
        return "the Might of the unit whose Might sets the amount"
    if part.startswith("targets chosen"):
        return "how many targets were chosen"
    if "chosen units of Might" in part:
        return "how many units were chosen and their Might"
    return "a fact the ruling depends on"


def _ignored_quote(q: str, because: list[tuple[str, str]]) -> str | None:
    """Quoted text of three words or more that no evidence of the reading lies in or names."""
    # Evidence quoted by the extractor ('"kill a unit"') is found without its quote marks.
    spans = credited_spans(q, [w.strip().strip("\"'") for _, w in because])
    for quote in quoted_spans(q):
        if len(quote.text.split()) < 3:
            continue
        if not any(a < quote.end and quote.start < b for a, b in spans):
            return quote.text
    return None


def _unread_ability(pick: AbilityPick | None, because: list[tuple[str, str]], q: str = "") -> tuple[str, ...]:
    """Words of the ability's text that no part of the reading used: neither the ability
    grammar nor a part of the situation that reads the text (a cost that removes "the unit
    with the most Might", a restriction quoted inside the text). For quoted text only
    evidence found inside the quote counts: the question's own words ("can I choose the
    same object for both?") do not read a sentence of the card ("The same target may be
    chosen for both.")."""
    if pick is None or not pick.unread:
        return ()
    parts = [w for part, w in because if part != "ability"]
    if pick.quoted is not None and q:
        low, inner = q.lower(), pick.quoted.lower()
        start = low.find(inner)
        if start >= 0:
            quote = low[start:start + len(inner)]
            parts = [w for w in parts if w.strip().lower() and w.strip().lower() in quote]
    return unread_words(" ".join(pick.unread), parts)


def _reading(text: str) -> str:
    """The form of a question that is embedded once: normalised, quoted card text blanked
    (the kind classifier, retrieval's dense part and the worked cases all use it)."""
    q = normalise(text)
    outside = outside_quotes(q)
    return outside if outside.strip() else q


def combine(decisions: list[Any], how: str) -> Ruling:
    """Engine decisions -> one ruling. ``any``: yes when any part is yes; ``invert``: the
    question asked the converse of what the engine checked."""
    trace = [TraceStep(rule=s.rule, doc=s.doc, step=s.step, result=s.result) for d in decisions for s in d.trace]
    if how == "any":
        yes = [d for d in decisions if d.verdict == "yes"]
        main = yes[0] if yes else decisions[0]
        rules = [(r.doc, r.rule) for d in ([main] + [d for d in decisions if d is not main]) for r in d.rules]
        reason = main.reason if yes else " ".join(d.reason for d in decisions)
        return Ruling("yes" if yes else "no", None, rules, reason, trace)
    d = decisions[0]
    rules = [(r.doc, r.rule) for r in d.rules]
    verdict: Literal["yes", "no"] = "yes" if d.verdict == "yes" else "no"
    if how == "invert":
        verdict = "no" if verdict == "yes" else "yes"
    return Ruling(verdict, d.value, rules, d.reason, trace)


def merge_followup(previous: str, followup: str) -> str:
    """"what if it had 3 Might instead?" -> the previous question with the number changed."""
    f = re.sub(r"^\s*(?:and\s+)?(?:what|how) (?:if|about)\s+|\binstead\b|\?", " ", followup, flags=re.IGNORECASE).strip()
    out = previous
    units = r"(Might|targets?|units?|enem(?:y|ies)|legal targets?|ATK|THW|SCH)"
    for ctx, num, unit in re.findall(rf"(\w+)\s+(\d+)[- ]*{units}\b", f, re.IGNORECASE):
        stem = re.escape(unit.rstrip("s"))
        # Same context word first ("dropped to 1 Might" replaces "drops to 3 Might").
        for rx in (re.compile(rf"(\b{re.escape(ctx)}\s+)\d+(\s*-?\s*{stem}s?)\b", re.IGNORECASE),
                   re.compile(rf"()\b\d+(\s*-?\s*{stem}s?)\b", re.IGNORECASE)):
            if rx.search(out):
                out = rx.sub(rf"\g<1>{num}\g<2>", out, count=1)
                break
    for qs in quoted_spans(f):
        olds = quoted_spans(out)
        if olds:
            out = out.replace(f'"{olds[0].text}"', f'"{qs.text}"', 1)
    return out
