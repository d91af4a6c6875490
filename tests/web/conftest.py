"""Web fixtures: an in-process app over the session index, and a live server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from ingest.settings import REPO_ROOT, Settings
from web import LocalServices, create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture()
def client(default_settings: Settings, web_services: LocalServices) -> Iterator[TestClient]:
    with TestClient(create_app(default_settings, services=web_services)) as c:
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
    log = (base / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "arbiter_cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=REPO_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"arbiter serve exited: {(base / 'server.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/readyz", timeout=60).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("arbiter serve did not become ready in 120 s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    path = REPO_ROOT / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
