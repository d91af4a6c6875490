"""An override the question denies ("the text doesn't defer it") is no override, and the
alternative a contrast tag sets aside ("..., right? not after?") turns nothing. Questions
are our own wording, not any evaluation set's."""

from __future__ import annotations

from assistant import Assistant
from assistant.facts import polar_words


def test_a_denied_deferral_leaves_the_mode_chosen_when_it_enters_the_queue(assistant: Assistant) -> None:
    q = "modal trigger: do I choose its mode as it enters the queue (the text does not defer the choice)?"
    got = assistant.ask(q, game="momon-wonder")
    assert got.verdict == "yes"


def test_a_stated_deferral_moves_the_mode_choice_to_resolution(assistant: Assistant) -> None:
    q = "modal trigger: do I choose its mode as it enters the queue if the text explicitly defers the choice?"
    assert assistant.ask(q, game="momon-wonder").verdict == "no"


def test_the_alternative_a_contrast_tag_sets_aside_is_no_turning_word() -> None:
    assert "after" not in polar_words("the unit dies before scoring, right? not after?")
    assert "after" in polar_words("does the unit die after scoring?")
