"""``arbiter ingest``, ``arbiter rule`` and ``arbiter search``.

Exit status: 0 on success; 1 when an ingest finished but some files could not be ingested
(each listed on stderr, file and line; the rest of the corpus was ingested, see
``ingest.pipeline``) or the rules store cannot be reached; 2 for bad usage (missing path, a
bare file without ``--game``, a broken corpus.toml, an unknown game, no index yet);
:data:`RULE_NOT_FOUND` (3) when ``arbiter rule`` finds no such rule.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

#: Exit status of ``arbiter rule`` for a rule number that is not in the index.
RULE_NOT_FOUND = 3


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _settings() -> Any:
    from pydantic import ValidationError

    from ingest.settings import Settings

    try:
        return Settings()
    except ValidationError as exc:  # from ARBITER_* variables
        _fail(f"invalid settings: {exc}".splitlines()[0])


def _index(settings: Any, game: str | None) -> Any:
    from ingest.errors import IndexMissing, StoreUnavailable
    from ingest.index import open_index

    try:
        index = open_index(settings)
    except IndexMissing as exc:
        _fail(str(exc))
    except StoreUnavailable as exc:
        _fail(str(exc), 1)
    if game is not None and game not in {g.id for g in index.games()}:
        known = ", ".join(sorted(g.id for g in index.games()))
        _fail(f"unknown game {game!r} (known: {known})")
    return index


def _prepare_query_model(settings: Any) -> None:
    """Export the model for the fast question path once, while ingest has it loaded (a
    failure is reported; questions then export on first use or use sentence-transformers)."""
    from ingest.embedding import prepare_query_model
    from ingest.errors import ArbiterError

    try:
        prepare_query_model(settings.embedding_model, settings.model_cache_dir)
    except (ArbiterError, OSError) as exc:
        typer.echo(f"warning: the ONNX query model was not exported: {exc}", err=True)


def _warm_answers(settings: Any) -> None:
    """Search every game and answer one question, so what answering derives from the new
    build (BM25 and ranking tables per game, the speller's and game detection's vocabularies,
    the card-name table, the worked cases' and the rule facts' wordings) is written to the build's snapshot
    (ingest/snapshot.py) and the first `arbiter ask` reads it instead of building it. A
    failure here is reported and costs only that first question's time."""
    from ingest.errors import ArbiterError

    try:
        from assistant import Assistant
        from ingest.index import open_index

        index: Any = open_index(settings)
        for game in [None, *(g.id for g in index.games())]:
            index.search("target", game=game, k=1)
        assistant = Assistant(settings, index=index)
        assistant.ask("Can I choose my own unit as the target of a spell?", clarify=False)
        assistant.prepare()
    except (ArbiterError, OSError) as exc:
        typer.echo(f"warning: the answer caches were not prepared: {exc}", err=True)


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
        from ingest.errors import StoreUnavailable

        try:
            summary = ingest(settings, chosen, game=game, progress=sys.stderr.isatty())
        except CorpusError as exc:
            _fail(str(exc))
        except StoreUnavailable as exc:
            _fail(str(exc), 1)
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
        _prepare_query_model(settings)
        _warm_answers(settings)
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
            shown = number if len(number) <= 40 else number[:40] + "…"
            hint = f"; nearest: {', '.join(near)}" if near else ""
            _fail(f"no rule {shown}{' in ' + game if game else ''}{hint}", RULE_NOT_FOUND)
        if no_children:
            found.children = []
        if as_json:
            typer.echo(found.model_dump_json(indent=2))
            return
        _print_rule(index, found)

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


def _print_rule(index: Any, found: Any) -> None:
    """A rule as a reader expects it: where it comes from, its number and text, its place in
    the document, subrules and other editions."""
    from rich.console import Console

    console = Console(highlight=False)
    r = found.rule
    version = f", {r.version}" if r.version else ""
    console.print(f"[dim]{r.title or r.doc} ({r.doc}, {r.game}{version})[/dim]", markup=True)
    for parent in reversed(r.parents):
        up = index.get(r.doc, parent)
        if up is not None:
            console.print(f"[dim]in {up.number}[/dim] ", end="")
            console.print(up.heading or up.text[:80], markup=False, style="dim")
    console.print(f"\n[bold]Rule {r.number}[/bold]")
    console.print(r.text, markup=False)
    if not found.children and r.heading and r.text.strip() == r.heading.strip():
        console.print("[dim](a heading: this document gives no further text or subrules under it)[/dim]")
    for c in found.children:
        depth = len(c.parents) - len(r.parents)
        console.print(("  " * depth) + f"[bold]{c.number}[/bold] ", end="")
        console.print(c.text, markup=False)
    for e in found.editions:
        console.print(f"[dim]also in {e.doc} ({e.version or 'undated'})[/dim]")
