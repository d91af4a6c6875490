"""`arbiter serve` and `arbiter feedback export`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import typer

feedback_app = typer.Typer(help="Review what was asked and how it was rated.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.add_typer(feedback_app, name="feedback")


def serve(
    host: str = typer.Option("127.0.0.1", help="Interface to bind."),
    port: int = typer.Option(8000, help="Port to bind."),
    workers: int = typer.Option(1, min=1, help="uvicorn worker processes."),
    ensure_index: bool = typer.Option(
        False, "--ensure-index", help="Ingest the configured corpus first if missing or stale."
    ),
) -> None:
    """Serve the JSON API, the chat page and the Discord endpoint."""
    import uvicorn

    from ingest.settings import Settings

    settings = Settings()
    if ensure_index:
        from ingest import index_is_stale, ingest

        if index_is_stale(settings):
            typer.echo("Index missing or stale: ingesting the configured corpus...", err=True)
            summary = ingest(settings, progress=True)
            if summary.errors:
                for error in summary.errors:
                    typer.echo(f"error: {error}", err=True)
                raise typer.Exit(1)
        else:
            typer.echo("Index is up to date.", err=True)
        from arbiter_cli.ingest_cmds import _prepare_query_model

        _prepare_query_model(settings)  # once, before any worker starts
    from arbiter_cli.db_cmds import upgrade_database

    upgrade_database()  # once, before any worker starts
    base = public_base_url(host, port)
    typer.echo(f"Arbiter: open {base}/ in a browser (API docs: {base}/docs).", err=True)
    # A factory import string lets uvicorn start several workers, each building
    # its own app from the same environment settings.
    uvicorn.run(
        "web.app:create_app", factory=True, host=host, port=port, workers=workers, log_level="info",
        # Forwarded headers are honoured only from ARBITER_TRUSTED_PROXIES (in the app),
        # never from uvicorn's default of trusting 127.0.0.1.
        proxy_headers=False,
    )


def public_base_url(host: str, port: int) -> str:
    """ARBITER_PUBLIC_BASE_URL when set; else the bound address, which becomes the setting
    for this process and its workers (permalinks then point at the port actually served)."""
    configured = os.environ.get("ARBITER_PUBLIC_BASE_URL")
    if configured:
        return configured.rstrip("/")
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:  # an IPv6 literal
        shown = f"[{shown}]"
    base = f"http://{shown}:{port}"
    os.environ["ARBITER_PUBLIC_BASE_URL"] = base
    return base


@feedback_app.command("export")
def export(
    out: Path | None = typer.Option(None, "--out", "-o", help="Write to FILE (default stdout)."),
) -> None:
    """Write every stored answer with its feedback as JSON lines."""
    from ingest.settings import Settings
    from web.store import Store

    store = Store.from_settings(Settings())
    try:
        stream = out.open("w", encoding="utf-8") if out else sys.stdout
    except OSError as exc:
        typer.echo(f"error: cannot write {out}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    count = 0
    try:
        for row in store.export():
            stream.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    finally:
        if out:
            stream.close()
    typer.echo(f"{count} answers exported", err=True)
