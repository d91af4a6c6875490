"""What each interaction does. Services are called here (in a worker thread, never on the
event loop); the router only verifies, parses and replies."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

import httpx
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ingest.errors import ArbiterError, UnknownGame
from ingest.settings import Settings
from web.db import Database
from web.discord import commands as C
from web.discord.components import parse_choice
from web.discord.render import (
    answer_message,
    card_message,
    games_message,
    rule_message,
    text_message,
)
from web.ratelimit import RateLimiter
from web.services import ArbiterServices, RuleNotFound

log = logging.getLogger("arbiter.discord")

# Interaction types (Discord docs: Receiving and Responding > Interaction Type).
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
APPLICATION_COMMAND_AUTOCOMPLETE = 4
# Interaction callback types.
PONG = 1
CHANNEL_MESSAGE_WITH_SOURCE = 4
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
AUTOCOMPLETE_RESULT = 8
EPHEMERAL = 1 << 6
AUTOCOMPLETE_MAX = 25

Snowflake = Annotated[str, BeforeValidator(lambda v: str(v) if isinstance(v, int) else v)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class User(_Model):
    id: Snowflake


class Member(_Model):
    user: User | None = None
    permissions: str = "0"  # the member's computed permissions in the channel, as a decimal string


class CommandOption(_Model):
    name: str
    type: int
    value: Any = None
    focused: bool = False


class CommandData(_Model):
    """A command's data; for a component interaction, ``custom_id`` (and a select menu's
    ``values``) instead of a name."""

    name: str = ""
    options: list[CommandOption] = Field(default_factory=list)
    custom_id: str = ""
    values: list[str] = Field(default_factory=list)

    def option(self, name: str) -> Any:
        return next((o.value for o in self.options if o.name == name), None)

    def focused(self) -> CommandOption | None:
        return next((o for o in self.options if o.focused), None)


class Message(_Model):
    flags: int = 0


class Interaction(_Model):
    type: int
    id: Snowflake = ""
    application_id: Snowflake = ""
    token: str = ""
    guild_id: Snowflake | None = None
    data: CommandData | None = None
    member: Member | None = None  # set in guilds
    user: User | None = None  # set in DMs
    message: Message | None = None  # the message a component belongs to

    @property
    def user_id(self) -> str | None:
        if self.member and self.member.user:
            return self.member.user.id
        return self.user.id if self.user else None


class BadInteraction(ArbiterError, ValueError):
    """A signed request this endpoint cannot act on (answered with 400)."""


@dataclass
class Outcome:
    """The immediate interaction response, and work to run after it has been sent."""

    response: dict[str, Any]
    followup: Callable[[], Awaitable[None]] | None = None


def _reply(data: dict[str, Any], *, ephemeral: bool = False) -> dict[str, Any]:
    if ephemeral:
        data = {**data, "flags": data.get("flags", 0) | EPHEMERAL}
    return {"type": CHANNEL_MESSAGE_WITH_SOURCE, "data": data}


def _notice(text: str) -> dict[str, Any]:
    return _reply(text_message(text), ephemeral=True)


def _unknown_game(exc: UnknownGame) -> str:
    loaded = ", ".join(f"`{g}`" for g in exc.games) or "none"
    return f"I don't have a game called `{exc.game}`. Loaded games: {loaded}."


class InteractionHandler:
    """Turns a parsed interaction into a response (and, for /rules, a follow-up)."""

    def __init__(
        self,
        settings: Settings,
        services_provider: Callable[[], ArbiterServices],
        limiter: RateLimiter | None = None,
    ) -> None:
        self.settings = settings
        self.services_provider = services_provider
        # Keyed by Discord user id, shared with every process using the same database.
        self.limiter = limiter or RateLimiter(
            lambda: Database.for_settings(settings),
            settings.discord_rate_limit_per_minute,
            scope="discord",
        )

    # -- entry point -------------------------------------------------------------------
    def handle(self, payload: Any) -> Outcome:
        """Raises BadInteraction for payloads that are not an interaction we handle."""
        try:
            interaction = Interaction.model_validate(payload)
        except ValueError as exc:
            raise BadInteraction("not a valid interaction payload") from exc
        if interaction.type == PING:
            return Outcome({"type": PONG})
        if interaction.type == MESSAGE_COMPONENT and interaction.data is not None:
            return self._choice(interaction)
        if interaction.type == APPLICATION_COMMAND_AUTOCOMPLETE and interaction.data is not None:
            return Outcome(self._autocomplete(interaction))
        if interaction.type != APPLICATION_COMMAND or interaction.data is None:
            raise BadInteraction(f"interaction type {interaction.type} is not handled")
        name = interaction.data.name
        if name == C.RULES:
            return self._rules(interaction)
        command = {C.RULE: self._rule, C.GAMES: self._games, C.RULES_SETUP: self._setup,
                   C.CARD: self._card}.get(name)
        if command is None:
            raise BadInteraction(f"unknown command {name!r}")
        try:
            return Outcome(command(interaction))
        except BadInteraction:
            raise
        except Exception:  # a failing index must not turn into a 500 Discord shows as an error
            log.exception("discord /%s failed", name)
            return Outcome(_notice("Sorry, something went wrong on my side. Please try again later."))

    # -- /rules: deferred ----------------------------------------------------------------
    def _rules(self, it: Interaction) -> Outcome:
        assert it.data is not None
        question = it.data.option("question")
        if not isinstance(question, str) or not question.strip():
            raise BadInteraction("/rules needs a question")
        if len(question) > self.settings.max_question_chars:
            return Outcome(_notice(
                f"That question is too long ({len(question)} characters; the limit is "
                f"{self.settings.max_question_chars}). Try the web page: "
                f"{self.settings.public_base_url}"
            ))
        if not it.application_id or not it.token:
            raise BadInteraction("interaction lacks application_id or token")
        user = it.user_id or "anonymous"
        decision = self.limiter.hit(user)
        if not decision.allowed:
            wait = math.ceil(decision.retry_after) or 1
            return Outcome(_notice(
                f"You're asking faster than I can keep up; please try again in {wait} s."
            ))
        private = it.data.option("private") is True
        game = it.data.option("game")
        game = game.strip() if isinstance(game, str) and game.strip() else None
        # Type 5 within Discord's 3 s window; the answer follows by editing the original.
        response: dict[str, Any] = {"type": DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE}
        if private:
            response["data"] = {"flags": EPHEMERAL}
        app_id, token, guild = it.application_id, it.token, it.guild_id

        async def followup() -> None:
            await self.send_answer(app_id, token, question.strip(), game, guild)

        return Outcome(response, followup)

    def _choice(self, it: Interaction) -> Outcome:
        """A click on a clarification option: ask that option (deferred, like /rules),
        private when the message it belongs to was."""
        assert it.data is not None
        picked = parse_choice(it.data.custom_id, it.data.values)
        if picked is None:
            raise BadInteraction("unknown component")
        if not it.application_id or not it.token:
            raise BadInteraction("interaction lacks application_id or token")
        answer_id, n = picked
        try:
            answer = self.services_provider().get_answer(answer_id)
        except Exception:
            log.exception("discord clarification lookup failed")
            return Outcome(_notice("Sorry, something went wrong on my side. Please try again later."))
        options = answer.clarify.options if answer is not None and answer.clarify is not None else []
        if not 0 <= n < len(options):
            return Outcome(_notice("That choice is no longer available; please ask again with /rules."))
        decision = self.limiter.hit(it.user_id or "anonymous")
        if not decision.allowed:
            wait = math.ceil(decision.retry_after) or 1
            return Outcome(_notice(f"You're asking faster than I can keep up; please try again in {wait} s."))
        ask = options[n].ask
        response: dict[str, Any] = {"type": DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE}
        if it.message is not None and it.message.flags & EPHEMERAL:
            response["data"] = {"flags": EPHEMERAL}
        app_id, token, guild = it.application_id, it.token, it.guild_id

        async def followup() -> None:
            await self.send_answer(app_id, token, ask.question, ask.game, guild)

        return Outcome(response, followup)

    def _autocomplete(self, it: Interaction) -> dict[str, Any]:
        """Rule numbers for /rule, card names for /card: those starting with what is typed
        first, then those containing it."""
        assert it.data is not None
        focused = it.data.focused()
        typed = str(focused.value or "").strip().lower() if focused else ""
        choices: list[str] = []
        try:
            services = self.services_provider()
            game = self._resolve_game(services, it)
            # No game chosen: every loaded game's numbers or names.
            games = [game] if game is not None else [g.id for g in services.games()]
            for g in games if focused is not None else []:
                if it.data.name == C.RULE and focused is not None and focused.name == "number":
                    choices += services.rule_numbers(g)
                elif it.data.name == C.CARD and focused is not None and focused.name == "name":
                    choices += services.card_names(g)
            choices = list(dict.fromkeys(choices))
        except UnknownGame:
            choices = []  # a game option naming no loaded game: nothing to offer
        except Exception:  # an autocomplete that fails offers nothing, never an error
            log.exception("discord autocomplete failed")
        starts = [c for c in choices if c.lower().startswith(typed)]
        inside = [c for c in choices if typed and typed in c.lower() and c not in starts]
        picked = [c for c in (starts + inside) if 1 <= len(c) <= 100][:AUTOCOMPLETE_MAX]
        return {"type": AUTOCOMPLETE_RESULT, "data": {"choices": [{"name": c, "value": c} for c in picked]}}

    def _card(self, it: Interaction) -> dict[str, Any]:
        assert it.data is not None
        name = it.data.option("name")
        if not isinstance(name, str) or not name.strip():
            raise BadInteraction("/card needs a name")
        services = self.services_provider()
        game = self._resolve_game(services, it)
        try:
            card = services.card(name.strip(), game)
        except UnknownGame as exc:
            return _notice(_unknown_game(exc))
        if card is None:
            return _notice(f"I don't know a card called `{name.strip()[:80]}`"
                           + (f" in {game}." if game else "."))
        return _reply(card_message(card), ephemeral=it.data.option("private") is True)

    def answer_data(self, question: str, game: str | None, guild_id: str | None) -> dict[str, Any]:
        """The follow-up message body for /rules (blocking: run it in a thread)."""
        services = self.services_provider()
        if game is None and guild_id:
            game = services.guild_game(guild_id)
        try:
            answer = services.ask(question, game)
        except UnknownGame as exc:
            return text_message(_unknown_game(exc))
        return answer_message(answer, self.settings.public_base_url)

    async def send_answer(
        self, app_id: str, token: str, question: str, game: str | None, guild_id: str | None
    ) -> None:
        """Answer in a worker thread, then PATCH the deferred message. Never raises."""
        try:
            data = await asyncio.to_thread(self.answer_data, question, game, guild_id)
        except Exception:
            log.exception("discord /rules failed to answer")
            data = text_message("Sorry, something went wrong while answering. Please try again later.")
        data.pop("flags", None)  # ephemerality was fixed by the deferred response
        url = f"{self.settings.discord_api_base.rstrip('/')}/webhooks/{app_id}/{token}/messages/@original"
        try:
            async with httpx.AsyncClient(timeout=15.0) as client:
                reply = await client.patch(url, json=data)
            if reply.status_code >= 400:
                log.warning("discord follow-up rejected: %s %s", reply.status_code, reply.text[:500])
        except httpx.HTTPError as exc:
            log.warning("discord follow-up failed: %s", exc)

    # -- immediate commands ------------------------------------------------------------
    def _resolve_game(self, services: ArbiterServices, it: Interaction) -> str | None:
        assert it.data is not None
        game = it.data.option("game")
        if isinstance(game, str) and game.strip():
            return game.strip()
        if it.guild_id and (default := services.guild_game(it.guild_id)):
            return default
        loaded = services.games()
        return loaded[0].id if len(loaded) == 1 else None

    def _rule(self, it: Interaction) -> dict[str, Any]:
        assert it.data is not None
        number = it.data.option("number")
        if not isinstance(number, str) or not number.strip():
            raise BadInteraction("/rule needs a number")
        services = self.services_provider()
        game = self._resolve_game(services, it)
        if game is None:
            ids = ", ".join(f"`{g.id}`" for g in services.games()) or "none"
            return _notice(f"Which game? Add `game:` (loaded: {ids}), or ask a server manager "
                           "to set a default with /rules-setup.")
        try:
            result = services.rule(game, number.strip(), children=True)
        except RuleNotFound as exc:
            near = ", ".join(f"`{s}`" for s in exc.suggestions[:10])
            hint = f" Nearest: {near}." if near else ""
            return _notice(f"There is no rule `{exc.number}` in {exc.game}.{hint}")
        except UnknownGame as exc:
            return _notice(_unknown_game(exc))
        return _reply(rule_message(result), ephemeral=it.data.option("private") is True)

    def _games(self, it: Interaction) -> dict[str, Any]:
        return _reply(games_message(self.services_provider().games()), ephemeral=True)

    def _setup(self, it: Interaction) -> dict[str, Any]:
        assert it.data is not None
        if not it.guild_id or it.member is None:
            return _notice("/rules-setup works inside a server, not in direct messages.")
        try:
            perms = int(it.member.permissions)
        except ValueError:
            perms = 0
        # MANAGE_GUILD (1 << 5) is "server managers"; ADMINISTRATOR implies every permission.
        if not perms & (C.MANAGE_GUILD | C.ADMINISTRATOR):
            return _notice("Sorry, only members with the Manage Server permission can set "
                           "this server's default game.")
        game = it.data.option("game")
        if not isinstance(game, str) or not game.strip():
            raise BadInteraction("/rules-setup needs a game")
        game = game.strip()
        services = self.services_provider()
        loaded = [g.id for g in services.games()]
        try:
            if game not in loaded:
                raise UnknownGame(game, loaded)
            services.set_guild_game(it.guild_id, game)
        except UnknownGame as exc:
            return _notice(_unknown_game(exc))
        return _notice(f"Done: `{game}` is now this server's default game for /rules and /rule.")


__all__ = ["BadInteraction", "Interaction", "InteractionHandler", "Outcome"]
