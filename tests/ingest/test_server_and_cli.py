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
    assert res.exit_code == 3 and "355.18" in res.stderr  # not found: its own status, not usage
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


def test_cli_version_prints_the_package_version() -> None:
    from arbiter_cli.main import app
    from ingest.version import package_version

    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0
    assert res.stdout.strip() == f"arbiter {package_version()}"
    assert package_version() != "0+unknown"


def test_cli_rule_not_found_for_any_string_has_its_own_status_and_no_traceback(
    cli_env: Settings,
) -> None:
    from arbiter_cli.ingest_cmds import RULE_NOT_FOUND as NOT_FOUND
    from arbiter_cli.main import app

    runner = CliRunner()
    for number in ("9" * 4301, "x" * 5000, "355." + "1" * 400, "../../etc/passwd"):
        res = runner.invoke(app, ["rule", number, "--game", "riftbound"])
        assert res.exit_code == NOT_FOUND == 3, (number[:20], res.output[-500:])
        assert "Traceback" not in res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)
        assert "nearest: 355" in res.stderr
        assert len(res.stderr) < 500  # the huge number is not echoed back in full


def test_cli_rule_prints_where_the_rule_comes_from_and_what_it_is(cli_env: Settings) -> None:
    from arbiter_cli.main import app

    res = CliRunner().invoke(app, ["rule", "355.14", "--game", "riftbound"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Rule 355.14" in out
    assert "Riftbound Core Rules" in out and "riftbound-core-rules" in out  # the source
    assert "in 355" in out  # its place in the document
    assert "a heading" in out  # a one-word rule says why there is nothing more


def test_cli_feedback_export_to_a_missing_folder_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbiter_cli.main import app

    monkeypatch.setenv("ARBITER_DB_PATH", str(tmp_path / "db.sqlite3"))
    res = CliRunner().invoke(app, ["feedback", "export", "-o", str(tmp_path / "nope" / "x.jsonl")])
    assert res.exit_code == 1
    assert res.stderr.startswith("error: cannot write") and "No such file" in res.stderr
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "Traceback" not in res.output


def test_ingest_progress_shows_the_model_loading(
    corpus_copy: Path, make_settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rich.progress

    shown: list[str] = []
    real_add_task = rich.progress.Progress.add_task

    def add_task(self, description, *args, **kwargs):  # type: ignore[no-untyped-def]
        shown.append(description)
        return real_add_task(self, description, *args, **kwargs)

    monkeypatch.setattr(rich.progress.Progress, "add_task", add_task)
    from ingest import ingest

    summary = ingest(make_settings([corpus_copy]), progress=True)
    assert summary.rules > 0
    assert shown[:2] == ["Loading the embedding model", "Embedding rules"]
