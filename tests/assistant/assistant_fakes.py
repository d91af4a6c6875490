"""An in-memory stand-in for ``ingest.RuleIndex`` (behind the RuleIndexLike seam), with
synthetic rule text written for the tests (not copied from any rules document)."""

from __future__ import annotations

from collections.abc import Sequence

from ingest.models import Card, GameInfo, Rule, SearchHit


class FakeIndex:
    def __init__(self) -> None:
        self._rules = {
            ("toy-rules", "1.1"): Rule(doc="toy-rules", game="toy", number="1.1",
                                       text="A widget is chosen. Chosen widgets are targets."),
        }
        self._games = [GameInfo(id="toy", name="Toy Game", terms=["widget", "gizmo"])]

    def search(self, query: str, game: str | None = None, k: int = 5,
               vector: Sequence[float] | None = None) -> list[SearchHit]:
        return [SearchHit(rule=r, score=1.0) for r in self._rules.values()][:k]

    def get(self, doc: str, number: str) -> Rule | None:
        return self._rules.get((doc, number))

    def verify_quote(self, doc: str, number: str, quote: str) -> bool:
        r = self.get(doc, number)
        return r is not None and bool(quote) and quote in r.text

    def games(self) -> list[GameInfo]:
        return self._games

    def card(self, name: str, game: str | None = None) -> Card | None:
        return None

    def card_names(self, game: str | None = None) -> list[str]:
        return []

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[0.0, 1.0] for _ in texts]
