"""The BM25 side of search: stemming, query expansion, score fusion (no model, no Chroma)."""

from __future__ import annotations

import pytest

from ingest.index import _Bm25, _normalized, bm25_tokens, expand_query, stem
from ingest.models import Rule


@pytest.mark.parametrize(
    "forms",
    [
        ["target", "targets", "targeted", "targeting"],
        ["change", "changes", "changed", "changing"],
        ["choose", "chooses", "choosing", "chosen", "choice", "choices"],
        ["finalize", "finalized", "finalization"],
        ["stun", "stuns", "stunned"],
        ["ability", "abilities"],
    ],
)
def test_inflections_share_a_stem(forms: list[str]) -> None:
    assert len({stem(f) for f in forms}) == 1, {f: stem(f) for f in forms}


def test_stemmer_leaves_short_words_numbers_and_non_plurals() -> None:
    assert stem("less") != stem("le") and stem("status") == "status"
    assert stem("355") == "355" and stem("up") == "up"
    assert bm25_tokens("The unit's Might") == [stem("unit"), "s", stem("might")]


def test_expansion_adds_synonyms_not_already_typed() -> None:
    toks, extra = expand_query("Can targets be changed after the step?")
    assert stem("choose") in extra and stem("alter") in extra
    assert not set(extra) & set(toks)
    assert len(extra) == len(set(extra))
    # one-way: a concrete verb implies the rules' "action", never the reverse
    assert stem("action") in expand_query("stun a unit")[1]
    assert stem("stun") not in expand_query("a game action")[1]
    # phrases: "up to" / declining
    assert stem("number") in expand_query("choose up to two units")[1]
    assert stem("decision") in expand_query("if I decline")[1]


def _rule(n: int, text: str) -> Rule:
    return Rule(doc="d", game="g", number=f"1.{n}", text=text, order=n)


def test_bm25_expansion_ranks_synonym_match_and_typed_terms_weigh_more() -> None:
    rules = [
        _rule(1, "A player may alter the chosen objects."),
        _rule(2, "Units at a battlefield are ready."),
        _rule(3, "Cards in hand are private."),
    ]
    index = _Bm25(rules)
    hits = index.search("can I change my targets", 5)
    assert hits and hits[0][0].number == "1.1"  # found only through "change"->"alter", "target"->"choose"
    typed = index.search("alter chosen", 5)[0][1]
    expanded = index.search("change targets", 5)[0][1]
    assert typed > expanded > 0
    assert index.overlap(rules[0], {stem("alter")}) > index.overlap(rules[1], {stem("alter")}) == 0


def test_normalized_scores() -> None:
    assert _normalized("dense", [0.9, 0.5, 0.7]) == pytest.approx([1.0, 0.0, 0.5])
    assert _normalized("dense", [0.4]) == [1.0]
    assert _normalized("bm25", [4.0, 1.0]) == pytest.approx([1.0, 0.25])
    assert _normalized("bm25", []) == []
