"""What clarifying costs: for every abstention of an eval file, the warm latency of the
answer without clarification (the floor: what an abstention cost before) and the time
clarifying adds to it (proposing options and checking each by asking it), p50/p95/max.
Prints numbers; asserts nothing.

    .venv/bin/python bench/clarify.py eval/blind-v2.jsonl [--no-game]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))] if xs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", type=Path)
    ap.add_argument("--no-game", action="store_true")
    args = ap.parse_args()
    from assistant import Assistant
    from assistant.indexing import open_or_build
    from ingest.settings import Settings

    settings = Settings()
    a = Assistant(settings, index=open_or_build(settings))
    items = [json.loads(x) for x in args.file.read_text().splitlines() if x.strip()]
    for it in items[:10]:  # warm-up
        a.ask(it["question"], game=None if args.no_game else it.get("game"))
    plain: list[float] = []
    clarified: list[float] = []
    offered = 0
    for it in items:
        game = None if args.no_game else it.get("game")
        t = time.perf_counter()
        ans = a.ask(it["question"], game=game, clarify=False)
        dt = time.perf_counter() - t
        if ans.verdict != "unknown" or ans.value is not None:
            continue
        plain.append(dt)
        # What clarifying adds to that abstention: proposing and checking the options.
        unknown = a.normaliser.normalise(it["question"]).unknown
        t = time.perf_counter()
        offer = a.clarifier.offer(ans, game, unknown)
        clarified.append(time.perf_counter() - t)
        offered += offer is not None
    print(f"abstentions: {len(plain)} of {len(items)}; with a clarification: {offered}")
    print(f"abstention latency without clarifying (floor): p50 {statistics.median(plain) * 1000:.0f} ms, "
          f"p95 {pct(plain, 95) * 1000:.0f} ms")
    print(f"added by clarifying:                           p50 {statistics.median(clarified) * 1000:.0f} ms, "
          f"p95 {pct(clarified, 95) * 1000:.0f} ms, max {max(clarified) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
