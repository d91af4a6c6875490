"""Item 4: old builds and what killed ingests leave behind are collected, safely: never the
live build, never a build another ingest is still writing, never a replaced build before
its grace period (running servers may still answer from it); on disk too."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import chromadb
from support import arbiter

from ingest import ingest, open_index
from ingest.settings import REPO_ROOT, Settings
from ingest.store import build_collections, client_for, collect_garbage, mark, read_marks

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

#: What an ingest does before it is killed: lease a build, create it, write into it, die.
KILLED_INGEST = """
import os, signal, sys, chromadb
from ingest.settings import Settings
from ingest.store import client_for, mark, new_collection
client = client_for(Settings(index_dir=sys.argv[1]))
mark(client, [sys.argv[2]], "building", now=float(sys.argv[3]))
coll = new_collection(client, sys.argv[2])
coll.add(ids=[str(i) for i in range(50)], embeddings=[[float(i), 1.0] for i in range(50)])
os.kill(os.getpid(), signal.SIGKILL)
"""


def _segment_dirs(settings: Settings) -> set[str]:
    path = Path(settings.index_dir) / "chroma"
    return {p.name for p in path.iterdir() if p.is_dir() and UUID.match(p.name)}


def _killed_ingest(settings: Settings, name: str, at: float) -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILLED_INGEST, str(settings.index_dir), name, str(at)],
        cwd=REPO_ROOT, capture_output=True, text=True, check=False,
    )
    assert done.returncode == -9, done.stderr


def test_killed_ingest_leftovers_are_collected_by_the_next_ingest_on_disk_too(
    corpus_copy: Path, make_settings, fake_embed, tmp_path: Path
) -> None:
    settings = make_settings([corpus_copy])
    ingest(settings, embed=fake_embed)
    live = open_index(settings).state
    dirs_live = _segment_dirs(settings)
    _killed_ingest(settings, "arbiter_rules_killed000001", at=1.0)  # long ago
    client_for(settings)  # the cached client must see the new folder's collection
    assert "arbiter_rules_killed000001" in build_collections(chromadb.PersistentClient(
        path=str(Path(settings.index_dir) / "chroma")))
    assert _segment_dirs(settings) > dirs_live

    # The next ingest (a real `arbiter ingest`, nothing changed) collects the leftovers.
    env = {**os.environ, "ARBITER_INDEX_DIR": str(settings.index_dir),
           "ARBITER_CORPUS": str(corpus_copy), "ARBITER_INDEX_GRACE_SECONDS": "600"}
    env.pop("ARBITER_CHROMA_URL", None)
    done = subprocess.run(arbiter("ingest"), env=env, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "unchanged" in done.stdout
    client = chromadb.PersistentClient(path=str(Path(settings.index_dir) / "chroma"))
    assert build_collections(client) == [live.rules_collection]
    assert "arbiter_rules_killed000001" not in read_marks(client)
    assert _segment_dirs(settings) == dirs_live  # its HNSW folder is gone from disk


def test_collection_spares_the_live_build_a_build_in_progress_and_recent_retirees(
    corpus_copy: Path, make_settings, fake_embed
) -> None:
    settings = make_settings([corpus_copy], index_grace_seconds=600)
    ingest(settings, embed=fake_embed)
    first = open_index(settings).state.rules_collection
    guide = corpus_copy / "riftbound-targets-guide.txt"
    guide.write_text(guide.read_text(encoding="utf-8") + "\n\nA new closing paragraph.\n")
    ingest(settings, embed=fake_embed)
    live = open_index(settings).state.rules_collection
    client = client_for(settings)
    assert client is not None
    now = read_marks(client)[first]  # the moment `first` was retired
    mark(client, ["arbiter_rules_inprogress01"], "building", now=now)
    client.create_collection("arbiter_rules_inprogress01")

    # Within the grace period: nothing but a lease-less leftover would go.
    assert collect_garbage(client, settings, now=now + 599) == []
    assert set(build_collections(client)) == {first, live, "arbiter_rules_inprogress01"}

    # Past it: the retired build and the abandoned lease go; the live build never does.
    assert sorted(collect_garbage(client, settings, now=now + 601)) == sorted(
        [first, "arbiter_rules_inprogress01"]
    )
    assert build_collections(client) == [live]
    assert read_marks(client) == {}
    assert open_index(settings).search("target", k=1, mode="bm25")
