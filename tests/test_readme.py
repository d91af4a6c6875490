"""Item 17: the README tells a new user what they need, and what it names exists."""

from __future__ import annotations

import re

from ingest.settings import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.DOTALL | re.MULTILINE)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def test_readme_explains_running_serving_health_adding_games_timing_and_troubleshooting() -> None:
    cli = _section("Command line")
    assert ".venv/bin/arbiter" in cli and "source .venv/bin/activate" in cli
    assert "arbiter --version" in cli
    setup = _section("Set-up (a fresh machine, from a clean clone)")
    assert "HOST=" in setup and "PORT=" in setup
    api = _section("HTTP API")
    assert "/healthz" in api and "/readyz" in api and "liveness" in api and "readiness" in api
    game = _section("Adding a game")
    for needed in ("corpus.toml", "terms", "register_policy", "engine/policies/"):
        assert needed in game
    assert re.search(r"full corpus.*?about \d+ minutes", _section("How ingestion behaves"), re.DOTALL)
    assert len(re.findall(r"^\* \*\*", _section("Troubleshooting"), re.MULTILINE)) >= 5


def test_files_the_readme_names_exist() -> None:
    for path in ("engine/policies/registry.py",
                 "assistant/games.py", "assistant/known.py", "scripts/ensure-chromium.sh",
                 "engine/COVERAGE.md", "docs/anchors.md"):
        assert path in README, path
        assert (REPO_ROOT / path).exists(), path
