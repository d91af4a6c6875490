"""Open the rules index, building it from the configured corpus on first use."""

from __future__ import annotations

import sys
from typing import Any

from ingest.errors import ArbiterError


class IndexUnavailable(ArbiterError, RuntimeError):
    """No index exists and none could be built (the message says which command to run)."""


def open_or_build(settings: Any = None) -> Any:
    import ingest
    from ingest.settings import Settings

    settings = settings or Settings()
    try:
        return ingest.open_index(settings)
    except ingest.IndexMissing:
        pass
    print("No rules index yet: building it from the configured corpus (first use)...", file=sys.stderr)
    try:
        ingest.ingest(settings)
    except TypeError:
        ingest.ingest(settings=settings)
    except Exception as exc:
        raise IndexUnavailable(f"could not build the rules index ({exc}); run `arbiter ingest` first") from exc
    try:
        return ingest.open_index(settings)
    except ingest.IndexMissing as exc:
        raise IndexUnavailable("no rules index: run `arbiter ingest` first") from exc
