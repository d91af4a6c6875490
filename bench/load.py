"""Load benchmark (not a test): concurrent clients on 127.0.0.1 against
/v1/ask and /v1/search, with one uvicorn worker and with several.

Bounded in count and time; prints requests/s, p50/p95/p99 latency and errors.
Uses the configured index (run `make index` first).

    .venv/bin/python bench/load.py [--clients 8] [--seconds 10] [--workers 1 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
DEV = REPO / ".." / "shared" / "eval" / "dev.jsonl"
MAX_REQUESTS = 5000  # a hard bound per run, whatever the time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(workers: int, port: int, db: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, ARBITER_RATE_LIMIT_PER_MINUTE="0", ARBITER_DB_PATH=str(db),
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "arbiter_cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers)],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            # readyz loads the model; with several workers hit it a few times.
            if all(httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=60).status_code == 200
                   for _ in range(workers * 2)):
                return proc
        except httpx.HTTPError:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit("server did not become ready")


async def run_load(base: str, kind: str, questions: list[str], clients: int, seconds: float):
    latencies: list[float] = []
    errors = 0
    sent = 0
    stop_at = time.monotonic() + seconds

    async def client(i: int) -> None:
        nonlocal errors, sent
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            j = i
            while time.monotonic() < stop_at and sent < MAX_REQUESTS:
                q = questions[j % len(questions)]
                j += clients
                sent += 1
                t0 = time.perf_counter()
                try:
                    if kind == "ask":
                        r = await http.post("/v1/ask", json={"question": q})
                    else:
                        r = await http.get("/v1/search", params={"q": q, "k": 5})
                    if r.status_code != 200:
                        errors += 1
                except httpx.HTTPError:
                    errors += 1
                latencies.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    wall = time.perf_counter() - t0
    return latencies, errors, wall


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    questions = [json.loads(line)["question"] for line in DEV.read_text().splitlines() if line.strip()]
    print(f"{'workers':>7} {'endpoint':>10} {'requests':>8} {'req/s':>8} {'p50 ms':>8} "
          f"{'p95 ms':>8} {'p99 ms':>8} {'errors':>6}")
    for workers in args.workers:
        port = free_port()
        db = Path(os.environ.get("TMPDIR", "/tmp")) / f"arbiter-load-{port}.sqlite3"
        proc = start_server(workers, port, db)
        try:
            for kind in ("search", "ask"):
                lat, errors, wall = asyncio.run(
                    run_load(f"http://127.0.0.1:{port}", kind, questions, args.clients, args.seconds)
                )
                print(f"{workers:>7} {'/v1/' + kind:>10} {len(lat):>8} {len(lat) / wall:>8.1f} "
                      f"{pct(lat, 50):>8.1f} {pct(lat, 95):>8.1f} {pct(lat, 99):>8.1f} {errors:>6}")
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            db.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
