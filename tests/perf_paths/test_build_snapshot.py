"""The build snapshot (ingest/snapshot.py): a cold process opens the live build from files
beside the index instead of Chroma, the snapshot follows every new build, a missing or
corrupt file is rebuilt, and answers and search results are the same with and without it."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant import Assistant
from ingest import ingest, open_index, snapshot
from ingest.index import RuleIndex, _Bm25, forget_index
from ingest.settings import REPO_ROOT, Settings
from ingest.snapshot import BuildCache, cached_state, db_stamp, snapshot_root
from ingest.store import client_for, read_state

QUESTIONS = [
    ('Does "Kill a unit" target the unit?', "riftbound"),
    ("Can I choose my own unit as the target of a spell?", None),
    ("How many targets can I choose for an ability that says up to 2?", "riftbound"),
    ("Is a minion a legal target for an attack that says deal 5 damage to a minion?", "marvel-champions"),
    ("can i pick an exhausted unit", None),
]

OPENS = """
import sys, json
from ingest.settings import Settings
from ingest.index import open_index
idx = open_index(Settings(index_dir=sys.argv[1], corpus=[sys.argv[2]]))
hits = idx.search("legend readying", k=3)
print(json.dumps({"build": idx.state.build, "hits": [h.rule.key for h in hits],
                  "loaded": sorted(m for m in ("chromadb", "bm25s", "scipy") if m in sys.modules)}))
"""


def _fresh(settings: Settings) -> dict[str, object]:
    """Open the index and search in a new process (a cold CLI)."""
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    p = subprocess.run([sys.executable, "-c", OPENS, str(settings.index_dir), str(settings.corpus[0])],
                       cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300, check=True)
    out: dict[str, object] = json.loads(p.stdout.strip().splitlines()[-1])
    return out


def _answers(index: object, settings: Settings) -> list[dict[str, object]]:
    a = Assistant(settings, index=index)  # type: ignore[arg-type]
    out = []
    for q, g in QUESTIONS:
        d = a.ask(q, game=g).model_dump()
        d.pop("answer_id")
        out.append(d)
    return out


def _uncached(settings: Settings) -> RuleIndex:
    """The live build read from Chroma alone (no snapshot), as before snapshots existed."""
    client = client_for(settings, create=False)
    assert client is not None
    state = read_state(client)
    assert state is not None
    return RuleIndex(settings, client, state, BuildCache(None, state.build))


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory, shared_dir: Path) -> Settings:
    """The seed corpus ingested into an index these tests may damage."""
    base = tmp_path_factory.mktemp("snapshot")
    settings = Settings(corpus=[shared_dir / "corpus"], index_dir=base / "index", chroma_url=None)
    assert not ingest(settings).errors
    return settings


def test_ingest_leaves_a_snapshot_a_cold_process_opens_without_chromadb(own: Settings) -> None:
    state = cached_state(own)
    assert state is not None and state.build == open_index(own).state.build
    files = {p.name.rsplit("-", 1)[0] for p in (snapshot_root(own) / state.build).glob("*.pkl")}
    assert {"rules", "dense", "cards"} <= files
    first = _fresh(own)  # builds the BM25 and ranking artifacts of an all-games search
    again = _fresh(own)
    assert again["build"] == state.build
    assert again["hits"] == first["hits"] and again["hits"]
    assert again["loaded"] == []


def test_search_and_lookups_match_the_store_read_without_snapshot(own: Settings) -> None:
    forget_index(own)
    snap, plain = open_index(own), _uncached(own)
    assert [r.model_dump() for r in snap.rules()] == [r.model_dump() for r in plain.rules()]
    for q, g in QUESTIONS:
        for mode in ("hybrid", "dense", "bm25"):
            a = [(h.rule.key, h.score, h.via) for h in snap.search(q, game=g, k=10, mode=mode)]  # type: ignore[arg-type]
            b = [(h.rule.key, h.score, h.via) for h in plain.search(q, game=g, k=10, mode=mode)]  # type: ignore[arg-type]
            assert a == b, (q, mode)
    assert snap.card_names() == plain.card_names()


def test_answers_are_identical_with_without_and_read_back_from_the_snapshot(own: Settings) -> None:
    without = _answers(_uncached(own), own)
    forget_index(own)
    building = _answers(open_index(own), own)  # writes the assistant's artifacts
    names = {p.name.rsplit("-", 1)[0] for p in (snapshot_root(own) / open_index(own).state.build).glob("*.pkl")}
    assert {"assistant-speller-vocabulary", "assistant-card-finder", "assistant-worked-wordings"} <= names
    forget_index(own)
    read_back = _answers(open_index(own), own)  # a new index and assistant read them
    assert without == building == read_back


def test_corrupt_or_missing_snapshot_files_fall_back_to_the_store(own: Settings) -> None:
    expected = _answers(_uncached(own), own)
    forget_index(own)
    build = open_index(own).state.build
    folder = snapshot_root(own) / build
    pkls = sorted(folder.glob("*.pkl"))
    assert pkls
    for i, p in enumerate(pkls):  # truncated, garbage, another artifact's header, missing
        if i % 4 == 0:
            p.write_bytes(p.read_bytes()[:40])
        elif i % 4 == 1:
            p.write_bytes(b"not a pickle at all")
        elif i % 4 == 2:
            p.write_bytes(pickle.dumps(("arbiter-snapshot", 1, "other-build", "rules", "x")) + pickle.dumps([]))
        else:
            p.unlink()
    (snapshot_root(own) / "live.json").write_text("{broken", encoding="utf-8")
    forget_index(own)
    snapshot._SEEN.clear()  # as a new process: nothing remembered in memory
    assert cached_state(own) is None
    assert _answers(open_index(own), own) == expected
    assert cached_state(own) is not None  # the pointer was recorded again
    forget_index(own)
    assert _answers(open_index(own), own) == expected  # and the rebuilt files read back


def test_a_written_store_invalidates_the_pointer(own: Settings) -> None:
    open_index(own)
    state = cached_state(own)
    assert state is not None
    db = Path(own.index_dir) / "chroma" / "chroma.sqlite3"
    st = db.stat()
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # as any write does
    assert cached_state(own) is None
    forget_index(own)
    assert open_index(own).state.build == state.build  # read through Chroma, recorded again
    assert cached_state(own) is not None and db_stamp(own) is not None


def test_a_new_build_gets_its_own_snapshot_and_the_old_one_goes(tmp_path: Path, corpus_copy: Path) -> None:
    settings = Settings(corpus=[corpus_copy], index_dir=tmp_path / "index", chroma_url=None,
                        index_grace_seconds=0)
    ingest(settings)
    old = open_index(settings)
    old_build = old.state.build
    assert old.lookup("355.14", "riftbound") is not None
    guide = corpus_copy / "riftbound-targets-guide.txt"
    guide.write_text(guide.read_text(encoding="utf-8") + "\n\nA brand new passage about snapshot builds.\n",
                     encoding="utf-8")
    ingest(settings)
    state = cached_state(settings)
    assert state is not None and state.build != old_build
    fresh = _fresh(settings)
    assert fresh["build"] == state.build
    new = open_index(settings)
    assert any("snapshot builds" in r.text for r in new.rules())
    assert not (snapshot_root(settings) / old_build).exists()


def test_build_cache_rebuilds_on_another_key_and_keeps_nothing_without_a_root(tmp_path: Path) -> None:
    calls: list[int] = []

    def make() -> list[int]:
        calls.append(1)
        return [len(calls)]

    cache = BuildCache(tmp_path, "b1")
    assert cache.get("thing", "k1", make) == [1]
    assert cache.get("thing", "k1", make) == [1]  # read back
    assert cache.get("thing", "k2", make) == [2]  # other code: rebuilt, the old file dropped
    assert [p.name for p in (tmp_path / "b1").glob("thing-*.pkl")] == ["thing-k2.pkl"]
    assert BuildCache(tmp_path, "b2").get("thing", "k2", make) == [3]  # another build
    nothing = BuildCache(None, "b1")
    assert nothing.get("thing", "k1", make) == [4] and nothing.get("thing", "k1", make) == [5]
    assert BuildCache(tmp_path, "b1").get("lambda", "k", lambda: (lambda: 1))() == 1  # not picklable: not kept
    assert not (tmp_path / "b1" / "lambda-k.pkl").exists()


def test_bm25_scores_are_exactly_those_of_bm25s(default_index: RuleIndex) -> None:
    import bm25s  # type: ignore[import-untyped]

    from ingest.index import bm25_tokens
    from ingest.pipeline import chunk_text

    rules = default_index.rules()
    ours = _Bm25(rules)
    theirs = bm25s.BM25()
    theirs.index([bm25_tokens(chunk_text(r)) or ["_"] for r in rules], show_progress=False)
    vocab = sorted(ours.vocab)
    rng = np.random.default_rng(7)
    for _ in range(200):
        toks = [vocab[i] for i in rng.integers(0, len(vocab), size=int(rng.integers(1, 12)))]
        assert np.array_equal(ours.get_scores(toks), theirs.get_scores(toks))


def test_card_name_prefilter_leaves_difflib_matches_unchanged() -> None:
    import difflib

    from ingest.close_names import NamePool

    rng = np.random.default_rng(11)
    letters = list("abcdefghijklmnopqrstuvwxyz0123456789 ")
    names = sorted({"".join(rng.choice(letters[:26], size=int(rng.integers(7, 18)))) for _ in range(400)})
    names += ["jinx loose cannon", "jinx demolitionist", "vi destructive", "kai sa daughter of the void"]
    pool = NamePool(names)
    for _ in range(600):
        base = names[int(rng.integers(0, len(names)))]
        word = list(base)
        for _ in range(int(rng.integers(0, 3))):  # a typo or two: change, drop or add a letter
            i = int(rng.integers(0, len(word)))
            op = int(rng.integers(0, 3))
            if op == 0:
                word[i] = str(rng.choice(letters))
            elif op == 1 and len(word) > 1:
                del word[i]
            else:
                word.insert(i, str(rng.choice(letters)))
        for w in ("".join(word), base[:4], base * 2, "é" + base):  # typos, far shorter/longer, not ASCII
            for cutoff in (0.6, 0.88):
                assert difflib.get_close_matches(w, pool.near(w, cutoff), n=3, cutoff=cutoff) == \
                    difflib.get_close_matches(w, names, n=3, cutoff=cutoff)


def test_arbiter_ingest_prepares_the_answer_caches_of_the_new_build(tmp_path: Path, shared_dir: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), ARBITER_INDEX_DIR=str(tmp_path / "index"),
               ARBITER_CORPUS=str(shared_dir / "corpus"))
    subprocess.run([sys.executable, "-m", "arbiter_cli", "ingest"], cwd=REPO_ROOT, env=env,
                   capture_output=True, text=True, timeout=600, check=True)
    settings = Settings(index_dir=tmp_path / "index", corpus=[shared_dir / "corpus"], chroma_url=None)
    state = cached_state(settings)
    assert state is not None
    names = {p.name.rsplit("-", 1)[0] for p in (snapshot_root(settings) / state.build).glob("*.pkl")}
    games = [g.id for g in state.games]
    assert {"rules", "dense", "bm25-all", "context-all", *(f"bm25-{g}" for g in games),
            "assistant-speller-vocabulary", "assistant-vocabulary", "assistant-card-finder",
            "assistant-worked-wordings"} <= names
