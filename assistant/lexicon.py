"""Game knowledge as data: the lexicons beside the assistant (``assistant/lexicons``).

``common.toml`` holds players' register for every game (chat shorthand, contractions,
filler); ``<game-id>.toml`` holds one game's table talk. Adding a game adds a file here;
no parser code changes. Extra lexicon folders can be named in settings.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from ingest.errors import ArbiterError

__all__ = ["BUILTIN_DIR", "Filler", "Lexicon", "LexiconError", "load_lexicon"]

BUILTIN_DIR = Path(__file__).with_name("lexicons")


class LexiconError(ArbiterError, ValueError):
    """A lexicon file is missing or malformed (the message names the file)."""


class Filler(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    leading: tuple[str, ...] = ()
    trailing: tuple[str, ...] = ()
    aside_words: frozenset[str] = frozenset()


class _File(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    slang: dict[str, str] = Field(default_factory=dict)
    card_text: dict[str, str] = Field(default_factory=dict)
    known: list[str] = Field(default_factory=list)
    contractions: dict[str, str] = Field(default_factory=dict)
    filler: Filler = Filler()
    concepts: dict[str, list[str]] = Field(default_factory=dict)


class Lexicon(BaseModel):
    """Every loaded lexicon merged: shorthand -> words, contraction -> words, filler."""

    model_config = ConfigDict(frozen=True)

    slang: dict[str, str] = Field(default_factory=dict)
    card_text: dict[str, str] = Field(default_factory=dict)
    """Shorthand players write inside the card text they quote ('deal 3 dmg'): no card
    prints it, so it is written out there too."""
    known: frozenset[str] = frozenset()
    """Words the speller accepts as they are (players' jargon no dictionary has)."""
    contractions: dict[str, str] = Field(default_factory=dict)
    filler: Filler = Filler()
    concepts: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Concept name -> the words that name it (a question using one must have it read)."""
    games: tuple[str, ...] = ()

    def words(self) -> set[str]:
        """Every word the lexicon writes (known to the speller)."""
        out: set[str] = set()
        for text in [*self.slang.values(), *self.card_text.values(), *self.contractions.values(), *self.known]:
            out.update(w.lower() for w in text.split())
        return out


def _read(path: Path) -> _File:
    try:
        with path.open("rb") as fh:
            return _File.model_validate(tomllib.load(fh))
    except (OSError, tomllib.TOMLDecodeError, ValueError) as exc:
        raise LexiconError(f"{path}: {exc}") from exc


def load_lexicon(dirs: Iterable[Path] = (), games: Iterable[str] | None = None) -> Lexicon:
    """``common.toml`` plus the per-game files of ``games`` (all files when None), from the
    built-in folder then each of ``dirs`` (later files win on the same key)."""
    wanted = None if games is None else set(games)
    slang: dict[str, str] = {}
    card_text: dict[str, str] = {}
    contractions: dict[str, str] = {}
    leading: list[str] = []
    trailing: list[str] = []
    aside: set[str] = set()
    known: set[str] = set()
    concepts: dict[str, list[str]] = {}
    seen: list[str] = []
    for folder in [BUILTIN_DIR, *dirs]:
        if not folder.is_dir():
            raise LexiconError(f"{folder}: not a lexicon folder")
        for path in sorted(folder.glob("*.toml")):
            game = path.stem
            if game != "common" and wanted is not None and game not in wanted:
                continue
            f = _read(path)
            slang.update({k.lower(): v for k, v in f.slang.items()})
            card_text.update({k.lower(): v for k, v in f.card_text.items()})
            contractions.update({k.lower(): v for k, v in f.contractions.items()})
            leading += f.filler.leading
            trailing += f.filler.trailing
            aside |= f.filler.aside_words
            known.update(w.lower() for w in f.known)
            for name, words in f.concepts.items():
                concepts.setdefault(name, []).extend(w for w in words if w not in concepts.get(name, []))
            if game != "common":
                seen.append(game)
    return Lexicon(slang=slang, card_text=card_text, contractions=contractions,
                   filler=Filler(leading=tuple(leading), trailing=tuple(trailing), aside_words=frozenset(aside)),
                   concepts={k: tuple(v) for k, v in concepts.items()}, known=frozenset(known), games=tuple(seen))
