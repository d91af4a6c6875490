"""Arbiter's Discord integration: the interactions endpoint and command registration."""

from web.discord.commands import command_definitions
from web.discord.handlers import BadInteraction, InteractionHandler, Outcome
from web.discord.limits import truncate
from web.discord.register import RegistrationError, commands_url, register_commands
from web.discord.render import answer_message, games_message, rule_message, text_message
from web.discord.replay import ReplayGuard
from web.discord.router import PATH, build_router
from web.discord.signature import SignatureError, verify_request
from web.discord.validate import command_problems, message_problems, response_problems
from web.ratelimit import RateLimiter

__all__ = [
    "PATH",
    "BadInteraction",
    "InteractionHandler",
    "Outcome",
    "RateLimiter",
    "RegistrationError",
    "ReplayGuard",
    "SignatureError",
    "answer_message",
    "build_router",
    "command_definitions",
    "command_problems",
    "commands_url",
    "games_message",
    "message_problems",
    "register_commands",
    "response_problems",
    "rule_message",
    "text_message",
    "truncate",
    "verify_request",
]
