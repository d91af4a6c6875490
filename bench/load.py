"""Load benchmark (not a test): concurrent clients on 127.0.0.1 against
/v1/ask and /v1/search, with one uvicorn worker and with several.

Bounded in count and time; prints requests/s, p50/p95/p99 latency and errors, each line
with its target (/v1/ask >= 100 answers/s with p95 <= 100 ms, /v1/search >= 200/s, 0
errors). Uses the configured index (run `make index` first).

Questions: the dev set, the repository's eval sets and their variants from
../shared/tools/perturb.py (typos, slang, case, ...), shuffled, so that hardly any request
repeats an earlier one (a repeated question's embedding is cached: a benchmark of 51
repeated questions measures the cache). ``--repeat`` uses the 51 dev questions as before.
``--repo`` serves another checkout (its .venv) with the same load, for a before/after.
The machine may be shared: run it 2-3 times and read the best and the spread.

    .venv/bin/python bench/load.py [--clients 8] [--seconds 10] [--workers 1 2] [--repo PATH]
    .venv/bin/python bench/load.py --cluster [--clients 8] [--seconds 10]

``--cluster`` also starts a PostgreSQL 15 (Debian's binaries, a temporary data directory)
and a Chroma server, ingests the configured corpus into it, starts two `arbiter serve`
processes sharing both, splits the clients across them, and prints their figures beside
one process with embedded Chroma and SQLite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
DEV = REPO / ".." / "shared" / "eval" / "dev.jsonl"
PERTURB = REPO / ".." / "shared" / "tools" / "perturb.py"
TARGETS = {"ask": (100.0, 100.0), "search": (200.0, None)}  # req/s floor, p95 ceiling (ms)
SERVED = REPO  # the checkout whose server is measured (--repo)
MAX_REQUESTS = 5000  # a hard bound per run, whatever the time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PG_BIN = Path("/usr/lib/postgresql/15/bin")


def start_server(workers: int, port: int, db: Path,
                 extra_env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    env = dict(os.environ, ARBITER_RATE_LIMIT_PER_MINUTE="0", ARBITER_DB_PATH=str(db),
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", **(extra_env or {}))
    proc = subprocess.Popen(
        [str(SERVED / ".venv" / "bin" / "python"), "-m", "arbiter_cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers)],
        cwd=SERVED, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
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


async def run_load(bases: list[str], kind: str, questions: list[str], clients: int,
                   seconds: float) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    errors = 0
    sent = 0
    stop_at = time.monotonic() + seconds

    async def client(i: int) -> None:
        nonlocal errors, sent
        # Clients are split evenly across the servers.
        async with httpx.AsyncClient(base_url=bases[i % len(bases)], timeout=30) as http:
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
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] * 1000


@contextmanager
def postgres() -> Iterator[str]:
    """PostgreSQL 15 in a temporary data directory on 127.0.0.1 (as the postgres user when
    run as root); yields the database URL."""
    if not (PG_BIN / "initdb").exists():
        raise SystemExit(f"{PG_BIN}/initdb is missing: run scripts/ensure-postgresql.sh")
    as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    base = Path(tempfile.mkdtemp(prefix="arbiter-bench-pg-"))
    if as_pg:
        shutil.chown(base, user="postgres", group="postgres")
    port = free_port()
    data = base / "data"
    try:
        subprocess.run(as_pg + [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres",
                                "--auth=trust", "-E", "UTF8"], check=True, capture_output=True)
        subprocess.run(as_pg + [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l",
                                str(base / "log"), "-w", "-o", f"-h 127.0.0.1 -p {port} -k {base}",
                                "start"], check=True, capture_output=True)
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(as_pg + [str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "-w",
                                    "stop"], check=False, capture_output=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)


@contextmanager
def chroma_server() -> Iterator[str]:
    exe = REPO / ".venv" / "bin" / "chroma"
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="arbiter-bench-chroma-"))
    env = dict(os.environ, RUST_LOG="warn", ANONYMIZED_TELEMETRY="False")
    proc = subprocess.Popen([str(exe), "run", "--path", str(data), "--host", "127.0.0.1",
                             "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/v2/heartbeat", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("chroma server did not start")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(data, ignore_errors=True)


def target(kind: str, lat: list[float], errors: int, wall: float) -> str:
    rate, p95 = TARGETS[kind]
    ok = len(lat) / wall >= rate and (p95 is None or pct(lat, 95) <= p95) and errors == 0
    want = f">= {rate:.0f}/s" + (f", p95 <= {p95:.0f} ms" if p95 else "") + ", 0 errors"
    return f"  target {want}: {'met' if ok else 'NOT met'}"


def report(label: str, kind: str, lat: list[float], errors: int, wall: float) -> None:
    print(f"{label:>12} {'/v1/' + kind:>10} {len(lat):>8} {len(lat) / wall:>8.1f} "
          f"{pct(lat, 50):>8.1f} {pct(lat, 95):>8.1f} {pct(lat, 99):>8.1f} {errors:>6}"
          f"{target(kind, lat, errors, wall)}", flush=True)


def question_pool(repeat: bool) -> list[str]:
    """The dev questions (``repeat``), or every eval question and its perturbed variants,
    shuffled with a fixed seed."""
    dev = [json.loads(line)["question"] for line in DEV.read_text().splitlines() if line.strip()]
    if repeat:
        return dev
    import random

    items = []
    for f in [DEV, *sorted((REPO / "eval").glob("*.jsonl"))]:
        items += [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
    lines = "".join(json.dumps({"id": str(i), "question": it["question"]}) + "\n" for i, it in enumerate(items))
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write(lines)
    try:
        made = subprocess.run([sys.executable, str(PERTURB), "make", f.name, "-n", "6", "--seed", "7"],
                              capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    pool = list(dict.fromkeys([it["question"] for it in items] +
                              [json.loads(x)["question"] for x in made.splitlines() if x.strip()]))
    random.Random(7).shuffle(pool)
    return pool


def measure(label: str, bases: list[str], questions: list[str], clients: int,
            seconds: float) -> None:
    for kind in ("search", "ask"):
        # Search walks the pool from its end, so it warms no answer's cached embedding.
        pool = questions[::-1] if kind == "search" else questions
        lat, errors, wall = asyncio.run(run_load(bases, kind, pool, clients, seconds))
        report(label, kind, lat, errors, wall)


def cluster(questions: list[str], clients: int, seconds: float) -> None:
    """One embedded process, then two processes over PostgreSQL + a Chroma server."""
    tmp = Path(tempfile.mkdtemp(prefix="arbiter-bench-"))
    try:
        port = free_port()
        proc = start_server(1, port, tmp / "single.sqlite3")
        try:
            measure("embedded x1", [f"http://127.0.0.1:{port}"], questions, clients, seconds)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
        with ExitStack() as stack:
            database = stack.enter_context(postgres())
            chroma = stack.enter_context(chroma_server())
            shared = {"ARBITER_DATABASE_URL": database, "ARBITER_CHROMA_URL": chroma,
                      "ARBITER_INDEX_DIR": str(tmp / "index")}
            subprocess.run([sys.executable, "-m", "arbiter_cli", "ingest"], cwd=REPO, check=True,
                           env=dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
                                    **shared), stdout=subprocess.DEVNULL)
            bases = []
            for _ in range(2):
                port = free_port()
                server = start_server(1, port, tmp / "unused.sqlite3", shared)
                stack.callback(server.wait, 20)
                stack.callback(server.terminate)
                bases.append(f"http://127.0.0.1:{port}")
            measure("cluster x2", bases, questions, clients, seconds)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--cluster", action="store_true",
                        help="two processes over PostgreSQL + a Chroma server vs one embedded")
    parser.add_argument("--repeat", action="store_true", help="only the 51 dev questions, repeated")
    parser.add_argument("--repo", type=Path, default=REPO, help="serve this checkout (before/after)")
    args = parser.parse_args()
    global SERVED
    SERVED = args.repo.resolve()
    questions = question_pool(args.repeat)
    print(f"{len(questions)} distinct questions; serving {SERVED}; the machine may be shared "
          f"(2 cores): compare runs, not single figures", flush=True)
    if args.cluster:
        print(f"{'mode':>12} {'endpoint':>10} {'requests':>8} {'req/s':>8} {'p50 ms':>8} "
              f"{'p95 ms':>8} {'p99 ms':>8} {'errors':>6}", flush=True)
        cluster(questions, args.clients, args.seconds)
        return
    print(f"{'workers':>7} {'endpoint':>10} {'requests':>8} {'req/s':>8} {'p50 ms':>8} "
          f"{'p95 ms':>8} {'p99 ms':>8} {'errors':>6}")
    for workers in args.workers:
        port = free_port()
        db = Path(os.environ.get("TMPDIR", "/tmp")) / f"arbiter-load-{port}.sqlite3"
        proc = start_server(workers, port, db)
        try:
            for kind in ("search", "ask"):
                # Search walks the pool from its end, so it warms no answer's cached embedding.
                pool = questions[::-1] if kind == "search" else questions
                lat, errors, wall = asyncio.run(
                    run_load([f"http://127.0.0.1:{port}"], kind, pool, args.clients,
                             args.seconds)
                )
                print(f"{workers:>7} {'/v1/' + kind:>10} {len(lat):>8} {len(lat) / wall:>8.1f} "
                      f"{pct(lat, 50):>8.1f} {pct(lat, 95):>8.1f} {pct(lat, 99):>8.1f} {errors:>6}"
                      f"{target(kind, lat, errors, wall)}", flush=True)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            db.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
