"""Asking, checking scenarios, stored answers and feedback."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, HTTPException, Path

import engine
from assistant.answer import Answer
from ingest.settings import Settings
from web import deps
from web.schemas import (
    AnswerResponse,
    AskRequest,
    FeedbackRequest,
    FeedbackResponse,
    errors,
)
from web.services import LocalServices

router = APIRouter(
    prefix="/v1",
    tags=["ask"],
    dependencies=[Depends(deps.rate_limited)],
    responses=errors(413, 429),
)

#: A small complete scenario (a Riftbound question about changing choices).
CHECK_EXAMPLE: dict[str, Any] = {
    "schema_version": 1,
    "game": "riftbound",
    "ability": {"kind": "spell", "text": "", "effects": []},
    "state": {
        "players": [{"id": "you", "deck_size": 20}, {"id": "opp", "deck_size": 20}],
        "locations": [
            {"id": "bf1", "kind": "battlefield", "controller": "you"},
            {"id": "bf2", "kind": "battlefield", "controller": "opp"},
        ],
        "objects": [],
    },
    "question": {"kind": "can_change_choices"},
}


@router.post(
    "/ask",
    response_model=AnswerResponse,
    summary="Answer a rules question (the answer object of CONTRACT.md, plus answer_id)",
    responses=errors(404, 422, 503),
)
def ask(
    body: AskRequest,
    svc: LocalServices = Depends(deps.services),
    settings: Settings = Depends(deps.settings),
) -> Answer:
    if len(body.question) > settings.max_question_chars:
        raise HTTPException(
            status_code=422,
            detail=f"question is longer than {settings.max_question_chars} characters",
        )
    if not body.question.strip():
        raise HTTPException(status_code=422, detail="question is empty")
    return svc.ask(body.question, game=body.game, conversation_id=body.conversation_id)


@router.get(
    "/answers/{answer_id}",
    response_model=AnswerResponse,
    summary="A stored answer (permalinks)",
    responses=errors(404),
)
def get_answer(
    answer_id: str = Path(description="The answer's answer_id.", examples=["0f3a9c1d2b4e"]),
    svc: LocalServices = Depends(deps.services),
) -> Answer:
    answer = svc.get_answer(answer_id)
    if answer is None:
        raise HTTPException(status_code=404, detail="no such answer")
    return answer


@router.post(
    "/feedback",
    response_model=FeedbackResponse,
    summary="Rate an answer",
    responses=errors(404, 422),
)
def feedback(body: FeedbackRequest, svc: LocalServices = Depends(deps.services)) -> FeedbackResponse:
    if not svc.feedback(body.answer_id, body.helpful, body.comment):
        raise HTTPException(status_code=404, detail="no such answer")
    return FeedbackResponse()


@router.get(
    "/scenario-schema",
    summary="The JSON Schema of the scenario /v1/check takes (the page's judge view form)",
    responses={200: {"content": {"application/json": {"example": {
        "title": "Scenario", "type": "object", "properties": {"game": {"type": "string"}},
        "$defs": {"...": "every part of a scenario"}}}}}},
)
def scenario_schema() -> dict[str, Any]:
    schema: dict[str, Any] = engine.scenario_json_schema()
    return schema


@router.post(
    "/check",
    response_model=engine.Decision,
    summary="The engine's decision for a structured scenario (schema: `arbiter schema`)",
    responses=errors(422),
)
def check(
    scenario: engine.Scenario = Body(
        description="A complete scenario: game, ability, state, timeline and question.",
        openapi_examples={"can_change_choices": {"summary": "Riftbound", "value": CHECK_EXAMPLE}},
    ),
) -> dict[str, Any]:
    try:
        decision = engine.decide(scenario)
    except (engine.ScenarioError, engine.UnknownGame) as exc:  # malformed, or no policy for the game
        raise HTTPException(status_code=422, detail=str(exc)) from None
    result: dict[str, Any] = decision.model_dump(mode="json")
    return result
