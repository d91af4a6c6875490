"""Warm answer latency beside one raw query embedding, and cold CLI beside `import chromadb`.
Prints each figure with its floor and target in the same run; asserts nothing.

Warm: Assistant.ask over the dev questions (plus the repository's eval sets with
``--all-sets``) in one process, the question-vector cache cleared before every question so
each answer pays for its own embedding as a new question does. The floor is one raw query
embedding (the ONNX encoder, no cache) of the same questions, measured in the same run;
target: answer p50 <= 1.3x the embedding's p50. Also: embeddings computed per answered
question (target 1) and where the time goes.

Cold: wall time of `arbiter ask` (with and without a game), `arbiter search` and `arbiter rule` as fresh processes
(best of ``--cold-runs``, with the spread), beside `python -c "import chromadb"`; targets
<= 2 s and <= 2.5x that floor. ``--importtime`` prints the heaviest imports of a cold ask.

The machine may be shared: run it 2-3 times and read the best and the spread.

    .venv/bin/python bench/ask.py [--rounds 2] [--cold-runs 3] [--importtime] [--all-sets] [--configured-index]
"""

from __future__ import annotations

import argparse
import collections
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
PY = ROOT / ".venv" / "bin" / "python"
ARBITER = ROOT / ".venv" / "bin" / "arbiter"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def questions(all_sets: bool) -> list[dict[str, str]]:
    files = [ROOT / ".." / "shared" / "eval" / "dev.jsonl"]
    if all_sets:
        files += sorted((ROOT / "eval").glob("*.jsonl"))
    out = []
    for f in files:
        out += [json.loads(x) for x in f.read_text().splitlines() if x.strip()]
    return out


def warm(settings: object, items: list[dict[str, str]], rounds: int) -> None:
    from assistant import Assistant
    from assistant.indexing import open_or_build
    from ingest import embedding

    index = open_or_build(settings)
    a = Assistant(settings, index=index)
    for it in items:  # warm-up: models, exemplar vectors, BM25
        a.ask(it["question"], game=it.get("game"))
    encoder = embedding.query_encoder(settings.embedding_model, settings.model_cache_dir,  # type: ignore[attr-defined]
                                      settings.query_threads)  # type: ignore[attr-defined]
    assert encoder is not None, "the ONNX query path is not available for this model"
    calls = collections.Counter[str]()
    raw_encode = encoder.encode_array

    def counting(texts: list[str]) -> object:
        calls["texts"] += len(texts)
        return raw_encode(texts)

    encoder.encode_array = counting  # type: ignore[method-assign]
    a.timings.__init__()  # type: ignore[misc]
    lat: list[float] = []
    emb: list[float] = []
    emb_cpu = ask_cpu = 0.0
    for _ in range(rounds):
        c = time.process_time()
        for it in items:
            t = time.perf_counter()
            encoder.encode(it["question"])
            emb.append((time.perf_counter() - t) * 1000)
        emb_cpu += time.process_time() - c
        c = time.process_time()
        for it in items:
            embedding._query_vector.cache_clear()
            t = time.perf_counter()
            a.ask(it["question"], game=it.get("game"))
            lat.append((time.perf_counter() - t) * 1000)
        ask_cpu += time.process_time() - c
    calls["texts"] -= len(emb)  # the floor's own encodes
    total = sum(lat) / 1000
    tm = a.timings
    e50, a50 = pct(emb, 50), pct(lat, 50)
    print(f"floor: one raw query embedding (ONNX, {len(emb)} runs): p50 {e50:.2f} ms, p95 {pct(emb, 95):.2f} ms")
    print(f"warm answer ({len(items)} questions x {rounds}, cache cleared per question): "
          f"p50 {a50:.2f} ms, p95 {pct(lat, 95):.2f} ms, mean {statistics.mean(lat):.2f} ms")
    print(f"  answer p50 / embedding p50 = {a50 / e50:.2f}x (target <= 1.3x)")
    e_cpu, q_cpu = emb_cpu / len(emb) * 1000, ask_cpu / len(lat) * 1000
    print(f"  CPU time (less sensitive to a shared machine): answer {q_cpu:.2f} ms, raw embedding "
          f"{e_cpu:.2f} ms = {q_cpu / e_cpu:.2f}x; at 2 cores that is at most ~{2000 / q_cpu:.0f} answers/s")
    print(f"  embeddings per question: {calls['texts'] / len(lat):.2f} (target 1; a question the screen "
          f"blocks needs none)")
    rest = total - tm.embedding - tm.retrieval - tm.parsing - tm.engine
    for name, v in [("the question's embedding (shared)", tm.embedding), ("retrieval (hybrid search)", tm.retrieval),
                    ("parsing (incl. the classifier)", tm.parsing), ("engine", tm.engine),
                    ("the rest (normalising, chain, citations)", rest)]:
        print(f"  {name:<42} {v / total * 100:5.1f} %  ({v / len(lat) * 1000:.2f} ms/question)")


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    t = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    return time.perf_counter() - t, p.returncode


def cold(env: dict[str, str], runs: int) -> None:
    cmds = {
        'floor: python -c "import chromadb"': [str(PY), "-c", "import chromadb"],
        "arbiter ask": [str(ARBITER), "ask", 'Does "Kill a unit" target the unit?', "--game", "riftbound", "--json"],
        "arbiter ask (game detected)": [str(ARBITER), "ask", "Can I choose my own unit as the target of a spell?"],
        "arbiter search": [str(ARBITER), "search", "legend readying", "--game", "riftbound"],
        "arbiter rule": [str(ARBITER), "rule", "355.14", "--game", "riftbound"],
    }
    # Interleaved (floor, ask, search, rule, floor, ...): a shared machine's load changes by
    # the second, and each figure is compared with a floor measured beside it.
    times: dict[str, list[float]] = {label: [] for label in cmds}
    codes: dict[str, set[int]] = {label: set() for label in cmds}
    for _ in range(runs):
        for label, cmd in cmds.items():
            s, code = timed(cmd, env)
            times[label].append(s)
            codes[label].add(code)
    floor = min(times[next(iter(cmds))])
    for label, ts in times.items():
        beside = "" if label.startswith("floor") else (
            f"  = {min(ts) / floor:.2f}x the floor (targets <= 2.0 s, <= 2.5x)")
        print(f"cold {label:<34} best {min(ts):.2f} s, spread {min(ts):.2f}-{max(ts):.2f} s "
              f"(exit {sorted(codes[label])}){beside}")


def importtime(env: dict[str, str], top: int = 12) -> None:
    p = subprocess.run([str(PY), "-X", "importtime", "-m", "arbiter_cli", "ask", 'Does "Kill a unit" target the unit?',
                        "--game", "riftbound", "--json"], env=env, capture_output=True, text=True, check=False)
    per: collections.Counter[str] = collections.Counter()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            parts = line.split("|")
            per[parts[2].strip().split(".")[0]] += int(parts[0].split(":")[1])
    print(f"cold ask imports: {sum(per.values()) / 1e6:.2f} s in all; heaviest packages (self time):")
    for name, us in per.most_common(top):
        print(f"  {name:<24} {us / 1000:7.1f} ms")
    heavy = [m for m in ("torch", "transformers", "sentence_transformers") if m in per]
    print(f"  torch/transformers imported on the ask path: {', '.join(heavy) or 'none'}")
    store = [m for m in ("chromadb", "bm25s", "scipy") if m in per]
    print(f"  chromadb/bm25s/scipy imported on the ask path (none once the build's snapshot is "
          f"written, ingest/snapshot.py): {', '.join(store) or 'none'}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--cold-runs", type=int, default=3)
    ap.add_argument("--importtime", action="store_true")
    ap.add_argument("--all-sets", action="store_true", help="also the repository's eval/*.jsonl")
    ap.add_argument("--skip-warm", action="store_true")
    ap.add_argument("--configured-index", action="store_true",
                    help="use the configured index (ARBITER_INDEX_DIR, e.g. after `make index`) "
                         "instead of ingesting the corpus into a temporary one")
    args = ap.parse_args()
    from ingest.settings import Settings

    if args.configured_index:
        settings = Settings()
    else:
        tmp = Path(tempfile.mkdtemp(prefix="arbiter-bench-ask-"))
        settings = Settings(index_dir=tmp / "index")
    t0 = time.perf_counter()
    from ingest import ingest

    ingest(settings)
    print(f"index build (or check): {time.perf_counter() - t0:.1f} s at {settings.index_dir}; the machine "
          "may be shared (2 cores): compare runs, not single figures")
    if not args.skip_warm:
        warm(settings, questions(args.all_sets), args.rounds)
    env = dict(os.environ, ARBITER_INDEX_DIR=str(settings.index_dir))
    cold(env, args.cold_runs)
    if args.importtime:
        importtime(env)


if __name__ == "__main__":
    main()
