"""Item 2: the Chroma server stops while `arbiter serve` runs (and is down when it starts).
Every API call that needs the store answers 503 with a JSON error and Retry-After, /readyz
says not ready, and everything recovers without a restart when Chroma is back."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from support import arbiter, chroma_exe, free_port, server_process

from ingest.settings import REPO_ROOT

QUESTION = 'Does "Kill a unit" target the unit?'


@contextmanager
def chroma(port: int, data: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    args = [chroma_exe(), "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)]
    url = f"http://127.0.0.1:{port}/api/v2/heartbeat"
    with server_process(args, url, log, env={"RUST_LOG": "warn", "ANONYMIZED_TELEMETRY": "False"}) as p:
        yield p


def _calls(url: str) -> dict[str, httpx.Response]:
    with httpx.Client(base_url=url, timeout=120) as c:
        return {
            "games": c.get("/v1/games"),
            "search": c.get("/v1/search", params={"q": "targets"}),
            "rule": c.get("/v1/rules/riftbound/355.14"),
            "ask": c.post("/v1/ask", json={"question": QUESTION}),
            "readyz": c.get("/readyz"),
        }


def _assert_unavailable(responses: dict[str, httpx.Response]) -> None:
    for name, r in responses.items():
        assert r.status_code == 503, (name, r.status_code, r.text)
        assert r.headers["content-type"].startswith("application/json"), name
        assert int(r.headers["retry-after"]) > 0, name
        assert r.json()["detail"], name


def _wait_ready(url: str) -> None:
    while httpx.get(f"{url}/readyz", timeout=60).status_code != 200:
        time.sleep(0.2)  # polling pace only; the test's timeout bounds the wait


def test_chroma_outage_gives_503_with_retry_after_and_recovers_without_restart(
    tmp_path: Path, arbiter_env: Callable[..., dict[str, str]]
) -> None:
    chroma_port = free_port()
    data = tmp_path / "chroma-data"
    env = arbiter_env(ARBITER_CHROMA_URL=f"http://127.0.0.1:{chroma_port}")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    serve = arbiter("serve", "--host", "127.0.0.1", "--port", str(port))

    with chroma(chroma_port, data, tmp_path / "chroma1.log"):
        done = subprocess.run(arbiter("ingest"), env=env, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr

    # Chroma is down when the server starts: it is alive, not ready, and says why.
    with server_process(serve, f"{url}/healthz", tmp_path / "server.log", env=env, cwd=REPO_ROOT):
        _assert_unavailable(_calls(url))

        # Chroma comes up: the server becomes ready and answers, without a restart.
        with chroma(chroma_port, data, tmp_path / "chroma2.log"):
            _wait_ready(url)
            up = _calls(url)
            assert {n: r.status_code for n, r in up.items()} == dict.fromkeys(up, 200)
            assert up["ask"].json()["passages"]

        # Chroma stops mid-run: 503s, not 500s or answers without passages.
        _assert_unavailable(_calls(url))

        # And comes back again.
        with chroma(chroma_port, data, tmp_path / "chroma3.log"):
            _wait_ready(url)
            again = _calls(url)
            assert {n: r.status_code for n, r in again.items()} == dict.fromkeys(again, 200)
            assert again["search"].json()["hits"]
