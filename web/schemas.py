"""Request and response bodies of the HTTP API (documented in OpenAPI)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

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


class FeedbackRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"answer_id": "0f3a...", "helpful": True}]},
    )

    answer_id: str = Field(min_length=1, max_length=64)
    helpful: bool
    comment: str | None = Field(default=None, max_length=2000)


class FeedbackResponse(BaseModel):
    ok: bool = True


class GamesResponse(BaseModel):
    games: list[GameInfo]


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
    detail: Any


class Health(BaseModel):
    status: str
    detail: dict[str, Any] = Field(default_factory=dict)
