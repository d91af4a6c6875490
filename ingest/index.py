"""The live index: rule lookup, suggestions, quote checks, search, cards.

:func:`open_index` reads the ``arbiter_state`` pointer and loads every rule of the live
build into memory (rules are small: the default corpus has 61, all of corpus-extra ~6,400),
so lookups, children and suggestions never hit Chroma; dense search queries Chroma through
the langchain-chroma vector store. One :class:`RuleIndex` per live build is cached per
process; after an ingest swaps builds, the next :func:`open_index` returns a fresh one.
What is read from or built over a build (its rules, vectors and cards, the BM25 index and
ranking context per game) is kept in the build's snapshot (:mod:`ingest.snapshot`), so a
cold process reads files instead of Chroma and finds the live build without importing it.

Editions: when several documents of a game print the same number (the v1.3 full rules and
the RUP4 excerpt), :meth:`RuleIndex.lookup` prefers the document with the newest
``version`` (ISO dates compare as strings; an empty version is oldest; ties go to manifest
order) and lists the others as ``editions``.

Search (:meth:`RuleIndex.search`): ``dense`` (exact cosine over our embeddings: the build's
vectors read once from Chroma and held in memory, filtered by game), ``bm25`` (bm25s over the same chunk text, a small suffix-stripping stemmer,
English stop words, the query expanded with rules-vocabulary synonyms at weight 0.3: see
:func:`expand_query`) and ``hybrid`` = weighted sum of both retrievers' normalized scores
(:data:`FUSION_WEIGHTS`), then the top 20 re-ranked by how many query terms each rule
contains (:data:`RERANK_WEIGHT`); hybrid also knows the cards a question names and the
rulebook's structure (keyword sections, glossary entries, subrules, cross-references, rule
groups): see :mod:`ingest.ranking`. One query embedding per search, nothing more. A rule
number or anchor written in the query (``355.14``, ``target.3.2``) that exists is looked up
directly and ranked first (``via=["number"]``).
"""

from __future__ import annotations

import difflib
import functools
import json
import math
import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from ingest.cards import normalize_name
from ingest.errors import IndexMissing, StoreUnavailable
from ingest.models import Card, DocumentInfo, GameInfo, Rule, SearchHit
from ingest.numbers import NUMBER_PATTERN, distance, normalize_number
from ingest.pipeline import chunk_text, rule_from_metadata
from ingest.ranking import GameContext, hybrid_search
from ingest.settings import Settings
from ingest.snapshot import BuildCache, cached_state, remember_state, source_key
from ingest.store import State, client_for, get_collection, reaching, read_all, read_state

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from langchain_chroma import Chroma
    from langchain_core.retrievers import BaseRetriever

#: Hybrid fusion weights over normalized scores (dense cosine min-max scaled over the
#: candidates, BM25 divided by its best score). BM25 counts double: rule texts are short
#: and term-precise. Score fusion beat reciprocal rank fusion on dev.jsonl and heldout.jsonl
#: (hit@1 0.898 -> 0.939 and 0.931 -> 0.946): RRF throws away how far ahead a leader is.
FUSION_WEIGHTS = {"dense": 1.0, "bm25": 2.0}
#: Re-ranking of the fused top RERANK_DEPTH by query-term overlap (typed + expanded terms
#: the rule contains, damped by rule length): adds up to RERANK_WEIGHT * overlap * top score.
RERANK_DEPTH = 20
RERANK_WEIGHT = 0.1
Mode = Literal["hybrid", "dense", "bm25"]


class RuleLookup(BaseModel):
    """A rule number resolved to its preferred edition, the other editions, its subrules."""

    rule: Rule
    editions: list[Rule] = Field(default_factory=list, description="Same number in other documents of the game, newest first.")
    children: list[Rule] = Field(default_factory=list, description="Subrules (all descendants) in document order.")


# --------------------------------------------------------------------------- bm25

_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has", "have", "i", "if", "in", "is", "it", "its", "me", "my", "of", "on", "or", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "was", "were", "what", "when", "which", "who", "will", "with", "you", "your"]
)
_WORD = re.compile(r"[a-z0-9]+")
#: Irregular forms folded before suffix stripping ("chosen"/"choice" -> "choose").
_IRREGULAR = {
    "chosen": "choose", "chose": "choose", "choice": "choose", "choices": "choose",
    "dealt": "deal", "paid": "pay", "drawn": "draw", "drew": "draw", "taken": "take",
    "took": "take", "gave": "give", "given": "give", "made": "make",
}
#: Tried in order, first match wins: longer suffixes before their tails ("ized" before "ed").
_SUFFIXES = (
    ("izations", ""), ("ization", ""), ("izing", ""), ("izes", ""), ("ized", ""), ("ize", ""),
    ("ations", ""), ("ation", ""), ("ings", ""), ("ingly", ""), ("ing", ""), ("edly", ""),
    ("ed", ""), ("ies", "y"), ("es", ""), ("s", ""), ("ly", ""),
)


def stem(word: str) -> str:
    """A small suffix-stripping stemmer (PyStemmer is not installed): one suffix off, a
    final ``e`` off, a doubled final consonant undone, so ``targets``/``targeted``/
    ``targeting`` -> ``target``, ``change``/``changed`` -> ``chang``, ``stunned`` -> ``stun``,
    ``finalize``/``finalization`` -> ``final``. Only consistency matters, not real roots."""
    w = _IRREGULAR.get(word, word)
    if len(w) <= 3 or w.isdigit():
        return w
    for suf, rep in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            if suf == "s" and w[-2] in "su":  # "less", "status": not plurals
                break
            w = w[: len(w) - len(suf)] + rep
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "slz":
        w = w[:-1]
    return w


def bm25_tokens(text: str) -> list[str]:
    text = text.lower().replace("\u2019", "'")
    return [stem(w) for w in _WORD.findall(text) if w not in _STOP]


# Query expansion: rules vocabulary that means the same thing across games. Expanded terms
# score at EXPANSION_WEIGHT of a term the user typed. Groups are symmetric synonyms; the
# one-way map sends concrete words to the rules' abstract term (a "stun" is a game action,
# a "unit" a game object) but not back.
SYNONYM_GROUPS = (
    "target choose pick select",
    "change alter new switch redirect",
    "may optional decide decision decline",
    "illegal invalid",
    "legal valid",
    "finalize finalization step",
)
ONE_WAY = {
    "stun kill deal ready exhaust move draw banish recall destroy discard heal exile sacrifice": "action",
    "unit creature permanent minion": "object",
    "two three four five": "number",
}
#: Phrases whose rules wording differs: "up to N" / "any number" -> "some number ... zero";
#: "decline to", "choose not to" -> the rules' "decision".
PHRASES = (
    (re.compile(r"\b(?:up to|any number|zero|some number)\b"), "any number up to some zero"),
    (re.compile(r"\b(?:declines?|decides? not|chooses? not|don'?t|refuses?)\b"), "decision may"),
)
EXPANSION_WEIGHT = 0.3


def _synonyms() -> dict[str, set[str]]:
    syn: dict[str, set[str]] = {}
    for group in SYNONYM_GROUPS:
        toks = [stem(w) for w in group.split()]
        for t in toks:
            syn.setdefault(t, set()).update(x for x in toks if x != t)
    for src, dst in ONE_WAY.items():
        for w in src.split():
            syn.setdefault(stem(w), set()).update(stem(d) for d in dst.split())
    return syn


_SYNONYMS = _synonyms()


def expand_query(query: str) -> tuple[list[str], list[str]]:
    """The query's BM25 tokens and the expansion tokens it implies (not already in it)."""
    toks = bm25_tokens(query)
    have = set(toks)
    extra: list[str] = []
    for t in dict.fromkeys(toks):
        extra.extend(sorted(_SYNONYMS.get(t, ())))
    low = query.lower()
    for rx, add in PHRASES:
        if rx.search(low):
            extra.extend(bm25_tokens(add))
    return toks, [t for t in dict.fromkeys(extra) if t not in have]


class _Bm25:
    """bm25s's eager BM25 index over ``rules``. bm25s builds it; a query is then scored from
    the arrays it precomputed exactly as ``bm25s.BM25.get_scores`` scores it (one
    ``np.add.at`` per query token, in order, in the index's dtype), so a cached index answers
    without importing bm25s (and scipy) and with the same floating-point results."""

    def __init__(self, rules: list[Rule]) -> None:
        import bm25s  # type: ignore[import-untyped]

        self.rules = rules
        model = bm25s.BM25()
        corpus = [bm25_tokens(chunk_text(r)) or ["_"] for r in rules]
        model.index(corpus, show_progress=False)
        self.vocab_ids: dict[str, int] = dict(model.vocab_dict)
        self.vocab = set(self.vocab_ids)
        self._data = np.asarray(model.scores["data"])
        self._indices = np.asarray(model.scores["indices"])
        self._indptr = np.asarray(model.scores["indptr"])
        self._num_docs = int(model.scores["num_docs"])
        self._dtype = np.dtype(model.dtype)
        self._int_dtype = np.dtype(model.int_dtype)
        self.token_sets = {r.key: set(toks) for r, toks in zip(rules, corpus)}

    def get_scores(self, tokens: list[str]) -> Any:
        """Every rule's BM25 score for ``tokens`` (each in the vocabulary), as bm25s computes it."""
        ids = np.asarray([self.vocab_ids[t] for t in tokens if t in self.vocab_ids], dtype=self._int_dtype)
        starts, ends = self._indptr[ids], self._indptr[ids + 1]
        scores = np.zeros(self._num_docs, dtype=self._dtype)
        for i in range(len(ids)):
            start, end = starts[i], ends[i]
            np.add.at(scores, self._indices[start:end], self._data[start:end])
        return scores

    def search(self, query: str, n: int) -> list[tuple[Rule, float]]:
        toks, extra = expand_query(query)
        toks = [t for t in toks if t in self.vocab]
        extra = [t for t in extra if t in self.vocab]
        if not (toks or extra) or not self.rules:
            return []
        scores: Any = self.get_scores(toks) if toks else 0.0
        if extra:
            scores = scores + EXPANSION_WEIGHT * self.get_scores(extra)
        order = np.argsort(-scores, kind="stable")[:n]
        return [(self.rules[i], float(scores[i])) for i in order if scores[i] > 0]

    def overlap(self, rule: Rule, query_tokens: set[str]) -> float:
        """Query terms (typed or expanded) the rule contains, damped by rule length."""
        own = self.token_sets.get(rule.key)
        if not own:
            return 0.0
        return len(own & query_tokens) / (math.sqrt(len(own)) + 1.0)


# --------------------------------------------------------------------------- index


@functools.cache
def one_blas_thread() -> None:
    """Run numpy's BLAS on one thread in this process. A question's products (its vector
    against the build's ~7,000 rule vectors, the classifier's and the worked cases') take
    ~0.3 ms on one core; OpenBLAS split them over every core, and on a busy machine each
    then waited for a second thread to be scheduled (4-12 ms each, measured). Servers run
    one question per core instead. Row products are computed whole by one thread either
    way, so the scores are the same."""
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

        threadpool_limits(1, user_api="blas")
    except Exception:  # noqa: BLE001, S110 - only a speed-up
        pass


class RuleIndex:
    """Read-side API over one live build (see the module docstring)."""

    def __init__(self, settings: Settings, client: ClientAPI | None, state: State,
                 cache: BuildCache | None = None) -> None:
        """``client`` None: opened on first need (the build's rules, vectors and cards come
        from ``cache`` when it holds them, see :mod:`ingest.snapshot`)."""
        self.settings = settings
        self._client = client
        self.state = state
        self.cache = cache or BuildCache(None, state.build)
        self._lock = threading.Lock()
        one_blas_thread()
        rules = self.cache.get("rules", source_key("ingest"), self._read_rules)
        self._rules = rules
        self._by_doc: dict[str, dict[str, Rule]] = {}
        self._by_number: dict[str, list[Rule]] = {}
        for r in rules:
            self._by_doc.setdefault(r.doc, {})[normalize_number(r.number)] = r
            self._by_number.setdefault(normalize_number(r.number), []).append(r)
        self._docs = {d.id: d for d in state.documents}
        self._bm25: dict[str | None, _Bm25] = {}
        self._contexts: dict[str | None, GameContext] = {}
        self._cards: dict[str, list[Card]] | None = None
        self._vector_store: Chroma | None = None
        self._dense_rows: tuple[list[Rule], Any] | None = None
        self._game_masks: dict[str, Any] = {}

    @property
    def client(self) -> ClientAPI:
        """The Chroma client of this build's store (opened on first use)."""
        if self._client is None:
            client = client_for(self.settings, create=False)
            if client is None:
                where = self.settings.chroma_url or str(self.settings.index_dir)
                raise IndexMissing(f"no rules index at {where}: run `arbiter ingest` first")
            # Opening an embedded store writes to it: record the pointer afresh so the next
            # process still finds it in the snapshot.
            remember_state(self.settings, client, self.state)
            self._client = client
        return self._client

    def _read_rules(self) -> list[Rule]:
        """Every rule of the build from the store, in manifest then document order."""
        with reaching():
            coll = get_collection(self.client, self.state.rules_collection)
            data = read_all(coll, ["metadatas"])
        rules = [rule_from_metadata(m) for m in data["metadatas"]]
        doc_pos = {d.id: i for i, d in enumerate(self.state.documents)}
        rules.sort(key=lambda r: (doc_pos.get(r.doc, 1 << 30), r.order))
        return rules

    # ----------------------------------------------------------------- catalogue
    def games(self) -> list[GameInfo]:
        return [g.model_copy(deep=True) for g in self.state.games]

    def documents(self) -> list[DocumentInfo]:
        return [d.model_copy() for d in self.state.documents]

    def rules(self, game: str | None = None, doc: str | None = None) -> list[Rule]:
        return [r for r in self._rules if (game is None or r.game == game) and (doc is None or r.doc == doc)]

    # ----------------------------------------------------------------- lookup
    def get(self, doc: str, number: str) -> Rule | None:
        return self._by_doc.get(doc, {}).get(normalize_number(number))

    def _newest_first(self, rules: list[Rule]) -> list[Rule]:
        pos = {d.id: i for i, d in enumerate(self.state.documents)}
        # stable: newest version first, then manifest order
        by_order = sorted(rules, key=lambda r: pos.get(r.doc, 0))
        return sorted(by_order, key=lambda r: r.version, reverse=True)

    def lookup(self, number: str, game: str | None = None) -> RuleLookup | None:
        found = [r for r in self._by_number.get(normalize_number(number), []) if game is None or r.game == game]
        if not found:
            return None
        ordered = self._newest_first(found)
        best = ordered[0]
        editions = [r for r in ordered[1:] if r.game == best.game]
        return RuleLookup(rule=best, editions=editions, children=self.children(best))

    def children(self, rule: Rule, deep: bool = True) -> list[Rule]:
        """Subrules of ``rule`` in its document, in document order (all descendants by
        default; ``deep=False`` for direct children only)."""
        num = normalize_number(rule.number)
        out = []
        for r in self._by_doc.get(rule.doc, {}).values():
            ps = [normalize_number(p) for p in r.parents]
            if (ps[:1] == [num]) if not deep else (num in ps):
                out.append(r)
        return sorted(out, key=lambda r: r.order)

    def suggest(self, number: str, game: str | None = None, n: int = 5) -> list[str]:
        """Existing numbers nearest to ``number`` (shared prefix first, then numeric gap).
        Only the first 64 characters count: no rule number is longer."""
        target = normalize_number(number)[:64]
        pool = sorted({normalize_number(r.number) for r in self._rules if game is None or r.game == game})
        if not pool:
            return []
        if re.match(r"^\d", target):
            numeric = [p for p in pool if re.match(r"^\d", p)]
            ranked = sorted(numeric, key=lambda p: (distance(target, p), p))
            return ranked[:n]
        return difflib.get_close_matches(target, pool, n=n, cutoff=0.3) or pool[:n]

    def verify_quote(self, doc: str, number: str, quote: str) -> bool:
        """True when the rule exists and ``quote`` is a verbatim substring of its text
        (runs of whitespace compare equal)."""
        rule = self.get(doc, number)
        if rule is None or not quote or not quote.strip():
            return False
        if quote in rule.text:
            return True
        return _squash(quote) in _squash(rule.text)

    # ----------------------------------------------------------------- search
    @property
    def vector_store(self) -> Chroma:
        """The langchain-chroma vector store over the live rules collection."""
        if self._vector_store is None:
            from langchain_chroma import Chroma

            from ingest.query_embeddings import QueryEmbeddings

            self._vector_store = Chroma(
                client=self.client,
                collection_name=self.state.rules_collection,
                embedding_function=QueryEmbeddings(
                    self.settings.embedding_model, self.settings.model_cache_dir,
                    self.settings.query_threads,
                ),
            )
        return self._vector_store

    def embed_query(self, text: str) -> list[float]:
        from ingest.embedding import embed_query

        return embed_query(text, self.settings.embedding_model, self.settings.model_cache_dir,
                           self.settings.query_threads)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Short texts (the kind classifier's exemplars) through the question path: the same
        vectors as sentence-transformers', without loading torch; a list asked for before is
        read back from the model cache."""
        from ingest.embedding import embed_texts

        return embed_texts(texts, self.settings.embedding_model, self.settings.model_cache_dir,
                           self.settings.query_threads, remember=True)

    def _bm25_for(self, game: str | None) -> _Bm25:
        with self._lock:
            idx = self._bm25.get(game)
            if idx is None:
                idx = self.cache.get(f"bm25-{game or 'all'}", source_key("ingest"),
                                     lambda: _Bm25(self.rules(game=game)), self._shared_rules)
                self._bm25[game] = idx
            return idx

    @property
    def _shared_rules(self) -> dict[str, object]:
        """The build's rules by key: cached artifacts refer to them instead of copying them."""
        return {r.key: r for r in self._rules}

    def ranking_context(self, game: str | None) -> GameContext:
        """The game's rule structure and card matcher for :func:`ingest.ranking.hybrid_search`
        (built on first use, then cached)."""
        from ingest.card_lookup import CardMatcher
        from ingest.structure import RuleStructure

        ctx = self._contexts.get(game)
        if ctx is not None:
            return ctx
        with self._lock:
            ctx = self._contexts.get(game)
            if ctx is None:
                def make() -> GameContext:
                    cards = [c for cs in self._cards_unlocked().values() for c in cs
                             if game is None or c.game == game]
                    rules = self.rules(game=game)
                    structure = RuleStructure(rules, stem=stem)
                    matcher = CardMatcher(cards, is_common=structure.word_is_common) if cards else None
                    return GameContext(rules, matcher, structure)

                ctx = self.cache.get(f"context-{game or 'all'}", source_key("ingest"), make, self._shared_rules)
                self._contexts[game] = ctx
            return ctx

    def _matrix(self) -> tuple[list[Rule], Any]:
        """Every rule's stored vector as one normalised float32 matrix (rows in the order of
        the returned rules), read from the collection on first dense search."""
        with self._lock:
            if self._dense_rows is None:
                by_key = {r.key: r for r in self._rules}
                keys, mat = self.cache.get("dense", source_key("ingest"), self._read_matrix)
                self._dense_rows = ([by_key[k] for k in keys], mat)
            return self._dense_rows

    def _read_matrix(self) -> tuple[list[str], Any]:
        """The build's rule keys and their unit vectors (float32), read from the store."""
        with reaching():
            coll = get_collection(self.client, self.state.rules_collection)
            data = read_all(coll, ["embeddings"])
        known = {r.key for r in self._rules}
        rows = [(rid, emb) for rid, emb in zip(data["ids"], data["embeddings"]) if rid in known]
        mat = np.asarray([e for _, e in rows], dtype=np.float32).reshape(len(rows), -1)
        norms = np.linalg.norm(mat, axis=1, keepdims=True)
        mat /= np.where(norms > 0, norms, 1.0)
        return [k for k, _ in rows], mat

    def _dense(self, query: str, game: str | None, n: int,
               vector: Sequence[float] | None = None) -> list[tuple[Rule, float]]:
        """Exact cosine search over the build's vectors, held in memory (a build never
        changes; the default corpus is 61 rules, all of corpus-extra ~6,400: ~10 MB): the
        same scores as the Chroma collection's cosine distance, without a store round trip
        per question."""
        vec = np.asarray(self.embed_query(query) if vector is None else vector, dtype=np.float32)
        rules, mat = self._matrix()
        if not rules:
            return []
        scores = mat @ (vec / (float(np.linalg.norm(vec)) or 1.0))
        if game:
            mask = self._game_masks.get(game)
            if mask is None:
                mask = np.asarray([r.game == game for r in rules], dtype=bool)
                self._game_masks[game] = mask
            scores = np.where(mask, scores, -np.inf)
        n = min(n, len(rules))
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(rules[i], float(scores[i])) for i in top if np.isfinite(scores[i])]

    def number_hits(self, query: str, game: str | None = None) -> list[Rule]:
        """Rules whose number or anchor is written in the query (``355.14``, ``target.3.2``,
        ``ability.p2``), preferred editions."""
        out: list[Rule] = []
        for m in re.finditer(rf"(?<![\w.])({NUMBER_PATTERN}|[a-z][a-z0-9-]*(?:\.p?\d+)+)(?![\w])", query.lower()):
            found = self.lookup(m.group(1), game)
            if found and found.rule not in out:
                out.append(found.rule)
        return out

    def search(self, query: str, game: str | None = None, k: int = 5, mode: Mode = "hybrid",
               vector: Sequence[float] | None = None) -> list[SearchHit]:
        """Hybrid (or one retriever's) search; ``vector``: the query's embedding when the
        caller already has it (the assistant embeds each question once), else
        ``query`` is embedded."""
        if mode not in ("hybrid", "dense", "bm25"):
            raise ValueError(f"unknown search mode {mode!r}")
        query = query.strip()
        if not query or k <= 0:
            return []
        if mode == "hybrid":
            return hybrid_search(self, query, game, k, vector)
        n = max(50, k * 10)
        hits = self._dense(query, game, n, vector) if mode == "dense" else self._bm25_for(game).search(query, n)
        out = [SearchHit(rule=rule, score=raw, via=[mode]) for rule, raw in hits]
        direct = self.number_hits(query, game)
        if direct:
            top = max((h.score for h in out), default=0.0) + 1.0
            keys = {r.key for r in direct}
            out = [
                SearchHit(rule=r, score=top - i * 1e-6, via=["number", mode])
                for i, r in enumerate(direct)
            ] + [h for h in out if h.rule.key not in keys]
        return out[:k]

    def retriever(self, game: str | None = None, k: int = 5, mode: Mode = "hybrid") -> BaseRetriever:
        """A LangChain retriever: ``Document(page_content=rule text, metadata={doc, game,
        rule, parent, version, heading, title, score, via})``. ``mode="dense"`` is the plain
        langchain-chroma ``VectorStoreRetriever``; the default fuses it with BM25."""
        if mode == "dense":
            kwargs: dict[str, Any] = {"k": k}
            if game:
                kwargs["filter"] = {"game": game}
            return self.vector_store.as_retriever(search_kwargs=kwargs)
        from ingest.retrieval import RuleRetriever

        return RuleRetriever(index=self, game=game, k=k, mode=mode)

    # ----------------------------------------------------------------- cards
    def _load_cards(self) -> dict[str, list[Card]]:
        with self._lock:
            return self._cards_unlocked()

    def _cards_unlocked(self) -> dict[str, list[Card]]:
        if self._cards is None:
            self._cards = self.cache.get("cards", source_key("ingest"), self._read_cards)
        return self._cards

    def _read_cards(self) -> dict[str, list[Card]]:
        """The build's card records by normalised name, read from the store."""
        cards: dict[str, list[Card]] = {}
        if self.state.cards_collection:
            with reaching():
                coll = get_collection(self.client, self.state.cards_collection)
                data = read_all(coll, ["documents"])
            for doc in data["documents"]:
                for obj in json.loads(doc):
                    card = Card.model_validate(obj)
                    cards.setdefault(normalize_name(card.name), []).append(card)
        return cards

    def card(self, name: str, game: str | None = None) -> Card | None:
        """Exact name lookup (case, punctuation, apostrophes forgiven); the printing with
        ability text wins over a textless one."""
        found = [c for c in self._load_cards().get(normalize_name(name), []) if game is None or c.game == game]
        if not found:
            return None
        return next((c for c in found if c.text), found[0])

    def printings(self, name: str, game: str | None = None) -> list[Card]:
        """Every printing of a card, in card-data order (the data lists older sets first)."""
        return [c for c in self._load_cards().get(normalize_name(name), []) if game is None or c.game == game]

    def card_names(self, game: str | None = None) -> list[str]:
        names = {c.name for cs in self._load_cards().values() for c in cs if game is None or c.game == game}
        return sorted(names)


def _squash(text: str) -> str:
    return " ".join(text.split())


def _normalized(name: str, raw: list[float]) -> list[float]:
    """Scores of one retriever on a common 0..1 scale for fusion: dense cosines min-max
    scaled over the candidates (MiniLM cosines crowd into a narrow band), BM25 divided by
    its best score (0 stays "no term matched")."""
    if not raw:
        return []
    hi = max(raw)
    if name == "dense":
        lo = min(raw)
        return [(r - lo) / (hi - lo) if hi > lo else 1.0 for r in raw]
    return [r / hi if hi > 0 else 0.0 for r in raw]


# --------------------------------------------------------------------------- opening

_OPEN: dict[tuple[str, str], RuleIndex] = {}
_OPEN_LOCK = threading.Lock()


def _client_key(settings: Settings) -> str:
    return settings.chroma_url or str(settings.index_dir)


def open_index(settings: Settings) -> RuleIndex:
    """The live index for ``settings``; raises :class:`IndexMissing` when nothing is ingested.

    Embedded, the live build is first looked up in the snapshot pointer (valid while the
    store has not been written since, see :mod:`ingest.snapshot`), so a cold process whose
    build is snapshotted never imports ``chromadb``; otherwise, and with a Chroma server,
    the pointer record is read from the store (every call: an ingest elsewhere is live on
    the next one)."""
    client = None
    state = cached_state(settings)
    if state is None:
        client = client_for(settings, create=False)
        state = read_state(client) if client is not None else None
        if state is None:
            where = settings.chroma_url or str(settings.index_dir)
            raise IndexMissing(f"no rules index at {where}: run `arbiter ingest` first")
        assert client is not None
        remember_state(settings, client, state)
    key = (_client_key(settings), state.build)
    with _OPEN_LOCK:
        idx = _OPEN.get(key)
        if idx is None:
            for old in [k for k in _OPEN if k[0] == key[0]]:
                del _OPEN[old]
            idx = RuleIndex(settings, client, state, BuildCache.for_settings(settings, state.build))
            _OPEN[key] = idx
    return idx


def warm_snapshot(settings: Settings) -> RuleIndex:
    """Open the live build and read what a search needs (rules, vectors, cards), writing
    each to the build's snapshot when it is not there yet."""
    idx = open_index(settings)
    idx._matrix()
    idx._load_cards()
    return idx


def forget_index(settings: Settings) -> None:
    with _OPEN_LOCK:
        for k in [k for k in _OPEN if k[0] == _client_key(settings)]:
            del _OPEN[k]


def index_is_stale(settings: Settings) -> bool:
    """True when nothing is ingested or the configured corpus changed since the last ingest
    (files, manifest entries, parser or model). Loads no model."""
    from ingest.manifest import CorpusError, cards_fingerprint, doc_fingerprint, resolve_corpus
    from ingest.pipeline import PARSER_VERSION, _games_fingerprint

    try:
        client = client_for(settings, create=False)
        state = read_state(client) if client is not None else None
    except StoreUnavailable:
        return True
    if state is None or state.model != settings.embedding_model:
        return True
    try:
        corpus = resolve_corpus(list(settings.corpus))
    except CorpusError:
        return True
    fps = {d.id: doc_fingerprint(d, PARSER_VERSION, settings.embedding_model) for d in corpus.documents}
    fps["__games__"] = _games_fingerprint(corpus)
    cfps = {c.key: cards_fingerprint(c, PARSER_VERSION) for c in corpus.cards}
    return fps != state.doc_fingerprints or cfps != state.card_fingerprints
