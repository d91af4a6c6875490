"""Lookup, suggestions, quotes and search on the default corpus (real model, real Chroma)."""

from __future__ import annotations

import pytest
from langchain_core.retrievers import BaseRetriever


def test_lookup_with_children(default_index) -> None:
    found = default_index.lookup("11.4", "momon-wonder")
    assert found is not None and found.rule.doc == "momon-wonder-cr"
    assert [c.number for c in found.children] == [f"11.4.{i}" for i in range(1, 10)]
    assert [c.order for c in found.children] == sorted(c.order for c in found.children)
    target = default_index.lookup("target.3")
    assert [c.number for c in target.children] == [f"target.3.{i}" for i in range(1, 11)]
    direct = default_index.children(default_index.get("marvel-champions-rr-target", "target"), deep=False)
    assert [c.number for c in direct] == [f"target.{i}" for i in range(1, 7)]
    assert default_index.lookup("355.14.", "riftbound").rule.number == "355.14"  # trailing dot forgiven


def test_unknown_number_suggests_nearest(default_index) -> None:
    assert default_index.lookup("355.19", "riftbound") is None
    near = default_index.suggest("355.19", "riftbound", n=3)
    assert near[0] == "355.18" and len(near) == 3
    assert all(default_index.lookup(n, "riftbound") for n in near)
    assert default_index.suggest("11.4.12", "momon-wonder", n=1) == ["11.4.9"]
    assert "target.3.1" in default_index.suggest("target.3.11", "marvel-champions")
    assert default_index.lookup("355.14", "momon-wonder") is None  # game filter


def test_verify_quote(default_index) -> None:
    rule = default_index.get("riftbound-targets-guide", "p3")
    quote = rule.text[10:60]
    assert default_index.verify_quote("riftbound-targets-guide", "p3", quote)
    assert not default_index.verify_quote("riftbound-targets-guide", "p3", quote + " not in the text")
    assert not default_index.verify_quote("riftbound-targets-guide", "p99", quote)
    assert not default_index.verify_quote("riftbound-targets-guide", "p3", "")


@pytest.mark.parametrize(
    ("query", "game", "doc", "rule"),
    [
        ("my hero's thwart value is zero, may it still use the basic thwart power?", "marvel-champions",
         "marvel-champions-rr-target", "target.3.2"),
        ("every chosen target has become illegal by the time the ability resolves",
         "momon-wonder", "momon-wonder-cr", "11.4.5"),
        ("is the portion of a split result given to an illegal target handed to someone else",
         "momon-wonder", "momon-wonder-cr", "11.4.9"),
        ("may I pick zero objects when the card lets me choose up to some number", "riftbound",
         "riftbound-core-rules", "355.13"),
        ("effect refers to the next card you play, does it need something to target", None,
         "marvel-champions-rr-target", "target.5"),
    ],
)
def test_hybrid_search_finds_paraphrases(default_index, query, game, doc, rule) -> None:
    hits = default_index.search(query, game=game, k=5)
    assert (doc, rule) in [(h.rule.doc, h.rule.number) for h in hits]
    if game:
        assert all(h.rule.game == game for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_search_modes_and_number_in_query(default_index) -> None:
    for mode in ("dense", "bm25", "hybrid"):
        hits = default_index.search("splitting damage among targets", game="riftbound", k=3, mode=mode)
        assert hits and all(mode in h.via or mode == "hybrid" for h in hits)
    hits = default_index.search("what does 355.14 say about this", k=3)
    assert hits[0].rule.number == "355.14" and hits[0].via[0] == "number"
    hits = default_index.search("explain target.3.7", k=3)
    assert hits[0].rule.number == "target.3.7"
    with pytest.raises(ValueError):
        default_index.search("x", mode="other")


def test_langchain_retriever(default_index) -> None:
    retriever = default_index.retriever(game="momon-wonder", k=3)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke("announce how a result is distributed among targets")
    assert len(docs) == 3
    for d in docs:
        assert {"doc", "game", "rule", "parent", "version"} <= set(d.metadata)
        assert d.metadata["game"] == "momon-wonder"
        assert default_index.verify_quote(d.metadata["doc"], d.metadata["rule"], d.page_content)
    dense = default_index.retriever(game="riftbound", k=2, mode="dense")
    assert isinstance(dense, BaseRetriever)
    assert all(d.metadata["game"] == "riftbound" for d in dense.invoke("legend readying"))


def test_embeddings_share_one_vector_space(default_index) -> None:
    from ingest import embedding

    q = default_index.embed_query("target")
    docs = default_index.embed_documents(["target", "battlefield"])
    torch = embedding.embed_documents(["target"], default_index.settings.embedding_model)
    assert len(q) == len(docs[0]) == len(torch[0]) == 384
    assert sum(a * b for a, b in zip(q, docs[0])) == pytest.approx(1.0, abs=1e-4)
    assert sum(a * b for a, b in zip(q, torch[0])) == pytest.approx(1.0, abs=1e-3)
    assert len(embedding._CACHE) == 1
    store = default_index.vector_store
    assert isinstance(store.embeddings, embedding.QueryEmbeddings)
    assert store.embeddings.embed_query("target") == q
