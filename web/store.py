"""Persistence: conversations, answers, feedback, follow-up state, Discord guild settings.

Judges review what was asked and how it was rated, so every answer is kept with its
full JSON. SQLAlchemy Core over the state database (``web.db``: the SQLite file by
default, PostgreSQL when ``ARBITER_DATABASE_URL`` says so); every method is one
transaction, committed before it returns, so an acknowledged write is durable.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from assistant.answer import Answer
from ingest.settings import Settings
from web.db import (
    Database,
    answers,
    conversation_state,
    conversations,
    feedback,
    guild_settings,
)

_EXPORT_BATCH = 500


def upsert(connection: Connection, table: sa.Table) -> Any:
    """The dialect's INSERT that supports ON CONFLICT (PostgreSQL and SQLite both do)."""
    if connection.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


class Store:
    """The product's small relational memory."""

    def __init__(self, database: Database) -> None:
        self.database = database

    @classmethod
    def from_settings(cls, settings: Settings) -> Store:
        return cls(Database.for_settings(settings))

    # conversations and answers -------------------------------------------------
    def new_conversation(self) -> str:
        cid = uuid.uuid4().hex
        with self.database.begin() as db:
            db.execute(sa.insert(conversations).values(id=cid, created=time.time()))
        return cid

    def has_conversation(self, conversation_id: str) -> bool:
        with self.database.begin() as db:
            row = db.execute(
                sa.select(conversations.c.id).where(conversations.c.id == conversation_id)
            ).first()
        return row is not None

    def save_answer(self, answer: Answer, conversation_id: str) -> str:
        answer_id = uuid.uuid4().hex
        answer.answer_id = answer_id
        answer.conversation_id = conversation_id
        now = time.time()
        with self.database.begin() as db:
            db.execute(
                upsert(db, conversations)
                .values(id=conversation_id, created=now)
                .on_conflict_do_nothing(index_elements=["id"])
            )
            db.execute(
                sa.insert(answers).values(
                    id=answer_id,
                    conversation_id=conversation_id,
                    created=now,
                    question=answer.question,
                    game=answer.game,
                    verdict=answer.verdict,
                    body=answer.model_dump_json(),
                )
            )
        return answer_id

    def get_answer(self, answer_id: str) -> Answer | None:
        with self.database.begin() as db:
            body = db.execute(
                sa.select(answers.c.body).where(answers.c.id == answer_id)
            ).scalar_one_or_none()
        return Answer.model_validate_json(body) if body is not None else None

    def conversation(self, conversation_id: str) -> list[Answer]:
        with self.database.begin() as db:
            bodies = db.execute(
                sa.select(answers.c.body)
                .where(answers.c.conversation_id == conversation_id)
                .order_by(answers.c.created, answers.c.id)
            ).scalars().all()
        return [Answer.model_validate_json(b) for b in bodies]

    # feedback ------------------------------------------------------------------
    def add_feedback(self, answer_id: str, helpful: bool, comment: str | None) -> bool:
        """Record feedback; False when the answer does not exist (nothing written)."""
        with self.database.begin() as db:
            exists = db.execute(sa.select(answers.c.id).where(answers.c.id == answer_id)).first()
            if exists is None:
                return False
            db.execute(
                sa.insert(feedback).values(
                    answer_id=answer_id, created=time.time(), helpful=helpful, comment=comment
                )
            )
        return True

    def export(self) -> Iterator[dict[str, Any]]:
        """Every answer with its feedback, oldest first (for `arbiter feedback export`).

        Read in batches (by creation time, then id), so memory stays bounded."""
        after: tuple[float, str] | None = None
        while True:
            query = sa.select(
                answers.c.id, answers.c.conversation_id, answers.c.created, answers.c.body
            ).order_by(answers.c.created, answers.c.id)
            if after is not None:
                query = query.where(sa.tuple_(answers.c.created, answers.c.id) > after)
            with self.database.begin() as db:
                rows = db.execute(query.limit(_EXPORT_BATCH)).all()
                ids = [r.id for r in rows]
                ratings = db.execute(
                    sa.select(feedback)
                    .where(feedback.c.answer_id.in_(ids))
                    .order_by(feedback.c.created, feedback.c.id)
                ).all() if ids else []
            by_answer: dict[str, list[dict[str, Any]]] = {}
            for f in ratings:
                by_answer.setdefault(f.answer_id, []).append(
                    {"created": f.created, "helpful": bool(f.helpful), "comment": f.comment}
                )
            for a in rows:
                yield {
                    "answer_id": a.id,
                    "conversation_id": a.conversation_id,
                    "created": a.created,
                    "answer": json.loads(a.body),
                    "feedback": by_answer.get(a.id, []),
                }
            if len(rows) < _EXPORT_BATCH:
                return
            after = (rows[-1].created, rows[-1].id)

    # the assistant's follow-up state ---------------------------------------------------
    def load_state(self, conversation_id: str) -> dict[str, Any] | None:
        with self.database.begin() as db:
            state = db.execute(
                sa.select(conversation_state.c.state).where(
                    conversation_state.c.conversation_id == conversation_id
                )
            ).scalar_one_or_none()
        if state is None:
            return None
        loaded: dict[str, Any] = json.loads(state)
        return loaded

    def save_state(self, conversation_id: str, state: dict[str, Any]) -> None:
        with self.database.begin() as db:
            statement = upsert(db, conversation_state).values(
                conversation_id=conversation_id, state=json.dumps(state), updated=time.time()
            )
            db.execute(
                statement.on_conflict_do_update(
                    index_elements=["conversation_id"],
                    set_={"state": statement.excluded.state, "updated": statement.excluded.updated},
                )
            )

    # Discord guild settings ------------------------------------------------------
    def guild_game(self, guild_id: str) -> str | None:
        with self.database.begin() as db:
            game: str | None = db.execute(
                sa.select(guild_settings.c.game).where(guild_settings.c.guild_id == guild_id)
            ).scalar_one_or_none()
        return game

    def set_guild_game(self, guild_id: str, game: str) -> None:
        with self.database.begin() as db:
            statement = upsert(db, guild_settings).values(
                guild_id=guild_id, game=game, updated=time.time()
            )
            db.execute(
                statement.on_conflict_do_update(
                    index_elements=["guild_id"],
                    set_={"game": statement.excluded.game, "updated": statement.excluded.updated},
                )
            )


class ConversationState:
    """The assistant's ConversationStore seam over the database: follow-ups work across
    workers, processes and machines sharing it, and across restarts."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def load(self, conversation_id: str) -> dict[str, Any] | None:
        return self._store.load_state(conversation_id)

    def save(self, conversation_id: str, state: dict[str, Any]) -> None:
        self._store.save_state(conversation_id, state)
