"""Learned classifiers over the question's embedding. Pure units on small
hand-made vectors: no index, no model."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.intents import KIND_ALIASES
from assistant.learned import LearnedClassifier


def _unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def _model(*args, **kwargs):  # type: ignore[no-untyped-def]
    return LearnedClassifier(*args, aliases=KIND_ALIASES, name="kind-model", **kwargs)


def _training() -> tuple[np.ndarray, list[str]]:
    rng = np.random.default_rng(0)
    rows, labels = [], []
    for centre, kind in (((1.0, 0.0, 0.0), "is_target"), ((0.0, 1.0, 0.0), "can_play"),
                         ((0.0, 0.0, 1.0), "can_change_choices")):
        for _ in range(20):
            rows.append(_unit(*(np.asarray(centre) + rng.normal(0, 0.1, 3))))
            labels.append(kind)
    return np.vstack(rows), labels


def test_a_question_near_one_kinds_wordings_gets_that_kind() -> None:
    vectors, labels = _training()
    model = _model(["is_target", "can_play", "can_change"], vectors, labels)
    proposal = model.propose(_unit(0.95, 0.1, 0.05).tolist())
    assert proposal is not None and proposal.label == "is_target"
    assert proposal.probability >= 0.8


def test_engine_kind_names_are_read_as_the_grammars_names() -> None:
    vectors, labels = _training()
    model = _model(["is_target", "can_play", "can_change"], vectors, labels)
    proposal = model.propose(_unit(0.0, 0.05, 1.0).tolist())
    assert proposal is not None and proposal.label == "can_change"


def test_a_question_between_kinds_gets_no_kind() -> None:
    vectors, labels = _training()
    model = _model(["is_target", "can_play", "can_change"], vectors, labels)
    assert model.propose(_unit(1.0, 1.0, 0.0).tolist()) is None


def test_a_zero_or_misshaped_vector_gets_no_kind() -> None:
    vectors, labels = _training()
    model = _model(["is_target", "can_play"], vectors, labels)
    assert model.propose([0.0, 0.0, 0.0]) is None
    assert model.propose([1.0, 0.0]) is None


def test_trained_weights_are_cached_and_read_back(tmp_path: Path) -> None:
    vectors, labels = _training()
    first = _model(["is_target", "can_play", "can_change"], vectors, labels, cache_dir=tmp_path)
    assert len(list(tmp_path.glob("kind-model-*.npz"))) == 1
    again = _model(["is_target", "can_play", "can_change"], vectors, labels, cache_dir=tmp_path)
    q = _unit(0.3, 0.9, 0.1).tolist()
    assert again.probabilities(q) == first.probabilities(q)
