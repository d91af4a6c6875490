"""Ingest into Chroma: idempotence, replace/remove, interruption, broken files, editions."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest import CorpusError, IndexMissing, index_is_stale, ingest, open_index
from ingest.store import client_for

FORBIDDEN = ("Agent Instructions", "Back to Home", "Back to 300", "Skip to main content",
             "Querying This Documentation", "GET https", "documentation index")


def test_default_index_has_no_furniture(default_index, default_settings) -> None:
    rules = default_index.rules()
    assert len(rules) > 50
    for r in rules:
        for bad in FORBIDDEN:
            assert bad not in r.text and bad not in r.heading, (r.key, bad)
    # the stored chunks themselves too
    client = client_for(default_settings)
    coll = client.get_collection(default_index.state.rules_collection, embedding_function=None)
    docs = coll.get(include=["documents", "metadatas"])
    assert len(docs["ids"]) == len(rules)
    for text, meta in zip(docs["documents"], docs["metadatas"]):
        assert {"game", "doc", "rule", "parent", "version"} <= set(meta)
        for bad in FORBIDDEN:
            assert bad not in text


def test_games_and_documents(default_index) -> None:
    games = {g.id: g for g in default_index.games()}
    assert set(games) == {"riftbound", "marvel-champions", "momon-wonder"}
    assert len(games["riftbound"].documents) == 2
    docs = {d.id: d for d in default_index.documents()}
    assert docs["marvel-champions-rr-target"].numbered is False
    assert docs["riftbound-core-rules"].rules == len(default_index.rules(doc="riftbound-core-rules"))


def test_reingest_is_idempotent(corpus_copy: Path, make_settings, fake_embed) -> None:
    settings = make_settings([corpus_copy])
    first = ingest(settings, embed=fake_embed)
    assert not first.errors and first.rules > 0 and len(first.changed) == 4
    embedded = len(fake_embed.texts)
    assert embedded == first.rules
    build = open_index(settings).state.build
    again = ingest(settings, embed=fake_embed)
    assert again.unchanged and again.changed == [] and again.rules == first.rules
    assert len(fake_embed.texts) == embedded  # nothing re-embedded
    assert open_index(settings).state.build == build
    assert not index_is_stale(settings)


def test_changed_document_replaces_only_its_rules(corpus_copy: Path, make_settings, fake_embed) -> None:
    settings = make_settings([corpus_copy])
    ingest(settings, embed=fake_embed)
    before = {r.key: r.text for r in open_index(settings).rules()}
    guide = corpus_copy / "riftbound-targets-guide.txt"
    guide.write_text(guide.read_text(encoding="utf-8") + "\n\nAn added closing paragraph about zebras.\n", encoding="utf-8")
    assert index_is_stale(settings)
    n = len(fake_embed.texts)
    summary = ingest(settings, embed=fake_embed)
    assert summary.changed == ["riftbound-targets-guide"]
    assert len(fake_embed.texts) - n == 1  # only the new paragraph was embedded
    after = {r.key: r.text for r in open_index(settings).rules()}
    added = set(after) - set(before)
    assert added == {"riftbound-targets-guide::p11"}
    assert "zebras" in after["riftbound-targets-guide::p11"]
    assert {k: v for k, v in after.items() if k not in added} == before


def test_removed_document_disappears(corpus_copy: Path, make_settings, fake_embed) -> None:
    settings = make_settings([corpus_copy])
    ingest(settings, embed=fake_embed)
    toml = corpus_copy / "corpus.toml"
    text = toml.read_text(encoding="utf-8")
    start = text.index('[[documents]]\npath = "riftbound-targets-guide.txt"')
    end = text.index("[[documents]]", start + 5)
    toml.write_text(text[:start] + text[end:], encoding="utf-8")
    summary = ingest(settings, embed=fake_embed)
    assert summary.removed == ["riftbound-targets-guide"]
    index = open_index(settings)
    assert index.rules(doc="riftbound-targets-guide") == []
    assert index.get("riftbound-targets-guide", "p1") is None
    assert index.get("riftbound-core-rules", "355.14") is not None
    # the old build's collection is retired, not dropped: running servers may still use it
    # (tests/ingest/test_garbage.py: it is collected after the grace period)
    client = client_for(settings)
    names = {c if isinstance(c, str) else c.name for c in client.list_collections()}
    assert index.state.rules_collection in names
    assert len({n for n in names if n.startswith("arbiter_rules_")}) == 2


def test_interrupted_ingest_keeps_previous_index(corpus_copy: Path, make_settings, fake_embed, embedder_class) -> None:
    settings = make_settings([corpus_copy])
    ingest(settings, embed=fake_embed)
    old = open_index(settings)
    old_rules = {r.key for r in old.rules()}
    # two documents change; the unchanged rules are copied into the new build first, then
    # the embedder dies on its first batch: the build is half-written when it stops
    for f in corpus_copy.glob("*.txt"):
        f.write_text(f.read_text(encoding="utf-8").replace("target", "targett"), encoding="utf-8")
    dying = embedder_class(fail_after=0)
    with pytest.raises(KeyboardInterrupt):
        ingest(settings, embed=dying)
    index = open_index(settings)
    assert index.state.build == old.state.build
    assert {r.key for r in index.rules()} == old_rules
    assert index.search("valid target", k=3, mode="bm25")
    client = client_for(settings)
    names = {c if isinstance(c, str) else c.name for c in client.list_collections()}
    assert {n for n in names if n.startswith("arbiter_rules_")} == {old.state.rules_collection}
    assert index_is_stale(settings)


def test_broken_file_reported_rest_ingested(corpus_copy: Path, make_settings, fake_embed) -> None:
    settings = make_settings([corpus_copy])
    ingest(settings, embed=fake_embed)
    guide_before = {r.number for r in open_index(settings).rules(doc="riftbound-targets-guide")}
    (corpus_copy / "riftbound-targets-guide.txt").write_bytes(b"Title\n\nfine\n\nbroken \xfe\xff here\n")
    momon = corpus_copy / "momon-wonder-cr-11.4-targets-and-choices.md"
    momon.write_text(momon.read_text(encoding="utf-8").replace("11.4.9", "11.4.10"), encoding="utf-8")
    summary = ingest(settings, embed=fake_embed)
    assert len(summary.errors) == 1
    assert "riftbound-targets-guide.txt:5" in summary.errors[0]
    index = open_index(settings)
    # the broken document keeps its previous rules; the other change went in
    assert {r.number for r in index.rules(doc="riftbound-targets-guide")} == guide_before
    assert index.get("momon-wonder-cr", "11.4.10") is not None
    assert index.get("momon-wonder-cr", "11.4.9") is None


def test_broken_file_without_previous_rules(tmp_path: Path, make_settings, fake_embed) -> None:
    (tmp_path / "ok.txt").write_text("101. A rule.\n101.1. A subrule.\n102. Another.\n", encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes(b"101. x\n\xff\n")
    settings = make_settings([tmp_path])
    summary = ingest(settings, [tmp_path], game="demo", embed=fake_embed)
    assert any("bad.txt:2" in e for e in summary.errors)
    index = open_index(settings)
    assert [d.id for d in index.documents()] == ["ok"]
    assert index.lookup("101.1", "demo").rule.doc == "ok"


def test_bad_usage_raises(tmp_path: Path, make_settings, fake_embed) -> None:
    settings = make_settings([])
    with pytest.raises(CorpusError, match="--game"):
        ingest(settings, [tmp_path], embed=fake_embed)
    with pytest.raises(CorpusError, match="no such file"):
        ingest(settings, [tmp_path / "missing"], embed=fake_embed)
    (tmp_path / "corpus.toml").write_text("[[documents]\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="corpus.toml"):
        ingest(settings, [tmp_path], embed=fake_embed)


def test_open_index_missing(make_settings) -> None:
    settings = make_settings([])
    with pytest.raises(IndexMissing, match="arbiter ingest"):
        open_index(settings)
    assert index_is_stale(settings)


def test_newest_edition_preferred(shared_dir: Path, tmp_path: Path, make_settings, fake_embed) -> None:
    extra = shared_dir / "corpus-extra"
    toml = tmp_path / "corpus.toml"
    import tomllib

    manifest = tomllib.loads((extra / "corpus.toml").read_text(encoding="utf-8"))
    lines = ['[games.riftbound]\nname = "Riftbound"\n']
    for d in manifest["documents"]:
        if d["game"] == "riftbound":
            lines.append(
                f'[[documents]]\npath = "{extra / d["path"]}"\nid = "{d["id"]}"\ngame = "riftbound"\n'
                f'numbered = true\nupdated = "{d["updated"]}"\n'
            )
    for c in manifest["cards"]:
        if c["game"] == "riftbound":
            lines.append(f'[[cards]]\npath = "{extra / c["path"]}"\ngame = "riftbound"\n')
    toml.write_text("\n".join(lines), encoding="utf-8")
    settings = make_settings([toml])
    summary = ingest(settings, embed=fake_embed)
    assert not summary.errors and summary.cards > 100
    index = open_index(settings)
    found = index.lookup("355.14", "riftbound")
    newest = max(manifest["documents"], key=lambda d: d["updated"] if d["game"] == "riftbound" else "")
    assert found.rule.doc == newest["id"]
    assert [e.doc for e in found.editions] and all(e.version < found.rule.version for e in found.editions)
    assert "355.14.h.1" in [c.number for c in found.children]
    # a number only the full edition has still resolves there
    only_full = index.lookup("103.1.b.1", "riftbound")
    assert only_full is not None and only_full.editions == []
    # cards: exact name lookup, forgiving case and punctuation
    name = index.card_names("riftbound")[0]
    card = index.card(name.upper().replace(",", ""), "riftbound")
    assert card is not None and card.name == name
    assert index.card("no such card at all") is None
