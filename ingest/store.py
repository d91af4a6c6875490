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
- ``mark:<collection>`` records in ``arbiter_state``: a lease on a build collection that is
  not (or no longer) live: ``building`` (refreshed by the ingest writing it) or ``retired``
  (the build a swap replaced; running servers may still be answering from it). See
  :func:`collect_garbage`: a collection no state points to is dropped only once its mark is
  older than the grace period (``settings.index_grace_seconds``); one without a mark (an
  ingest killed before marks existed) is dropped at once. In embedded mode the HNSW
  folders Chroma leaves on disk for dropped collections are removed too.

Every call that reaches Chroma goes through :func:`reaching`, which turns "the server
cannot be reached" into :class:`~ingest.errors.StoreUnavailable` and lets every other
error through unchanged.

Embedded mode: ``chromadb.PersistentClient(index_dir / "chroma")``; server mode when
``settings.chroma_url`` is set: ``chromadb.HttpClient(host, port)``. Telemetry is off.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from pydantic import BaseModel, Field

from ingest.errors import StoreUnavailable
from ingest.models import DocumentInfo, GameInfo
from ingest.settings import Settings

if TYPE_CHECKING:
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection

STATE_COLLECTION = "arbiter_state"
STATE_ID = "active"
MARK_PREFIX = "mark:"
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
                with reaching(settings.chroma_url):
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


def _unreachable(exc: BaseException) -> bool:
    """True for the errors that mean "the Chroma server cannot be reached"."""
    import httpx

    if isinstance(exc, (httpx.TransportError, ConnectionError)):
        return True
    # chromadb.HttpClient's start-up check says so in a ValueError.
    return isinstance(exc, ValueError) and "could not connect" in str(exc).lower()


@contextmanager
def reaching(where: str = "the Chroma store") -> Iterator[None]:
    """Run Chroma calls; an unreachable store raises :class:`StoreUnavailable`."""
    try:
        yield
    except StoreUnavailable:
        raise
    except Exception as exc:
        if _unreachable(exc):
            raise StoreUnavailable(f"the rules store at {where} cannot be reached") from exc
        raise


def _state_collection(client: ClientAPI) -> Collection | None:
    from chromadb.errors import NotFoundError

    try:
        with reaching():
            return client.get_collection(STATE_COLLECTION, embedding_function=None)
    except NotFoundError:
        return None


def read_state(client: ClientAPI) -> State | None:
    """The live build's state, or None when nothing was ingested. Raises
    :class:`StoreUnavailable` when the store cannot be reached."""
    coll = _state_collection(client)
    if coll is None:
        return None
    with reaching():
        got = coll.get(ids=[STATE_ID], include=["documents"])
    docs = got.get("documents") or []
    if not docs or not docs[0]:
        return None
    return State.model_validate_json(docs[0])


def zeros(n: int) -> list[Sequence[float]]:
    """Placeholder 1-d embeddings for records that are never searched by vector."""
    return [[0.0] for _ in range(n)]


def write_state(client: ClientAPI, state: State) -> None:
    """The swap: one upsert of the pointer record (atomic in Chroma's store)."""
    coll = client.get_or_create_collection(STATE_COLLECTION, embedding_function=None)
    coll.upsert(ids=[STATE_ID], documents=[state.model_dump_json()], embeddings=zeros(1))


def mark(client: ClientAPI, names: list[str], kind: str, now: float | None = None) -> None:
    """Lease ``names`` (``building`` or ``retired``) as of ``now``; see :func:`collect_garbage`."""
    names = [n for n in names if n]
    if not names:
        return
    at = time.time() if now is None else now
    coll = client.get_or_create_collection(STATE_COLLECTION, embedding_function=None)
    coll.upsert(
        ids=[MARK_PREFIX + n for n in names],
        documents=[json.dumps({"kind": kind, "at": at}) for _ in names],
        embeddings=zeros(len(names)),
    )


def unmark(client: ClientAPI, names: list[str]) -> None:
    coll = _state_collection(client)
    if coll is not None and names:
        coll.delete(ids=[MARK_PREFIX + n for n in names])


def read_marks(client: ClientAPI) -> dict[str, float]:
    """Build collection -> when its lease was last set (seconds since the epoch)."""
    coll = _state_collection(client)
    if coll is None:
        return {}
    got = coll.get(include=["documents"])
    out: dict[str, float] = {}
    for rid, doc in zip(got["ids"], got.get("documents") or []):
        if rid.startswith(MARK_PREFIX) and doc:
            try:
                out[rid[len(MARK_PREFIX) :]] = float(json.loads(doc)["at"])
            except (ValueError, KeyError, TypeError):
                out[rid[len(MARK_PREFIX) :]] = 0.0
    return out


def new_collection(client: ClientAPI, name: str, space: str = "cosine") -> Collection:
    return client.create_collection(
        name, embedding_function=None, metadata={"hnsw:space": space}
    )


def get_collection(client: ClientAPI, name: str) -> Collection:
    return client.get_collection(name, embedding_function=None)


def drop_collection(client: ClientAPI, name: str) -> None:
    from chromadb.errors import NotFoundError

    try:
        client.delete_collection(name)
    except NotFoundError:
        pass  # already gone


def build_collections(client: ClientAPI) -> list[str]:
    names = [c if isinstance(c, str) else c.name for c in client.list_collections()]
    return sorted(n for n in names if n.startswith((RULES_PREFIX, CARDS_PREFIX)))


def collect_garbage(
    client: ClientAPI, settings: Settings, now: float | None = None
) -> list[str]:
    """Drop build collections that are safe to drop; return their names.

    Never the live build; never a collection whose mark (``building`` or ``retired``) is
    younger than ``settings.index_grace_seconds``, so a concurrent ingest keeps the build it
    is writing and running servers finish requests on the build a swap replaced. In embedded
    mode, also removes the HNSW folders Chroma leaves on disk for dropped collections.
    """
    at = time.time() if now is None else now
    grace = settings.index_grace_seconds
    state = read_state(client)
    live = {state.rules_collection, state.cards_collection} if state else set()
    marks = read_marks(client)
    existing = build_collections(client)
    dropped = []
    for name in existing:
        if name in live or at - marks.get(name, float("-inf")) < grace:
            continue
        drop_collection(client, name)
        dropped.append(name)
    stale_marks = [n for n in marks if n in dropped or n not in existing]
    unmark(client, stale_marks)
    if not settings.chroma_url:
        remove_unused_segment_dirs(chroma_path(settings))
    from ingest.snapshot import prune

    kept = [n for n in existing if n not in dropped]
    prune(settings, {n.removeprefix(RULES_PREFIX).removeprefix(CARDS_PREFIX) for n in kept})
    return dropped


_UUID_DIR = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def remove_unused_segment_dirs(path: Path) -> list[Path]:
    """Embedded Chroma keeps a dropped collection's HNSW folder on disk: remove the folders
    no segment of Chroma's catalogue refers to. Safe with a concurrent ingest: Chroma
    records a collection's segments when it creates the collection, before any folder."""
    db = path / "chroma.sqlite3"
    if not db.is_file():
        return []
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as conn:
        used = {str(row[0]) for row in conn.execute("SELECT id FROM segments")}
    removed = []
    for sub in path.iterdir():
        if sub.is_dir() and _UUID_DIR.match(sub.name) and sub.name not in used:
            shutil.rmtree(sub, ignore_errors=True)
            removed.append(sub)
    return removed


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
            vals: Any = got.get(key)
            out[key].extend(list(vals) if vals is not None else [None] * len(ids))
        offset += len(ids)
        if len(ids) < page:
            break
    return out


def add_batched(coll: Collection, cols: dict[str, list[Any]], batch: int = 1000) -> None:
    ids = cols["ids"]
    for i in range(0, len(ids), batch):
        part: dict[str, Any] = {k: v[i : i + batch] for k, v in cols.items()}
        coll.add(**part)
