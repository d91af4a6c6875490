"""Server mode against a real `chroma run`, and the CLI commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest import index_is_stale, ingest, open_index
from ingest.settings import Settings


def test_server_mode_ingest_and_search(chroma_server: str, shared_dir: Path, tmp_path: Path) -> None:
    settings = Settings(corpus=[shared_dir / "corpus"], index_dir=tmp_path / "unused", chroma_url=chroma_server)
    summary = ingest(settings)
    assert not summary.errors and summary.rules > 50
    assert not (tmp_path / "unused" / "chroma").exists()  # nothing embedded on disk
    assert ingest(settings).unchanged
    assert not index_is_stale(settings)
    index = open_index(settings)
    hits = index.search("a character whose thwart is zero using a basic thwart", game="marvel-champions", k=5)
    assert "target.3.2" in [h.rule.number for h in hits]
    assert index.lookup("11.4").children


@pytest.fixture
def cli_env(default_index, default_settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("ARBITER_INDEX_DIR", str(default_settings.index_dir))
    monkeypatch.setenv("ARBITER_CORPUS", str(default_settings.corpus[0]))
    return default_settings


def test_cli_rule_and_search(cli_env: Settings) -> None:
    from arbiter_cli.main import app

    runner = CliRunner()
    res = runner.invoke(app, ["rule", "11.4", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["rule"]["number"] == "11.4" and len(data["children"]) == 9
    res = runner.invoke(app, ["rule", "11.4", "--no-children", "--json"])
    assert json.loads(res.stdout)["children"] == []
    res = runner.invoke(app, ["rule", "355.19", "--game", "riftbound"])
    assert res.exit_code == 2 and "355.18" in res.stderr
    res = runner.invoke(app, ["search", "split damage targets", "--game", "riftbound", "-k", "3", "--json"])
    assert res.exit_code == 0
    hits = json.loads(res.stdout)
    assert len(hits) == 3 and all(h["rule"]["game"] == "riftbound" for h in hits)
    res = runner.invoke(app, ["search", "x", "--game", "no-such-game"])
    assert res.exit_code == 2 and "unknown game" in res.stderr
    res = runner.invoke(app, ["ingest"])
    assert res.exit_code == 0 and "unchanged" in res.stdout


def test_cli_ingest_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter_cli.main import app

    monkeypatch.setenv("ARBITER_INDEX_DIR", str(tmp_path / "idx"))
    runner = CliRunner()
    res = runner.invoke(app, ["ingest", str(tmp_path / "missing")])
    assert res.exit_code == 2 and "no such file" in res.stderr
    (tmp_path / "r.txt").write_text("101. Rule.\n", encoding="utf-8")
    res = runner.invoke(app, ["ingest", str(tmp_path / "r.txt")])
    assert res.exit_code == 2 and "--game" in res.stderr
    res = runner.invoke(app, ["rule", "101"])
    assert res.exit_code == 2 and "arbiter ingest" in res.stderr
