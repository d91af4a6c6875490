"""Registering the slash commands with Discord's Bulk Overwrite endpoints."""

from __future__ import annotations

from typing import Any

import httpx

from ingest.errors import ArbiterError
from web.discord.commands import command_definitions
from web.discord.validate import command_problems


class RegistrationError(ArbiterError, RuntimeError):
    """Discord refused the commands, or could not be reached."""


def commands_url(api_base: str, app_id: str, guild_id: str | None = None) -> str:
    """Bulk Overwrite Global (or Guild) Application Commands."""
    base = f"{api_base.rstrip('/')}/applications/{app_id}"
    return f"{base}/guilds/{guild_id}/commands" if guild_id else f"{base}/commands"


def register_commands(
    api_base: str,
    token: str,
    app_id: str,
    guild_id: str | None = None,
    *,
    commands: list[dict[str, Any]] | None = None,
    timeout: float = 30.0,
) -> list[dict[str, Any]]:
    """PUT the command definitions; returns what Discord answered (the registered commands).
    Guild commands appear at once; global ones may take a while to propagate."""
    body = command_definitions() if commands is None else commands
    problems = [p for c in body for p in command_problems(c)]
    if problems:
        raise RegistrationError("invalid command definitions: " + "; ".join(problems))
    url = commands_url(api_base, app_id, guild_id)
    try:
        reply = httpx.put(
            url,
            json=body,
            headers={"Authorization": f"Bot {token}", "User-Agent": "Arbiter (arbiter, 0.1)"},
            timeout=timeout,
        )
    except httpx.HTTPError as exc:
        raise RegistrationError(f"could not reach Discord at {url}: {exc}") from exc
    if not reply.is_success:
        raise RegistrationError(
            f"Discord answered {reply.status_code} to PUT {url}: {reply.text[:300]}"
        )
    try:
        result = reply.json()
    except ValueError:
        return []
    return result if isinstance(result, list) else []


__all__ = ["RegistrationError", "commands_url", "register_commands"]
