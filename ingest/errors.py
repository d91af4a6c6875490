"""Arbiter's exception hierarchy: every error Arbiter raises on purpose is an
:class:`ArbiterError`, so callers (the web app, the CLI) map them in one place.

Subclasses also derive from the builtin that fits (``LookupError``, ``RuntimeError``,
``ValueError``), so existing ``except`` clauses keep working.
"""

from __future__ import annotations

# The root, ``NotFound`` and ``UnknownGame`` live in the innermost package (the engine
# imports nothing of ours); every other package raises and catches these same classes.
from engine.errors import ArbiterError, NotFound, UnknownGame

__all__ = ["ArbiterError", "IndexMissing", "NotFound", "StoreUnavailable", "UnknownGame"]


class IndexMissing(ArbiterError, RuntimeError):
    """No ingested index for these settings; the message says to run ``arbiter ingest``."""


class StoreUnavailable(ArbiterError, RuntimeError):
    """The Chroma store cannot be reached (server down, connection refused). Transient:
    the web app answers 503 with ``Retry-After`` and recovers when the store is back."""

    retry_after = 5

