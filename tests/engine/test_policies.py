"""Policies: registry, and citing a fuller Riftbound edition when it is the source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import RuleRef, UndecidableError, UnknownGame, decide, get_policy, load_scenario
from engine.policies.riftbound import RiftboundPolicy

GOLDEN = Path(__file__).resolve().parents[2] / "engine" / "golden"


def _scenario(name: str) -> object:
    return load_scenario(json.loads((GOLDEN / f"{name}.json").read_text())["scenario"])


def test_registry() -> None:
    assert get_policy("riftbound").game == "riftbound"
    with pytest.raises(UnknownGame):
        get_policy("chess")


@pytest.mark.parametrize(("name", "rule"), [
    ("rb_hidden_hand_not_targeted", "355.10.a"),
    ("rb_unit_at_battlefield_not_bf", "355.10.b"),
    ("rb_its_controller_not_target", "355.10.d"),
    ("rb_alpha_5_to_3_drop_two", "355.14.h"),
    ("rb_foxfire_two_2s", "355.11.b"),
    ("rb_other_choices_at_resolution", "355.17"),
])
def test_full_rules_cited(name: str, rule: str) -> None:
    s = _scenario(name)
    full = RiftboundPolicy(core_doc="riftbound-core-rules-v1.3")
    default = decide(s)  # type: ignore[arg-type]
    got = decide(s, full)  # type: ignore[arg-type]
    assert got.verdict == default.verdict and got.value == default.value
    assert RuleRef(doc="riftbound-core-rules-v1.3", rule=rule) in got.rules
    assert all(r.doc != "riftbound-core-rules" for r in got.rules)


def test_mandatory_requirement_absent_from_full_edition() -> None:
    with pytest.raises(UndecidableError):
        decide(_scenario("rb_here_to_help_mandatory"),  # type: ignore[arg-type]
               RiftboundPolicy(core_doc="riftbound-core-rules-v1.3"))


def test_undecidable_question_for_game() -> None:
    s = _scenario("rb_355_16_declared")
    data = json.loads(s.model_dump_json())  # type: ignore[attr-defined]
    data["game"] = "marvel-champions"
    data["question"] = {"kind": "choice_timing", "choice": "may"}
    with pytest.raises(UndecidableError):
        decide(load_scenario(data))


def test_policies_are_discovered_not_listed() -> None:
    from engine.policies import available_games

    assert {"riftbound", "marvel-champions", "momon-wonder", "mtg"} <= set(available_games())


def test_magic_says_why_in_its_own_terms() -> None:
    each = decide(_scenario("mtg_each_creature_not_target"))  # type: ignore[arg-type]
    assert each.verdict == "no" and "only what the text calls \"target\"" in each.reason
    cast = decide(_scenario("mtg_targets_chosen_on_cast"))  # type: ignore[arg-type]
    assert cast.verdict == "yes" and "as the spell is cast" in cast.reason


def test_hexproof_bars_only_opponents_and_ward_is_noted() -> None:
    ward = decide(_scenario("mtg_ward_still_targetable"))  # type: ignore[arg-type]
    assert ward.verdict == "yes"
    assert any(s.rule == "702.21a" for s in ward.trace)
    own = decide(_scenario("mtg_hexproof_own_can_target"))  # type: ignore[arg-type]
    theirs = decide(_scenario("mtg_hexproof_opponent_cannot_target"))  # type: ignore[arg-type]
    assert (own.verdict, theirs.verdict) == ("yes", "no")
