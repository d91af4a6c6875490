"""Retrieval quality and latency: the seed corpus (dev, held-out) or the full corpus.

Default (no ``--full``): ../shared/eval/dev.jsonl and eval/heldout.jsonl over the default
corpus (../shared/corpus), ingested into a temporary index. heldout.jsonl keeps tuning on dev
honest: report both. Targets: hybrid hit@1 not below 0.939 (dev) / 0.946 (held-out).

``--full``: the full corpus, ../shared/corpus + ../shared/corpus-extra with card data,
ingested once into ``.data/bench-index-full`` (git-ignored; re-ingested only when
the corpus, parser or model changes), and the question file(s) given with ``--questions``
(default: eval/retrieval-full-blind.jsonl). One command for a fresh blind set::

    .venv/bin/python bench/retrieval.py --full --questions FILE.jsonl

Gold: a question's ``cite_any`` (any of those rule numbers, in its game); or ``cite_doc`` with
``cite_heading`` (a glossary entry heading, or a list of them: any rule of that entry,
its opening paragraphs or its bullets, counts); or ``cite_doc`` alone (any rule of that
document). Questions with none of these (out-of-scope ones) are skipped. For dense, BM25,
hybrid (and ``--modes`` to pick): hit@1, hit@5, MRR@10 and p50/p95 search latency (the query
cache is cleared before each mode, so every mode pays for its query embedding), searching
with the question's game as filter (``--no-game`` searches every game).

    .venv/bin/python bench/retrieval.py [--full] [--questions F ...] [--show-misses]
        [--only dev|heldout] [--use-settings] [--modes hybrid,dense,bm25]
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
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest import ingest, open_index
from ingest.cards import normalize_name
from ingest.embedding import _query_vector
from ingest.numbers import normalize_number
from ingest.parsers import slugify
from ingest.settings import REPO_ROOT, Settings

SHARED = (REPO_ROOT / ".." / "shared").resolve()
FULL_INDEX = REPO_ROOT / ".data" / "bench-index-full"
DEPTH = 10  # MRR@10


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def is_gold(hit: Any, q: dict[str, Any]) -> bool:
    rule = hit.rule
    if q.get("game") and rule.game != q["game"]:
        return False
    cite_any = {normalize_number(n) for n in _as_list(q.get("cite_any"))}
    if cite_any:
        return normalize_number(rule.number) in cite_any
    if rule.doc != q.get("cite_doc"):
        return False
    headings = _as_list(q.get("cite_heading"))
    if not headings:
        return True
    root = rule.number.split(".")[0]
    for h in headings:
        if normalize_name(rule.heading) == normalize_name(h) or root == slugify(h):
            return True
    return False


def has_gold(q: dict[str, Any]) -> bool:
    return bool(q.get("cite_any") or q.get("cite_doc"))


def load(path: Path) -> list[dict[str, Any]]:
    qs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [q for q in qs if has_gold(q)]


def unresolved(index: Any, questions: list[dict[str, Any]]) -> list[str]:
    """Ids of questions whose gold names no rule in the index (a typo in the set, or an
    anchor the ingester spells differently): they can only miss, so they are reported."""
    out = []
    for q in questions:
        pool = index.rules(game=q.get("game"))
        probe = [type("H", (), {"rule": r})() for r in pool]
        if not any(is_gold(h, q) for h in probe):
            out.append(str(q.get("id")))
    return out


def run_set(index: Any, name: str, questions: list[dict[str, Any]], modes: list[str], args: argparse.Namespace) -> None:
    print(f"{name}: {len(questions)} questions with a gold citation")
    missing = unresolved(index, questions)
    if missing:
        print(f"  WARNING: gold not in the index for {len(missing)}: {', '.join(missing)}")
    for mode in modes:
        _query_vector.cache_clear()  # each mode's latency includes its query embedding
        h1 = h5 = 0
        rr = 0.0
        times = []
        for q in questions:
            game = None if args.no_game else q.get("game")
            t = time.perf_counter()
            hits = index.search(q["question"], game=game, k=DEPTH, mode=mode)
            times.append((time.perf_counter() - t) * 1000)
            ok = [is_gold(h, q) for h in hits]
            first = next((i for i, g in enumerate(ok) if g), None)
            h1 += first == 0
            h5 += first is not None and first < 5
            rr += 0.0 if first is None else 1.0 / (first + 1)
            if args.show_misses and first != 0:
                gold = q.get("cite_any") or [q.get("cite_doc"), *_as_list(q.get("cite_heading"))]
                print(f"  miss@1 {mode} {q.get('id')} (gold at {first}): {[h.rule.key for h in hits[:3]]} gold={gold}")
        times.sort()
        n = len(questions) or 1
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))] if times else 0.0
        p50 = statistics.median(times) if times else 0.0
        print(f"  {mode:7s} hit@1={h1 / n:.3f} hit@5={h5 / n:.3f} MRR@10={rr / n:.3f} "
              f"p50={p50:.1f} ms p95={p95:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="full corpus (corpus + corpus-extra, cards)")
    ap.add_argument("--questions", type=Path, nargs="+", help="question files (JSONL)")
    ap.add_argument("--use-settings", action="store_true", help="search the index ARBITER_* settings name")
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument("--no-game", action="store_true", help="search every game, not the question's")
    ap.add_argument("--only", choices=["dev", "heldout"])
    ap.add_argument("--modes", default="dense,bm25,hybrid")
    args = ap.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    tmp = tempfile.TemporaryDirectory()
    if args.use_settings:
        settings = Settings()
    elif args.full:
        settings = Settings(corpus=[SHARED / "corpus", SHARED / "corpus-extra"], index_dir=FULL_INDEX)
    else:
        settings = Settings(corpus=[SHARED / "corpus"], index_dir=Path(tmp.name) / "index")
    t = time.perf_counter()
    summary = ingest(settings)
    if not summary.unchanged:
        print(f"ingested {summary.rules} rules, {summary.cards} cards in {time.perf_counter() - t:.0f} s")
    index = open_index(settings)
    index.search("warm up", k=1)
    if args.questions:
        sets = {p.stem: p for p in args.questions}
    elif args.full:
        sets = {"retrieval-full-blind": REPO_ROOT / "eval" / "retrieval-full-blind.jsonl"}
    else:
        sets = {"dev": SHARED / "eval" / "dev.jsonl", "heldout": REPO_ROOT / "eval" / "heldout.jsonl"}
    for set_name, path in sets.items():
        if args.only and args.only != set_name or not path.exists():
            continue
        run_set(index, set_name, load(path), modes, args)
    tmp.cleanup()


if __name__ == "__main__":
    main()
