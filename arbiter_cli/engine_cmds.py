"""``arbiter check SCENARIO.json [--json]`` and ``arbiter schema``: the targeting engine
from the command line. Bad input exits 2 with a one-line error naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    """Add the engine's commands to ``app``."""

    @app.command("check")
    def check(
        scenario: Path = typer.Argument(..., help="Scenario JSON file (see `arbiter schema`)."),
        as_json: bool = typer.Option(False, "--json", help="Print the decision as JSON."),
    ) -> None:
        """Decide a targeting scenario and print the ruling with the rules it rests on."""
        from engine import ArbiterError, decide, load_scenario

        try:
            text = scenario.read_text(encoding="utf-8")
        except OSError as exc:
            typer.echo(f"error: cannot read {scenario}: {exc.strerror or exc}", err=True)
            raise typer.Exit(2) from None
        try:
            decision = decide(load_scenario(text))
        except ArbiterError as exc:  # a malformed scenario or a game without a policy
            typer.echo(f"error: invalid scenario: {exc}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            typer.echo(json.dumps(decision.model_dump(mode="json"), indent=2))
            return
        head = decision.verdict.upper()
        if decision.value is not None:
            head += f" ({decision.value})"
        typer.echo(f"{head}: {decision.reason}")
        typer.echo("Rules: " + ", ".join(f"{r.doc} {r.rule}" for r in decision.rules))
        for i, st in enumerate(decision.trace, 1):
            typer.echo(f"  {i}. [{st.doc} {st.rule}] {st.step} -> {st.result}")
        for opt in decision.options or []:
            amounts = f" {opt.amounts}" if opt.amounts else ""
            typer.echo(f"  option: {', '.join(opt.objects) or '(none)'}{amounts}")

    @app.command("schema")
    def schema() -> None:
        """Print the scenario JSON Schema."""
        from engine import scenario_json_schema

        typer.echo(json.dumps(scenario_json_schema(), indent=2))
