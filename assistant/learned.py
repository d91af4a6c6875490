"""Learned classifiers over the question's one embedding: a softmax regression trained on
players' wordings of the engine's worked cases (and, for question kinds, the classifier's
exemplar sentences). They run on the vector retrieval already computed, so each costs one
small matrix product per question.

Two are used: the question kind (each wording labelled with its case's kind) and the game
(each wording labelled with its case's game). A classifier only proposes: the grammar still
fills the slots and every gate still applies. Below ``threshold`` probability it proposes
nothing."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["LearnedClassifier", "Proposal"]

# Softmax regression: cosine-scaled logits (inputs are unit vectors), class-balanced,
# L2-regularised, full-batch gradient descent. Fixed settings: training is deterministic.
_SCALE = 10.0
_L2 = 1e-3
_STEPS = 400
_RATE = 2.0


@dataclass(frozen=True)
class Proposal:
    label: str
    probability: float


class LearnedClassifier:
    """``LearnedClassifier(classes, vectors, labels)``: ``vectors`` unit-length rows,
    ``labels`` their classes (after ``aliases``; labels outside ``classes`` are dropped).
    ``cache_dir`` keeps the trained weights, named ``{name}-{key}.npz``."""

    def __init__(self, classes: Sequence[str], vectors: np.ndarray, labels: Sequence[str],
                 threshold: float = 0.8, cache_dir: Path | None = None, name: str = "classifier",
                 aliases: Mapping[str, str] | None = None) -> None:
        self.classes = sorted(set(classes))
        self.threshold = threshold
        names = [(aliases or {}).get(k, k) for k in labels]
        known = set(self.classes)
        keep = np.array([k in known for k in names], dtype=bool)
        if not len(names):
            x = np.zeros((0, 0), np.float32)
        else:
            x = np.asarray(vectors, dtype=np.float32)
            x = np.ascontiguousarray(x if keep.all() else x[keep])  # no copy when every label is kept
        at = {k: i for i, k in enumerate(self.classes)}
        y = np.array([at[k] for k, ok in zip(names, keep) if ok], dtype=np.int64)
        digest = hashlib.sha256(x.data.cast("B"))  # the same key as before, without a copy
        digest.update(y.tobytes() + "|".join(self.classes).encode())
        key = digest.hexdigest()[:16]
        path = cache_dir / f"{name}-{key}.npz" if cache_dir is not None else None
        weights = _load(path)
        if weights is None:
            weights = _fit(x, y, len(self.classes))
            _save(path, weights)
        self._w, self._b = weights

    def probabilities(self, vector: Sequence[float]) -> dict[str, float]:
        v = np.asarray(vector, dtype=np.float32)
        n = float(np.linalg.norm(v))
        if n == 0.0 or self._w.shape[0] != v.shape[0]:
            return {}
        z = _SCALE * (v / n) @ self._w + self._b
        p = np.exp(z - z.max())
        p /= p.sum()
        return {k: float(q) for k, q in zip(self.classes, p)}

    def propose(self, vector: Sequence[float]) -> Proposal | None:
        """The most probable class when its probability reaches ``threshold``."""
        probs = self.probabilities(vector)
        if not probs:
            return None
        label = max(probs, key=lambda k: probs[k])
        return Proposal(label, probs[label]) if probs[label] >= self.threshold else None


def _fit(x: np.ndarray, y: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    # float32 throughout, updated in place: the same steps as float64 to within 1e-6 of
    # a probability, at less than half the time (Magic's facts: 7,000 wordings x 750 classes).
    n = x.shape[0]
    d = x.shape[1] if x.ndim == 2 else 0
    w = np.zeros((d, k), dtype=np.float32)
    b = np.zeros(k, dtype=np.float32)
    if n == 0:
        return w.astype(np.float64), b.astype(np.float64)
    onehot = np.eye(k, dtype=np.float32)[y]
    weight = ((n / (k * np.maximum(np.bincount(y, minlength=k), 1)))[y][:, None] / n).astype(np.float32)
    xs = np.ascontiguousarray(x, dtype=np.float32)
    xt = np.ascontiguousarray(xs.T)
    for _ in range(_STEPS):
        g = _SCALE * (xs @ w) + b
        g -= g.max(axis=1, keepdims=True)
        np.exp(g, out=g)
        g /= g.sum(axis=1, keepdims=True)
        g -= onehot
        g *= weight  # softmax minus one-hot, class-balanced: the gradient of the logits
        w -= _RATE * (_SCALE * (xt @ g) + _L2 * w)
        b -= _RATE * g.sum(axis=0)
    return w.astype(np.float64), b.astype(np.float64)


def _load(path: Path | None) -> tuple[np.ndarray, np.ndarray] | None:
    if path is None:
        return None
    try:
        with np.load(path) as f:
            return f["w"], f["b"]
    except (OSError, ValueError, KeyError):
        return None


def _save(path: Path | None, weights: tuple[np.ndarray, np.ndarray]) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, w=weights[0], b=weights[1])
    except OSError:
        pass  # a read-only directory only costs the training next time
