"""Chroma storage: clients, the collections of one build, and the state pointer.

Layout (the same embedded or on a server):

- ``arbiter_rules_<build>``: one record per rule, id ``doc::number``, our own normalized
  embeddings (cosine space; Chroma's embedding function is never set), the text that was
  embedded as document, and metadata game, doc, rule, parent, parents, refs, heading,
  text, version, title, numbered, order, hash (sha256 of model + doc + number + embedded
  text, used to reuse the embedding of an unchanged rule).
- ``arbiter_cards_<build>``: card records, kept apart from rules and never searched
  semantically: each record holds up to 500 cards of one card file as a JSON list (a 1-d
  dummy embedding, since Chroma requires one), metadata game and file key.
- ``arbiter_state``: a single record ``active`` whose document is the :class:`State` JSON:
  which rules and cards collections are live, the documents/games/cards they hold, and the
  fingerprints of the files they came from. Switching builds is one upsert of that record
  (build-then-swap); a build that fails or is interrupted never touches it, and its
  half-written collection is deleted (or, if the process died, removed by the next ingest
  as an orphan).

Embedded mode: ``chromadb.PersistentClient(index_dir / "chroma")``; server mode when
``settings.chroma_url`` is set: ``chromadb.HttpClient(host, port)``. Telemetry is off.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from pydantic import BaseModel, Field

from ingest.models import DocumentInfo, GameInfo
from ingest.settings import Settings

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection

STATE_COLLECTION = "arbiter_state"
STATE_ID = "active"
RULES_PREFIX = "arbiter_rules_"
CARDS_PREFIX = "arbiter_cards_"

_CLIENTS: dict[str, ClientAPI] = {}
_LOCK = threading.Lock()


class State(BaseModel):
    """What the live index holds; written last, atomically, by a successful ingest."""

    build: str
    rules_collection: str
    cards_collection: str = ""
    model: str
    created: float
    documents: list[DocumentInfo] = Field(default_factory=list)
    games: list[GameInfo] = Field(default_factory=list)
    doc_fingerprints: dict[str, str] = Field(default_factory=dict)
    card_fingerprints: dict[str, str] = Field(default_factory=dict)
    card_counts: dict[str, int] = Field(default_factory=dict, description="file key -> cards")
    rules: int = 0
    cards: int = 0


def chroma_path(settings: Settings) -> Path:
    return Path(settings.index_dir) / "chroma"


def client_for(settings: Settings, create: bool = True) -> ClientAPI | None:
    """The Chroma client for these settings (cached); None when embedded and absent."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    if settings.chroma_url:
        key = settings.chroma_url
    else:
        path = chroma_path(settings)
        if not create and not path.exists():
            return None
        key = str(path.resolve())
    with _LOCK:
        client = _CLIENTS.get(key)
        if client is None:
            chroma_settings = ChromaSettings(anonymized_telemetry=False)
            if settings.chroma_url:
                url = urlparse(settings.chroma_url)
                client = chromadb.HttpClient(
                    host=url.hostname or "127.0.0.1",
                    port=url.port or (443 if url.scheme == "https" else 8000),
                    ssl=url.scheme == "https",
                    settings=chroma_settings,
                )
            else:
                Path(key).mkdir(parents=True, exist_ok=True)
                client = chromadb.PersistentClient(path=key, settings=chroma_settings)
            _CLIENTS[key] = client
    return client


def read_state(client: ClientAPI) -> State | None:
    try:
        coll = client.get_collection(STATE_COLLECTION, embedding_function=None)
    except Exception:  # NotFoundError / ValueError depending on chromadb version
        return None
    got = coll.get(ids=[STATE_ID], include=["documents"])
    docs = got.get("documents") or []
    if not docs or not docs[0]:
        return None
    return State.model_validate_json(docs[0])


def write_state(client: ClientAPI, state: State) -> None:
    """The swap: one upsert of the pointer record (atomic in Chroma's store)."""
    coll = client.get_or_create_collection(STATE_COLLECTION, embedding_function=None)
    coll.upsert(ids=[STATE_ID], documents=[state.model_dump_json()], embeddings=[[0.0]])


def new_collection(client: ClientAPI, name: str, space: str = "cosine") -> Collection:
    return client.create_collection(
        name, embedding_function=None, metadata={"hnsw:space": space}
    )


def get_collection(client: ClientAPI, name: str) -> Collection:
    return client.get_collection(name, embedding_function=None)


def drop_collection(client: ClientAPI, name: str) -> None:
    try:
        client.delete_collection(name)
    except Exception:
        pass  # already gone


def drop_orphans(client: ClientAPI, keep: set[str]) -> None:
    """Delete build collections no state points to (left by an interrupted ingest)."""
    for coll in client.list_collections():
        name = coll if isinstance(coll, str) else coll.name
        if name.startswith((RULES_PREFIX, CARDS_PREFIX)) and name not in keep:
            drop_collection(client, name)


def read_all(coll: Collection, include: list[str], page: int = 2000) -> dict[str, Any]:
    """Every record of a collection, paged (large ``get`` calls hit server limits)."""
    out: dict[str, list[Any]] = {"ids": []}
    for key in include:
        out[key] = []
    offset = 0
    while True:
        got = coll.get(include=include, limit=page, offset=offset)  # type: ignore[arg-type]
        ids = got["ids"]
        if not ids:
            break
        out["ids"].extend(ids)
        for key in include:
            vals = got.get(key)
            out[key].extend(list(vals) if vals is not None else [None] * len(ids))
        offset += len(ids)
        if len(ids) < page:
            break
    return out


def add_batched(coll: Collection, batch: int = 1000, **cols: list[Any]) -> None:
    ids = cols["ids"]
    for i in range(0, len(ids), batch):
        coll.add(**{k: v[i : i + batch] for k, v in cols.items()})  # type: ignore[arg-type]
