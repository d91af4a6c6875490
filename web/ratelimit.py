"""Rate limits shared by every process that uses the same state database.

A GCRA (generic cell rate algorithm, i.e. a token bucket of ``limit`` requests refilled
at ``limit`` per ``window``): one row per key holds the theoretical arrival time (TAT)
of the next request. A request is allowed by a single conditional ``UPDATE`` of that row,
so concurrent requests from several processes are counted exactly (PostgreSQL re-checks
the condition under the row lock; SQLite serialises writers).

Accuracy limits: the clock is each process's wall clock, so hosts must keep their clocks
in sync (NTP); skew between hosts loosens or tightens the limit by the skew. Refused
requests are not counted, so a client that waits gets through. Each limited request
costs one write to the database.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from web.db import Database, rate_limits
from web.store import upsert


@dataclass(frozen=True)
class Decision:
    allowed: bool
    retry_after: float = 0.0  # seconds until the key may try again (0 when allowed)


class RateLimiter:
    """At most ``limit`` hits per ``window`` seconds per key (a burst of ``limit``, then
    one every ``window / limit`` seconds); ``limit <= 0`` disables it."""

    def __init__(
        self,
        database: Callable[[], Database],
        limit: int,
        window: float = 60.0,
        *,
        scope: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._database = database
        self.limit = limit
        self.window = window
        self.scope = scope
        self._clock = clock
        self._last_sweep = 0.0

    def hit(self, key: str) -> Decision:
        """Record a hit for ``key`` if it is within the limit, and say whether it was."""
        if self.limit <= 0:
            return Decision(True)
        interval = self.window / self.limit
        tolerance = self.window - interval
        now = self._clock()
        row_key = f"{self.scope}:{key}"
        tat = rate_limits.c.tat
        start = sa.case((tat > now, tat), else_=sa.literal(now, sa.Float))
        database = self._database()
        self._sweep(database, now)
        with database.begin() as db:
            db.execute(
                upsert(db, rate_limits)
                .values(key=row_key, tat=now)
                .on_conflict_do_nothing(index_elements=["key"])
            )
            allowed = db.execute(
                sa.update(rate_limits)
                .where(rate_limits.c.key == row_key, start - now <= tolerance)
                .values(tat=start + interval)
                .returning(rate_limits.c.tat)
            ).first()
            if allowed is not None:
                return Decision(True)
            current = db.execute(
                sa.select(rate_limits.c.tat).where(rate_limits.c.key == row_key)
            ).scalar_one()
        return Decision(False, max(0.0, current - now - tolerance))

    def _sweep(self, database: Database, now: float) -> None:
        """Forget keys whose bucket is full again (at most once a window per process)."""
        if now - self._last_sweep < self.window:
            return
        self._last_sweep = now
        with database.begin() as db:
            db.execute(sa.delete(rate_limits).where(rate_limits.c.tat < now - self.window))


__all__ = ["Decision", "RateLimiter"]
