"""``arbiter ask`` and ``arbiter eval`` (../shared/CONTRACT.md). Heavy imports stay inside
the commands."""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path
from typing import Any

import typer


def _fail(msg: str, code: int = 2) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(code)


def _hold_collector() -> None:
    """A command loads the index, the models and their tables once (millions of objects)
    and then answers: the cyclic collector's passes over them while they load are a fifth of
    a cold ask and free nothing. Held until :func:`_release_collector`."""
    gc.disable()


def _release_collector() -> None:
    """What is loaded lives as long as the process: kept out of the collector's passes,
    which run again for what each further answer leaves behind."""
    gc.freeze()
    gc.enable()


def _assistant() -> Any:
    from assistant import Assistant
    from assistant.indexing import IndexUnavailable, open_or_build
    from ingest.settings import Settings

    settings = Settings()
    try:
        index = open_or_build(settings)
    except IndexUnavailable as exc:
        _fail(str(exc), 1)
    except Exception as exc:  # noqa: BLE001 - any unusable corpus configuration is bad usage
        _fail(f"could not open the rules index: {exc}", 2)
    return Assistant(settings, index=index)


def _print_answer(ans: Any, as_json: bool) -> None:
    if as_json:
        typer.echo(ans.model_dump_json())
        return
    typer.echo(ans.answer)
    if ans.value is not None:
        typer.echo(f"Value: {ans.value}")
    for c in ans.citations:
        typer.echo(f"  [{c.doc} {c.rule}] {c.quote}")
    if ans.verdict == "unknown" and ans.passages:
        typer.echo("Most relevant rules:")
        for p in ans.passages[:3]:
            typer.echo(f"  [{p.doc} {p.rule}] {p.text[:160]}")
    if ans.clarify is not None:
        typer.echo(ans.clarify.prompt)
        for n, option in enumerate(ans.clarify.options, start=1):
            typer.echo(f"  {n}. {option.label}")
            typer.echo(f"     {ask_command(option.ask.question, option.ask.game)}")


def ask_command(question: str, game: str | None) -> str:
    """The exact shell command that asks ``question`` (under ``game``)."""
    import shlex

    return "arbiter ask " + shlex.quote(question) + (f" --game {shlex.quote(game)}" if game else "")


def register(app: typer.Typer) -> None:
    """Add ``ask`` and ``eval`` to ``app``."""

    @app.command("ask")
    def ask(
        question: str | None = typer.Argument(None, help="The rules question, in plain English."),
        game: str | None = typer.Option(None, "--game", help="Game id (overrides detection)."),
        as_json: bool = typer.Option(False, "--json", help="Print the answer object as JSON."),
        jsonl: str | None = typer.Option(None, "--jsonl", help="File of {id, question, game?} lines; '-' = stdin."),
        explain: bool = typer.Option(False, "--explain", help="Show the scenario and the words behind each part."),
    ) -> None:
        """Answer a rules question with the engine's verdict and verified citations."""
        if (question is None) == (jsonl is None):
            _fail("give a QUESTION or --jsonl FILE (not both)")
        lines: list[str] = []
        if jsonl is not None:
            try:
                lines = (sys.stdin.read() if jsonl == "-" else Path(jsonl).read_text(encoding="utf-8")).splitlines()
            except OSError as exc:
                _fail(f"cannot read {jsonl}: {exc.strerror or exc}")
        _hold_collector()
        a = _assistant()
        from assistant.answer import Answer
        from ingest.errors import UnknownGame

        if question is not None:
            try:
                done = a.explained(question, game=game)
            except UnknownGame as exc:
                _fail(str(exc))
            if explain:
                # The frame the answer was decided from: the same pass, not a second parse.
                ex = done.as_dict()
                typer.echo(json.dumps(ex, indent=2) if as_json else _explain_text(ex), err=as_json)
            _print_answer(done.answer, as_json)
            return
        for n, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            qid: Any = None
            try:
                d = json.loads(line)
                if not isinstance(d, dict) or not isinstance(d.get("question"), str):
                    raise ValueError("needs a string 'question'")  # noqa: TRY004 - reported as a bad line
                qid = d.get("id")
                ans = a.ask(d["question"], game=d.get("game") or game, id=None if qid is None else str(qid))
            except UnknownGame as exc:
                ans = Answer(id=None if qid is None else str(qid), question=str(d.get("question", "")),
                             verdict="unknown", answer=f"I can't rule on that. {exc}", error=str(exc))
            except (json.JSONDecodeError, ValueError) as exc:
                ans = Answer(id=None if qid is None else str(qid), question="", verdict="unknown",
                             answer="I can't rule on that. The input line is not valid.",
                             error=f"line {n}: {exc}")
            typer.echo(ans.model_dump_json())
            if not gc.isenabled():
                _release_collector()  # the first answer has loaded what every other one uses

    @app.command("eval")
    def eval_(
        file: Path = typer.Argument(..., help="Dev-set JSONL (id, question, expect, cite_any/cite_doc)."),
        as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
        no_game: bool = typer.Option(False, "--no-game", help="Ignore the items' game (test detection)."),
        clarify: bool = typer.Option(False, "--clarify", help="Also score clarifications (one click)."),
    ) -> None:
        """Accuracy, wrong, abstained, citation hit rate and every miss; with --clarify, the
        clarification figures (assistant/clarify_eval.py)."""
        from assistant.evaluate import load_items, score

        try:
            items = load_items(file)
        except OSError as exc:
            _fail(f"cannot read {file}: {exc.strerror or exc}")
        except ValueError as exc:
            _fail(str(exc))
        _hold_collector()
        a = _assistant()
        answers = []
        for i in items:
            try:
                answers.append(a.ask(i.question, game=None if no_game else i.game, id=i.id))
                if not gc.isenabled():
                    _release_collector()
            except Exception as exc:  # noqa: BLE001 - an unloaded game in the file: counts as abstained
                from assistant.answer import Answer

                answers.append(Answer(id=i.id, question=i.question, verdict="unknown", error=str(exc)))
        r = score(items, answers)
        c = None
        if clarify:
            from assistant.clarify_eval import score_clarify

            c = score_clarify(items, answers, lambda q, g: a.ask(q, game=g, clarify=False))
        if as_json:
            typer.echo(json.dumps({**r.as_dict(), **({"clarify": c.as_dict()} if c else {})}, indent=2))
            return
        typer.echo(f"items: {r.total}")
        typer.echo(f"accuracy: {r.accuracy:.3f} ({r.correct}/{r.total})")
        typer.echo(f"wrong: {r.wrong} (on unknown items: {r.wrong_on_unknown})")
        typer.echo(f"abstained: {r.abstained}")
        typer.echo(f"citation hit: {r.citation_hit:.3f} ({r.cite_hits}/{r.cite_total})")
        if c is not None:
            typer.echo(f"abstentions with a clarification: {c.offered:.3f} ({c.with_clarify}/{c.abstained}); "
                       f"answerable: {c.offered_answerable:.3f} ({c.with_clarify_answerable}/{c.abstained_answerable})")
            typer.echo(f"offered options that rule: {c.ruling_share:.3f} ({c.options_ruling}/{c.options})")
            typer.echo(f"accuracy after at most one click: {c.accuracy_after:.3f} ({c.correct_after}/{c.total}), "
                       f"wrong {c.wrong_after}, abstained {c.abstained_after} "
                       f"(clicks {c.clicked}, counted at the worst {c.clicked_worst_case})")
        for m in r.misses:
            typer.echo(f"MISS {m['id']}: expect {m['expect']!r} got {m['got']!r} cited {m['cited']} "
                       f"(citation hit: {m['citation_hit']}) {m['error'] or ''} | {m['question']}")


def _explain_text(ex: dict[str, Any]) -> str:
    lines = [f"game: {ex['game']} ({ex['game_because']})", f"question kind: {ex['kind']} ({ex['kind_via']})"]
    if ex.get("extractor"):
        lines.append(f"read by: {ex['extractor']}")
    for b in ex["because"]:
        where = f"[{b['span'][0]}:{b['span'][1]}]" if b.get("span") else "(not in the question's words)"
        lines.append(f"  {b['part']:<45} <- {b['words']!r} {where}")
    if ex.get("error"):
        lines.append(f"error: {ex['error']}")
    if ex.get("scenario"):
        lines.append("scenario: " + json.dumps(ex["scenario"][0] if len(ex["scenario"]) == 1 else ex["scenario"]))
    return "\n".join(lines)
