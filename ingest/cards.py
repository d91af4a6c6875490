"""Card data (JSON) -> :class:`~ingest.models.Card` records, and card-name matching.

Accepted shapes: a JSON list of card objects, or an object whose ``cards`` key holds that
list (Riftbound: ``{"cards": [...]}`` with name, cardTypes, might, energy, abilityText;
MarvelCDB: ``{"packs": [...], "cards": [...]}`` with name, type_code, text, attack, thwart,
scheme, health, ...). Field names are mapped generically (no per-game branches): types from
``cardTypes``/``superTypes``/``type_code``/``type``, text from ``abilityText``/``text`` (HTML
tags dropped), stats from any scalar field named in :data:`STAT_FIELDS`. Entries without a
name (MarvelCDB reprints pointing at ``duplicate_of``) are skipped.

Names match when equal after :func:`normalize_name` (case, punctuation, apostrophes and
accents forgiven): ``rek'sai`` finds "Rek'Sai".
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from ingest.models import Card
from ingest.parsers import ParseError

STAT_FIELDS = (
    "might", "energy", "power", "cost", "attack", "thwart", "scheme", "defense", "recover",
    "health", "hand_size", "threat", "base_threat", "escalation_threat", "boost", "stage",
    "resource_physical", "resource_mental", "resource_energy", "resource_wild",
)
TYPE_FIELDS = ("cardTypes", "superTypes", "type_code", "type", "types")
TEXT_FIELDS = ("abilityText", "text", "rules_text")
PRINTING_FIELDS = ("publicCode", "code", "id")


@lru_cache(maxsize=65536)
def normalize_name(name: str) -> str:
    """Lower case, accents and apostrophes dropped, words of letters and digits joined by
    single spaces (memoised: questions are scanned window by window for card names)."""
    s = unicodedata.normalize("NFKD", name)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    s = re.sub(r"[\u2018\u2019'`]", "", s)
    return " ".join(re.findall(r"[a-z0-9]+", s))


def _strip_html(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text)).strip()


def card_from_json(obj: dict[str, Any], game: str, source: str) -> Card | None:
    name = obj.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    types: list[str] = []
    for f in TYPE_FIELDS:
        v = obj.get(f)
        if isinstance(v, str) and v:
            types.append(v)
        elif isinstance(v, list):
            types.extend(str(x) for x in v if x)
    text = ""
    for f in TEXT_FIELDS:
        v = obj.get(f)
        if isinstance(v, str) and v.strip():
            text = _strip_html(v)
            break
    stats = {
        f: str(obj[f])
        for f in STAT_FIELDS
        if f in obj and isinstance(obj[f], (int, float, str)) and str(obj[f]) != ""
    }
    printing = next((str(obj[f]) for f in PRINTING_FIELDS if obj.get(f) not in (None, "")), "")
    return Card(name=name.strip(), game=game, types=types, stats=stats, text=text, source=source,
                printing=printing)


def parse_cards(path: Path, game: str) -> list[Card]:
    """Card records of one JSON file; raises ParseError naming the file (and line)."""
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ParseError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ParseError(f"{path}: not valid UTF-8 ({exc.reason})") from exc
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ParseError(f"{path}:{exc.lineno}: invalid JSON: {exc.msg}") from exc
    items = data.get("cards") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ParseError(f"{path}: expected a list of cards or an object with 'cards'")
    cards = [c for obj in items if isinstance(obj, dict) if (c := card_from_json(obj, game, path.name))]
    if not cards:
        raise ParseError(f"{path}: no cards with a name found")
    return cards
