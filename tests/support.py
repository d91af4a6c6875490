"""Test helpers shared by several areas (not fixtures): real server processes."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
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


PG_BIN = Path("/usr/lib/postgresql/15/bin")


@contextmanager
def postgres_server(log_path: Path) -> Iterator[str]:
    """A real PostgreSQL 15 (Debian's binaries) in a fresh temporary data directory on
    127.0.0.1 and a free port; yields its SQLAlchemy-style URL (database ``arbiter``).

    As root, initdb and the server run as the ``postgres`` user (PostgreSQL refuses root).
    """
    if not (PG_BIN / "initdb").exists():
        pytest.fail(f"{PG_BIN}/initdb is missing: run scripts/ensure-postgresql.sh (make test does)")
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    # /tmp itself, not pytest's 0700 tmp folder: the postgres user must reach the directory.
    base = Path(tempfile.mkdtemp(prefix="arbiter-pg-"))
    data = base / "data"
    if as_postgres:
        shutil.chown(base, user="postgres", group="postgres")
    port = free_port()

    def run(args: list[str]) -> None:
        done = subprocess.run(as_postgres + args, check=False, capture_output=True, text=True, cwd=base)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(args[:2])} failed: {done.stdout[-1500:]}{done.stderr[-1500:]}")

    try:
        run([str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
             "--no-sync", "-E", "UTF8"])
        run([str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(base / "server.log"), "-w",
             "-t", "60", "-o", f"-h 127.0.0.1 -p {port} -k {base}", "start"])
        try:
            run([str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                 "arbiter"])
            yield f"postgresql://postgres@127.0.0.1:{port}/arbiter"
        finally:
            subprocess.run(as_postgres + [str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast",
                                          "-w", "stop"], check=False, capture_output=True, cwd=base)
    finally:
        server_log = base / "server.log"
        if server_log.exists():
            shutil.copyfile(server_log, log_path)
        shutil.rmtree(base, ignore_errors=True)


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
