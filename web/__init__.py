"""Arbiter's web service: JSON API, chat page, Discord interactions endpoint."""

from ingest.errors import UnknownGame
from web.app import create_app
from web.services import ArbiterServices, LocalServices, RuleNotFound
from web.store import Store

__all__ = ["ArbiterServices", "LocalServices", "RuleNotFound", "Store", "UnknownGame", "create_app"]
