"""`arbiter check` and `arbiter schema` through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from arbiter_cli.main import app

GOLDEN = Path(__file__).resolve().parents[2] / "engine" / "golden"
runner = CliRunner()


def _scenario_file(tmp_path: Path, name: str) -> tuple[Path, dict[str, object]]:
    case = json.loads((GOLDEN / f"{name}.json").read_text())
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(case["scenario"]))
    expect: dict[str, object] = case["expect"]
    return path, expect


def test_check_golden_json(tmp_path: Path) -> None:
    path, expect = _scenario_file(tmp_path, "rb_alpha_5_to_3_drop_two")
    result = runner.invoke(app, ["check", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["verdict"] == expect["verdict"]
    assert out["value"] == expect["value"]
    assert expect["rule"] in out["rules"]


def test_check_golden_text(tmp_path: Path) -> None:
    path, _ = _scenario_file(tmp_path, "mw_exact_3_only_2_ceases")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0
    assert result.stdout.startswith("NO:")
    assert "momon-wonder-cr 11.4.3" in result.stdout


def test_check_malformed_names_field(tmp_path: Path) -> None:
    path, _ = _scenario_file(tmp_path, "rb_kill_a_unit_targets")
    data = json.loads(path.read_text())
    data["ability"]["effects"][0]["selection"]["count"]["mode"] = "several"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2
    assert "ability.effects.0.selection.count.mode" in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_check_not_json_and_missing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert runner.invoke(app, ["check", str(bad)]).exit_code == 2
    assert runner.invoke(app, ["check", str(tmp_path / "missing.json")]).exit_code == 2


def test_check_unknown_game_and_id(tmp_path: Path) -> None:
    path, _ = _scenario_file(tmp_path, "rb_kill_a_unit_targets")
    data = json.loads(path.read_text())
    data["game"] = "chess"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2 and "game" in result.stderr


def test_schema() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert "question" in schema["properties"]
    assert schema["properties"]["schema_version"]["const"] == 1
