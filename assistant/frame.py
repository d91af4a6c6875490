"""The typed frame of a question: what was read, by which extractor, from which words.

A frame is what the understanding stage hands on: the question kind, the game, each slot
with the span of the question it came from (or none, for a part that no word of the
question states: a known rules example, the learned classifier's kind, a generic ability),
the polarity, and the engine scenarios the slots were built into. ``--explain`` prints it
from the same pass that answered, and the answer cites nothing a frame does not hold."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine import Scenario

__all__ = ["Evidence", "Extractor", "Frame", "Slot", "frame_of", "locate"]

Extractor = Literal["grammar", "worked case", "llm"]


class Evidence(BaseModel):
    """Words of the question a slot came from: ``start``/``end`` index the question as
    read (normalised); both are None for a part no word of the question states."""

    model_config = ConfigDict(frozen=True)

    words: str
    start: int | None = None
    end: int | None = None

    @property
    def stated(self) -> bool:
        return self.start is not None


class Slot(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    evidence: Evidence


class Frame(BaseModel):
    model_config = ConfigDict(frozen=True)

    extractor: Extractor
    game: str
    kind: str
    kind_via: str
    question: str
    """The question as read; every stated evidence span indexes it."""
    slots: tuple[Slot, ...]
    negated: bool = False
    scenarios: tuple[Scenario, ...] = ()

    @property
    def unstated(self) -> tuple[Slot, ...]:
        """Slots that no words of the question state (read from data or defaults)."""
        return tuple(s for s in self.slots if not s.evidence.stated)


def locate(question: str, words: str) -> Evidence:
    """``words`` as evidence in ``question``: the first occurrence (case-insensitive, quotes
    around it ignored), or unstated."""
    w = words.strip()
    core = w.strip("\"'\u201c\u201d\u2018\u2019")
    for probe in (w, core):
        if len(probe) < 1:
            continue
        i = question.lower().find(probe.lower())
        if i >= 0:
            return Evidence(words=words, start=i, end=i + len(probe))
    return Evidence(words=words)


def frame_of(extractor: Extractor, game: str, kind: str, kind_via: str, question: str,
             because: list[tuple[str, str]], negated: bool, scenarios: tuple[Scenario, ...]) -> Frame:
    """A frame from an extractor's reading: its (slot, words) pairs located in ``question``."""
    return Frame(extractor=extractor, game=game, kind=kind, kind_via=kind_via, question=question,
                 slots=tuple(Slot(name=part, evidence=locate(question, words)) for part, words in because),
                 negated=negated, scenarios=scenarios)
