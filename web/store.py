"""SQLite persistence: conversations, answers, feedback, Discord guild settings.

Judges review what was asked and how it was rated, so every answer is kept
with its full JSON. One connection per call keeps it safe across uvicorn's
threadpool; WAL lets readers run beside the writer.
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from assistant.answer import Answer

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS answers (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    created REAL NOT NULL,
    question TEXT NOT NULL,
    game TEXT,
    verdict TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_conversation ON answers(conversation_id, created);
CREATE TABLE IF NOT EXISTS feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    answer_id TEXT NOT NULL REFERENCES answers(id),
    created REAL NOT NULL,
    helpful INTEGER NOT NULL,
    comment TEXT
);
CREATE TABLE IF NOT EXISTS conversation_state (
    conversation_id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS guild_settings (
    guild_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    updated REAL NOT NULL
);
"""


class Store:
    """The product's small relational memory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=10)
        db.row_factory = sqlite3.Row
        try:
            with db:  # commits on success, rolls back on error: never half-written
                yield db
        finally:
            db.close()

    # conversations and answers -------------------------------------------------
    def new_conversation(self) -> str:
        cid = uuid.uuid4().hex
        with self._connect() as db:
            db.execute("INSERT INTO conversations (id, created) VALUES (?, ?)", (cid, time.time()))
        return cid

    def has_conversation(self, conversation_id: str) -> bool:
        with self._connect() as db:
            row = db.execute(
                "SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
        return row is not None

    def save_answer(self, answer: Answer, conversation_id: str) -> str:
        answer_id = uuid.uuid4().hex
        answer.answer_id = answer_id
        answer.conversation_id = conversation_id
        with self._connect() as db:
            db.execute(
                "INSERT OR IGNORE INTO conversations (id, created) VALUES (?, ?)",
                (conversation_id, time.time()),
            )
            db.execute(
                "INSERT INTO answers (id, conversation_id, created, question, game, verdict, body)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    answer_id,
                    conversation_id,
                    time.time(),
                    answer.question,
                    answer.game,
                    answer.verdict,
                    answer.model_dump_json(),
                ),
            )
        return answer_id

    def get_answer(self, answer_id: str) -> Answer | None:
        with self._connect() as db:
            row = db.execute("SELECT body FROM answers WHERE id = ?", (answer_id,)).fetchone()
        return Answer.model_validate_json(row["body"]) if row else None

    def conversation(self, conversation_id: str) -> list[Answer]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT body FROM answers WHERE conversation_id = ? ORDER BY created",
                (conversation_id,),
            ).fetchall()
        return [Answer.model_validate_json(r["body"]) for r in rows]

    # feedback ------------------------------------------------------------------
    def add_feedback(self, answer_id: str, helpful: bool, comment: str | None) -> bool:
        """Record feedback; False when the answer does not exist (nothing written)."""
        with self._connect() as db:
            if db.execute("SELECT 1 FROM answers WHERE id = ?", (answer_id,)).fetchone() is None:
                return False
            db.execute(
                "INSERT INTO feedback (answer_id, created, helpful, comment) VALUES (?, ?, ?, ?)",
                (answer_id, time.time(), int(helpful), comment),
            )
        return True

    def export(self) -> Iterator[dict[str, Any]]:
        """Every answer with its feedback, oldest first (for `arbiter feedback export`)."""
        with self._connect() as db:
            answers = db.execute(
                "SELECT id, conversation_id, created, body FROM answers ORDER BY created"
            ).fetchall()
            feedback = db.execute(
                "SELECT answer_id, created, helpful, comment FROM feedback ORDER BY created"
            ).fetchall()
        by_answer: dict[str, list[dict[str, Any]]] = {}
        for f in feedback:
            by_answer.setdefault(f["answer_id"], []).append(
                {"created": f["created"], "helpful": bool(f["helpful"]), "comment": f["comment"]}
            )
        for a in answers:
            yield {
                "answer_id": a["id"],
                "conversation_id": a["conversation_id"],
                "created": a["created"],
                "answer": json.loads(a["body"]),
                "feedback": by_answer.get(a["id"], []),
            }

    # the assistant's follow-up state ---------------------------------------------------
    def load_state(self, conversation_id: str) -> dict[str, Any] | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT state FROM conversation_state WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()
        return json.loads(row["state"]) if row else None

    def save_state(self, conversation_id: str, state: dict[str, Any]) -> None:
        with self._connect() as db:
            db.execute(
                "INSERT INTO conversation_state (conversation_id, state, updated) VALUES (?, ?, ?)"
                " ON CONFLICT(conversation_id) DO UPDATE"
                " SET state = excluded.state, updated = excluded.updated",
                (conversation_id, json.dumps(state), time.time()),
            )

    # Discord guild settings ------------------------------------------------------
    def guild_game(self, guild_id: str) -> str | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT game FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ).fetchone()
        return row["game"] if row else None

    def set_guild_game(self, guild_id: str, game: str) -> None:
        with self._connect() as db:
            db.execute(
                "INSERT INTO guild_settings (guild_id, game, updated) VALUES (?, ?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET game = excluded.game, updated = excluded.updated",
                (guild_id, game, time.time()),
            )


class ConversationState:
    """The assistant's ConversationStore seam over SQLite: follow-ups work across
    uvicorn workers and restarts, not only within one process."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def load(self, conversation_id: str) -> dict[str, Any] | None:
        return self._store.load_state(conversation_id)

    def save(self, conversation_id: str, state: dict[str, Any]) -> None:
        self._store.save_state(conversation_id, state)
