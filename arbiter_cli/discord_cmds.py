"""``arbiter discord ...``: Discord application setup."""

from __future__ import annotations

import typer

discord_app = typer.Typer(help="Discord integration: register the slash commands.", no_args_is_help=True)


@discord_app.command("register")
def register_cmd(
    app_id: str = typer.Option(..., "--app-id", help="Discord application id."),
    guild: str | None = typer.Option(
        None, "--guild", help="Register in this guild only (appears at once; for testing)."
    ),
) -> None:
    """PUT the slash command definitions to Discord (token from ARBITER_DISCORD_TOKEN)."""
    from ingest.settings import Settings
    from web.discord.register import RegistrationError, register_commands

    settings = Settings()
    if not settings.discord_token:
        typer.echo("error: ARBITER_DISCORD_TOKEN is not set (the bot token from the Discord "
                   "developer portal)", err=True)
        raise typer.Exit(2)
    if not app_id.strip().isdigit() or (guild is not None and not guild.strip().isdigit()):
        typer.echo("error: --app-id and --guild take Discord ids (digits)", err=True)
        raise typer.Exit(2)
    try:
        registered = register_commands(
            settings.discord_api_base, settings.discord_token, app_id.strip(),
            guild.strip() if guild else None,
        )
    except RegistrationError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    names = ", ".join("/" + str(c.get("name")) for c in registered if isinstance(c, dict))
    scope = f"guild {guild}" if guild else "globally"
    typer.echo(f"registered {len(registered)} commands {scope}: {names}")


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.add_typer(discord_app, name="discord")
