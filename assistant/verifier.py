"""A learned check on a candidate ruling: how likely the answer of the rule fact nearest a
question is the question's answer, from what the question's neighbourhood of wordings
looks like (how close the nearest is, how clear of other answers, how much of it is that
fact, whether its negations and turning words are the question's: see
:data:`assistant.facts.NEIGHBOURHOOD`).

It is a gradient-boosted ensemble of small regression trees, fitted by scikit-learn when a
build trains it and kept as flat arrays in the build's cache; a question walks the trees
with numpy, so the question path imports no scikit-learn. Training is deterministic (no
subsampling): the same examples give the same trees."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["CheckedTrees", "fit_trees", "learned_check"]

# Small trees, many of them, slowly: on the answered questions (each read set left out in
# turn) the check at 0.95 was right on 0.988 of the 564 it picked; a logistic regression over
# the same features was less sure of fewer.
_TREES = 200
_DEPTH = 3
_RATE = 0.05


@dataclass(frozen=True)
class CheckedTrees:
    """The ensemble as arrays: every tree's nodes one after another (``roots``: where each
    tree starts); a leaf has ``left == -1`` and its ``value``; an inner node sends a row left
    when ``row[feature] <= threshold``."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray
    roots: np.ndarray
    init: float
    rate: float
    depth: int

    def probability(self, features: Sequence[float]) -> float:
        """The probability that the candidate's answer is right."""
        x = np.asarray(features, dtype=np.float64)
        node = self.roots.copy()
        for _ in range(self.depth):
            inner = self.left[node] >= 0
            if not inner.any():
                break
            at = node[inner]
            go_left = x[self.feature[at]] <= self.threshold[at]
            node[inner] = np.where(go_left, self.left[at], self.right[at])
        raw = self.init + self.rate * float(self.value[node].sum())
        return float(1.0 / (1.0 + np.exp(-raw)))


def fit_trees(x: np.ndarray, y: np.ndarray) -> CheckedTrees:
    """Fit the ensemble (``y``: 1 where the candidate's answer was right) and flatten it; the
    flat trees must give scikit-learn's own probabilities, else it raises ValueError."""
    from sklearn.ensemble import GradientBoostingClassifier  # build time only

    if len(set(y.tolist())) < 2:
        raise ValueError("a learned check needs right and wrong candidates to learn from")
    model = GradientBoostingClassifier(n_estimators=_TREES, max_depth=_DEPTH, learning_rate=_RATE, random_state=0)
    model.fit(x, y)
    feature, threshold, left, right, value, roots = [], [], [], [], [], []
    offset = 0
    for (tree,) in model.estimators_:
        t = tree.tree_
        roots.append(offset)
        feature.append(np.maximum(t.feature, 0))
        threshold.append(t.threshold)
        left.append(np.where(t.children_left >= 0, t.children_left + offset, -1))
        right.append(np.where(t.children_right >= 0, t.children_right + offset, -1))
        value.append(t.value.reshape(-1))
        offset += t.node_count
    prior = float(y.mean())
    trees = CheckedTrees(np.concatenate(feature).astype(np.int64), np.concatenate(threshold).astype(np.float64),
                         np.concatenate(left).astype(np.int64), np.concatenate(right).astype(np.int64),
                         np.concatenate(value).astype(np.float64), np.array(roots, dtype=np.int64),
                         float(np.log(prior / (1.0 - prior))), _RATE, _DEPTH)
    theirs = model.predict_proba(x)[:, 1]
    ours = np.array([trees.probability(row) for row in x])
    if not np.allclose(ours, theirs, atol=1e-6):
        raise ValueError("the flattened trees do not reproduce scikit-learn's probabilities")
    return trees


def learned_check(examples: Callable[[], tuple[np.ndarray, np.ndarray]], key: str, cache_dir: Path | None = None,
                  name: str = "fact-check") -> CheckedTrees:
    """The ensemble for the examples ``key`` names (what they are computed from): read from
    ``cache_dir`` when a build fitted it, else ``examples()`` computed and fitted (and the
    trees kept there)."""
    digest = hashlib.sha256(f"{key}|{_TREES}|{_DEPTH}|{_RATE}".encode())
    path = cache_dir / f"{name}-{digest.hexdigest()[:16]}.npz" if cache_dir is not None else None
    if path is not None:
        try:
            with np.load(path) as f:
                return CheckedTrees(f["feature"], f["threshold"], f["left"], f["right"], f["value"], f["roots"],
                                    float(f["init"]), float(f["rate"]), int(f["depth"]))
        except (OSError, ValueError, KeyError):
            pass
    trees = fit_trees(*examples())
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(path, feature=trees.feature, threshold=trees.threshold, left=trees.left, right=trees.right,
                     value=trees.value, roots=trees.roots, init=trees.init, rate=trees.rate, depth=trees.depth)
        except OSError:
            pass  # a read-only directory only costs the fit next time
    return trees
