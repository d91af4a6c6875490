"""`arbiter ask --json`, `--jsonl` and `eval` through typer's CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from arbiter_cli.main import app


@pytest.fixture()
def env(default_settings, default_index, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ARBITER_INDEX_DIR", str(default_settings.index_dir))
    monkeypatch.setenv("ARBITER_CORPUS", str(default_settings.corpus[0]))
    return default_settings


def test_ask_json(env) -> None:  # type: ignore[no-untyped-def]
    r = CliRunner().invoke(app, ["ask", 'Does "Kill a unit" target the unit?', "--game", "riftbound", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["verdict"] == "yes" and d["game"] == "riftbound" and d["citations"]


def test_ask_unknown_game_exit_2(env) -> None:  # type: ignore[no-untyped-def]
    r = CliRunner().invoke(app, ["ask", "Is it a target?", "--game", "chess"])
    assert r.exit_code == 2 and "chess" in r.stderr


def test_ask_jsonl(env, tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "q.jsonl"
    f.write_text('{"id": "a", "question": "Does \\"Ready your legend\\" target?", "game": "riftbound"}\n'
                 "not json\n"
                 '{"id": "c", "question": "What is the best deck?"}\n')
    r = CliRunner().invoke(app, ["ask", "--jsonl", str(f)])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["verdict"] for x in rows] == ["no", "unknown", "unknown"]
    assert rows[0]["id"] == "a" and rows[2]["id"] == "c" and rows[1]["error"]


def test_ask_jsonl_missing_file(env, tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = CliRunner().invoke(app, ["ask", "--jsonl", str(tmp_path / "nope.jsonl")])
    assert r.exit_code == 2 and "cannot read" in r.stderr


def test_eval_dev(env, dev_path) -> None:  # type: ignore[no-untyped-def]
    r = CliRunner().invoke(app, ["eval", str(dev_path), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["accuracy"] >= 0.95 and d["wrong_on_unknown"] == 0 and d["citation_hit"] >= 0.95


def test_explain(env) -> None:  # type: ignore[no-untyped-def]
    r = CliRunner().invoke(app, ["ask", "Does \"Ready a friendly legend\" target the legend?", "--game",
                                 "riftbound", "--explain"])
    assert r.exit_code == 0 and "question kind" in r.stdout and "<-" in r.stdout
