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
