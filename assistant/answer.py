"""The answer object of ../shared/CONTRACT.md. Fields may be added, never renamed."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Verdict = Literal["yes", "no", "unknown"]


class Citation(BaseModel):
    doc: str = Field(description="Document id from the corpus manifest.")
    rule: str = Field(description="Rule number as printed, or the ingester's anchor.")
    quote: str = Field(description="Verbatim substring of that rule's text.")
    edition: str = Field(default="", description="Added: the cited document's edition (its "
                         "version or date in the corpus manifest), empty when it has none.")


class TraceStep(BaseModel):
    rule: str
    doc: str
    step: str
    result: str


class Passage(BaseModel):
    """A supporting passage from retrieval (not a citation: not what the verdict rests on)."""

    doc: str
    rule: str
    text: str
    score: float = 0.0


class AskBody(BaseModel):
    """A complete request: the body of ``POST /v1/ask`` or a ``--jsonl`` line."""

    model_config = ConfigDict(frozen=True)

    question: str
    game: str | None = None


class ClarifyOption(BaseModel):
    """One choice offered instead of an abstention; asking ``ask`` was checked to rule."""

    model_config = ConfigDict(frozen=True)

    label: str = Field(description="What a person clicks.")
    ask: AskBody


class Clarify(BaseModel):
    """The one decision between an abstention and a ruling (CONTRACT.md ``clarify``)."""

    model_config = ConfigDict(frozen=True)

    prompt: str = Field(description="Why the assistant asks, in players' words.")
    options: list[ClarifyOption] = Field(max_length=5)


class Answer(BaseModel):
    id: str | None = None
    question: str
    game: str | None = None
    verdict: Verdict = "unknown"
    value: int | None = None
    answer: str = ""
    citations: list[Citation] = Field(default_factory=list)
    scenario: dict[str, Any] | None = None
    trace: list[TraceStep] = Field(default_factory=list)
    error: str | None = None
    # Additions (allowed by the contract):
    passages: list[Passage] = Field(default_factory=list)
    conversation_id: str | None = None
    answer_id: str | None = None
    clarify: Clarify | None = None
