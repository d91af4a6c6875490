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


class BagOfWords:
    """A deterministic embedder for pure unit tests (behind the ``embed_documents`` seam):
    each content word stem is one dimension, the vector normalised."""

    def __init__(self, dim: int = 512) -> None:
        self.dim = dim
        self._vocab: dict[str, int] = {}

    def __call__(self, text: str) -> list[float]:
        from assistant.words import content_words

        vec = [0.0] * self.dim
        for w in content_words(text):
            vec[self._vocab.setdefault(w, len(self._vocab) % self.dim)] += 1.0
        n = sum(x * x for x in vec) ** 0.5 or 1.0
        return [x / n for x in vec]

    def documents(self, texts: list[str]) -> list[list[float]]:
        return [self(t) for t in texts]
