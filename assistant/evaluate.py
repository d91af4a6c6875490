"""``arbiter eval``: accuracy, wrong, abstained and citation hit rate over a dev-set file."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.answer import Answer
from ingest.parsers import slugify


@dataclass
class EvalItem:
    id: str
    question: str
    expect: Any
    game: str | None = None
    cite_any: list[str] = field(default_factory=list)
    cite_doc: str | None = None
    cite_heading: str | None = None
    """For documents cited by entry (glossaries): the entry's heading; a citation of
    ``cite_doc`` counts only when it is that entry or one of its bullets/paragraphs."""


@dataclass
class EvalReport:
    total: int = 0
    correct: int = 0
    wrong: int = 0
    abstained: int = 0
    wrong_on_unknown: int = 0
    cite_total: int = 0
    cite_hits: int = 0
    misses: list[dict[str, Any]] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0

    @property
    def citation_hit(self) -> float:
        return self.cite_hits / self.cite_total if self.cite_total else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {"total": self.total, "correct": self.correct, "accuracy": round(self.accuracy, 4),
                "wrong": self.wrong, "abstained": self.abstained, "wrong_on_unknown": self.wrong_on_unknown,
                "citation_hit": round(self.citation_hit, 4), "misses": self.misses}


def load_items(path: Path) -> list[EvalItem]:
    items = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            items.append(EvalItem(id=str(d.get("id", n)), question=d["question"], expect=d["expect"],
                                  game=d.get("game"), cite_any=list(d.get("cite_any") or []),
                                  cite_doc=d.get("cite_doc"), cite_heading=d.get("cite_heading")))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{n}: not a dev-set line ({exc})") from exc
    return items


def got_of(item: EvalItem, ans: Answer) -> Any:
    if isinstance(item.expect, int) and not isinstance(item.expect, bool):
        return ans.value if ans.value is not None else ans.verdict
    return ans.verdict


def score(items: list[EvalItem], answers: list[Answer]) -> EvalReport:
    r = EvalReport()
    for item, ans in zip(items, answers):
        r.total += 1
        got = got_of(item, ans)
        ok = got == item.expect
        cited = None
        if item.cite_any or item.cite_doc:
            r.cite_total += 1
            cited = any(_cites(item, c.doc, c.rule) for c in ans.citations)
            r.cite_hits += bool(cited)
        if ok:
            r.correct += 1
        elif ans.verdict == "unknown" and ans.value is None:
            r.abstained += 1
        else:
            r.wrong += 1
            if item.expect == "unknown":
                r.wrong_on_unknown += 1
        if not ok or cited is False:
            r.misses.append({"id": item.id, "question": item.question, "expect": item.expect, "got": got,
                             "cited": [f"{c.doc}:{c.rule}" for c in ans.citations],
                             "citation_hit": cited, "error": ans.error})
    return r


def _cites(item: EvalItem, doc: str, rule: str) -> bool:
    """Whether one citation is among the item's expected ones."""
    if rule in item.cite_any:
        return True
    if not item.cite_doc or doc != item.cite_doc:
        return False
    if not item.cite_heading:
        return True
    entry = slugify(item.cite_heading)
    return rule == entry or rule.startswith(f"{entry}.")


def run(assistant: Any, path: Path, use_game: bool = True) -> EvalReport:
    items = load_items(path)
    answers = [assistant.ask(i.question, game=i.game if use_game else None, id=i.id) for i in items]
    return score(items, answers)
