"""The question path: ONNX against torch question vectors, retrieval quality and latency on
../shared/eval/dev.jsonl and eval/heldout.jsonl (the full-corpus and card-aware retrieval
bench is bench/retrieval.py).

heldout.jsonl is an independent question set (same format) that keeps tuning on dev honest:
report both.

Gold: a question's ``cite_any`` (any of those rule numbers, in its game) or ``cite_doc``
(any rule of that document). Questions with neither (out-of-scope ones) are skipped.
For dense, BM25 and hybrid: hit@1, hit@5, and p50/p95 search latency, searching with the
question's game as filter over the default corpus (ingested into a temporary index, or
ARBITER_INDEX_DIR with --use-settings). Targets: hybrid hit@5 = 1.0, hit@1 >= 0.9.

    .venv/bin/python bench/query_path.py [--use-settings] [--show-misses] [--only dev|heldout]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest import ingest, open_index
from ingest.embedding import embed_documents
from ingest.settings import REPO_ROOT, Settings

SHARED = (REPO_ROOT / ".." / "shared").resolve()


def is_gold(hit, q: dict) -> bool:
    if q.get("cite_any"):
        return hit.rule.number in q["cite_any"] and (not q.get("game") or hit.rule.game == q["game"])
    return hit.rule.doc == q["cite_doc"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--use-settings", action="store_true")
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument("--only", choices=["dev", "heldout"])
    args = ap.parse_args()
    sets = {"dev": SHARED / "eval" / "dev.jsonl", "heldout": REPO_ROOT / "eval" / "heldout.jsonl"}
    tmp = tempfile.TemporaryDirectory()
    settings = Settings() if args.use_settings else Settings(corpus=[SHARED / "corpus"], index_dir=Path(tmp.name) / "index")
    ingest(settings)
    index = open_index(settings)
    index.search("warm up", k=1)
    onnx_query = index.embed_query
    for set_name, path in sets.items():
        if args.only and args.only != set_name or not path.exists():
            continue
        questions = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        questions = [q for q in questions if q.get("cite_any") or q.get("cite_doc")]
        print(f"{set_name}: {len(questions)} questions with a gold citation")
        runs: list[tuple[str, str]] = [("dense", "onnx"), ("bm25", "onnx"), ("hybrid", "onnx"),
                                       ("dense", "torch"), ("hybrid", "torch")]
        got: dict[tuple[str, str], tuple[float, float]] = {}
        for mode, path in runs:
            # Questions are embedded through the ONNX export; "torch" embeds them with the
            # sentence-transformers model instead (the floor the ONNX path must match).
            index.embed_query = (  # type: ignore[method-assign]
                (lambda text: embed_documents([text], settings.embedding_model)[0]) if path == "torch"
                else onnx_query)
            h1 = h5 = 0
            times = []
            for q in questions:
                t = time.perf_counter()
                hits = index.search(q["question"], game=q.get("game"), k=5, mode=mode)
                times.append((time.perf_counter() - t) * 1000)
                ok = [is_gold(h, q) for h in hits]
                h1 += bool(ok[:1] and ok[0])
                h5 += any(ok)
                if args.show_misses and not (ok and ok[0]):
                    print(f"  miss@1 {mode} {q['id']}: {[h.rule.key for h in hits[:3]]} gold={q.get('cite_any') or q.get('cite_doc')}")
            times.sort()
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            got[(mode, path)] = (h1 / len(questions), h5 / len(questions))
            print(f"  {mode:7s} {path:5s} hit@1={h1 / len(questions):.3f} hit@5={h5 / len(questions):.3f} "
                  f"p50={statistics.median(times):.1f} ms p95={p95:.1f} ms")
        for mode in ("dense", "hybrid"):
            (o1, o5), (t1, t5) = got[(mode, "onnx")], got[(mode, "torch")]
            ok = abs(o1 - t1) <= 0.01 and abs(o5 - t5) <= 0.01
            print(f"  {mode}: ONNX questions vs torch questions: hit@1 {o1 - t1:+.3f}, hit@5 {o5 - t5:+.3f} "
                  f"(target within 0.01: {'met' if ok else 'NOT met'})")
        index.embed_query = onnx_query  # type: ignore[method-assign]
    tmp.cleanup()


if __name__ == "__main__":
    main()
