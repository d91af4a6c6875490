"""``ingest()``: corpus files -> a new Chroma build -> swap the state pointer.

Steps: resolve the corpus (:mod:`ingest.manifest`); fingerprint every file; if nothing
changed since the live build (same files, manifest entries, parser version and model) return
``IngestSummary(unchanged=True)`` without touching anything. Otherwise parse every document,
create a NEW rules collection, copy in the stored embedding of every rule whose
``doc::number`` and embedded text are unchanged (hash match), embed only the rest (batches
of 64), write the cards collection (or keep the live one when no card file changed), then
switch the ``arbiter_state`` pointer and delete the old collections.

Failure policy:

- A broken or unreadable document (undecodable bytes, missing file, no rules found) or card
  file (invalid JSON) is reported in ``IngestSummary.errors`` with its file (and line where
  known). The other documents still ingest; the broken document keeps the rules (or cards)
  it had in the previous build, if any, and its old fingerprint, so the next ingest retries
  it. The CLI then exits non-zero listing the errors.
- Anything else that fails (the embedder, Chroma, Ctrl-C) aborts the build: the new
  collections are deleted and the previous index stays live and queryable. A process killed
  outright leaves an orphan collection that the next ingest deletes.

``changed`` lists documents that had rules (re)embedded; ``removed`` those in the previous
build but not in this corpus. The index holds exactly the corpus ingested last: ingesting
another path set replaces it (ingest several paths at once to combine them).
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ingest.cards import parse_cards
from ingest.manifest import (
    Corpus,
    cards_fingerprint,
    doc_fingerprint,
    resolve_corpus,
)
from ingest.models import Card, DocumentInfo, GameInfo, IngestSummary, Rule
from ingest.parsers import ParseError, parse_document
from ingest.settings import Settings
from ingest.store import (
    CARDS_PREFIX,
    RULES_PREFIX,
    State,
    add_batched,
    client_for,
    collect_garbage,
    drop_collection,
    get_collection,
    mark,
    new_collection,
    read_all,
    read_state,
    unmark,
    write_state,
    zeros,
)

PARSER_VERSION = "3"
EMBED_BATCH = 64
#: Seconds between renewals of a build's lease while it is embedded (far below the grace
#: period after which an abandoned build may be collected).
LEASE_RENEW = 5.0
CARDS_PER_RECORD = 500

Embedder = Callable[[list[str]], list[list[float]]]


def chunk_text(rule: Rule) -> str:
    """What gets embedded and BM25-indexed for a rule: its heading (when not already the
    start of its text) and its text. The document title is left out: shared by every rule of
    a document, it pulled all of a document's passages toward any query that named its
    topic (bench/retrieval.py: hit@1 0.878 -> 0.898 without it)."""
    head = rule.heading if rule.heading and not rule.text.startswith(rule.heading.rstrip("\u2026")) else ""
    parts = [head, rule.text]
    return "\n".join(p for p in parts if p)


def rule_hash(model: str, rule: Rule) -> str:
    return hashlib.sha256(f"{model}\0{rule.key}\0{chunk_text(rule)}".encode()).hexdigest()


def rule_metadata(rule: Rule, digest: str) -> dict[str, Any]:
    return {
        "game": rule.game,
        "doc": rule.doc,
        "rule": rule.number,
        "parent": rule.parents[0] if rule.parents else "",
        "parents": "|".join(rule.parents),
        "refs": "|".join(rule.refs),
        "heading": rule.heading,
        "text": rule.text,
        "version": rule.version,
        "title": rule.title,
        "numbered": rule.numbered,
        "order": rule.order,
        "hash": digest,
    }


def rule_from_metadata(meta: dict[str, Any]) -> Rule:
    return Rule(
        doc=str(meta["doc"]),
        game=str(meta["game"]),
        number=str(meta["rule"]),
        heading=str(meta.get("heading") or ""),
        text=str(meta.get("text") or ""),
        parents=[p for p in str(meta.get("parents") or "").split("|") if p],
        refs=[p for p in str(meta.get("refs") or "").split("|") if p],
        version=str(meta.get("version") or ""),
        title=str(meta.get("title") or ""),
        numbered=bool(meta.get("numbered", True)),
        order=int(meta.get("order") or 0),
    )


def _games_fingerprint(corpus: Corpus) -> str:
    games = {g: info.model_dump(include={"name", "terms"}) for g, info in corpus.games.items()}
    return hashlib.sha256(json.dumps(games, sort_keys=True).encode()).hexdigest()


def _progress(enabled: bool) -> Any:
    if not enabled:
        return None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        transient=True,
    )


def _snapshot(settings: Settings) -> None:
    """Write the live build's snapshot (its pointer, rules, vectors and cards) so the next
    cold process opens it without Chroma (:mod:`ingest.snapshot`)."""
    from ingest.index import warm_snapshot

    warm_snapshot(settings)


def ingest(
    settings: Settings,
    paths: list[Path] | None = None,
    game: str | None = None,
    progress: bool = False,
    *,
    embed: Embedder | None = None,
) -> IngestSummary:
    """Ingest the corpus at ``paths`` (default ``settings.corpus``); see the module docstring.

    ``embed`` is a seam for tests (count or fail embedding calls); by default the shared
    sentence-transformers model of ``settings.embedding_model`` embeds.
    Raises :class:`~ingest.manifest.CorpusError` for unusable paths or manifests.
    """
    started = time.perf_counter()
    model = settings.embedding_model
    load_model: Callable[[], object] | None = None
    if embed is None:
        from ingest.embedding import embed_documents, embeddings

        def embed(texts: list[str]) -> list[list[float]]:
            return embed_documents(texts, model)

        def load_model() -> object:
            return embeddings(model)

    corpus = resolve_corpus(list(paths) if paths else list(settings.corpus), game)
    doc_fps = {d.id: doc_fingerprint(d, PARSER_VERSION, model) for d in corpus.documents}
    card_fps = {c.key: cards_fingerprint(c, PARSER_VERSION) for c in corpus.cards}
    doc_fps_all = {**doc_fps, "__games__": _games_fingerprint(corpus)}

    from chromadb.errors import NotFoundError

    client = client_for(settings)
    assert client is not None
    old = read_state(client)
    old_collections: set[str] = set()
    if old is not None:
        old_collections = {old.rules_collection} | ({old.cards_collection} if old.cards_collection else set())
        if (
            old.model == model
            and old.doc_fingerprints == doc_fps_all
            and old.card_fingerprints == card_fps
        ):
            collect_garbage(client, settings)  # what killed ingests left behind
            _snapshot(settings)
            return IngestSummary(
                documents=len(old.documents), rules=old.rules, cards=old.cards,
                seconds=time.perf_counter() - started, unchanged=True,
            )

    errors: list[str] = []
    parsed: dict[str, list[Rule]] = {}
    for src in corpus.documents:
        try:
            parsed[src.id] = parse_document(src)
        except ParseError as exc:
            errors.append(str(exc))

    # The live build's records, to reuse embeddings and keep broken documents' rules.
    old_records: dict[str, tuple[list[float], dict[str, Any], str]] = {}
    old_docs = {d.id: d for d in (old.documents if old else [])}
    if old is not None:
        try:
            data = read_all(get_collection(client, old.rules_collection), ["embeddings", "metadatas", "documents"])
            for i, rid in enumerate(data["ids"]):
                old_records[rid] = (list(data["embeddings"][i]), data["metadatas"][i], data["documents"][i])
        except NotFoundError:
            old_records = {}  # the live collection is gone: rebuild everything

    build = uuid.uuid4().hex[:12]
    rules_name = RULES_PREFIX + build
    cards_name = ""
    created: list[str] = []
    bar = _progress(progress)
    try:
        mark(client, [rules_name], "building")  # before it exists: never collected mid-build
        coll = new_collection(client, rules_name)
        created.append(rules_name)
        reused: dict[str, list[Any]] = {"ids": [], "embeddings": [], "metadatas": [], "documents": []}
        pending: list[tuple[str, Rule, str, str]] = []  # id, rule, text, hash
        documents: list[DocumentInfo] = []
        kept_fps: dict[str, str] = {"__games__": doc_fps_all["__games__"]}
        changed: list[str] = []
        for src in corpus.documents:
            rules = parsed.get(src.id)
            if rules is None:
                # Broken this time: keep what the previous build had for it.
                if src.id in old_docs and src.id in (old.doc_fingerprints if old else {}):
                    for rid, (emb, meta, doc_text) in old_records.items():
                        if meta.get("doc") == src.id:
                            reused["ids"].append(rid)
                            reused["embeddings"].append(emb)
                            reused["metadatas"].append(meta)
                            reused["documents"].append(doc_text)
                    documents.append(old_docs[src.id])
                    kept_fps[src.id] = old.doc_fingerprints[src.id]  # type: ignore[union-attr]
                continue
            seen: set[str] = set()
            count = 0
            for rule in rules:
                if rule.key in seen:
                    continue
                seen.add(rule.key)
                count += 1
                text = chunk_text(rule)
                digest = rule_hash(model, rule)
                prev = old_records.get(rule.key)
                if prev is not None and prev[1].get("hash") == digest:
                    reused["ids"].append(rule.key)
                    reused["embeddings"].append(prev[0])
                    reused["metadatas"].append(rule_metadata(rule, digest))
                    reused["documents"].append(text)
                else:
                    pending.append((rule.key, rule, text, digest))
                    if src.id not in changed:
                        changed.append(src.id)
            documents.append(
                DocumentInfo(
                    id=src.id, game=src.game, title=src.title, version=rules[0].version,
                    path=str(src.path), rules=count, numbered=rules[0].numbered,
                )
            )
            kept_fps[src.id] = doc_fps[src.id]

        total = len(reused["ids"]) + len(pending)
        task = None
        if bar is not None:
            bar.start()
            if pending and load_model is not None:  # seconds of "0/N" otherwise
                loading = bar.add_task("Loading the embedding model", total=1)
                load_model()
                bar.update(loading, advance=1)
            task = bar.add_task("Embedding rules", total=total)
        add_batched(coll, reused)
        if bar is not None:
            bar.update(task, advance=len(reused["ids"]))
        # Longest first, so each batch holds texts of similar length: the model pads a batch
        # to its longest text, and document order mixes one-liners with long rules
        # (bench/ingest.py on corpus-extra: ratio to raw encode 0.27 in document order, 0.85 sorted).
        pending.sort(key=lambda b: len(b[2]), reverse=True)
        # Each batch is written to Chroma on a second thread while the next one embeds (both
        # release the GIL in native code), and the lease is renewed every LEASE_RENEW seconds
        # rather than per batch: the embedding, not the store, sets the pace.
        renewed = time.monotonic()
        writing: Future[None] | None = None

        def write(batch: list[tuple[str, Rule, str, str]], vectors: list[list[float]]) -> None:
            coll.add(
                ids=[b[0] for b in batch],
                embeddings=vectors,  # type: ignore[arg-type]
                metadatas=[rule_metadata(b[1], b[3]) for b in batch],
                documents=[b[2] for b in batch],
            )

        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="arbiter-chroma-write") as writer:
            for i in range(0, len(pending), EMBED_BATCH):
                batch = pending[i : i + EMBED_BATCH]
                vectors = embed([b[2] for b in batch])
                if len(vectors) != len(batch):
                    raise RuntimeError("embedder returned a wrong number of vectors")
                if writing is not None:
                    writing.result()  # the previous batch is stored (or its error raised)
                writing = writer.submit(write, batch, vectors)
                if time.monotonic() - renewed >= LEASE_RENEW:
                    mark(client, [rules_name], "building")  # renew the lease
                    renewed = time.monotonic()
                if bar is not None:
                    bar.update(task, advance=len(batch))
            if writing is not None:
                writing.result()
        mark(client, [rules_name], "building")

        # Cards: kept apart from rules (see ingest.store).
        card_counts: dict[str, int] = {}
        kept_card_fps: dict[str, str] = {}
        if old is not None and old.cards_collection and old.card_fingerprints == card_fps:
            cards_name = old.cards_collection
            card_counts = dict(old.card_counts)
            kept_card_fps = dict(card_fps)
        elif corpus.cards:
            cards_name = CARDS_PREFIX + build
            mark(client, [cards_name], "building")
            ccoll = new_collection(client, cards_name, space="l2")
            created.append(cards_name)
            old_cards = None
            if old is not None and old.cards_collection:
                try:
                    old_cards = read_all(get_collection(client, old.cards_collection), ["metadatas", "documents"])
                except NotFoundError:
                    old_cards = None
            for csrc in corpus.cards:
                unchanged = old is not None and old.card_fingerprints.get(csrc.key) == card_fps[csrc.key]
                cards: list[Card] | None = None
                if not unchanged:
                    try:
                        cards = parse_cards(csrc.path, csrc.game)
                    except ParseError as exc:
                        errors.append(str(exc))
                if cards is None:
                    # unchanged or broken: copy the previous build's records for this file
                    if old_cards is not None and old is not None and csrc.key in old.card_fingerprints:
                        idx = [i for i, m in enumerate(old_cards["metadatas"]) if m.get("file") == csrc.key]
                        if idx:
                            ccoll.add(
                                ids=[old_cards["ids"][i] for i in idx],
                                embeddings=zeros(len(idx)),
                                metadatas=[old_cards["metadatas"][i] for i in idx],
                                documents=[old_cards["documents"][i] for i in idx],
                            )
                            card_counts[csrc.key] = old.card_counts.get(csrc.key, 0)
                            kept_card_fps[csrc.key] = old.card_fingerprints[csrc.key]
                    continue
                chunks = [cards[i : i + CARDS_PER_RECORD] for i in range(0, len(cards), CARDS_PER_RECORD)]
                ccoll.add(
                    ids=[f"{csrc.key}#{n}" for n in range(len(chunks))],
                    embeddings=zeros(len(chunks)),
                    metadatas=[{"game": csrc.game, "file": csrc.key, "count": len(c)} for c in chunks],
                    documents=[json.dumps([c.model_dump() for c in chunk]) for chunk in chunks],
                )
                card_counts[csrc.key] = len(cards)
                kept_card_fps[csrc.key] = card_fps[csrc.key]

        games: list[GameInfo] = []
        for gid, info in corpus.games.items():
            gdocs = [d for d in documents if d.game == gid]
            ncards = sum(n for key, n in card_counts.items() if key.split(":", 1)[0] == gid)
            if gdocs or ncards:
                games.append(GameInfo(id=gid, name=info.name or gid, terms=info.terms, documents=gdocs, cards=ncards))
        state = State(
            build=build,
            rules_collection=rules_name,
            cards_collection=cards_name,
            model=model,
            created=time.time(),
            documents=documents,
            games=games,
            doc_fingerprints=kept_fps,
            card_fingerprints=kept_card_fps,
            card_counts=card_counts,
            rules=total,
            cards=sum(card_counts.values()),
        )
        write_state(client, state)  # the swap
    except BaseException:
        if bar is not None:
            bar.stop()
        for name in created:
            drop_collection(client, name)
        unmark(client, [rules_name, cards_name] if cards_name else [rules_name])
        raise
    if bar is not None:
        bar.stop()
    # Running servers may still answer from the replaced build: retire it (dropped after
    # the grace period by a later collection), never drop it here.
    mark(client, sorted(old_collections - {rules_name, cards_name}), "retired")
    unmark(client, [n for n in (rules_name, cards_name) if n])
    collect_garbage(client, settings)
    from ingest.index import forget_index

    forget_index(settings)
    _snapshot(settings)
    return IngestSummary(
        documents=len(documents),
        rules=total,
        cards=state.cards,
        seconds=time.perf_counter() - started,
        changed=changed,
        removed=[d for d in old_docs if d not in {x.id for x in documents}],
        errors=errors,
    )
