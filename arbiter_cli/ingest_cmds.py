"""``arbiter ingest``, ``arbiter rule`` and ``arbiter search``.

Exit status: 0 on success; 1 when an ingest finished but some files could not be ingested
(each listed on stderr, file and line; the rest of the corpus was ingested, see
``ingest.pipeline``); 2 for bad usage (missing path, a bare file without ``--game``, a
broken corpus.toml, an unknown game, no index yet) or an unknown rule number.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _settings() -> Any:
    from ingest.settings import Settings

    try:
        return Settings()
    except Exception as exc:  # pydantic ValidationError from ARBITER_* variables
        _fail(f"invalid settings: {exc}".splitlines()[0])


def _index(settings: Any, game: str | None) -> Any:
    from ingest.index import IndexMissing, open_index

    try:
        index = open_index(settings)
    except IndexMissing as exc:
        _fail(str(exc))
    if game is not None and game not in {g.id for g in index.games()}:
        known = ", ".join(sorted(g.id for g in index.games()))
        _fail(f"unknown game {game!r} (known: {known})")
    return index


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""

    @app.command("ingest")
    def ingest_cmd(
        paths: Annotated[
            list[Path] | None,
            typer.Argument(help="Corpus folders (with corpus.toml), corpus.toml files, or rule files/folders (need --game). Default: ARBITER_CORPUS."),
        ] = None,
        game: Annotated[str | None, typer.Option("--game", "-g", help="Game id for bare files.")] = None,
        corpus: Annotated[
            list[Path] | None,
            typer.Option("--corpus", help="Corpus path (repeatable); same as giving PATHs."),
        ] = None,
    ) -> None:
        """Parse rule documents and card data into the index (idempotent, build-then-swap)."""
        from ingest.manifest import CorpusError
        from ingest.pipeline import ingest

        settings = _settings()
        chosen = [*(paths or []), *(corpus or [])] or None
        try:
            summary = ingest(settings, chosen, game=game, progress=sys.stderr.isatty())
        except CorpusError as exc:
            _fail(str(exc))
        if summary.unchanged:
            note = "unchanged"
        else:
            note = f"embedded: {', '.join(summary.changed) or 'nothing'}"
            if summary.removed:
                note += f"; removed: {', '.join(summary.removed)}"
        typer.echo(
            f"{summary.documents} documents, {summary.rules} rules, {summary.cards} cards "
            f"in {summary.seconds:.1f} s ({note})"
        )
        if summary.errors:
            for err in summary.errors:
                typer.echo(f"error: {err}", err=True)
            raise typer.Exit(1)

    @app.command("rule")
    def rule_cmd(
        number: Annotated[str, typer.Argument(help="Rule number (355.14) or anchor (target.3.2).")],
        game: Annotated[str | None, typer.Option("--game", "-g", help="Game id.")] = None,
        no_children: Annotated[bool, typer.Option("--no-children", help="Omit subrules.")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Show a rule with its subrules (newest edition first; others listed)."""
        index = _index(_settings(), game)
        found = index.lookup(number, game)
        if found is None:
            near = index.suggest(number, game)
            if as_json:
                typer.echo(json.dumps({"error": f"no rule {number}", "suggestions": near}))
            hint = f"; nearest: {', '.join(near)}" if near else ""
            _fail(f"no rule {number}{' in ' + game if game else ''}{hint}")
        if no_children:
            found.children = []
        if as_json:
            typer.echo(found.model_dump_json(indent=2))
            return
        from rich.console import Console

        console = Console(highlight=False)
        r = found.rule
        console.print(f"[bold]{r.number}[/bold]  [dim]{r.doc} ({r.game}{', ' + r.version if r.version else ''})[/dim]")
        console.print(r.text, markup=False)
        for c in found.children:
            depth = len(c.parents) - len(r.parents)
            console.print(("  " * depth) + f"[bold]{c.number}[/bold] ", end="")
            console.print(c.text, markup=False)
        for e in found.editions:
            console.print(f"[dim]also in {e.doc} ({e.version or 'undated'})[/dim]")

    @app.command("search")
    def search_cmd(
        query: Annotated[str, typer.Argument(help="What to look for.")],
        game: Annotated[str | None, typer.Option("--game", "-g", help="Game id.")] = None,
        k: Annotated[int, typer.Option("-k", min=1, max=100, help="Number of results.")] = 5,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """Hybrid search (dense + BM25, fused); a rule number in the query is looked up."""
        index = _index(_settings(), game)
        hits = index.search(query, game=game, k=k)
        if as_json:
            typer.echo(json.dumps([h.model_dump() for h in hits], indent=2))
            return
        if not hits:
            typer.echo("no results")
            return
        for h in hits:
            text = h.rule.text.replace("\n", " ")
            typer.echo(f"{h.rule.doc} {h.rule.number}  [{'+'.join(h.via)} {h.score:.3f}]")
            typer.echo(f"    {text[:200]}{'…' if len(text) > 200 else ''}")
