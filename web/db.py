"""The state database: SQLAlchemy 2 Core over SQLite (default) or PostgreSQL.

``ARBITER_DATABASE_URL`` picks the database; unset, it is the SQLite file at
``ARBITER_DB_PATH``. ``postgresql://`` URLs use the psycopg 3 driver. The schema is
owned by the Alembic migrations in ``web/migrations``: ``arbiter db upgrade`` applies
them, and a process that opens a database whose schema is behind applies them itself
(under a lock, so several processes starting together migrate once).

One ``Database`` (one engine and connection pool) per URL per process.
"""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.exc import DBAPIError as _DBAPIError

from ingest.errors import ArbiterError
from ingest.settings import Settings

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Any constant: the PostgreSQL advisory lock that serialises concurrent upgrades.
_MIGRATION_LOCK_KEY = 0x4A7B_17E5

metadata = sa.MetaData()

conversations = sa.Table(
    "conversations",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
)
answers = sa.Table(
    "answers",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("conversation_id", sa.Text, sa.ForeignKey("conversations.id"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("game", sa.Text),
    sa.Column("verdict", sa.Text, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Index("answers_by_conversation", "conversation_id", "created"),
)
feedback = sa.Table(
    "feedback",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("answer_id", sa.Text, sa.ForeignKey("answers.id"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("helpful", sa.Boolean, nullable=False),
    sa.Column("comment", sa.Text),
)
conversation_state = sa.Table(
    "conversation_state",
    metadata,
    sa.Column("conversation_id", sa.Text, primary_key=True),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)
guild_settings = sa.Table(
    "guild_settings",
    metadata,
    sa.Column("guild_id", sa.Text, primary_key=True),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)
# Rate limits (GCRA): per key, the theoretical arrival time of the next request.
rate_limits = sa.Table(
    "rate_limits",
    metadata,
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("tat", sa.Float, nullable=False),
)
# Discord interaction ids seen, kept until their signature timestamp has gone stale.
discord_interactions = sa.Table(
    "discord_interactions",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("expires", sa.Float, nullable=False, index=True),
)


class DatabaseError(ArbiterError, RuntimeError):
    """The state database cannot be used (base of the database errors)."""


class BadDatabaseUrl(DatabaseError):
    """ARBITER_DATABASE_URL is not a URL of a supported database."""


class DatabaseUnavailable(DatabaseError):
    """The database does not answer (down, unreachable, refusing connections)."""


class SchemaMismatch(DatabaseError):
    """The database's schema was written by a newer Arbiter than this one."""


def database_url(settings: Settings) -> str:
    """The SQLAlchemy URL of the state database (psycopg 3 for PostgreSQL)."""
    raw = settings.database_url or f"sqlite:///{Path(settings.db_path).resolve()}"
    try:
        url = make_url(raw)
    except ArgumentError as exc:
        raise BadDatabaseUrl(f"ARBITER_DATABASE_URL is not a database URL: {exc}") from None
    if url.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
        url = url.set(drivername="postgresql+psycopg")
    elif url.drivername not in ("sqlite", "sqlite+pysqlite"):
        raise BadDatabaseUrl(
            f"unsupported database {url.drivername!r}: use postgresql://… or sqlite:///FILE"
        )
    return url.render_as_string(hide_password=False)


def _alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
    assert head is not None, "web/migrations has no revision"
    return head


class Database:
    """An engine over the state database whose schema is at the migrations' head."""

    _registry: ClassVar[dict[str, Database]] = {}
    _registry_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    @classmethod
    def for_settings(cls, settings: Settings) -> Database:
        """The process's one ``Database`` for the configured URL."""
        url = database_url(settings)
        with cls._registry_lock:
            if url not in cls._registry:
                cls._registry[url] = cls(url)
            return cls._registry[url]

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    @property
    def engine(self) -> Engine:
        """The engine, created and brought to the schema head on first use."""
        if self._engine is None:
            with self._lock:
                if self._engine is None:
                    engine = self._create_engine()
                    try:
                        self._upgrade(engine, only_if_behind=True)
                    except BaseException:
                        engine.dispose()
                        raise
                    self._engine = engine
        return self._engine

    def _create_engine(self) -> Engine:
        if self.is_sqlite:
            path = make_url(self.url).database
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = sa.create_engine(self.url, connect_args={"timeout": 30})

            @sa.event.listens_for(engine, "connect")
            def _wal(dbapi_connection, _record):  # type: ignore[no-untyped-def]
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                # WAL + NORMAL: a commit is not fsynced (checkpoints are); the file stays
                # consistent on a crash, the last answers may be lost on power loss. Every
                # answer commits 3-4 times: fsyncs were most of an answer's wall time.
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.close()

            return engine
        return sa.create_engine(self.url, pool_pre_ping=True, pool_size=5, max_overflow=10)

    def upgrade(self) -> tuple[str | None, str]:
        """Apply every pending migration; (revision before, revision after)."""
        engine = self._engine or self._create_engine()
        try:
            before = self._upgrade(engine, only_if_behind=False)
        finally:
            if self._engine is None:
                engine.dispose()
        return before, head_revision()

    def _upgrade(self, engine: Engine, *, only_if_behind: bool) -> str | None:
        head = head_revision()
        known = {s.revision for s in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}
        with _translate_errors(), self._migration_lock(engine) as connection:
            current = MigrationContext.configure(connection).get_current_revision()
            if current is not None and current not in known:
                raise SchemaMismatch(
                    f"the database schema is at revision {current!r}, which this Arbiter does "
                    "not know (written by a newer version?)"
                )
            if current != head or not only_if_behind:
                command.upgrade(_alembic_config(connection), "head")
                connection.commit()
            return current

    @contextmanager
    def _migration_lock(self, engine: Engine) -> Iterator[Connection]:
        """A connection holding the cross-process migration lock."""
        if self.is_sqlite:
            path = make_url(self.url).database or ""
            lock_path = Path(path + ".migrate.lock") if path and path != ":memory:" else None
            handle = lock_path.open("a") if lock_path else None
            try:
                if handle:
                    fcntl.flock(handle, fcntl.LOCK_EX)
                with engine.connect() as connection:
                    yield connection
            finally:
                if handle:
                    fcntl.flock(handle, fcntl.LOCK_UN)
                    handle.close()
            return
        with engine.connect() as connection:
            connection.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK_KEY})
            connection.commit()
            try:
                yield connection
            finally:
                connection.rollback()
                connection.execute(
                    sa.text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK_KEY}
                )
                connection.commit()

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """A transaction: committed when the block ends, rolled back if it raises."""
        engine = self.engine
        with _translate_errors(), engine.begin() as connection:
            yield connection

    def dispose(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


@contextmanager
def _translate_errors() -> Iterator[None]:
    try:
        yield
    except OperationalError as exc:
        if exc.connection_invalidated or _is_connection_problem(exc):
            raise DatabaseUnavailable(f"the state database is unavailable: {exc.orig}") from exc
        raise


def _is_connection_problem(exc: _DBAPIError) -> bool:
    text = str(exc.orig).lower()
    return any(
        marker in text
        for marker in (
            "connection",
            "could not connect",
            "server closed",
            "terminating",
            "database is locked",
            "unable to open database",
            "the database system is",
        )
    )


__all__ = [
    "BadDatabaseUrl",
    "Database",
    "DatabaseError",
    "DatabaseUnavailable",
    "SchemaMismatch",
    "database_url",
    "head_revision",
    "metadata",
]
