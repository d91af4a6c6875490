"""The command line's question paths stay light: `arbiter ask`, `search` and `rule` in a
fresh process answer without importing torch, transformers or sentence-transformers (their
import alone took seconds), and give the same results as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ingest.embedding import prepare_query_model
from ingest.settings import REPO_ROOT, Settings

HEAVY = ("torch", "transformers", "sentence_transformers")

RUNNER = f"""
import sys
from arbiter_cli.main import app
try:
    app(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print(repr(sorted(m for m in {HEAVY!r} if m in sys.modules)), code, file=sys.stderr)
"""


def _run(settings: Settings, *args: str) -> tuple[str, list[str], int]:
    env = dict(os.environ, ARBITER_INDEX_DIR=str(settings.index_dir),
               ARBITER_CORPUS=os.pathsep.join(str(p) for p in settings.corpus),
               ARBITER_MODEL_CACHE_DIR=str(settings.model_cache_dir), PYTHONPATH=str(REPO_ROOT))
    p = subprocess.run([sys.executable, "-c", RUNNER, *args], cwd=REPO_ROOT, env=env,
                       capture_output=True, text=True, timeout=300, check=False)
    modules, code = p.stderr.strip().splitlines()[-1].rsplit(" ", 1)
    return p.stdout, eval(modules), int(code)


@pytest.fixture(scope="module")
def exported(default_settings: Settings, default_index: object) -> Settings:
    prepare_query_model(default_settings.embedding_model, default_settings.model_cache_dir)
    return default_settings


def test_cold_ask_answers_without_torch(exported: Settings) -> None:
    out, heavy, code = _run(exported, "ask", 'Does "Kill a unit" target the unit?', "--game", "riftbound", "--json")
    assert code == 0
    assert json.loads(out)["verdict"] == "yes"
    assert heavy == []


def test_cold_search_finds_rules_without_torch(exported: Settings) -> None:
    out, heavy, code = _run(exported, "search", "legend readying", "--game", "riftbound", "--json")
    assert code == 0
    hits = json.loads(out)
    assert hits and all(h["rule"]["game"] == "riftbound" for h in hits)
    assert heavy == []


def test_cold_rule_lookup_without_torch(exported: Settings) -> None:
    out, heavy, code = _run(exported, "rule", "355.14", "--game", "riftbound", "--json")
    assert code == 0
    assert json.loads(out)["rule"]["number"] == "355.14"
    assert heavy == []
