"""The ``arbiter`` command. Each area registers its commands from its own module,
so that heavy imports (sentence-transformers, chromadb) happen only inside the
commands that need them."""

from __future__ import annotations

import typer

from arbiter_cli import ask_cmds, db_cmds, discord_cmds, engine_cmds, ingest_cmds, web_cmds

app = typer.Typer(
    name="arbiter",
    help="Arbiter: rules answers for card games, with the rule cited.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _print_version(value: bool) -> None:
    if value:
        from ingest.version import package_version

        typer.echo(f"arbiter {package_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """Arbiter: rules answers for card games, with the rule cited."""

for module in (ingest_cmds, engine_cmds, ask_cmds, web_cmds, discord_cmds, db_cmds):
    module.register(app)


def main() -> None:  # pragma: no cover - console entry
    app()
