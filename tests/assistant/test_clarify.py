"""Clarify instead of abstain: options come from the real pipeline and each one rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arbiter_cli.main import app
from assistant.answer import Answer, AskBody, Clarify, ClarifyOption
from assistant.clarify import Clarifier, game_label, load_slot_rules, rules_of
from assistant.clarify_eval import score_clarify
from assistant.evaluate import EvalItem
from ingest.models import GameInfo

UNDETECTED = "modal ability - can I wait until resolution to pick the mode?"
TYPO = "can a spell with 2 trgts pick the same unit twice?"
NO_PLACE = "Here to Help lets me play a unit from my hand. Can I play it?"


def _check_options(assistant, clarify: Clarify) -> list[Answer]:  # type: ignore[no-untyped-def]
    """Every option asked again rules; labels and prompt carry no internal names."""
    assert 1 <= len(clarify.options) <= 5
    got = [assistant.ask(o.ask.question, game=o.ask.game, clarify=False) for o in clarify.options]
    assert all(rules_of(a) for a in got), [(a.question, a.verdict, a.error) for a in got]
    for text in [clarify.prompt, *(o.label for o in clarify.options)]:
        assert not re.search(r"\w_\w", text), text  # no intent ids such as can_change_choices
    return got


def test_undetected_game_offers_the_games_under_which_it_rules(assistant) -> None:  # type: ignore[no-untyped-def]
    ans = assistant.ask(UNDETECTED)
    assert ans.verdict == "unknown" and ans.game is None and ans.clarify is not None
    assert "which game" in ans.clarify.prompt.lower()
    names = {game_label(g): g.id for g in assistant.games()}
    assert all(o.label in names and names[o.label] == o.ask.game for o in ans.clarify.options)
    assert all(o.ask.question == UNDETECTED for o in ans.clarify.options)
    got = _check_options(assistant, ans.clarify)
    assert {a.game for a in got} == {o.ask.game for o in ans.clarify.options}


def test_unknown_word_offers_the_close_rules_word(assistant) -> None:  # type: ignore[no-untyped-def]
    ans = assistant.ask(TYPO, game="riftbound")
    assert ans.verdict == "unknown" and ans.clarify is not None
    assert "'trgts'" in ans.clarify.prompt
    first = ans.clarify.options[0]
    assert first.label == "targets"
    assert first.ask == AskBody(question="can a spell with 2 targets pick the same unit twice?", game="riftbound")
    assert _check_options(assistant, ans.clarify)[0].verdict == "no"


def test_missing_play_location_offers_both_places(assistant) -> None:  # type: ignore[no-untyped-def]
    ans = assistant.ask(NO_PLACE, game="riftbound")
    assert ans.verdict == "unknown" and ans.clarify is not None
    assert ans.clarify.prompt == "Where is it being played?"
    assert [o.label for o in ans.clarify.options] == ["To a battlefield you control", "To an opponent's battlefield"]
    got = _check_options(assistant, ans.clarify)
    assert all(o.ask.question.startswith(NO_PLACE) for o in ans.clarify.options)
    assert len({a.verdict for a in got}) == 2  # the place decides the ruling: that is why it is asked


@pytest.mark.parametrize(("question", "game"), [
    ("what sleeves do you guys use, dragon shield or katana?", None),
    ("can a spell with 2 targets pick the same unit twice, said the flurbish?", "riftbound"),
])
def test_no_clarification_when_no_option_would_rule(assistant, question, game) -> None:  # type: ignore[no-untyped-def]
    ans = assistant.ask(question, game=game)
    assert ans.verdict == "unknown" and ans.clarify is None


def test_a_ruling_carries_no_clarification(assistant) -> None:  # type: ignore[no-untyped-def]
    ans = assistant.ask('Does "Kill a unit at a battlefield" target the battlefield?')
    assert ans.verdict == "no" and ans.clarify is None


def test_clarify_survives_the_answer_json_round_trip(assistant) -> None:  # type: ignore[no-untyped-def]
    ans = assistant.ask(UNDETECTED)
    back = Answer.model_validate_json(ans.model_dump_json())
    assert back.clarify == ans.clarify
    assert json.loads(ans.model_dump_json())["clarify"]["options"][0]["ask"]["game"]


# ------------------------------------------------------------------ seams: a fake ask
def _ruling(question: str, game: str | None) -> Answer:
    return Answer(question=question, game=game, verdict="yes")


def _games(n: int) -> list[GameInfo]:
    return [GameInfo(id=f"game-{i}", name=f"Game {i}: The Card Game") for i in range(n)]


def test_at_most_five_options_even_when_more_rule() -> None:
    c = Clarifier(_ruling, _games(7), {"unit": 3}, slots=())
    out = c.offer(Answer(question="is it legal?", verdict="unknown"), None)
    assert out is not None and len(out.options) == 5
    assert [o.label for o in out.options] == [f"Game {i}" for i in range(5)]


def test_options_that_abstain_are_never_offered() -> None:
    def only_game_2(question: str, game: str | None) -> Answer:
        return Answer(question=question, game=game, verdict="no" if game == "game-2" else "unknown")

    out = Clarifier(only_game_2, _games(4), {}, slots=()).offer(Answer(question="q?", verdict="unknown"), None)
    assert out is not None and [o.ask.game for o in out.options] == ["game-2"]
    none = Clarifier(lambda q, g: Answer(question=q), _games(4), {}, slots=())
    assert none.offer(Answer(question="q?", verdict="unknown"), None) is None


def test_a_misspelt_card_name_is_matched_against_the_card_data(shared_dir: Path) -> None:
    data = json.loads((shared_dir / "corpus-extra" / "riftbound-cards-riftboundoc-2026-03-28.json").read_text())
    names = sorted({c["name"] for c in data["cards"]})
    c = Clarifier(_ruling, _games(1), {"deal": 2}, cards={"game-0": names}, slots=())
    assert c.close_cards("can thermo bem hit two units?", "bem", "game-0")[0] == ("thermo bem", "Thermo Beam")
    out = c.offer(Answer(question="can thermo bem hit two units?", verdict="unknown", game="game-0"),
                  "game-0", unknown=("bem",))
    assert out is not None and out.options[0].label == "Thermo Beam"
    assert out.options[0].ask.question == "can Thermo Beam hit two units?"


def test_slot_table_is_data_with_players_words() -> None:
    rules = load_slot_rules()
    assert rules and all(len(r.values) >= 2 and r.prompt.endswith("?") for r in rules)


# ------------------------------------------------------------------ scoring
def _answer(q: str, clarify: Clarify | None) -> Answer:
    return Answer(question=q, verdict="unknown", clarify=clarify)


def test_score_clicks_the_items_game_and_counts_differing_options_at_their_worst() -> None:
    game_choice = Clarify(prompt="Which game?", options=[
        ClarifyOption(label="A", ask=AskBody(question="q1", game="a")),
        ClarifyOption(label="B", ask=AskBody(question="q1", game="b"))])
    word_choice = Clarify(prompt="Did you mean:", options=[
        ClarifyOption(label="x", ask=AskBody(question="q2 x", game="a")),
        ClarifyOption(label="y", ask=AskBody(question="q2 y", game="a"))])
    verdicts = {("q1", "a"): "yes", ("q1", "b"): "no", ("q2 x", "a"): "yes", ("q2 y", "a"): "no"}
    items = [EvalItem("1", "q1", "no", game="b"), EvalItem("2", "q1", "no", game=None),
             EvalItem("3", "q2", "yes", game="a")]
    answers = [_answer("q1", game_choice), _answer("q1", game_choice), _answer("q2", word_choice)]
    r = score_clarify(items, answers, lambda q, g: Answer(question=q, game=g, verdict=verdicts[(q, g)]))  # type: ignore[arg-type]
    assert (r.abstained, r.with_clarify, r.options, r.options_ruling) == (3, 3, 6, 6)
    assert (r.correct_after, r.wrong_after, r.abstained_after) == (1, 1, 1)
    assert r.clicked_worst_case == 1


# ------------------------------------------------------------------ CLI
@pytest.fixture()
def env(default_settings, default_index, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ARBITER_INDEX_DIR", str(default_settings.index_dir))
    monkeypatch.setenv("ARBITER_CORPUS", str(default_settings.corpus[0]))
    return default_settings


def test_cli_prints_numbered_options_with_the_command_that_asks_each(env) -> None:  # type: ignore[no-untyped-def]
    r = CliRunner().invoke(app, ["ask", TYPO, "--game", "riftbound"])
    assert r.exit_code == 0, r.output
    assert "I don't know the word 'trgts'. Did you mean:" in r.stdout
    assert "  1. targets" in r.stdout
    assert "arbiter ask 'can a spell with 2 targets pick the same unit twice?' --game riftbound" in r.stdout


def test_cli_json_carries_clarify(env) -> None:  # type: ignore[no-untyped-def]
    r = CliRunner().invoke(app, ["ask", UNDETECTED, "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["verdict"] == "unknown" and d["clarify"]["options"]
    assert set(d["clarify"]["options"][0]["ask"]) == {"question", "game"}


def test_a_failing_clarification_leaves_the_abstention_as_it_was() -> None:
    def broken(question: str, game: str | None) -> Answer:
        raise RuntimeError("boom")

    c = Clarifier(broken, _games(3), {}, slots=())
    assert c.offer(Answer(question="q?", verdict="unknown"), None) is None
