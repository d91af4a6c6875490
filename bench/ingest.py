"""Ingest throughput vs. raw embedding throughput (prints numbers; no assertions).

For the default corpus and all of ../shared/corpus-extra, each into a fresh temporary
index: rules/s of a full ``ingest()`` (parse + embed + Chroma writes + swap), then the raw
``SentenceTransformer.encode`` throughput on exactly the texts that ingest embedded (same
batch size, same run, model already loaded for both) as the floor beside it, their ratio
(target >= 0.9), and the process's peak RSS. The machine may be shared: run it 2-3 times.

    .venv/bin/python bench/ingest.py [--only default|extra]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.embedding import BATCH_SIZE, embed_documents, embeddings
from ingest.pipeline import ingest
from ingest.settings import REPO_ROOT, Settings

SHARED = (REPO_ROOT / ".." / "shared").resolve()


def run(name: str, corpus: Path) -> None:
    texts: list[str] = []
    embed_s = 0.0

    def recording(batch: list[str]) -> list[list[float]]:
        nonlocal embed_s
        texts.extend(batch)
        t = time.perf_counter()
        out = embed_documents(batch)
        embed_s += time.perf_counter() - t
        return out

    cpu0 = time.process_time()

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(corpus=[corpus], index_dir=Path(tmp) / "index")
        t0 = time.perf_counter()
        summary = ingest(settings, embed=recording)
        ingest_s = time.perf_counter() - t0
        ingest_cpu = time.process_time() - cpu0
        t1 = time.perf_counter()
        again = ingest(settings)
        reingest_s = time.perf_counter() - t1
    model = embeddings()._client
    t2, c2 = time.perf_counter(), time.process_time()
    model.encode(texts, batch_size=BATCH_SIZE, normalize_embeddings=True, show_progress_bar=False)
    raw_s, raw_cpu = time.perf_counter() - t2, time.process_time() - c2
    ingest_rate = summary.rules / ingest_s
    raw_rate = len(texts) / raw_s
    print(f"[{name}] documents={summary.documents} rules={summary.rules} cards={summary.cards} errors={len(summary.errors)}")
    print(f"[{name}] ingest: {ingest_s:.1f} s = {ingest_rate:.1f} rules/s "
          f"(embedding calls {embed_s:.1f} s, parse + Chroma + cards {ingest_s - embed_s:.1f} s)")
    print(f"[{name}] raw SentenceTransformer.encode on the same {len(texts)} texts: {raw_s:.1f} s = {raw_rate:.1f} texts/s")
    print(f"[{name}] ingest {ingest_rate:.1f} rules/s beside the floor raw encode {raw_rate:.1f} texts/s: "
          f"ratio {ingest_rate / raw_rate:.2f} (target >= 0.9)")
    print(f"[{name}] the same in CPU time (steadier on a shared machine): ingest {ingest_cpu:.1f} s, "
          f"raw encode {raw_cpu:.1f} s: ratio {raw_cpu / ingest_cpu:.2f} (target >= 0.9)")
    print(f"[{name}] ingest's own time beside its embedding calls: {embed_s / ingest_s:.2f} of the wall time "
          f"is embedding (the ratio's ceiling when both run under the same load)")
    print(f"[{name}] re-ingest unchanged={again.unchanged}: {reingest_s:.2f} s")
    print(f"[{name}] peak RSS so far: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=["default", "extra"])
    args = ap.parse_args()
    t = time.perf_counter()
    embeddings()  # load the model outside the timed sections
    print(f"model load: {time.perf_counter() - t:.1f} s")
    # The first forward passes pay torch's one-time set-up; neither side should be charged it.
    embed_documents(["warm up the model before timing"] * BATCH_SIZE)
    if args.only in (None, "default"):
        run("default corpus", SHARED / "corpus")
    if args.only in (None, "extra"):
        run("corpus-extra", SHARED / "corpus-extra")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
