"""Corpus manifests: which files to ingest, under which document ids and games.

A path given to :func:`resolve_corpus` is one of

- a folder holding ``corpus.toml`` (format: ``../shared/corpus/corpus.toml``: ``[games.ID]``
  tables, ``[[documents]]`` with path/id/game/title/numbered/updated, ``[[cards]]`` with
  path/game);
- a ``corpus.toml`` file itself;
- a bare rule file or a folder of them (``.txt .md .html .htm .pdf``; ``.json`` files are
  card data), which needs ``game``: the document id is the file name without extension and
  numbering is auto-detected.

A manifest that cannot be read or is inconsistent (unknown fields types, duplicate ids,
missing ``game``) raises :class:`CorpusError`: that is bad input, not a broken document. A
listed file that is missing is reported per file by the ingest (``IngestSummary.errors``).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ingest.errors import ArbiterError
from ingest.models import GameInfo
from ingest.parsers import DOCUMENT_SUFFIXES, DocSource


class CorpusError(ArbiterError, ValueError):
    """A corpus path or manifest that cannot be used (bad usage, not a broken document)."""


@dataclass
class CardSource:
    path: Path
    game: str

    @property
    def key(self) -> str:
        return f"{self.game}:{self.path.name}"


@dataclass
class Corpus:
    games: dict[str, GameInfo] = field(default_factory=dict)
    documents: list[DocSource] = field(default_factory=list)
    cards: list[CardSource] = field(default_factory=list)


def _load_manifest(toml_path: Path, corpus: Corpus) -> None:
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CorpusError(f"{toml_path}: cannot read: {exc.strerror or exc}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{toml_path}: invalid TOML: {exc}") from exc
    base = toml_path.parent
    for gid, g in (data.get("games") or {}).items():
        if not isinstance(g, dict):
            raise CorpusError(f"{toml_path}: [games.{gid}] must be a table")
        info = corpus.games.get(gid) or GameInfo(id=gid)
        info.name = info.name or str(g.get("name", ""))
        info.terms = info.terms or [str(t) for t in g.get("terms", [])]
        corpus.games[gid] = info
    for i, d in enumerate(data.get("documents") or [], start=1):
        if not isinstance(d, dict) or not d.get("path") or not d.get("id") or not d.get("game"):
            raise CorpusError(f"{toml_path}: [[documents]] #{i} needs path, id and game")
        numbered = d.get("numbered")
        corpus.documents.append(
            DocSource(
                id=str(d["id"]),
                game=str(d["game"]),
                path=(base / str(d["path"])).resolve(),
                title=str(d.get("title", "")),
                version=str(d.get("updated", d.get("version", ""))),
                numbered=bool(numbered) if numbered is not None else None,
            )
        )
        corpus.games.setdefault(str(d["game"]), GameInfo(id=str(d["game"])))
    for i, c in enumerate(data.get("cards") or [], start=1):
        if not isinstance(c, dict) or not c.get("path") or not c.get("game"):
            raise CorpusError(f"{toml_path}: [[cards]] #{i} needs path and game")
        corpus.cards.append(CardSource(path=(base / str(c["path"])).resolve(), game=str(c["game"])))
        corpus.games.setdefault(str(c["game"]), GameInfo(id=str(c["game"])))


def _add_bare(path: Path, game: str | None, corpus: Corpus) -> None:
    if not game:
        raise CorpusError(f"{path}: not a corpus (no corpus.toml); pass --game to ingest it")
    files = sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else [path]
    for f in files:
        suffix = f.suffix.lower()
        if suffix == ".json":
            corpus.cards.append(CardSource(path=f.resolve(), game=game))
        elif suffix in DOCUMENT_SUFFIXES:
            corpus.documents.append(DocSource(id=f.stem, game=game, path=f.resolve()))
        elif not path.is_dir():
            raise CorpusError(f"{f}: unsupported file type {suffix or '(none)'}")
    corpus.games.setdefault(game, GameInfo(id=game, name=game))


def resolve_corpus(paths: list[Path], game: str | None = None) -> Corpus:
    """Every document and card file the given paths describe (see module docstring)."""
    corpus = Corpus()
    for raw in paths:
        path = Path(raw).expanduser()
        if not path.exists():
            raise CorpusError(f"{path}: no such file or folder")
        if path.is_dir() and (path / "corpus.toml").is_file():
            _load_manifest(path / "corpus.toml", corpus)
        elif path.is_file() and path.suffix.lower() == ".toml":
            _load_manifest(path, corpus)
        else:
            _add_bare(path, game, corpus)
    if game:
        corpus.games.setdefault(game, GameInfo(id=game, name=game))
    seen: dict[str, Path] = {}
    for d in corpus.documents:
        if d.id in seen and seen[d.id] != d.path:
            raise CorpusError(f"duplicate document id {d.id!r}: {seen[d.id]} and {d.path}")
        seen[d.id] = d.path
    corpus.documents = list({d.id: d for d in corpus.documents}.values())
    corpus.cards = list({c.key: c for c in corpus.cards}.values())
    return corpus


def file_digest(path: Path) -> str:
    """sha256 of the file's bytes, or '' when it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def doc_fingerprint(src: DocSource, parser_version: str, model: str) -> str:
    """Changes when the file, its manifest entry, the parser or the model changes."""
    spec = {
        "file": file_digest(src.path),
        "game": src.game,
        "title": src.title,
        "version": src.version,
        "numbered": src.numbered,
        "parser": parser_version,
        "model": model,
    }
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


CARD_RECORD_VERSION = "2"
"""Bumped when card records change shape (2: ``printing``), so card data is re-read without
re-embedding the rules."""


def cards_fingerprint(src: CardSource, parser_version: str) -> str:
    spec = {"file": file_digest(src.path), "game": src.game, "parser": parser_version,
            "cards": CARD_RECORD_VERSION}
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()
