"""Warm latency of Assistant.ask over the dev set in one process (p50/p95, with the share
spent in embedding, retrieval, parsing and the engine), and the wall time of a cold
`arbiter ask`. Prints numbers; asserts nothing.

    .venv/bin/python bench/ask.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from assistant import Assistant
    from assistant.indexing import open_or_build
    from ingest.settings import Settings

    tmp = Path(tempfile.mkdtemp(prefix="arbiter-bench-ask-"))
    settings = Settings(index_dir=tmp / "index")
    t0 = time.perf_counter()
    index = open_or_build(settings)
    print(f"index build (first use): {time.perf_counter() - t0:.1f} s")
    dev = [json.loads(x) for x in (ROOT / ".." / "shared" / "eval" / "dev.jsonl").read_text().splitlines() if x.strip()]
    a = Assistant(settings, index=index)
    for it in dev:  # warm-up: models, exemplar vectors, BM25
        a.ask(it["question"], game=it.get("game"))
    a.timings.__init__()  # type: ignore[misc]
    lat: list[float] = []
    for _ in range(args.rounds):
        for it in dev:
            t = time.perf_counter()
            a.ask(it["question"], game=it.get("game"))
            lat.append((time.perf_counter() - t) * 1000)
    total = sum(lat) / 1000
    tm = a.timings
    print(f"warm ask over {len(dev)} dev questions x {args.rounds}: p50 {pct(lat, 50):.1f} ms, "
          f"p95 {pct(lat, 95):.1f} ms, mean {statistics.mean(lat):.1f} ms")
    # Retrieval includes its own query embedding; 'embedding' is the classifier's extra embeds.
    for name, v in [("embedding (classifier)", tm.embedding), ("retrieval (incl. its embedding)", tm.retrieval),
                    ("parsing", tm.parsing - tm.embedding), ("engine", tm.engine)]:
        print(f"  {name:<32} {v / total * 100:5.1f} %  ({v / len(lat) * 1000:.2f} ms/question)")
    env = dict(os.environ, ARBITER_INDEX_DIR=str(settings.index_dir))
    t = time.perf_counter()
    p = subprocess.run(check=False, args=[str(ROOT / ".venv" / "bin" / "arbiter"), "ask", 'Does "Kill a unit" target the unit?',
                        "--game", "riftbound", "--json"], env=env, capture_output=True, text=True)
    print(f"cold `arbiter ask` wall time: {time.perf_counter() - t:.2f} s (exit {p.returncode})")


if __name__ == "__main__":
    main()
