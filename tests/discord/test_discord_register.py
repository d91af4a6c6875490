"""`arbiter discord register` against a local fake Discord HTTP server."""

from __future__ import annotations

from discord_fakes import FakeDiscord
from typer.testing import CliRunner

from arbiter_cli.main import app
from web.discord import command_definitions, command_problems

runner = CliRunner()


def env(discord: FakeDiscord, token: str | None = "good-token") -> dict[str, str | None]:
    return {"ARBITER_DISCORD_TOKEN": token, "ARBITER_DISCORD_API_BASE": discord.url}


def test_register_global_puts_all_commands(fake_discord: FakeDiscord) -> None:
    result = runner.invoke(app, ["discord", "register", "--app-id", "4242"], env=env(fake_discord))
    assert result.exit_code == 0, result.output
    [request] = fake_discord.requests
    assert request["method"] == "PUT"
    assert request["path"] == "/applications/4242/commands"
    assert request["headers"]["authorization"] == "Bot good-token"
    assert request["json"] == command_definitions()
    assert all(command_problems(c) == [] for c in request["json"])
    assert "/rules" in result.output and "/rules-setup" in result.output


def test_register_guild(fake_discord: FakeDiscord) -> None:
    result = runner.invoke(app, ["discord", "register", "--app-id", "4242", "--guild", "77"],
                           env=env(fake_discord))
    assert result.exit_code == 0, result.output
    assert fake_discord.requests[0]["path"] == "/applications/4242/guilds/77/commands"


def test_register_without_token_exits_2(fake_discord: FakeDiscord) -> None:
    result = runner.invoke(app, ["discord", "register", "--app-id", "4242"], env=env(fake_discord, None))
    assert result.exit_code == 2
    assert "ARBITER_DISCORD_TOKEN" in result.output
    assert fake_discord.requests == []


def test_register_rejected_by_discord_exits_1(fake_discord: FakeDiscord) -> None:
    result = runner.invoke(app, ["discord", "register", "--app-id", "4242"],
                           env=env(fake_discord, "wrong-token"))
    assert result.exit_code == 1
    assert "401" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_register_unreachable_exits_1() -> None:
    result = runner.invoke(app, ["discord", "register", "--app-id", "4242"],
                           env={"ARBITER_DISCORD_TOKEN": "t", "ARBITER_DISCORD_API_BASE": "http://127.0.0.1:9"})
    assert result.exit_code == 1
    assert "could not reach" in result.output


def test_register_bad_app_id_exits_2(fake_discord: FakeDiscord) -> None:
    result = runner.invoke(app, ["discord", "register", "--app-id", "abc"], env=env(fake_discord))
    assert result.exit_code == 2 and fake_discord.requests == []
