"""The store, rate limits and replay guard over a real database, on both backends."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from assistant.answer import Answer, Citation
from ingest.settings import Settings
from web import store as store_module
from web.db import Database, SchemaMismatch, head_revision
from web.discord.replay import ReplayGuard
from web.ratelimit import RateLimiter
from web.store import Store


def _answer(question: str) -> Answer:
    return Answer(
        id=None, question=question, game="riftbound", verdict="yes", answer="Yes.",
        citations=[Citation(doc="core", rule="100.1", quote="Rule text.")],
    )


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_store_keeps_answers_feedback_follow_ups_and_guild_settings(state_settings: Settings) -> None:
    store = Store.from_settings(state_settings)
    cid = store.new_conversation()
    assert store.has_conversation(cid) and not store.has_conversation("nope")
    first = store.save_answer(_answer("first?"), cid)
    second = store.save_answer(_answer("second?"), cid)
    assert [a.question for a in store.conversation(cid)] == ["first?", "second?"]
    fetched = store.get_answer(first)
    assert fetched is not None and fetched.answer_id == first and fetched.conversation_id == cid
    assert store.get_answer("missing") is None
    # An answer in a conversation the store has not seen creates it.
    store.save_answer(_answer("elsewhere?"), "conv-from-elsewhere")
    assert store.has_conversation("conv-from-elsewhere")

    assert store.add_feedback(second, helpful=False, comment="cite 355.7")
    assert not store.add_feedback("missing", helpful=True, comment=None)
    rows = {r["answer_id"]: r for r in store.export()}
    assert rows[second]["feedback"] == [
        {"created": rows[second]["feedback"][0]["created"], "helpful": False, "comment": "cite 355.7"}
    ]
    assert rows[first]["feedback"] == [] and len(rows) == 3

    assert store.load_state(cid) is None
    store.save_state(cid, {"question": "q", "game": "riftbound"})
    store.save_state(cid, {"question": "q2", "game": None})
    assert store.load_state(cid) == {"question": "q2", "game": None}

    assert store.guild_game("g1") is None
    store.set_guild_game("g1", "riftbound")
    store.set_guild_game("g1", "marvel-champions")
    assert store.guild_game("g1") == "marvel-champions"


def test_export_reads_every_answer_in_order_across_batches(
    state_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "_EXPORT_BATCH", 3)
    store = Store.from_settings(state_settings)
    cid = store.new_conversation()
    ids = [store.save_answer(_answer(f"q{i}?"), cid) for i in range(8)]
    for answer_id in ids[::2]:
        store.add_feedback(answer_id, helpful=True, comment=answer_id)
    rows = list(store.export())
    assert sorted(r["answer_id"] for r in rows) == sorted(ids)
    assert [r["created"] for r in rows] == sorted(r["created"] for r in rows)
    assert {r["answer_id"]: [f["comment"] for f in r["feedback"]] for r in rows} == {
        a: ([a] if i % 2 == 0 else []) for i, a in enumerate(ids)
    }


def test_rate_limit_counts_concurrent_hits_from_many_threads_exactly(state_settings: Settings) -> None:
    database = Database.for_settings(state_settings)
    clock = Clock()
    limiters = [RateLimiter(lambda: database, 10, scope="api", clock=clock) for _ in range(2)]
    results: list[bool] = []
    lock = threading.Lock()

    def hammer(limiter: RateLimiter) -> None:
        for _ in range(6):
            allowed = limiter.hit("203.0.113.9").allowed
            with lock:
                results.append(allowed)

    threads = [threading.Thread(target=hammer, args=(limiters[i % 2],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 24 and results.count(True) == 10


def test_rate_limit_refills_one_hit_per_interval_and_says_when(state_settings: Settings) -> None:
    clock = Clock()
    limiter = RateLimiter(lambda: Database.for_settings(state_settings), 2, 60.0, scope="api",
                          clock=clock)
    assert limiter.hit("a").allowed and limiter.hit("a").allowed
    refused = limiter.hit("a")
    assert not refused.allowed and refused.retry_after == pytest.approx(30.0)
    assert limiter.hit("b").allowed  # another key has its own bucket
    clock.now += 29.0
    assert limiter.hit("a").retry_after == pytest.approx(1.0)
    clock.now += 1.0
    assert limiter.hit("a").allowed and not limiter.hit("a").allowed
    assert RateLimiter(lambda: Database.for_settings(state_settings), 0, scope="x").hit("a").allowed


def test_replay_guard_claims_an_interaction_id_once_across_processes(state_settings: Settings) -> None:
    clock = Clock()
    database = Database.for_settings(state_settings)
    first, second = (ReplayGuard(lambda: database, 300, clock=clock) for _ in range(2))
    assert first.first_time("1111")
    assert not second.first_time("1111") and not first.first_time("1111")
    assert second.first_time("2222")
    clock.now += 601  # long after any signature on it went stale: the row is swept
    assert first.first_time("1111")


LEGACY_SCHEMA = """
CREATE TABLE conversations (id TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE answers (id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL REFERENCES conversations(id),
    created REAL NOT NULL, question TEXT NOT NULL, game TEXT, verdict TEXT NOT NULL, body TEXT NOT NULL);
CREATE INDEX answers_by_conversation ON answers(conversation_id, created);
CREATE TABLE feedback (id INTEGER PRIMARY KEY AUTOINCREMENT, answer_id TEXT NOT NULL REFERENCES answers(id),
    created REAL NOT NULL, helpful INTEGER NOT NULL, comment TEXT);
CREATE TABLE conversation_state (conversation_id TEXT PRIMARY KEY, state TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE guild_settings (guild_id TEXT PRIMARY KEY, game TEXT NOT NULL, updated REAL NOT NULL);
"""


def test_sqlite_file_from_before_migrations_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    body = _answer("old?").model_copy(update={"answer_id": "a1", "conversation_id": "c1"})
    with sqlite3.connect(path) as db:
        db.executescript(LEGACY_SCHEMA)
        db.execute("INSERT INTO conversations VALUES ('c1', 1.0)")
        db.execute("INSERT INTO answers VALUES ('a1', 'c1', 2.0, 'old?', 'riftbound', 'yes', ?)",
                   (body.model_dump_json(),))
        db.execute("INSERT INTO feedback (answer_id, created, helpful, comment) VALUES ('a1', 3.0, 1, 'ok')")
        db.execute("INSERT INTO guild_settings VALUES ('g1', 'riftbound', 4.0)")
    store = Store.from_settings(Settings(db_path=path))
    [row] = list(store.export())
    assert row["answer"]["question"] == "old?" and row["feedback"][0]["helpful"] is True
    assert store.guild_game("g1") == "riftbound"
    assert ReplayGuard(lambda: store.database, 300).first_time("1")  # the new tables exist
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchone() == (head_revision(),)


def test_schema_from_a_newer_version_is_refused_clearly(state_settings: Settings) -> None:
    database = Database.for_settings(state_settings)
    with database.begin() as db:
        db.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(SchemaMismatch, match="9999"):
        Database(database.url).engine  # noqa: B018 - opening it is the check


def test_db_upgrade_command(state_settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter_cli.main import app

    if state_settings.database_url:
        monkeypatch.setenv("ARBITER_DATABASE_URL", state_settings.database_url)
    else:
        monkeypatch.setenv("ARBITER_DB_PATH", str(state_settings.db_path))
    runner = CliRunner()
    first = runner.invoke(app, ["db", "upgrade"])
    assert first.exit_code == 0 and f"to {head_revision()}" in first.stderr
    again = runner.invoke(app, ["db", "upgrade"])
    assert again.exit_code == 0 and "up to date" in again.stderr


@pytest.mark.parametrize(("url", "code", "message"), [
    ("mysql://u@localhost/db", 2, "must be postgresql://"),
    ("not a url", 2, "must be postgresql://"),
    ("postgresql://u@127.0.0.1:9/db", 1, "unavailable"),
])
def test_db_upgrade_refuses_bad_or_unreachable_databases_clearly(
    url: str, code: int, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arbiter_cli.main import app

    monkeypatch.setenv("ARBITER_DATABASE_URL", url)
    result = CliRunner().invoke(app, ["db", "upgrade"])
    assert result.exit_code == code and message in result.stderr
    assert "Traceback" not in result.output
