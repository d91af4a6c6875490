"""The learned check on a rule fact's candidate ruling: its trees (fitted by scikit-learn,
walked with numpy), their cache, and the reader reading a question through it (pure units,
with the bag-of-words embedder behind the ``embed_documents`` seam), plus the packaged
answered questions it learns from."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from assistant_fakes import BagOfWords
from sklearn.ensemble import GradientBoostingClassifier

from assistant.facts import (
    NEIGHBOURHOOD,
    Answered,
    Fact,
    FactReading,
    NoFact,
    RuleFacts,
    Wording,
    load_answered,
)
from assistant.verifier import fit_trees, learned_check

bag = BagOfWords(512)


def examples(n: int = 300, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, len(NEIGHBOURHOOD)))
    y = ((x[:, 0] + 0.5 * x[:, 3] - 0.3 * x[:, 8]) > 0).astype(np.int64)
    return x, y


def test_the_flattened_trees_give_scikit_learns_probabilities_on_rows_they_never_saw() -> None:
    x, y = examples()
    trees = fit_trees(x, y)
    model = GradientBoostingClassifier(n_estimators=200, max_depth=3, learning_rate=0.05, random_state=0).fit(x, y)
    unseen, _ = examples(50, seed=8)
    ours = np.array([trees.probability(row) for row in unseen])
    assert np.allclose(ours, model.predict_proba(unseen)[:, 1], atol=1e-9)
    assert ((ours > 0.5) == ((unseen[:, 0] + 0.5 * unseen[:, 3] - 0.3 * unseen[:, 8]) > 0)).mean() > 0.8


def test_a_fitted_check_is_read_back_from_its_cache_without_computing_its_examples(tmp_path: Path) -> None:
    first = learned_check(examples, "key", tmp_path)

    def never() -> tuple[np.ndarray, np.ndarray]:
        raise AssertionError("the cached trees were not read")

    again = learned_check(never, "key", tmp_path)
    row = examples(1, seed=9)[0][0]
    assert again.probability(row) == first.probability(row)
    assert len(list(tmp_path.glob("fact-check-*.npz"))) == 1


def test_examples_of_one_outcome_only_are_refused_with_a_clear_error() -> None:
    x, _ = examples()
    with pytest.raises(ValueError, match="right and wrong"):
        fit_trees(x, np.ones(len(x), dtype=np.int64))


TIMING = Fact(id="timing", game="riftbound", doc="doc", rule="1.1", quote="q", ask="is the mode chosen on play", answer="yes",
              wordings=(Wording(q="is the mode of a spell chosen when i play it", a="yes"),
                        Wording(q="do i pick the spell mode as i play the card", a="yes"),
                        Wording(q="is the spell mode picked later when it resolves", a="no")))
COST = Fact(id="cost", game="riftbound", doc="doc", rule="2.1", quote="q", ask="can a cost be paid with exhausted runes",
            answer="no", wordings=(Wording(q="can i pay a cost with exhausted runes", a="no"),
                                   Wording(q="may exhausted runes pay for a card cost", a="no")))
ANSWERED = tuple(Answered(game="riftbound", q=q, a=a, source=f"test#{i}") for i, (q, a) in enumerate((
    ("when i play a spell do i pick its mode then", "yes"),
    ("the spell mode, is that chosen while playing it", "yes"),
    ("can exhausted runes pay my card cost", "no"),
    ("do exhausted runes pay for the cost of a card", "no"),
    ("is the spell mode only picked on resolution", "yes"),
    ("can i pay with runes at all", "unknown"))))


def checked_facts(checked: float) -> RuleFacts:
    # No gate reads anything (every threshold is out of reach): only the check may.
    return RuleFacts([TIMING, COST], bag.documents, threshold=1.01, neighbourhood=1.01, sure=1.01,
                     answered=ANSWERED, checked=checked)


def test_a_question_no_gate_reads_is_read_through_the_check_when_it_is_sure() -> None:
    q = "when i play the spell is its mode chosen"
    got = checked_facts(0.0).read(q, bag(q), "riftbound")
    assert isinstance(got, FactReading)
    assert (got.fact.id, got.answer) == ("timing", "yes")
    assert got.checked is not None and "learned check" in got.how


def test_the_check_reads_nothing_below_its_threshold_or_when_it_is_not_asked() -> None:
    q = "when i play the spell is its mode chosen"
    assert isinstance(checked_facts(1.01).read(q, bag(q), "riftbound"), NoFact)
    assert isinstance(checked_facts(0.0).read(q, bag(q), "riftbound", check=False), NoFact)


def test_without_answered_questions_there_is_no_check() -> None:
    facts = RuleFacts([TIMING, COST], bag.documents, threshold=1.01, neighbourhood=1.01, sure=1.01, checked=0.0)
    q = "when i play the spell is its mode chosen"
    assert isinstance(facts.read(q, bag(q), "riftbound"), NoFact)


def test_every_packaged_answered_question_names_its_game_its_answer_and_where_it_was_asked() -> None:
    answered = load_answered()
    assert len(answered) > 1000
    assert {a.game for a in answered} >= {"riftbound", "marvel-champions", "mtg", "momon-wonder"}
    assert all(a.source.startswith("eval/") and "#" in a.source for a in answered)
    assert {"yes", "no", "unknown"} <= {a.a for a in answered if isinstance(a.a, str)}
