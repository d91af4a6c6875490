"""Clarify instead of abstain: when an answer is ``unknown`` but one decision away from a
ruling, offer that decision.

Sources of options, tried in this order (the first that yields a ruling is offered):

1. the game, when none was given and none was detected (ranked by the retrieval vote:
   the games whose rules came up closest first);
2. a word the assistant does not know, replaced by close matches among the loaded rules'
   words and the loaded card names;
3. one missing detail (a slot), with the small set of values of ``assistant/clarify.toml``.

Every candidate is asked again through the real pipeline (``ask`` without clarification)
and offered only when it rules (``yes``, ``no`` or a value): never another ``unknown``.
At most five options. Prompts and labels are players' words, never internal names.
"""

from __future__ import annotations

import difflib
import logging
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path

from assistant.answer import Answer, AskBody, Clarify, ClarifyOption
from assistant.textnorm import fold
from ingest.errors import StoreUnavailable
from ingest.models import GameInfo

__all__ = ["Candidate", "Clarifier", "Proposal", "SlotRule", "clarifier_for", "game_label", "load_slot_rules", "rules_of"]

log = logging.getLogger("arbiter.clarify")

MAX_OPTIONS = 5
_WORD = re.compile(r"[a-z]+")

AskFn = Callable[[str, "str | None"], Answer]


@dataclass(frozen=True)
class Candidate:
    """One option before it is checked: its label and the complete request it stands for."""

    label: str
    question: str
    game: str | None


@dataclass(frozen=True)
class Proposal:
    """A question to put to the asker and the candidate answers to it."""

    prompt: str
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True)
class SlotValue:
    label: str
    add: str


@dataclass(frozen=True)
class SlotRule:
    """When the abstention's reason contains ``when``: ask ``prompt``, each value adding its
    sentence to the question."""

    when: str
    prompt: str
    values: tuple[SlotValue, ...]


def load_slot_rules(path: Path | None = None) -> tuple[SlotRule, ...]:
    """The missing-detail table (``assistant/clarify.toml``): data, not code."""
    p = path or Path(__file__).with_name("clarify.toml")
    data = tomllib.loads(p.read_text(encoding="utf-8"))
    return tuple(
        SlotRule(when=str(s["when"]).lower(), prompt=str(s["prompt"]),
                 values=tuple(SlotValue(str(v["label"]), str(v["add"])) for v in s["values"]))
        for s in data.get("slots", []))


def game_label(game: GameInfo) -> str:
    """What players call the game: the name before its subtitle ("Riftbound"), or the id
    written out when the manifest names a document rather than the game."""
    short = game.name.split(":")[0].strip() if game.name else ""
    if not short or re.search(r"\d|\brules\b|\(", short, re.IGNORECASE):
        return game.id.replace("-", " ").title()
    return short


def rules_of(answer: Answer) -> bool:
    """True when the answer is a ruling (a verdict or a value), never an abstention."""
    return answer.verdict in ("yes", "no") or answer.value is not None


def _replace_word(question: str, word: str, by: str) -> str:
    return re.sub(rf"(?<![\w'])({re.escape(word)})(?![\w'])", lambda _m: by, question, count=1, flags=re.IGNORECASE)


class Clarifier:
    """``Clarifier(ask, games, words, cards)``.

    ``ask(question, game)``: the pipeline without clarification; ``games``: the loaded
    games; ``words``: the loaded rules' words with their frequency; ``cards``: per game, its
    card names (empty when no card data is loaded)."""

    def __init__(self, ask: AskFn, games: Sequence[GameInfo], words: dict[str, int],
                 cards: dict[str, list[str]] | None = None, slots: Sequence[SlotRule] | None = None,
                 max_tries: int = 8) -> None:
        self._ask = ask
        self._games = list(games)
        self._words = sorted(w for w, n in words.items() if len(w) >= 3)
        self._freq = words
        self._cards = cards or {}
        self._slots = tuple(slots) if slots is not None else load_slot_rules()
        self._max_tries = max_tries
        self._doc_game = {d.id: g.id for g in self._games for d in g.documents}

    # ------------------------------------------------------------------ proposals
    def proposals(self, answer: Answer, asked_game: str | None, unknown: Sequence[str]) -> Iterable[Proposal]:
        """The decisions that may stand between ``answer`` and a ruling, most likely first."""
        question = answer.question
        game = asked_game or answer.game
        if game is None and len(self._games) > 1:
            yield self._game_proposal(answer)
            return
        if unknown:
            words = self._word_proposal(question, unknown, game)
            if words is not None:
                yield words
        reason = (answer.error or "").lower()
        for rule in self._slots:
            if rule.when in reason:
                yield Proposal(rule.prompt, tuple(
                    Candidate(v.label, f"{question.rstrip()} {v.add}", game) for v in rule.values))

    def _game_proposal(self, answer: Answer) -> Proposal:
        ranked: list[str] = []
        for p in answer.passages:
            g = self._doc_game.get(p.doc)
            if g and g not in ranked:
                ranked.append(g)
        ranked += [g.id for g in self._games if g.id not in ranked]
        label = {g.id: game_label(g) for g in self._games}
        return Proposal("I can't tell which game this is about. Which one is it?",
                        tuple(Candidate(label[g], answer.question, g) for g in ranked))

    def close_words(self, word: str, game: str | None, n: int = 3) -> list[str]:
        """Rules words and card names close to ``word`` (best first)."""
        w = word.lower()
        found = difflib.get_close_matches(w, self._words, n=n, cutoff=0.75)
        found.sort(key=lambda c: (-difflib.SequenceMatcher(None, w, c).ratio(), -self._freq.get(c, 0)))
        return found

    def close_cards(self, question: str, word: str, game: str | None, n: int = 3) -> list[tuple[str, str]]:
        """(span of the question, card name) pairs: card names close to a run of words that
        contains ``word``."""
        names = [nm for g, ns in self._cards.items() if game is None or g == game for nm in ns]
        if not names:
            return []
        toks = re.findall(r"[A-Za-z0-9'\-]+", question)
        at = [i for i, t in enumerate(toks) if t.lower() == word.lower()]
        folded = {fold(nm): nm for nm in names}
        out: list[tuple[str, str, float]] = []
        for i in at:
            for size in range(1, 5):
                for start in range(max(0, i - size + 1), i + 1):
                    run = toks[start:start + size]
                    if len(run) < size:
                        continue
                    text = " ".join(run)
                    for f in difflib.get_close_matches(fold(text), list(folded), n=n, cutoff=0.8):
                        out.append((text, folded[f], difflib.SequenceMatcher(None, fold(text), f).ratio()))
        out.sort(key=lambda x: -x[2])
        seen: set[str] = set()
        best: list[tuple[str, str]] = []
        for said, name, _ in out:
            if name not in seen:
                seen.add(name)
                best.append((said, name))
        return best[:n]

    def _word_proposal(self, question: str, unknown: Sequence[str], game: str | None) -> Proposal | None:
        words = list(dict.fromkeys(w.lower() for w in unknown))[:2]
        fixes: list[list[tuple[str, str, str]]] = []  # per word: (span, replacement, label)
        for w in words:
            options = [(span, name, name) for span, name in self.close_cards(question, w, game)]
            options += [(w, c, c) for c in self.close_words(w, game)]
            if not options:
                return None
            fixes.append(options[:4])
        cands: list[Candidate] = []
        for combo in product(*fixes):
            q = question
            for span, repl, _ in combo:
                q = _replace_word(q, span, repl)
            label = ", ".join(lab for _, _, lab in combo)
            cands.append(Candidate(label, q, game))
        shown = " and ".join(f"'{w}'" for w in words)
        plural = "s" if len(words) > 1 else ""
        return Proposal(f"I don't know the word{plural} {shown}. Did you mean:", tuple(cands))

    # ------------------------------------------------------------------ offer
    def offer(self, answer: Answer, asked_game: str | None, unknown: Sequence[str] = ()) -> Clarify | None:
        """The first proposal with at least one candidate that rules, as a ``Clarify``; or
        None. Candidates are checked by asking them (at most ``max_tries`` per proposal)."""
        if rules_of(answer):
            return None
        try:
            return self._offer(answer, asked_game, unknown)
        except StoreUnavailable:
            raise  # an outage is reported (503), never hidden as "no options"
        except Exception:  # a failed clarification leaves the abstention as it was
            log.exception("clarification failed")
            return None

    def _offer(self, answer: Answer, asked_game: str | None, unknown: Sequence[str]) -> Clarify | None:
        for proposal in self.proposals(answer, asked_game, unknown):
            options: list[ClarifyOption] = []
            seen: set[tuple[str, str | None]] = set()
            for cand in proposal.candidates[: self._max_tries]:
                key = (cand.question, cand.game)
                if key in seen or (cand.question == answer.question and cand.game == asked_game):
                    continue
                seen.add(key)
                if rules_of(self._ask(cand.question, cand.game)):
                    options.append(ClarifyOption(label=cand.label, ask=AskBody(question=cand.question, game=cand.game)))
                if len(options) == MAX_OPTIONS:
                    break
            if options:
                return Clarify(prompt=proposal.prompt, options=options)
        return None


def vocabulary(counts: dict[str, int], extra: Iterable[str] = ()) -> dict[str, int]:
    """Rules words (letters only) plus ``extra`` words, each with a frequency."""
    out = dict(counts)
    for w in extra:
        for t in _WORD.findall(w.lower()):
            out[t] = out.get(t, 0) + 1
    return out


def clarifier_for(ask: AskFn, index: object, games: Sequence[GameInfo], texts: dict[str, list[str]],
                  extra_words: Iterable[str] = ()) -> Clarifier:
    """A clarifier over the loaded rules' words (``texts``: per game, its rule texts) and the
    index's card names (none when the index holds no card data)."""
    from assistant.spelling import rules_vocabulary

    counts = rules_vocabulary([t for ts in texts.values() for t in ts], extra_words)
    cards: dict[str, list[str]] = {}
    names_of = getattr(index, "card_names", None)
    if names_of is not None:
        for g in games:
            try:
                cards[g.id] = list(names_of(g.id))
            except Exception:  # noqa: BLE001 - an index without card data offers no card names
                cards[g.id] = []
    return Clarifier(ask, games, dict(counts), cards)
