"""Refusing replayed Discord interactions, across every process sharing the database.

A signed interaction stays valid for ``window`` seconds either side of its timestamp,
so an exact copy could be sent again inside that window. Each interaction id is claimed
once in the ``discord_interactions`` table; a second claim of a live id is a replay.
Rows are kept for twice the window after first being seen (a replay must arrive within
the signature window, which ends at most 2 x window after the first arrival, given
clocks in sync), then swept.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import sqlalchemy as sa

from web.db import Database, discord_interactions
from web.store import upsert


class ReplayGuard:
    """``first_time(id)`` is True exactly once per interaction id within the window."""

    def __init__(
        self,
        database: Callable[[], Database],
        window: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._database = database
        self.keep = 2 * max(window, 1)
        self._clock = clock
        self._last_sweep = 0.0

    def first_time(self, interaction_id: str) -> bool:
        now = self._clock()
        table = discord_interactions
        database = self._database()
        if now - self._last_sweep >= self.keep:
            self._last_sweep = now
            with database.begin() as db:
                db.execute(sa.delete(table).where(table.c.expires < now))
        with database.begin() as db:
            statement = upsert(db, table).values(id=interaction_id, expires=now + self.keep)
            # An expired row (not yet swept) is claimed afresh; a live one is a replay.
            claimed = db.execute(
                statement.on_conflict_do_update(
                    index_elements=["id"],
                    set_={"expires": statement.excluded.expires},
                    where=table.c.expires < now,
                ).returning(table.c.id)
            ).first()
            return claimed is not None


__all__ = ["ReplayGuard"]
