"""Slash command definitions, as sent to Discord's Bulk Overwrite endpoints."""

from __future__ import annotations

from typing import Any

# Application command option types (Discord docs: Application Commands > Option Type).
OPT_STRING = 3
OPT_BOOLEAN = 5
# Permission bits (Discord docs: Permissions > Bitwise Permission Flags).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
# Interaction context types: where a command may be used.
CONTEXT_GUILD, CONTEXT_BOT_DM = 0, 1

RULES = "rules"
RULE = "rule"
GAMES = "games"
RULES_SETUP = "rules-setup"
CARD = "card"

QUESTION_MAX = 1000  # what a judge types in a slash command; the web page takes longer ones


def _game_option(required: bool = False) -> dict[str, Any]:
    return {
        "type": OPT_STRING,
        "name": "game",
        "description": "Game id (see /games); default: this server's game",
        "required": required,
        "max_length": 64,
    }


def command_definitions(question_max: int = QUESTION_MAX) -> list[dict[str, Any]]:
    """The five CHAT_INPUT commands. Required options come first (a Discord rule)."""
    private = {
        "type": OPT_BOOLEAN,
        "name": "private",
        "description": "Only you see the answer",
        "required": False,
    }
    return [
        {
            "type": 1,
            "name": RULES,
            "description": "Ask a rules question; get the ruling with the rules it rests on",
            "contexts": [CONTEXT_GUILD, CONTEXT_BOT_DM],
            "options": [
                {
                    "type": OPT_STRING,
                    "name": "question",
                    "description": "Your rules question",
                    "required": True,
                    "min_length": 3,
                    "max_length": question_max,
                },
                _game_option(),
                private,
            ],
        },
        {
            "type": 1,
            "name": RULE,
            "description": "Show a rule and its subrules by number, e.g. 355.14",
            "contexts": [CONTEXT_GUILD, CONTEXT_BOT_DM],
            "options": [
                {
                    "type": OPT_STRING,
                    "name": "number",
                    "description": "Rule number as printed, e.g. 355.14",
                    "required": True,
                    "max_length": 64,
                    "autocomplete": True,
                },
                _game_option(),
                private,
            ],
        },
        {
            "type": 1,
            "name": CARD,
            "description": "Show a card's text and the rules on the choices it makes",
            "contexts": [CONTEXT_GUILD, CONTEXT_BOT_DM],
            "options": [
                {
                    "type": OPT_STRING,
                    "name": "name",
                    "description": "The card's name",
                    "required": True,
                    "max_length": 100,
                    "autocomplete": True,
                },
                _game_option(),
                private,
            ],
        },
        {
            "type": 1,
            "name": GAMES,
            "description": "List the games and rule documents Arbiter has loaded",
            "contexts": [CONTEXT_GUILD, CONTEXT_BOT_DM],
        },
        {
            "type": 1,
            "name": RULES_SETUP,
            "description": "Set this server's default game (Manage Server permission)",
            # Hidden by default from members without MANAGE_GUILD; the handler checks too,
            # because server admins can override command permissions.
            "default_member_permissions": str(MANAGE_GUILD),
            "contexts": [CONTEXT_GUILD],
            "options": [_game_option(required=True)],
        },
    ]


__all__ = [
    "ADMINISTRATOR",
    "CARD",
    "GAMES",
    "MANAGE_GUILD",
    "QUESTION_MAX",
    "RULE",
    "RULES",
    "RULES_SETUP",
    "command_definitions",
]
