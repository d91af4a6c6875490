"""Request and response bodies of the HTTP API (documented in OpenAPI)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from assistant.answer import Answer
from ingest.models import GameInfo, Rule, SearchHit


class AskRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"question": 'Does "Kill a unit at a battlefield" target the battlefield?'},
                {
                    "question": "What if it had 3 Might instead?",
                    "game": "riftbound",
                    "conversation_id": "4f1c0a9e2b7d4c3a8e6f5d4c3b2a1908",
                },
            ]
        },
    )

    question: str = Field(min_length=1, description="The rules question, in plain English.")
    game: str | None = Field(default=None, description="Game id; omit for automatic detection.")
    conversation_id: str | None = Field(
        default=None, max_length=64, description="Continue a conversation (follow-up questions)."
    )


#: What each field of the answer object means (CONTRACT.md), shown in OpenAPI.
ANSWER_FIELDS = {
    "id": "The caller's id for the question (JSONL batches), echoed back; null otherwise.",
    "question": "The question as asked.",
    "game": "The game the question was ruled under (given or detected); null if none.",
    "verdict": "yes, no, or unknown (an honest \"can't rule\": the parse did not account for "
    "every part of the question, or the rules loaded do not decide it).",
    "value": "A number the question asked for (how many targets, how much damage), else null.",
    "answer": "The ruling and its reason, in players' terms.",
    "citations": "The rules the verdict rests on: document id, rule number or anchor, and a "
    "verbatim quote of that rule. Empty when the verdict is unknown.",
    "scenario": "The structured scenario the question was parsed into (see `arbiter schema`).",
    "trace": "The engine's steps: which rule was applied and what it gave.",
    "error": "Why no ruling was given (verdict unknown), else null.",
    "passages": "The closest rules found by search: context, not what the verdict rests on.",
    "conversation_id": "The conversation this answer belongs to (send it with a follow-up).",
    "answer_id": "Stored answer id: permalink /?a=ID and GET /v1/answers/ID.",
    "clarify": "When the verdict is unknown but one decision away from a ruling: a prompt and "
    "at most five options, each a complete request (question, game) already checked to rule.",
}


def _describe_answer(schema: dict[str, Any]) -> None:
    for name, prop in schema.get("properties", {}).items():
        if name in ANSWER_FIELDS:
            prop["description"] = ANSWER_FIELDS[name]


class AnswerResponse(Answer):
    """The answer object of CONTRACT.md plus ``passages``, ``conversation_id`` and
    ``answer_id``."""

    model_config = ConfigDict(
        title="Answer",
        json_schema_extra=_describe_answer,
    )


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"answer_id": "0f3a9c1d2b4e", "helpful": True},
                {"answer_id": "0f3a9c1d2b4e", "helpful": False, "comment": "Cites the wrong rule."},
            ]
        },
    )

    answer_id: str = Field(min_length=1, max_length=64, description="From the answer's answer_id.")
    helpful: bool = Field(description="Thumbs up (true) or down (false).")
    comment: str | None = Field(default=None, max_length=2000, description="Optional remark.")


class FeedbackResponse(BaseModel):
    ok: bool = True


class DocumentSummary(BaseModel):
    """A loaded document as clients see it (no server paths)."""

    id: str = Field(description="Document id, as cited.")
    title: str = ""
    version: str = Field(default="", description="Version or date of the document.")
    rules: int = Field(default=0, description="Rules and passages indexed.")
    numbered: bool = Field(default=True, description="False: cited by anchors (p3, target.2).")


class GameSummary(BaseModel):
    id: str = Field(description="Game id (the `game` of requests).")
    name: str = ""
    documents: list[DocumentSummary] = Field(default_factory=list)
    cards: int = Field(default=0, description="Cards loaded from card data.")

    @classmethod
    def of(cls, game: GameInfo) -> GameSummary:
        docs = [DocumentSummary.model_validate(d.model_dump()) for d in game.documents]
        return cls(id=game.id, name=game.name, documents=docs, cards=game.cards)


class GamesResponse(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "games": [
                        {
                            "id": "riftbound",
                            "name": "Riftbound",
                            "documents": [
                                {"id": "riftbound-core-rules", "title": "Core Rules",
                                 "version": "2026-10-09", "rules": 27, "numbered": True}
                            ],
                            "cards": 0,
                        }
                    ]
                }
            ]
        }
    )

    games: list[GameSummary]


class SearchResponse(BaseModel):
    query: str
    game: str | None
    hits: list[SearchHit]


class RuleResponse(BaseModel):
    game: str
    rule: Rule
    children: list[Rule] = Field(default_factory=list)
    editions: list[Rule] = Field(
        default_factory=list, description="The same number in other documents/editions."
    )


class ErrorDetail(BaseModel):
    detail: Any = Field(
        description="A message, {message, games|suggestions|retry_after}, or a list of "
        "{loc, msg, type} for invalid input."
    )


class Health(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"status": "ready", "detail": {"games": ["riftbound"], "rules": 61}}]
        }
    )

    status: str
    detail: dict[str, Any] = Field(default_factory=dict)


_ERRORS = {
    404: "Not found: unknown game (lists the loaded games), rule (with the nearest numbers) "
    "or answer",
    413: "Request body too large",
    422: "Invalid input (names the field)",
    429: "Rate limited; Retry-After says when to try again",
    503: "The rules store is unreachable or no index is loaded; Retry-After says when to retry",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses (all share :class:`ErrorDetail`)."""
    return {code: {"model": ErrorDetail, "description": _ERRORS[code]} for code in codes}
