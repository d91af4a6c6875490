"""Finding rules: search, lookup by number, the loaded games."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Path, Query

from web import deps
from web.schemas import GamesResponse, GameSummary, RuleResponse, SearchResponse, errors
from web.services import LocalServices

router = APIRouter(
    prefix="/v1",
    tags=["rules"],
    dependencies=[Depends(deps.rate_limited)],
    responses=errors(429, 503),
)


@router.get(
    "/search",
    response_model=SearchResponse,
    summary="Hybrid rule search",
    responses=errors(404, 422),
)
def search(
    q: str = Query(
        min_length=1,
        max_length=2000,
        description="Query text or a rule number.",
        examples=["choose targets when played"],
    ),
    game: str | None = Query(
        default=None, description="Restrict to one game.", examples=["riftbound"]
    ),
    k: int = Query(default=5, ge=1, le=50, description="Number of results.", examples=[5]),
    svc: LocalServices = Depends(deps.services),
) -> SearchResponse:
    return SearchResponse(query=q, game=game, hits=svc.search(q, game=game, k=k))


@router.get(
    "/rules/{game}/{rule}",
    response_model=RuleResponse,
    summary="A rule with its subrules",
    responses=errors(404, 422),
)
def rule(
    game: str = Path(description="Game id.", examples=["riftbound"]),
    rule: str = Path(description="Rule number or anchor.", examples=["355.14"]),
    children: bool = Query(default=True, description="Include subrules."),
    doc: str | None = Query(
        default=None,
        max_length=200,
        description="Document id: that document's edition of the rule (default: the newest).",
        examples=["riftbound-core-rules"],
    ),
    svc: LocalServices = Depends(deps.services),
) -> RuleResponse:
    return RuleResponse(**svc.rule(game, rule, children=children, doc=doc))


@router.get("/games", response_model=GamesResponse, summary="Games and documents loaded")
def games(svc: LocalServices = Depends(deps.services)) -> GamesResponse:
    return GamesResponse(games=[GameSummary.of(g) for g in svc.games()])
