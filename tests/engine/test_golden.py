"""Golden scenarios: every worked example of the four corpus documents, with the
documented outcome and the rule that decides it (engine/golden/*.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import RuleRef, decide, load_scenario

GOLDEN = Path(__file__).resolve().parents[2] / "engine" / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden(path: Path) -> None:
    case = _load(path)
    exp = case["expect"]
    decision = decide(load_scenario(case["scenario"]))
    if "verdict" in exp:
        assert decision.verdict == exp["verdict"], decision.reason
    if "value" in exp:
        assert decision.value == exp["value"], decision.reason
    assert RuleRef(**exp["rule"]) in decision.rules, decision.rules
    assert decision.reason and "\n" not in decision.reason
    assert decision.trace, "every decision has at least one trace step"
    if "options_count" in exp:
        assert decision.options is not None and len(decision.options) == exp["options_count"]
    got = [sorted(o.objects) for o in (decision.options or [])]
    for inc in exp.get("options_include", []):
        assert sorted(inc) in got
    for exc in exp.get("options_exclude", []):
        assert sorted(exc) not in got


def test_goldens_exist() -> None:
    assert len(FILES) >= 60
