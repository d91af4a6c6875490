"""Arbiter's web service: JSON API, chat page, Discord interactions endpoint."""

from web.app import create_app
from web.services import ArbiterServices, LocalServices, RuleNotFound, UnknownGame
from web.store import Store

__all__ = ["ArbiterServices", "LocalServices", "RuleNotFound", "Store", "UnknownGame", "create_app"]
