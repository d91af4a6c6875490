"""Round 2 wording mechanisms: players' synonyms, stat changes, the asked property (its
negation: "automatic", "stays locked", "is lost"), "X itself", the object a question
proposes as target, quoted restrictions, stated scheme threat, "unless" exception clauses.
Questions are our own wording, not any evaluation set's."""

from __future__ import annotations

import pytest

from assistant import Assistant
from assistant.parse import ParseFailure, _scheme_threat, stat_change
from assistant.textnorm import canonical, normalise


# ------------------------------------------------------------------ unit: vocabulary
@pytest.mark.parametrize("slang, canon", [
    ("Can I aim it at the villain?", "Can I target the villain?"),
    ("Could it be aimed at a scheme?", "Could it target a scheme?"),
    ("Can I aim my spell at that unit?", "Can I target that unit with my spell?"),
    ("Can I go after two units?", "Can I target two units?"),
    ("How many do I let go of?", "How many do I drop?"),
    ("Is the legend still considered targeted?", "Is the legend still targeted?"),
])
def test_players_words_become_rules_words(slang: str, canon: str) -> None:
    assert canonical(slang) == canon


def test_quoted_card_text_is_never_rewritten() -> None:
    q = "Does 'Zap a unit, then aim at it' work?"
    assert "'Zap a unit, then aim at it'" in normalise(q)


@pytest.mark.parametrize("text, want", [
    ("it got shrunk to 2 Might", ("set_stat", 2)),
    ("one was pumped to 4 Might", ("set_stat", 4)),
    ("the unit gained 3 Might", ("modify_stat", 3)),
    ("it loses 1 Might", ("modify_stat", -1)),
    ("it was debuffed by 2 Might", ("modify_stat", -2)),
    ("two got +2 Might", ("modify_stat", 2)),
])
def test_stat_change_to_n_sets_and_by_n_modifies(text: str, want: tuple[str, int]) -> None:
    got = stat_change(text)
    assert got is not None and got[:2] == want


def test_scheme_threat_must_be_stated() -> None:
    assert _scheme_threat("a crisis icon; the main scheme is the only scheme with threat")[1] == 0
    assert _scheme_threat("a crisis icon; a side scheme has 1 threat too")[1] > 0
    with pytest.raises(ParseFailure):
        _scheme_threat("a crisis icon is in play")


# ------------------------------------------------------------------ end to end
def _v(a: Assistant, q: str, game: str) -> str:
    return a.ask(q, game=game).verdict


def test_noun_itself_is_that_noun_not_the_ability(assistant: Assistant) -> None:
    g = "riftbound"
    assert _v(assistant, "With 'Stun a unit; its controller draws 1', is the unit itself targeted?", g) == "yes"
    assert _v(assistant, "Does 'Stun all units at a battlefield' target the battlefield itself?", g) == "yes"
    assert _v(assistant, "Can a spell choose itself as a target?", g) == "no"


def test_asked_absence_of_targeting_inverts(assistant: Assistant) -> None:
    g = "riftbound"
    plain = _v(assistant, "Just one unit is there. Is it targeted by 'Stun a unit at a battlefield'?", g)
    neg = _v(assistant, "Just one unit is there. Is 'Stun a unit at a battlefield' then an automatic selection with no targeting?", g)
    assert plain == "yes" and neg == "no"


def test_staying_fixed_is_the_converse_of_changing(assistant: Assistant) -> None:
    g = "riftbound"
    assert _v(assistant, "Can I change my targets after finalization?", g) == "no"
    assert _v(assistant, "Is it true that chosen targets stay fixed after finalization unless an effect says to change them?", g) == "yes"


def test_lost_portion_is_the_converse_of_reassignment(assistant: Assistant) -> None:
    g = "momon-wonder"
    assert _v(assistant, "Is it true that damage assigned to a target that became illegal is lost unless the Ability says to redistribute?", g) == "yes"


def test_proposed_target_type_is_checked(assistant: Assistant) -> None:
    g = "momon-wonder"
    assert _v(assistant, "My Ability's text only identifies game objects as targets. Could I aim it at a player?", g) == "no"
    assert _v(assistant, "Could an Ability target an Arena Space if its text only mentions game objects?", g) == "no"


def test_quoted_restriction_is_read(assistant: Assistant) -> None:
    g = "marvel-champions"
    q = "A minion 'cannot take damage'. Can I target it with a 'deal 2 damage to a minion' event?"
    assert _v(assistant, q, g) == "no"


def test_scheme_threat_decides_crisis_question(assistant: Assistant) -> None:
    g = "marvel-champions"
    base = "Crisis icon in play{}. May I play 'remove 1 threat from each scheme'?"
    assert _v(assistant, base.format(" and only the main scheme has threat"), g) == "no"
    assert _v(assistant, base.format("; a side scheme has 1 threat"), g) == "yes"
    assert _v(assistant, base.format(""), g) == "unknown"


def test_might_shrunk_to_n_sets_the_amount(assistant: Assistant) -> None:
    a = assistant.ask("Alpha Strike: my unit had 5 Might and I chose 5 targets, then it got shrunk to 2 Might. "
                      "How many targets must I let go?", game="riftbound")
    assert a.value == 3
