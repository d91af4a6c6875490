"""Arbiter's exception hierarchy: every error Arbiter raises on purpose is an
:class:`ArbiterError`, so callers (the web app, the CLI) map them in one place.

Subclasses also derive from the builtin that fits (``LookupError``, ``RuntimeError``,
``ValueError``), so existing ``except`` clauses keep working.
"""

from __future__ import annotations


class ArbiterError(Exception):
    """Base of every error Arbiter raises on purpose."""


class IndexMissing(ArbiterError, RuntimeError):
    """No ingested index for these settings; the message says to run ``arbiter ingest``."""


class StoreUnavailable(ArbiterError, RuntimeError):
    """The Chroma store cannot be reached (server down, connection refused). Transient:
    the web app answers 503 with ``Retry-After`` and recovers when the store is back."""

    retry_after = 5


class NotFound(ArbiterError, LookupError):
    """Something asked for by name or number does not exist."""
