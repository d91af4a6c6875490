"""Asking, checking scenarios, stored answers and feedback."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, HTTPException

from assistant.answer import Answer
from ingest.settings import Settings
from web import deps
from web.schemas import AskRequest, FeedbackRequest, FeedbackResponse
from web.services import LocalServices

router = APIRouter(prefix="/v1", tags=["ask"], dependencies=[Depends(deps.rate_limited)])


@router.post(
    "/ask",
    response_model=Answer,
    summary="Answer a rules question (the answer object of CONTRACT.md, plus answer_id)",
    responses={404: {"description": "Unknown game (lists the loaded games)"}},
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
    response_model=Answer,
    summary="A stored answer (permalinks)",
    responses={404: {"description": "No such answer"}},
)
def get_answer(answer_id: str, svc: LocalServices = Depends(deps.services)) -> Answer:
    answer = svc.get_answer(answer_id)
    if answer is None:
        raise HTTPException(status_code=404, detail="no such answer")
    return answer


@router.post(
    "/feedback",
    response_model=FeedbackResponse,
    summary="Rate an answer",
    responses={404: {"description": "No such answer"}},
)
def feedback(body: FeedbackRequest, svc: LocalServices = Depends(deps.services)) -> FeedbackResponse:
    if not svc.feedback(body.answer_id, body.helpful, body.comment):
        raise HTTPException(status_code=404, detail="no such answer")
    return FeedbackResponse()


@router.post(
    "/check",
    summary="The engine's decision for a structured scenario (see `arbiter schema`)",
    responses={422: {"description": "Malformed scenario (names the field)"}},
)
def check(scenario: dict[str, Any] = Body(...)) -> dict[str, Any]:
    from pydantic import ValidationError

    import engine

    try:
        parsed = engine.Scenario.model_validate(scenario)
        decision = engine.decide(parsed)
    except ValidationError as exc:
        raise HTTPException(
            status_code=422,
            detail=[{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()],
        ) from None
    except engine.ScenarioError as exc:
        raise HTTPException(status_code=422, detail=str(exc)) from None
    result: dict[str, Any] = decision.model_dump(mode="json")
    return result
