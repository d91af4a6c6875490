"""Clarification figures for ``arbiter eval --clarify``.

- ``offered``: the share of abstentions (answers without a ruling) that carry ``clarify``;
  also over answerable items only (``expect`` is not ``unknown``).
- ``options_ruling``: the share of offered options that rule when asked again (must be 1.0).
- accuracy after at most one click, with the wrong rulings counted. The simulated asker
  clicks the option they meant:

  * a choice of game (every option asks the same question, each under another game): the
    option whose game is the item's ``game``; an item without a game clicks nothing.
  * any other choice (a word, a card name, a missing detail): the item says nothing about
    what the asker meant, and the expected verdict must not decide it. When every option
    gives the same ruling, the click gives that ruling whichever was meant; when they
    differ, the click is counted at its worst: wrong if any option's ruling differs from
    the expected one (a pessimistic bound, never an optimistic one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assistant.answer import Answer, Clarify
from assistant.clarify import rules_of
from assistant.evaluate import EvalItem, got_of

__all__ = ["ClarifyReport", "is_game_choice", "score_clarify"]

AskFn = Callable[[str, "str | None"], Answer]


@dataclass
class ClarifyReport:
    total: int = 0
    abstained: int = 0
    abstained_answerable: int = 0
    with_clarify: int = 0
    with_clarify_answerable: int = 0
    options: int = 0
    options_ruling: int = 0
    clicked: int = 0
    clicked_worst_case: int = 0
    correct_after: int = 0
    wrong_after: int = 0
    abstained_after: int = 0
    details: list[dict[str, Any]] = field(default_factory=list)

    @staticmethod
    def _share(n: int, d: int) -> float:
        return n / d if d else 0.0

    @property
    def offered(self) -> float:
        return self._share(self.with_clarify, self.abstained)

    @property
    def offered_answerable(self) -> float:
        return self._share(self.with_clarify_answerable, self.abstained_answerable)

    @property
    def ruling_share(self) -> float:
        return self._share(self.options_ruling, self.options) if self.options else 1.0

    @property
    def accuracy_after(self) -> float:
        return self._share(self.correct_after, self.total)

    def as_dict(self) -> dict[str, Any]:
        return {"abstained": self.abstained, "with_clarify": self.with_clarify, "offered": round(self.offered, 4),
                "abstained_answerable": self.abstained_answerable,
                "with_clarify_answerable": self.with_clarify_answerable,
                "offered_answerable": round(self.offered_answerable, 4),
                "options": self.options, "options_ruling": self.options_ruling,
                "options_ruling_share": round(self.ruling_share, 4), "clicked": self.clicked,
                "clicked_worst_case": self.clicked_worst_case, "correct_after": self.correct_after,
                "accuracy_after": round(self.accuracy_after, 4), "wrong_after": self.wrong_after,
                "abstained_after": self.abstained_after, "details": self.details}


def is_game_choice(question: str, clarify: Clarify) -> bool:
    """Every option asks the question as it was, each under another game."""
    games = [o.ask.game for o in clarify.options]
    return all(o.ask.question == question for o in clarify.options) and len(set(games)) == len(games)


def score_clarify(items: list[EvalItem], answers: list[Answer], ask: AskFn) -> ClarifyReport:
    """``ask(question, game)``: the assistant without clarification (each option asked once)."""
    r = ClarifyReport()
    cache: dict[tuple[str, str | None], Answer] = {}

    def asked(question: str, game: str | None) -> Answer:
        key = (question, game)
        if key not in cache:
            cache[key] = ask(question, game)
        return cache[key]

    for item, ans in zip(items, answers, strict=True):
        r.total += 1
        final: Any = got_of(item, ans)
        how = "answered"
        if not rules_of(ans):
            r.abstained += 1
            answerable = item.expect != "unknown"
            r.abstained_answerable += answerable
            how = "abstained"
            if ans.clarify is not None:
                r.with_clarify += 1
                r.with_clarify_answerable += answerable
                got = [(o, asked(o.ask.question, o.ask.game)) for o in ans.clarify.options]
                r.options += len(got)
                r.options_ruling += sum(rules_of(a) for _, a in got)
                rulings = [got_of(item, a) for _, a in got]
                if is_game_choice(ans.question, ans.clarify):
                    meant = [g for (o, _), g in zip(got, rulings, strict=True) if o.ask.game == item.game]
                    if meant:
                        final, how = meant[0], "clicked the item's game"
                        r.clicked += 1
                    else:
                        how = "no option is the item's game: no click"
                elif len(set(map(str, rulings))) == 1:
                    final, how = rulings[0], "clicked (every option rules alike)"
                    r.clicked += 1
                else:
                    off = [g for g in rulings if g != item.expect]
                    final = off[0] if off else item.expect
                    how = "clicked (options differ: counted at the worst)"
                    r.clicked += 1
                    r.clicked_worst_case += 1
                r.details.append({"id": item.id, "prompt": ans.clarify.prompt,
                                  "options": [{"label": o.label, "game": o.ask.game, "got": g}
                                              for (o, _), g in zip(got, rulings, strict=True)],
                                  "expect": item.expect, "after": final, "how": how})
        if final == item.expect:
            r.correct_after += 1
        elif final == "unknown":
            r.abstained_after += 1
        else:
            r.wrong_after += 1
    return r
