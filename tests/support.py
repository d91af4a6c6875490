"""Test helpers shared by several areas (not fixtures): real server processes."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server_process(
    args: list[str],
    ready_url: str,
    log_path: Path,
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 120,
    is_ready: Callable[[httpx.Response], bool] = lambda r: r.status_code == 200,
) -> Iterator[subprocess.Popen[bytes]]:
    """Start a real server process, wait until ``ready_url`` answers, stop it after.

    A server that exits or never gets ready fails the test with its log's tail.
    """
    with log_path.open("wb") as log:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + timeout
            while True:
                if proc.poll() is not None:
                    pytest.fail(f"{args[0]} exited: {log_path.read_text()[-2000:]}")
                try:
                    if is_ready(httpx.get(ready_url, timeout=60)):
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"{ready_url} did not answer within {timeout:.0f} s")
                time.sleep(0.3)
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


def arbiter(*args: str) -> list[str]:
    """The `arbiter` command line, run with this interpreter."""
    return [sys.executable, "-m", "arbiter_cli", *args]


def chroma_exe() -> str:
    exe = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "chroma"
    if exe.exists():
        return str(exe)
    found = shutil.which("chroma")
    if not found:
        pytest.fail("the chroma CLI is missing (.venv/bin/chroma)")
    return found
