"""The worked-case extractor's gates, with a bag-of-words embedder behind its seam (pure
units: no index, no model). The real model runs in test_answers' end-to-end tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from assistant_fakes import BagOfWords

import engine
from assistant.words import stem
from assistant.worked import Case, NoReading, Reading, WorkedCases, load_cases

bag = BagOfWords(256)


def scenario(verdict_source: str) -> dict[str, object]:
    return {"question": {"kind": "is_target"}, "source": verdict_source}


OWN = Case("own_source", "riftbound", scenario("a"), "yes")
ITSELF = Case("cannot_itself", "riftbound", scenario("b"), "no")
CASES = [
    (OWN, ["can a unit's ability target the unit it comes from",
           "can the ability target its own source unit",
           "is the unit the ability comes from a legal target for it"]),
    (ITSELF, ["the ability says it cannot target itself, can it target its own source unit",
              "card text says it cannot target itself, is its source unit a legal target",
              "ability cannot target itself - can the unit it comes from be its target"]),
]


def cases() -> WorkedCases:
    return WorkedCases(CASES, bag.documents, threshold=0.5, light_share=1.1)


def read(text: str, game: str | None = "riftbound") -> Reading | NoReading:
    return cases().read(text, bag(text), game)


def test_a_close_wording_reads_as_its_case() -> None:
    r = read("can an ability target the unit it comes from?")
    assert isinstance(r, Reading) and r.case is OWN and not r.invert


def test_a_word_no_wording_of_the_case_uses_abstains_and_names_it() -> None:
    r = read("can a unit's ability target the unit it comes from while it is stunned?")
    assert isinstance(r, NoReading) and "stun" in r.reason


def test_a_negated_statement_inverts_the_outcome() -> None:
    r = read("is it true that a unit's ability can't target the unit it comes from?")
    assert isinstance(r, Reading) and r.case is OWN and r.invert


def test_a_case_whose_restriction_the_question_never_states_is_not_chosen_even_when_nearest() -> None:
    r = cases().read("can the ability target its own source unit", bag("ability cannot target itself source unit"), "riftbound")
    assert isinstance(r, Reading) and r.case is OWN


def test_another_game_is_not_read_as_this_games_case() -> None:
    assert isinstance(read("can a unit's ability target the unit it comes from", game="momon-wonder"), NoReading)


def test_numbers_the_case_never_uses_abstain() -> None:
    r = read("can a unit's ability target the 3 units it comes from?")
    assert isinstance(r, NoReading) and "number" in r.reason


def test_the_stemmer_meets_inflections() -> None:
    assert {stem(w) for w in ("targets", "targeted", "targeting", "targetted")} == {"target"}
    assert stem("enemies") == "enemy" and stem("class") == "class"


def test_every_worked_case_with_wordings_is_decided_by_the_engine_as_its_golden_says() -> None:
    loaded = load_cases()
    assert loaded, "wordings are packaged"
    for case, texts in loaded:
        assert len(texts) >= 3, case.name
        d = engine.decide(engine.load_scenario(case.scenario))
        got = f"value={d.value}" if case.outcome.startswith("value=") else d.verdict
        assert got == case.outcome, case.name


def test_wordings_name_only_existing_goldens() -> None:
    import json

    names = {p.stem for p in (Path(engine.__file__).parent / "golden").glob("*.json")}
    wdir = Path(__file__).resolve().parents[2] / "assistant" / "wordings"
    for path in wdir.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            if line.strip():
                assert json.loads(line)["golden"] in names


@pytest.mark.parametrize("text", ["", "   "])
def test_an_empty_question_is_never_a_case(text: str) -> None:
    assert isinstance(cases().read(text, [0.0] * 256, None), NoReading)
