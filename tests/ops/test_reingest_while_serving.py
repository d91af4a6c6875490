"""Item 1: a re-ingest from another process while `arbiter serve` runs. The server follows
the new build (pointer record) with no failed request, and the replaced build is kept
(retired) for the grace period so requests in flight finish on it."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import chromadb
import httpx
from support import arbiter, free_port, server_process

from ingest.settings import REPO_ROOT
from ingest.store import read_marks, read_state

ZEBRAS = "\n\nAn added closing paragraph about zebras crossing the battlefield.\n"


def test_server_follows_a_reingest_from_another_process_without_a_failed_request(
    tmp_path: Path, corpus_copy: Path, arbiter_env: Callable[..., dict[str, str]]
) -> None:
    env = arbiter_env()
    first = subprocess.run(arbiter("ingest"), env=env, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stderr
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    args = arbiter("serve", "--host", "127.0.0.1", "--port", str(port))
    with server_process(args, f"{url}/readyz", tmp_path / "server.log", env=env, cwd=REPO_ROOT):
        before = httpx.get(f"{url}/readyz", timeout=60).json()["detail"]["build"]
        assert httpx.get(f"{url}/v1/rules/riftbound/p11", timeout=60).status_code == 404

        # Requests keep coming while another process re-ingests a changed corpus.
        statuses: list[int] = []
        stop = threading.Event()

        def traffic() -> None:
            with httpx.Client(base_url=url, timeout=120) as c:
                while not stop.is_set():
                    statuses.append(c.get("/v1/search", params={"q": "targets"}).status_code)
                    statuses.append(c.get("/v1/rules/riftbound/355.14").status_code)

        worker = threading.Thread(target=traffic)
        worker.start()
        try:
            guide = corpus_copy / "riftbound-targets-guide.txt"
            guide.write_text(guide.read_text(encoding="utf-8") + ZEBRAS, encoding="utf-8")
            second = subprocess.run(
                arbiter("ingest"), env=env, cwd=REPO_ROOT, capture_output=True, text=True,
                check=False,
            )
            assert second.returncode == 0, second.stderr
            assert "riftbound-targets-guide" in second.stdout
            # The very next requests see the new build: no restart.
            search = httpx.get(f"{url}/v1/search", params={"q": "zebras", "k": 3}, timeout=60)
            rule = httpx.get(f"{url}/v1/rules/riftbound/p11", timeout=60)
            ready = httpx.get(f"{url}/readyz", timeout=60)
            ask = httpx.post(
                f"{url}/v1/ask", json={"question": 'Does "Kill a unit" target the unit?'}, timeout=120
            )
        finally:
            stop.set()
            worker.join()

        assert statuses and set(statuses) == {200}, statuses
        assert search.status_code == 200
        assert search.json()["hits"][0]["rule"]["number"] == "p11"
        assert rule.status_code == 200 and "zebras" in rule.json()["rule"]["text"]
        assert ready.status_code == 200 and ready.json()["detail"]["build"] != before
        assert ask.status_code == 200 and ask.json()["passages"]

    # The replaced build was retired (kept for the grace period), not dropped.
    client = chromadb.PersistentClient(path=str(tmp_path / "index" / "chroma"))
    state = read_state(client)
    assert state is not None and state.build != before
    names = {c.name for c in client.list_collections()}
    assert f"arbiter_rules_{before}" in names
    assert f"arbiter_rules_{before}" in read_marks(client)
