"""Web fixtures: an in-process app over the session index, and a live server."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support import free_port, server_process

from ingest.settings import REPO_ROOT, Settings
from web import LocalServices, create_app


@pytest.fixture()
def client(default_settings: Settings, web_services: LocalServices) -> Iterator[TestClient]:
    with TestClient(create_app(default_settings, services=web_services)) as c:
        assert web_services.wait_warm(timeout=300), "the start-up warm-up did not finish"
        yield c


@pytest.fixture(scope="session")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, default_settings: Settings, default_index: object
) -> Iterator[str]:
    """A real `arbiter serve` process on 127.0.0.1 over a copy of the session index."""
    base = tmp_path_factory.mktemp("live")
    index_dir = base / "index"
    shutil.copytree(default_settings.index_dir, index_dir)
    port = free_port()
    env = dict(os.environ)
    env.update(
        ARBITER_CORPUS=os.pathsep.join(str(p) for p in default_settings.corpus),
        ARBITER_INDEX_DIR=str(index_dir),
        ARBITER_DB_PATH=str(base / "arbiter.sqlite3"),
        ARBITER_RATE_LIMIT_PER_MINUTE="0",
        ARBITER_PUBLIC_BASE_URL=f"http://127.0.0.1:{port}",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
    )
    env.pop("ARBITER_CHROMA_URL", None)
    url = f"http://127.0.0.1:{port}"
    args = [sys.executable, "-m", "arbiter_cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with server_process(args, f"{url}/readyz", base / "server.log", env=env, cwd=REPO_ROOT):
        yield url


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    path = REPO_ROOT / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
