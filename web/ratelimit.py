"""Per-user sliding-window rate limit, in memory (one process)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class SlidingWindowLimiter:
    """At most ``limit`` hits per ``window`` seconds per key; ``limit <= 0`` disables it."""

    def __init__(
        self, limit: int, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Record a hit for ``key`` and say whether it is within the limit (refused hits
        are not recorded, so a user who waits gets through)."""
        if self.limit <= 0:
            return True
        now = self._clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            if len(self._hits) > 10_000:  # drop idle users so memory stays bounded
                for k in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.window]:
                    del self._hits[k]
            return True

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may hit again (0 when it may now)."""
        with self._lock:
            hits = self._hits.get(key)
            if self.limit <= 0 or not hits or len(hits) < self.limit:
                return 0.0
            return max(0.0, hits[0] + self.window - self._clock())


__all__ = ["SlidingWindowLimiter"]
