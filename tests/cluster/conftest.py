"""A small Arbiter cluster on loopback: a real PostgreSQL 15 and a real Chroma server,
shared by two `arbiter serve` processes on two ports."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
from cluster_support import Cluster
from nacl.signing import SigningKey
from support import free_port, server_process

from ingest.settings import REPO_ROOT, Settings


@pytest.fixture(scope="module")
def cluster(
    tmp_path_factory: pytest.TempPathFactory,
    postgres_url: str,
    chroma_server: str,
    shared_dir: Path,
) -> Iterator[Cluster]:
    base = tmp_path_factory.mktemp("cluster")
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute("CREATE DATABASE cluster")
    database_url = postgres_url.rsplit("/", 1)[0] + "/cluster"
    corpus = shared_dir / "corpus"

    from ingest import ingest

    summary = ingest(Settings(corpus=[corpus], index_dir=base / "ingest", chroma_url=chroma_server))
    assert not summary.errors and summary.rules > 0

    key = SigningKey.generate()
    env = dict(os.environ)
    env.update(
        ARBITER_DATABASE_URL=database_url,
        ARBITER_CHROMA_URL=chroma_server,
        ARBITER_CORPUS=str(corpus),
        ARBITER_RATE_LIMIT_PER_MINUTE="1",
        ARBITER_TRUSTED_PROXIES="127.0.0.1",
        ARBITER_DISCORD_PUBLIC_KEY=key.verify_key.encode().hex(),
        ARBITER_DISCORD_API_BASE="http://127.0.0.1:9",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
    )
    env.pop("ARBITER_DB_PATH", None)
    with ExitStack() as stack:
        urls, processes = [], []
        for name in ("a", "b"):
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            own = dict(env, ARBITER_INDEX_DIR=str(base / f"index-{name}"),
                       ARBITER_PUBLIC_BASE_URL=url)
            args = [sys.executable, "-m", "arbiter_cli", "serve", "--host", "127.0.0.1",
                    "--port", str(port)]
            processes.append(stack.enter_context(server_process(
                args, f"{url}/readyz", base / f"server-{name}.log", env=own, cwd=REPO_ROOT,
                timeout=180,
            )))
            urls.append(url)
        yield Cluster(urls, processes, env, key)
