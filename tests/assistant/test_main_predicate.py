"""Round 4: main-predicate question kinds, head-noun subjects, number and asked-object
accounting, more negative predicates. Every question is our own wording."""

from __future__ import annotations

import pytest

from assistant import Assistant
from assistant.coverage import polarity
from assistant.intents import KindClassifier, target_mentions
from assistant.textnorm import normalise


@pytest.mark.parametrize(
    ("text", "not_kind"),
    [
        ("When I finalize it, do I have to fix the amounts Alpha Strike splits among its targets?", "is_target"),
        ("Zed's two 1 Might targets now include one at 4 Might. Is killing both still fine?", "is_target"),
    ],
)
def test_target_in_a_noun_or_prepositional_phrase_does_not_pick_the_kind(text: str, not_kind: str) -> None:
    g = KindClassifier().classify(normalise(text))
    assert g.kind != not_kind


def test_predicate_nominal_still_asks_is_target() -> None:
    assert target_mentions("Is the battlefield 1 of its targets?") == []
    g = KindClassifier().grammar(normalise("Is the battlefield one of Fox-Fire's targets?"))
    assert g is not None and g.kind == "is_target"


@pytest.mark.parametrize(("text", "word"), [
    ("Is it illegal for a spell to choose itself?", "illegal for"),
    ("Is a unit named only in a cost excluded from being a target?", "excluded from"),
    ("There are no units. Is casting it impossible?", "impossible"),
    ("Is the minion an invalid target?", "invalid "),
])
def test_new_negative_predicates_invert_in_the_main_clause(text: str, word: str) -> None:
    p = polarity(text)
    assert p.negated and p.words.lower() == word


def test_negative_word_in_the_situation_sentence_is_not_the_predicate() -> None:
    assert not polarity("Both targets are now invalid. Is the gain-life part done?").negated


def _v(a: Assistant, q: str, game: str) -> str:
    return a.ask(q, game=game).verdict


@pytest.mark.parametrize(
    ("q", "game", "expect"),
    [
        # subject = head noun: the units, not the battlefield in the modifier
        ('For "Stun all units at a battlefield", is every unit at that battlefield targeted?', "riftbound", "no"),
        ('For "Stun all units at a battlefield", is the battlefield targeted?', "riftbound", "yes"),
        # negative main predicates
        ("Is it illegal for a triggered ability to target itself?", "riftbound", "yes"),
        ("Is a unit named only in a replacement effect excluded from being a target?", "riftbound", "yes"),
        # asked-object accounting binds "the remaining legal one"
        ("When it resolves, one of an Ability's two targets has become illegal. Is the remaining legal one still affected?",
         "momon-wonder", "yes"),
        # "voided and cancelled" asks 11.4.5 the other way round: the legal target is affected
        ("Two of an Ability's three targets are illegal at resolution. Is the part on the legal third one voided and cancelled?",
         "momon-wonder", "no"),
    ],
)
def test_round4_verdicts(assistant: Assistant, q: str, game: str, expect: str) -> None:
    assert _v(assistant, q, game) == expect


@pytest.mark.parametrize(
    ("q", "game"),
    [
        # an unread number (one of them at 3 Might) -> abstain, never the all-at-1 reading
        ("Fox-Fire's three 1 Might targets now have one at 3 Might among them. Is killing all three allowed?", "riftbound"),
        # an asked object with no matching scenario object
        ("When it resolves, all three of an Ability's targets are illegal. Is the remaining legal one affected?", "momon-wonder"),
        # two quoted abilities compared
        ('Is "Stun a friendly unit" non-targeting just like "Ready your legend"?', "riftbound"),
    ],
)
def test_round4_abstentions(assistant: Assistant, q: str, game: str) -> None:
    assert _v(assistant, q, game) == "unknown"
