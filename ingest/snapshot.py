"""What a cold process needs from the live build, kept on disk beside the embedded index.

Opening an embedded index through Chroma costs a second or more (importing ``chromadb``,
opening its client, reading every rule's metadata and every vector). A build never changes
once it is live, so what is read or derived from it is kept in ``<index_dir>/snapshot/``:

- ``live.json``: the live build's :class:`~ingest.store.State` together with a *stamp* of
  Chroma's database file (inode, size and modification time of ``chroma.sqlite3`` and its
  journal). :func:`cached_state` trusts it only while the file still has that stamp; any
  write to the store (an ingest, a swap, a client opening it) changes the stamp, and the
  next open reads the pointer through Chroma again and records it afresh
  (:func:`remember_state`). With a Chroma server (``ARBITER_CHROMA_URL``) the pointer is
  always read from the server.
- ``<build>/<name>-<key>.pkl``: artifacts of one build (its rules, card records, the
  normalised vector matrix, and what the assistant derives from them), see
  :class:`BuildCache`. ``key`` holds a fingerprint of the source code that builds the
  artifact (:func:`source_key`), so changed code never reads an artifact of the old code.

Every artifact is optional: a missing, unreadable or corrupt file is rebuilt from the store
(and written again); a read-only index directory only costs the work. Nothing here is ever
committed (``.index/`` is git-ignored). :func:`prune` drops the folders of builds that are
gone; :func:`cached_state` never needs ``chromadb``.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from ingest.settings import REPO_ROOT, Settings

if TYPE_CHECKING:
    from chromadb.api import ClientAPI

    from ingest.store import State

__all__ = [
    "BuildCache",
    "cached_state",
    "db_stamp",
    "prune",
    "remember_state",
    "snapshot_root",
    "source_key",
]

T = TypeVar("T")
#: Bumped when the layout of the snapshot folder or of its files changes.
FORMAT = 1
_POINTER = "live.json"
#: Per index directory, the last pointer read and the stamp it was valid for (a server
#: checks the pointer on every request: one ``stat`` while nothing changed).
_SEEN: dict[str, tuple[str, State]] = {}
_MAGIC = "arbiter-snapshot"


def snapshot_root(settings: Settings) -> Path:
    return Path(settings.index_dir) / "snapshot"


def db_stamp(settings: Settings) -> str | None:
    """Identity of the embedded store's current contents (inode, size, mtime of
    ``chroma.sqlite3`` and of its journal files); None when there is no embedded store."""
    if settings.chroma_url:
        return None
    db = Path(settings.index_dir) / "chroma" / "chroma.sqlite3"
    parts = []
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-journal")):
        try:
            st = path.stat()
        except OSError:
            if path == db:
                return None
            continue
        parts.append(f"{path.name}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}")
    try:
        # SQLite's file change counter (header bytes 24-27), bumped by every write
        # transaction: a write within the file system's timestamp granularity still shows.
        with db.open("rb") as fh:
            parts.append(fh.read(28)[24:].hex())
    except OSError:
        return None
    return "|".join(parts)


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename (readers see the old
    file or the new one, never half of one). A directory that cannot be written is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only index directory: the next process pays for the work again


def cached_state(settings: Settings) -> State | None:
    """The live build's state as recorded in ``live.json``, when the embedded store has not
    been written since it was recorded; None otherwise (read it through Chroma)."""
    stamp = db_stamp(settings)
    if stamp is None:
        return None
    where = str(settings.index_dir)
    seen = _SEEN.get(where)
    if seen is not None and seen[0] == stamp:
        return seen[1]
    from ingest.store import State

    try:
        data = json.loads((snapshot_root(settings) / _POINTER).read_text(encoding="utf-8"))
        if data.get("format") != FORMAT or data.get("stamp") != stamp:
            return None
        state = State.model_validate(data["state"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    _SEEN[where] = (stamp, state)
    return state


def remember_state(settings: Settings, client: ClientAPI, state: State) -> None:
    """Record ``state`` (just read through ``client``) for :func:`cached_state`. The pointer
    is read once more between two stamps of the store: it is recorded only when nothing
    wrote to the store meanwhile, so the stamp always names the contents it was read from."""
    from ingest.store import read_state

    if settings.chroma_url:
        return
    before = db_stamp(settings)
    again = read_state(client)
    after = db_stamp(settings)
    if before is None or before != after or again is None or again != state:
        return
    payload = {"format": FORMAT, "stamp": before, "state": state.model_dump(mode="json")}
    _atomic_write(snapshot_root(settings) / _POINTER, json.dumps(payload).encode("utf-8"))


@cache
def _package_key(package: str) -> str:
    h = hashlib.sha256()
    base = REPO_ROOT / package
    for path in sorted(base.rglob("*")):
        if path.suffix in (".py", ".toml", ".json", ".jsonl") and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(base)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def source_key(*packages: str) -> str:
    """A fingerprint of the packages' source and data files (``.py``, ``.toml``, ``.json``,
    ``.jsonl``) and of the Python, numpy and pydantic versions: an artifact built by other
    code is never read back. Name every package whose classes the artifact holds."""
    import numpy
    import pydantic

    h = hashlib.sha256(f"{FORMAT}|{sys.version}|{numpy.__version__}|{pydantic.VERSION}".encode())
    for p in packages:
        h.update(p.encode())
        h.update(_package_key(p).encode())
    return h.hexdigest()[:16]


class BuildCache:
    """``get(name, key, make)``: the artifact ``name`` of one build, read from its pickle
    when one was written under the same ``key``, else ``make()`` (then written for the next
    process). ``root`` None: nothing is kept (``make()`` every time)."""

    def __init__(self, root: Path | None, build: str) -> None:
        self.root = root
        self.build = build
        self._lock = threading.Lock()

    @classmethod
    def for_settings(cls, settings: Settings, build: str) -> BuildCache:
        """Kept under ``<index_dir>/snapshot/<build>/``; also with a Chroma server (a build
        name is unique and a build never changes)."""
        return cls(snapshot_root(settings), build)

    def path(self, name: str, key: str) -> Path | None:
        if self.root is None:
            return None
        return self.root / self.build / f"{name}-{key}.pkl"

    def read(self, name: str, key: str, shared: Mapping[str, object] | None = None) -> Any:
        """The stored artifact, or raises :class:`LookupError` when it is missing or unusable.
        ``shared``: objects the artifact refers to by id instead of holding a copy (the
        index's own rules), as given to :meth:`write`."""
        path = self.path(name, key)
        if path is None:
            raise LookupError(name)
        try:
            with path.open("rb") as fh:
                header = pickle.load(fh)
                if header != (_MAGIC, FORMAT, self.build, name, key):
                    raise LookupError(name)
                return _Unpickler(fh, shared or {}).load()
        except LookupError:
            raise
        except Exception as exc:
            raise LookupError(name) from exc

    def write(self, name: str, key: str, value: object, shared: Mapping[str, object] | None = None) -> None:
        path = self.path(name, key)
        if path is None:
            return
        buf = io.BytesIO()
        try:
            pickle.dump((_MAGIC, FORMAT, self.build, name, key), buf, protocol=pickle.HIGHEST_PROTOCOL)
            _Pickler(buf, {id(obj): pid for pid, obj in (shared or {}).items()}).dump(value)
        except Exception:  # noqa: BLE001 - an artifact that cannot be pickled is simply not kept
            return
        _atomic_write(path, buf.getvalue())
        for old in path.parent.glob(f"{name}-*.pkl"):
            if old != path and old.name.removeprefix(f"{name}-").count("-") == 0:
                old.unlink(missing_ok=True)  # the same artifact made by older code

    def get(self, name: str, key: str, make: Callable[[], T], shared: Mapping[str, object] | None = None) -> T:
        """The artifact, read back or made (and written); see the class docstring."""
        try:
            return self.read(name, key, shared)  # type: ignore[no-any-return]
        except LookupError:
            pass
        value = make()
        self.write(name, key, value, shared)
        return value


class _Pickler(pickle.Pickler):
    def __init__(self, fh: io.BytesIO, ids: Mapping[int, str]) -> None:
        super().__init__(fh, protocol=pickle.HIGHEST_PROTOCOL)
        self._ids = ids

    def persistent_id(self, obj: Any) -> str | None:
        return self._ids.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, fh: BinaryIO, shared: Mapping[str, object]) -> None:
        super().__init__(fh)
        self._shared = shared

    def persistent_load(self, pid: Any) -> object:
        try:
            return self._shared[pid]
        except (KeyError, TypeError) as exc:
            raise pickle.UnpicklingError(f"unknown shared object {pid!r}") from exc


def prune(settings: Settings, keep: Iterable[str]) -> list[Path]:
    """Remove the snapshot folders of builds not in ``keep``; returns what was removed."""
    root = snapshot_root(settings)
    keep = set(keep)
    removed = []
    try:
        subs = list(root.iterdir())
    except OSError:
        return []
    for sub in subs:
        if sub.is_dir() and sub.name not in keep:
            shutil.rmtree(sub, ignore_errors=True)
            removed.append(sub)
    return removed
