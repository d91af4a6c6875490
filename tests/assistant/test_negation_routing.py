"""Round 3: negative predicates (default-deny), known-example routing, kept targets, stat
cuts, empty choices and the 355.16 cost conflict. Every question is our own wording."""

from __future__ import annotations

import pytest

from assistant import Assistant
from assistant.coverage import cues, polarity
from assistant.intents import KindClassifier
from assistant.textnorm import normalise


def _ask(assistant: Assistant, q: str, game: str) -> tuple[str, int | None, list[str]]:
    a = assistant.ask(q, game=game)
    return a.verdict, a.value, [c.rule for c in a.citations]


# ------------------------------------------------------------------ unit: polarity
@pytest.mark.parametrize(
    ("text", "word"),
    [
        ('Is it true that "Stun a unit" stops being targeted when only one unit exists?', "stops being"),
        ("Is it true that the ability fails to reach the queue with one legal target?", "fails to"),
        ("Is it true that with two targets still legal, none of them gets hit?", "none of"),
        ("Is it true that the unit ceases to be chosen here?", "ceases to"),
        ("Does the ability fail to go on the chain with zero picks?", "fail to"),
    ],
)
def test_negative_predicates_invert(text: str, word: str) -> None:
    p = polarity(text)
    assert p.negated and p.words.lower() == word


def test_negative_predicate_in_a_subordinate_clause_is_not_inverted() -> None:
    assert not polarity("Is it true that a unit which fails to survive is affected?").negated
    assert not polarity("Can I add back a unit that stopped being legal?").negated


@pytest.mark.parametrize("word", ["nothing", "neither", "without", "loses", "unable", "prevents", "forbidden",
                                  "illegal to", "no longer", "none of", "ceases to", "fizzles"])
def test_negation_words_are_cues(word: str) -> None:
    assert any(c.category == "negation" for c in cues(f"Does the spell {word} do it?"))


# ------------------------------------------------------------------ unit: question forms
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Could two of those stay as targets afterwards?", "legal_subset"),
        ("Do the rules let me pick nothing for 'up to 2 targets'?", "legal_targets"),
    ],
)
def test_new_question_forms(text: str, kind: str) -> None:
    g = KindClassifier().grammar(normalise(text))
    assert g is not None and g.kind == kind


# ------------------------------------------------------------------ end to end
@pytest.mark.parametrize(
    ("plain", "negated", "game"),
    [
        ('When just 1 unit can be chosen, is it targeted by "Stun a unit"?',
         'Is it true that when just 1 unit can be chosen, it stops being a target of "Stun a unit"?', "riftbound"),
        ("Does an 'up to 3 targets' Ability with only 1 legal target enter the Trigger Queue?",
         "Is it true that an 'up to 3 targets' Ability with only 1 legal target fails to enter the Trigger Queue?",
         "momon-wonder"),
    ],
)
def test_negative_predicate_inverts_end_to_end(assistant: Assistant, plain: str, negated: str, game: str) -> None:
    v1, _, c1 = _ask(assistant, plain, game)
    v2, _, c2 = _ask(assistant, negated, game)
    assert v1 in {"yes", "no"}
    assert v2 == ("no" if v1 == "yes" else "yes")
    assert c1[:1] == c2[:1]


def test_none_of_the_targets_affected(assistant: Assistant) -> None:
    g = "momon-wonder"
    # 11.4.5: with a legal target left, the legal ones are affected; "none" is false.
    v, _, c = _ask(assistant, "Is it true that if 2 of 4 targets are still legal when it resolves, none of the targets is affected?", g)
    assert v == "no" and c[0] == "11.4.5"


@pytest.mark.parametrize(
    ("question", "game"),
    [
        ("Does the unit lose its target status when its controller gains 2 life for \"Stun a unit\"?", "riftbound"),
        ("With 'choose 2 targets', is nothing affected if neither target is left?", "momon-wonder"),
    ],
)
def test_unaccounted_negation_abstains(assistant: Assistant, question: str, game: str) -> None:
    a = assistant.ask(question, game=game)
    assert a.verdict == "unknown", (a.answer, a.scenario)


def test_unable_to_is_understood(assistant: Assistant) -> None:
    # A villain is outside a "minion" pool: the statement that it can't be chosen is true.
    q = 'Is it true that the ability is unable to pick the villain for "deal 2 damage to a minion"?'
    assert _ask(assistant, q, "marvel-champions")[0] == "yes"


def test_obligation_about_a_constrained_known_example_is_mandatory(assistant: Assistant) -> None:
    g = "riftbound"
    # 355.17: Rek'Sai's "here" is permissive; Here to Help's battlefield is a requirement.
    v, _, c = _ask(assistant, "With Rek'Sai, am I obliged to put the revealed unit into play here?", g)
    assert v == "no" and c[0] == "355.17"
    v, _, c = _ask(assistant, "Here to Help: is a unit I play with it forced to go to a battlefield I control?", g)
    assert v == "yes" and c[0] == "355.17"


def test_known_example_in_an_unrelated_kind_abstains(assistant: Assistant) -> None:
    a = assistant.ask("Can I play Rek'Sai, Swarm Queen's unit at all?", game="riftbound")
    assert a.verdict == "unknown"


def test_remaining_targets_after_a_cut(assistant: Assistant) -> None:
    g = "riftbound"
    # Guide: 3 damage for 5 chosen -> exactly 3 remain; 4 cannot remain.
    q = "Alpha Strike: my unit had 5 Might and I picked five enemy units, then it was cut to {m} Might. Can {k} of them remain targets?"
    assert _ask(assistant, q.format(m=3, k=3), g)[0] == "yes"
    v, value, _ = _ask(assistant, q.format(m=3, k=4), g)
    assert v == "no" and value is None  # a yes/no question carries no value


def test_zero_chosen_for_any_number(assistant: Assistant) -> None:
    v, _, c = _ask(assistant, 'A spell hits "up to" 2 units. If I pick zero of them, may I still play it without any targets?', "riftbound")
    assert v == "yes" and c[0] == "355.13"
    v, _, c = _ask(assistant, 'Does "choose up to 4 targets" allow choosing none?', "momon-wonder")
    assert v == "yes" and c[0] == "11.4.2"


def test_cost_that_removes_the_chosen_unit(assistant: Assistant) -> None:
    text = ('"As an additional cost to play this, kill the unit you control with the most Might. '
            'Give a friendly unit +2 Might this turn."')
    v, _, c = _ask(assistant, f"A card says {text} Can my highest-Might unit get the buff as its target?", "riftbound")
    assert v in {"no", "unknown"}
    v, _, c = _ask(assistant, f"A card says {text} Can I target my highest-Might unit with the +2 Might?", "riftbound")
    assert v == "no" and c[0] == "355.16"
