"""One embedding per question: retrieval, game detection (retrieval's hits) and the kind
classifier share the question's vector; the exemplar sentences are embedded once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ingest import embedding
from ingest.settings import Settings


class Counting:
    """Counts the texts the ONNX encoder embeds (the real encoder does the work)."""

    def __init__(self, encoder: embedding.QueryEncoder) -> None:
        self.inner = encoder.encode_array
        self.texts: list[str] = []

    def __call__(self, texts: list[str]) -> object:
        self.texts.extend(texts)
        return self.inner(texts)


@pytest.fixture
def counted(default_settings: Settings, default_index: object, monkeypatch: pytest.MonkeyPatch) -> Counting:
    encoder = embedding.query_encoder(default_settings.embedding_model, default_settings.model_cache_dir,
                                      default_settings.query_threads)
    assert encoder is not None
    counting = Counting(encoder)
    monkeypatch.setattr(encoder, "encode_array", counting)
    return counting


@pytest.mark.parametrize("question, game", [
    ('Does "Kill a unit at a battlefield" target the battlefield?', "riftbound"),  # quoted card text
    ("Can I change the targets of a spell after it was played?", None),  # game detected
    ("If I exhaust my legend to pay a cost, is the legend a target?", None),
])
def test_each_question_is_embedded_once(default_settings: Settings, default_index: object,
                                        counted: Counting, question: str, game: str | None) -> None:
    from assistant import Assistant

    a = Assistant(default_settings, index=default_index)
    a.ask("warm up: does Kill a unit target the unit?", game="riftbound")  # exemplars, BM25
    embedding._query_vector.cache_clear()
    counted.texts.clear()
    a.ask(question, game=game)
    assert len(counted.texts) == 1, counted.texts


def test_exemplars_are_embedded_once_then_read_back(default_settings: Settings, default_index: object,
                                                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first process embeds the classifier's exemplar sentences (and the rule facts'
    wordings) once; the next process (a fresh assistant over a fresh index object) reads
    them back from the model cache."""
    from assistant import Assistant
    from ingest.index import RuleIndex

    exported = embedding.prepare_query_model(default_settings.embedding_model, default_settings.model_cache_dir)
    assert exported is not None
    shutil.copytree(exported, tmp_path / exported.name, ignore=shutil.ignore_patterns("remembered"))
    settings = default_settings.model_copy(update={"model_cache_dir": tmp_path})
    encoder = embedding.query_encoder(settings.embedding_model, tmp_path, settings.query_threads)
    assert encoder is not None
    counted = Counting(encoder)
    monkeypatch.setattr(encoder, "encode_array", counted)

    def fresh() -> Assistant:
        index = RuleIndex(settings, default_index.client, default_index.state)  # type: ignore[attr-defined]
        return Assistant(settings, index=index)

    embedding._query_vector.cache_clear()
    first = fresh()
    first.ask("Does Kill a unit target the unit?", game="riftbound")
    first.prepare()  # what ingest's warm-up builds: the rule facts' wordings too
    assert len(counted.texts) > 10  # the question, every exemplar and every wording
    embedding._query_vector.cache_clear()
    counted.texts.clear()
    second = fresh()
    second.ask("Does Stun a unit target the unit?", game="riftbound")
    second.ask("Does Banish a unit target the unit?", game="riftbound")
    assert counted.texts == ["Does Stun a unit target the unit?", "Does Banish a unit target the unit?"]
