"""Hybrid ranking that knows cards and the rulebook's structure (``RuleIndex.search`` mode
``hybrid``).

One query embedding per search, as before. Steps:

1. **Query plan** (:class:`QueryPlan`): the cards the question names (:mod:`ingest.card_lookup`,
   exact or close misspelling), the keywords their text uses (every printing of the name:
   a hero, a villain and a minion may share one), the game's keyword and
   glossary terms the question itself names (:mod:`ingest.structure`), and BM25 tokens
   from the named cards' types, keywords and ability text.
2. **Scores**: dense cosine (Chroma, top :data:`POOL`) min-max scaled, and BM25 over every
   rule of the game (typed words, rules-vocabulary synonyms at
   :data:`~ingest.index.EXPANSION_WEIGHT`, card text at :data:`CARD_TEXT_WEIGHT`, card
   keyword names at :data:`CARD_KEYWORD_WEIGHT`) divided by its best score, fused with
   :data:`~ingest.index.FUSION_WEIGHTS`.
3. **Candidates**: the dense and BM25 leaders, plus every rule of the families the plan
   names (a keyword's titled section and its subrules, a glossary entry and its bullets) and
   the subrules of a rule number written in the question: a keyword's own rules are
   candidates even when no retriever found them.
4. **Structure** (``via`` gains ``card`` or ``term``): a named family's members gain :data:`TERM_BONUS` x strength x the leading
   score (strength: 1 for a keyword of a named card, the term's rarity for a term typed in
   the question); a bare title ("809. Deflect", no rule text) is scaled by
   :data:`TITLE_DAMP`; the subrules of a rule number named in the question gain
   :data:`NAMED_CHILD_BONUS`; then the query-term overlap re-ranking of the fused top
   (:data:`~ingest.index.RERANK_WEIGHT`); then the rules cross-referenced by the top
   :data:`REF_DEPTH` ("See rule 702.21") score at least :data:`REF_FACTOR` of their referrer.
5. **Grouping**: at most :data:`GROUP_CAP` rules of one group (``355.14``, ``702.21``, one
   glossary entry) in the results before every other group has had its turn, so a family is
   not five near-duplicate hits.
6. Rules whose number is written in the question come first (``via=["number"]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from ingest.card_lookup import CardMatcher, CardMention, card_keywords
from ingest.models import Card, Rule, SearchHit
from ingest.structure import RuleStructure

if TYPE_CHECKING:
    from ingest.index import RuleIndex

__all__ = [
    "CARD_KEYWORD_WEIGHT",
    "CARD_TEXT_WEIGHT",
    "GROUP_CAP",
    "NAMED_CHILD_BONUS",
    "POOL",
    "REF_DEPTH",
    "REF_FACTOR",
    "TERM_BONUS",
    "TITLE_DAMP",
    "GameContext",
    "QueryPlan",
    "hybrid_search",
    "plan_query",
]

POOL = 50
CARD_TEXT_WEIGHT = 0.2
CARD_KEYWORD_WEIGHT = 0.5
TERM_BONUS = 0.5
TITLE_DAMP = 0.5
NAMED_CHILD_BONUS = 0.3
REF_DEPTH = 5
REF_FACTOR = 0.9
GROUP_CAP = 3
FAMILY_LIMIT = 120


class GameContext:
    """What ranking needs about one game (or all games): its structure and card matcher."""

    def __init__(self, rules: list[Rule], cards: CardMatcher | None, structure: RuleStructure) -> None:
        self.rules = rules
        self.cards = cards
        self.structure = structure
        self.positions = {r.key: i for i, r in enumerate(rules)}
        self._keywords: dict[tuple[str, str], list[str]] = {}

    def keywords(self, card: Card) -> list[str]:
        """The keyword terms ``card`` uses (cached per card)."""
        key = (card.name, card.text)
        found = self._keywords.get(key)
        if found is None:
            found = self._keywords[key] = card_keywords(card, self.structure.terms)
        return found


class QueryPlan(BaseModel):
    """What a question names beyond its words: cards, their keywords, rulebook terms."""

    model_config = ConfigDict(frozen=True)

    cards: list[CardMention] = Field(default_factory=list)
    card_keywords: list[str] = Field(default_factory=list, description="Keyword terms the named cards use.")
    terms: list[str] = Field(default_factory=list, description="Rulebook terms the question names.")
    card_tokens: list[str] = Field(default_factory=list, description="BM25 tokens from the cards' types and text.")
    keyword_tokens: list[str] = Field(default_factory=list, description="BM25 tokens of the cards' keywords.")


def plan_query(query: str, ctx: GameContext) -> QueryPlan:
    from ingest.index import bm25_tokens

    mentions = ctx.cards.find(query) if ctx.cards is not None else []
    terms = ctx.structure.terms_in(query)
    keywords: list[str] = []
    texts: list[str] = []
    for m in mentions:
        printings = ctx.cards.printings(m.card.name) if ctx.cards is not None else [m.card]
        for card in printings:  # a hero, a villain and a minion may share a name
            keywords.extend(ctx.keywords(card))
        texts.append(" ".join([*m.card.types, m.card.text]))
    keywords = list(dict.fromkeys(keywords))
    typed = set(bm25_tokens(query))
    card_tokens = [t for t in dict.fromkeys(bm25_tokens(" ".join(texts))) if t not in typed]
    keyword_tokens = [t for t in dict.fromkeys(bm25_tokens(" ".join(keywords))) if t not in typed]
    return QueryPlan(
        cards=mentions, card_keywords=keywords, terms=terms, card_tokens=card_tokens,
        keyword_tokens=keyword_tokens,
    )


def hybrid_search(index: RuleIndex, query: str, game: str | None, k: int,
                  vector: Sequence[float] | None = None) -> list[SearchHit]:
    from ingest.index import (
        EXPANSION_WEIGHT,
        FUSION_WEIGHTS,
        RERANK_DEPTH,
        RERANK_WEIGHT,
        _normalized,
        expand_query,
    )

    ctx = index.ranking_context(game)
    bm25 = index._bm25_for(game)
    st = ctx.structure
    plan = plan_query(query, ctx)

    # ---- scores
    dense = index._dense(query, game, max(POOL, k * 10), vector)
    toks, extra = expand_query(query)
    vocab = bm25.vocab
    bm = np.zeros(len(bm25.rules))
    for words, weight in (
        (toks, 1.0), (extra, EXPANSION_WEIGHT), (plan.card_tokens, CARD_TEXT_WEIGHT),
        (plan.keyword_tokens, CARD_KEYWORD_WEIGHT),
    ):
        words = [w for w in words if w in vocab]
        if words and bm25.rules:
            bm = bm + weight * bm25.get_scores(words)
    pos = ctx.positions
    best_bm = float(bm.max()) if len(bm) else 0.0

    rules: dict[str, Rule] = {}
    via: dict[str, list[str]] = {}
    fused: dict[str, float] = {}
    for (rule, _), score in zip(dense, _normalized("dense", [raw for _, raw in dense])):
        rules[rule.key] = rule
        via.setdefault(rule.key, []).append("dense")
        fused[rule.key] = FUSION_WEIGHTS["dense"] * score
    if best_bm > 0:
        for i in np.argsort(-bm, kind="stable")[: max(POOL, k * 10)]:
            if bm[i] <= 0:
                break
            r = bm25.rules[i]
            rules.setdefault(r.key, r)
            via.setdefault(r.key, []).append("bm25")
            fused.setdefault(r.key, 0.0)

    # ---- candidates named by structure
    strength: dict[str, float] = {}
    from_card: set[str] = set()
    for term in plan.card_keywords:
        for root in st.terms.get(term, []):
            for key in st.family(root, FAMILY_LIMIT):
                strength[key] = max(strength.get(key, 0.0), 1.0)
                from_card.add(key)
    for term in plan.terms:
        w = st.rarity(term)
        for root in st.terms.get(term, []):
            for key in st.family(root, FAMILY_LIMIT):
                strength[key] = max(strength.get(key, 0.0), w)
    direct = index.number_hits(query, game)
    named_children = {c for r in direct for c in st.family(r.key, FAMILY_LIMIT)[1:]}
    for key in [*strength, *named_children]:
        if key not in fused and key in st.by_key:
            rules[key] = st.by_key[key]
            via.setdefault(key, []).append("structure")
            fused[key] = 0.0
    if best_bm > 0:
        for key in fused:
            i = pos.get(key)
            if i is not None:
                fused[key] += FUSION_WEIGHTS["bm25"] * float(bm[i]) / best_bm
    if not fused:
        return _numbers_first(direct, [], k)

    lead = max(fused.values()) or 1.0
    for key in fused:
        if key in strength and not st.is_title(key):
            fused[key] += TERM_BONUS * strength[key] * lead
            via[key].append("card" if key in from_card else "term")
        if key in named_children:
            fused[key] += NAMED_CHILD_BONUS * lead
        if st.is_title(key) or st.is_pointer(rules[key]):
            fused[key] *= TITLE_DAMP
    ranked = sorted(fused, key=lambda key: -fused[key])

    # ---- overlap re-ranking of the top
    terms = set(toks) | set(extra)
    top = fused[ranked[0]]
    for key in ranked[:RERANK_DEPTH]:
        fused[key] += RERANK_WEIGHT * bm25.overlap(rules[key], terms) * top
    ranked = sorted(fused, key=lambda key: -fused[key])

    # ---- cross-references of the leaders
    for key in ranked[:REF_DEPTH]:
        for ref in st.refs(rules[key]):
            target = st.by_key.get(ref)
            if target is None or (game and target.game != game):
                continue
            score = REF_FACTOR * fused[key] / (TITLE_DAMP if st.is_pointer(rules[key]) else 1.0)
            score *= TITLE_DAMP if st.is_title(ref) else 1.0
            if score > fused.get(ref, 0.0):
                rules[ref] = target
                fused[ref] = score
                via.setdefault(ref, []).append("ref")
    ranked = sorted(fused, key=lambda key: -fused[key])

    hits = [SearchHit(rule=rules[key], score=fused[key], via=via[key]) for key in _grouped(ranked, rules, st, k)]
    return _numbers_first(direct, hits, k)


def _grouped(ranked: list[str], rules: dict[str, Rule], st: RuleStructure, k: int) -> list[str]:
    """The first ``k`` keys with at most GROUP_CAP per group; the rest follow in order."""
    if GROUP_CAP <= 0:
        return ranked[:k]
    counts: dict[str, int] = {}
    first: list[str] = []
    later: list[str] = []
    for key in ranked:
        g = st.group(rules[key])
        if counts.get(g, 0) < GROUP_CAP:
            counts[g] = counts.get(g, 0) + 1
            first.append(key)
        else:
            later.append(key)
        if len(first) >= k:
            break
    return (first + later)[:k]


def _numbers_first(direct: list[Rule], hits: list[SearchHit], k: int) -> list[SearchHit]:
    if not direct:
        return hits[:k]
    top = max((h.score for h in hits), default=0.0) + 1.0
    by_key = {h.rule.key: h for h in hits}
    keys = {r.key for r in direct}
    lead = [
        SearchHit(rule=r, score=top - i * 1e-6, via=["number", *(by_key[r.key].via if r.key in by_key else [])])
        for i, r in enumerate(direct)
    ]
    return (lead + [h for h in hits if h.rule.key not in keys])[:k]
