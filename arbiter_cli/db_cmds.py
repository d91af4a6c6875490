"""`arbiter db upgrade`: bring the state database's schema up to date (Alembic)."""

from __future__ import annotations

import typer

db_app = typer.Typer(help="The state database (SQLite file or PostgreSQL).", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")


def upgrade_database() -> None:
    """Apply pending migrations to the configured database; exit 1/2 with a clear message."""
    from pydantic import ValidationError

    from ingest.settings import Settings
    from web.db import BadDatabaseUrl, Database, DatabaseError, database_url

    try:
        url = database_url(Settings())
    except ValidationError as exc:
        for error in exc.errors():
            where = ".".join(str(p) for p in error["loc"])
            typer.echo(f"error: ARBITER_{where.upper()}: {error['msg']}", err=True)
        raise typer.Exit(2) from None
    except BadDatabaseUrl as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    database = Database(url)
    try:
        before, after = database.upgrade()
    except DatabaseError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    finally:
        database.dispose()
    where = database.url.split("://", 1)[0]
    if before == after:
        typer.echo(f"Database ({where}) is up to date at revision {after}.", err=True)
    else:
        typer.echo(f"Database ({where}) upgraded from {before or 'empty'} to {after}.", err=True)


@db_app.command("upgrade")
def upgrade() -> None:
    """Apply every pending migration (ARBITER_DATABASE_URL, or the SQLite file)."""
    upgrade_database()
