"""Worked cases: a second extractor that reads a question as one of the engine's worked
scenarios (``engine/golden/*.json``), by meaning, through the same question embedding the
retrieval step computed.

Each worked case carries players' wordings (``assistant/wordings/<game>.jsonl``, training
data written from the scenarios and the rule documents). A question is read as a case only
when every gate below holds; otherwise the extractor stays silent and says why:

* the nearest wording is close (cosine >= ``threshold``) and clearly closer than any wording
  of a case with another outcome (``margin``);
* without a given or detected game, the nearest wordings agree on the game;
* every content word of the question (quoted card text included) is a word the case's
  wordings use, and the words all of its wordings share are in the question;
* the question's numbers are numbers the case's wordings use, and the numbers all of them
  share are in the question;
* the question's logic cues (negation, condition, quantity, contrast ...) are cues the
  case's wordings use, and the cues all of them share are in the question;
* a question that asserts a negated statement ("is it true that X can't ...") inverts a
  yes/no outcome; any other polarity difference abstains.

The verdict is never stored here: the engine decides the case's scenario.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from assistant.coverage import cues, polarity
from assistant.embedded import EmbeddedTexts
from assistant.textnorm import normalise, quoted_spans
from assistant.words import DECISIVE, FRAME_WORDS, content_words, stem

__all__ = ["Case", "NoReading", "Reading", "Wording", "WorkedCases", "load_cases"]

# Digits only: every text read here has been through ``normalise``, which writes number
# words as digits ("up to three" -> "up to 3").
_NUM = re.compile(r"\b\d+\b")
_DECISIVE = frozenset(stem(w) for w in DECISIVE)
FRAME = frozenset(stem(w) for w in FRAME_WORDS)
# Game names are how a question says which game it is about, not what it asks.
_GAME_WORDS = frozenset({"mc", "rb", "mw"})


@dataclass(frozen=True)
class Case:
    """One worked scenario of the engine and the outcome its golden file documents."""

    name: str
    game: str
    scenario: dict[str, Any]
    outcome: str


@dataclass(frozen=True)
class Wording:
    case: Case
    text: str
    words: frozenset[str]
    numbers: tuple[tuple[str, int], ...]
    asked: frozenset[str]
    quoted: frozenset[str]
    cues: frozenset[str]
    negated: bool


@dataclass(frozen=True)
class Reading:
    """The question read as ``case`` (through ``wording``), inverted when ``invert``."""

    case: Case
    wording: Wording
    score: float
    margin: float
    invert: bool
    negation: str = ""


@dataclass(frozen=True)
class NoReading:
    reason: str


_BOUND = re.compile(r"\b(up to|at most|at least|exactly|no more than|no fewer than|only|just)\s+$", re.IGNORECASE)
_ASK_SPLIT = re.compile(r"[.;:!?]\s+|\s+[-\u2013\u2014]+\s+|,\s+(?=(?:so |then |and )?(?:can|could|does|do|is|are|will|would|should|may|must|what|how|which|who)\b)", re.IGNORECASE)


def _numbers(text: str) -> tuple[tuple[str, int], ...]:
    """The numbers of normalised ``text`` in order, each with the bound before it ("up to",
    "at least" ...), so "up to 3 ... pick 2" differs from "3 ... up to 2"."""
    out: list[tuple[str, int]] = []
    for m in _NUM.finditer(text):
        b = _BOUND.search(text[max(0, m.start() - 14): m.start()])
        bound = b.group(1).lower() if b else ""
        out.append(("max" if bound in ("up to", "at most", "no more than") else
                    "min" if bound in ("at least", "no fewer than") else "", int(m.group(0))))
    return tuple(out)


def _quoted(text: str) -> frozenset[str]:
    """Quoted card text, compared exactly (bar case and punctuation): "at a battlefield"
    and "at battlefields" are different cards."""
    return frozenset(" ".join(re.findall(r"[a-z0-9]+", s.text.lower())) for s in quoted_spans(text))


_ABSENT = re.compile(r"\babsent\b|\bin the absence of\b|\botherwise\b", re.IGNORECASE)


def _same_ask(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two asking clauses ask about the same thing when they share a content word (or one
    of them names nothing beyond the predicate: "is it legal?")."""
    return bool(a & b) or not a or not b


def _asked(text: str) -> frozenset[str]:
    """The content words of the asking clause (the last one outside quoted text)."""
    masked = list(text)
    for s in quoted_spans(text):
        masked[s.start:s.end] = " " * (s.end - s.start)
    plain = "".join(masked).strip()
    parts = [p for p in _ASK_SPLIT.split(plain) if p.strip()]
    return content_words(parts[-1] if parts else plain) - FRAME



def _cues(text: str) -> tuple[frozenset[str], bool, str]:
    """The logic cues of ``text`` outside its polarity words, whether it asserts a negated
    statement, and the negation's words."""
    quoted = [(s.start, s.end) for s in quoted_spans(text)]
    pol = polarity(text, quoted)
    out = {c.category for c in cues(text)
           if not any(a <= c.start < b for a, b in pol.spans) and c.category != "predicate"}
    if _ABSENT.search(text):
        out.add("negation")
    return frozenset(out), pol.negated, pol.words


def _wording(case: Case, text: str, prepared: str, game_words: frozenset[str]) -> Wording:
    t = normalise(prepared)
    cs, neg, _ = _cues(t)
    return Wording(case, text, content_words(t) - game_words, _numbers(t), _asked(t) - game_words, _quoted(t), cs, neg)


def load_cases(golden_dir: Path | None = None, wordings_dir: Path | None = None) -> list[tuple[Case, list[str]]]:
    """Worked cases with their wordings (cases without wordings are left out)."""
    gdir = golden_dir or Path(str(resources.files("engine") / "golden"))
    wdir = wordings_dir or Path(str(resources.files("assistant") / "wordings"))
    texts: dict[str, list[str]] = {}
    for path in sorted(wdir.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                texts.setdefault(str(row["golden"]), []).append(str(row["question"]))
    out: list[tuple[Case, list[str]]] = []
    for path in sorted(gdir.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        name = str(data["name"])
        if name not in texts:
            continue
        exp = data["expect"]
        outcome = f"value={exp['value']}" if "value" in exp else str(exp["verdict"])
        out.append((Case(name, str(data["scenario"]["game"]), data["scenario"], outcome), texts[name]))
    return out


# How many of the nearest wordings are read in full (the shortlist is at most ``shortlist``
# cases within ``window`` of the nearest; 64 wordings is well past it).
_HEAD = 64


class WorkedCases:
    """``read(text, vector, game)`` -> :class:`Reading` or :class:`NoReading`.

    The wordings are read like questions (``prepare``: the players'-register normaliser) and
    embedded in the question's embedded form (``embed_form``); both are kept in
    ``cache_dir`` under a key of the raw wordings and ``cache_key`` (what ``prepare``
    depends on), so a cold start reads them instead of recomputing them."""

    def __init__(self, cases: list[tuple[Case, list[str]]], embed_documents: Callable[[list[str]], list[list[float]]],
                 game_names: Iterable[str] = (), cache_dir: Path | None = None,
                 prepare: Callable[[str], str] = lambda t: t,
                 embed_form: Callable[[str], str] = lambda t: t, cache_key: str = "",
                 threshold: float = 0.6, window: float = 0.12, shortlist: int = 6,
                 light_share: float = 0.4) -> None:
        self.threshold = threshold
        self.window = window
        self.shortlist = shortlist
        self._light_share = light_share
        gw = set(_GAME_WORDS)
        for n in game_names:
            gw |= content_words(n)
        self._game_words = frozenset(gw)
        self._raw = [(c, t) for c, ts in cases for t in ts]
        self._texts = EmbeddedTexts("wordings", [t for _, t in self._raw], embed_documents, cache_dir,
                                    prepare, embed_form, cache_key)

    @property
    def _prepared(self) -> tuple[list[str], np.ndarray]:
        return self._texts.prepared, self._texts.matrix

    @property
    def vectors(self) -> tuple[list[str], np.ndarray]:
        """The wordings' prepared texts and their unit vectors (one row per wording)."""
        return self._prepared

    @cached_property
    def wordings(self) -> list[Wording]:
        texts, _ = self._prepared
        return [_wording(c, t, prepared, self._game_words) for (c, t), prepared in zip(self._raw, texts)]

    @cached_property
    def _by_case(self) -> dict[str, list[Wording]]:
        out: dict[str, list[Wording]] = {}
        for w in self.wordings:
            out.setdefault(w.case.name, []).append(w)
        return out

    @cached_property
    def _light(self) -> dict[str, frozenset[str]]:
        """Per game, the words so common among its cases' wordings that they tell no case
        from another ("target", "ability", "play"): allowed beyond a case's own words."""
        share: dict[str, dict[str, int]] = {}
        count: dict[str, int] = {}
        for own in self._by_case.values():
            game = own[0].case.game
            count[game] = count.get(game, 0) + 1
            for word in frozenset().union(*(w.words for w in own)):
                share.setdefault(game, {})[word] = share.setdefault(game, {}).get(word, 0) + 1
        return {g: frozenset(w for w, n in ws.items() if n >= self._light_share * count[g] and w not in _DECISIVE)
                for g, ws in share.items()}

    @cached_property
    def _game_rows(self) -> dict[str | None, tuple[np.ndarray, np.ndarray]]:
        """Per game (None: every game), its wordings' rows and their vectors, sliced once."""
        _, matrix = self._prepared
        return {g: (rows, np.ascontiguousarray(matrix[rows])) for g, rows in self._rows.items()}

    @cached_property
    def _rows(self) -> dict[str | None, np.ndarray]:
        games = np.array([c.game for c, _ in self._raw])
        out: dict[str | None, np.ndarray] = {None: np.arange(len(self._raw))}
        for g in set(games.tolist()):
            out[g] = np.nonzero(games == g)[0]
        return out

    def read(self, text: str, vector: Sequence[float], game: str | None) -> Reading | NoReading:
        q = normalise(text)
        rows, matrix = self._game_rows.get(game, (np.arange(0), np.zeros((0, 0), np.float32)))
        v = np.asarray(vector, dtype=np.float32)
        n = float(np.linalg.norm(v))
        if not len(rows) or n == 0.0 or matrix.shape[1] != v.shape[0]:
            return NoReading("no worked case is close to the question")
        sims = matrix @ (v / n)
        order = np.argsort(-sims)
        wordings = self.wordings
        # Only the head of the ranking is read (the shortlist window, the three nearest); the
        # rest is walked lazily when a rival outcome is looked for.
        scored = [(float(sims[i]), wordings[int(rows[i])]) for i in order[:_HEAD]]
        if not scored or scored[0][0] < self.threshold:
            return NoReading("no worked case is close to the question")
        if game is None and any(w.case.game != scored[0][1].case.game for _, w in scored[:3]):
            return NoReading("the nearest worked cases belong to different games")
        # The close cases (the embedding's shortlist) are read against the question's words;
        # those every gate admits must agree on the outcome.
        shortlist: dict[str, tuple[float, Wording]] = {}
        for score, w in scored:
            if score < max(self.threshold, scored[0][0] - self.window) or len(shortlist) >= self.shortlist:
                break
            shortlist.setdefault(w.case.name, (score, w))
        qcues, negated, negation = _cues(q)
        words = content_words(q) - self._game_words
        nums = _numbers(q)
        asked = _asked(q) - self._game_words
        quoted = _quoted(q)
        admitted: list[tuple[float, Wording]] = []
        first_reason = ""
        for score, w in shortlist.values():
            reason = self._refuse(w.case, words, nums, asked, quoted, qcues)
            if reason:
                first_reason = first_reason or reason
            else:
                admitted.append((score, w))
        if not admitted:
            return NoReading(first_reason)
        if len({w.case.outcome for _, w in admitted}) > 1:
            return NoReading("two worked cases with different outcomes fit the question")
        score, top = admitted[0]
        invert = False
        if negated != top.negated:
            if top.negated or top.case.outcome not in ("yes", "no"):
                return NoReading("the question is negated in a way I cannot invert")
            invert = True
        rival = next((float(sims[i]) for i in order if wordings[int(rows[i])].case.outcome != top.case.outcome), 0.0)
        return Reading(top.case, top, score, score - rival, invert, negation)

    def _refuse(self, case: Case, words: frozenset[str], nums: tuple[tuple[str, int], ...],
                asked: frozenset[str], quoted: frozenset[str], qcues: frozenset[str]) -> str:
        """Why the question is not ``case`` by its words, numbers and cues ("" if it may be)."""
        own = self._by_case[case.name]
        light = self._light.get(case.game, frozenset())
        extra = sorted(words - frozenset().union(*(w.words for w in own)) - light)
        if extra:
            return f"the question says {', '.join(repr(x) for x in extra[:3])}, which the case I know does not"
        if not qcues <= frozenset().union(*(w.cues for w in own)) or not frozenset.intersection(*(w.cues for w in own)) <= qcues:
            return "the question qualifies the case in a way I have not seen"
        # One wording of the case must be said whole by the question, ask the same thing
        # and carry the same numbers with the same bounds.
        missing = min((sorted(w.words - words) for w in own), key=len)
        if missing:
            return f"the question does not say {', '.join(repr(x) for x in missing[:3])}"
        whole = [w for w in own if w.words <= words and w.cues == qcues and (not quoted or w.quoted == quoted)]
        same = [w for w in whole if _same_ask(w.asked, asked)]
        if not same:
            return "the question asks about something else than the case I know"
        if not any(sorted(w.numbers) == sorted(nums) for w in same):
            return "the question's numbers differ from the case I know"
        return ""
