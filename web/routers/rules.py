"""Finding rules: search, lookup by number, the loaded games."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query

from web import deps
from web.schemas import GamesResponse, RuleResponse, SearchResponse
from web.services import LocalServices

router = APIRouter(prefix="/v1", tags=["rules"], dependencies=[Depends(deps.rate_limited)])


@router.get("/search", response_model=SearchResponse, summary="Hybrid rule search")
def search(
    q: str = Query(min_length=1, max_length=2000, description="Query text or a rule number."),
    game: str | None = Query(default=None, description="Restrict to one game."),
    k: int = Query(default=5, ge=1, le=50, description="Number of results."),
    svc: LocalServices = Depends(deps.services),
) -> SearchResponse:
    return SearchResponse(query=q, game=game, hits=svc.search(q, game=game, k=k))


@router.get(
    "/rules/{game}/{rule}",
    response_model=RuleResponse,
    summary="A rule with its subrules",
    responses={404: {"description": "Unknown game or rule (with the nearest numbers)"}},
)
def rule(
    game: str,
    rule: str,
    children: bool = Query(default=True, description="Include subrules."),
    svc: LocalServices = Depends(deps.services),
) -> RuleResponse:
    return RuleResponse(**svc.rule(game, rule, children=children))


@router.get("/games", response_model=GamesResponse, summary="Games and documents loaded")
def games(svc: LocalServices = Depends(deps.services)) -> GamesResponse:
    return GamesResponse(games=svc.games())
