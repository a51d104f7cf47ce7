"""`oncourse evolve`: learn guidelines on train, validate each on replay, keep what holds up.

`--json` prints `EvolveResult` (keys documented in `adapters/evolve.py`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from oncourse.adapters.cli._backend import BackendOption, RayAddressOption, run_many_for
from oncourse.adapters.cli._console import esc
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.cli._params import writable_dir, writable_file


def evolve_command(
    suite: Annotated[str, typer.Option("--suite", help="Built-in suite name or directory.")],
    model: Annotated[str, typer.Option("--model", help="Model spec, e.g. openai:gpt-4.1.")],
    memory: Annotated[
        str,
        typer.Option(
            "--memory",
            callback=writable_file,
            help="Guideline store: SQLite file or postgresql:// URL.",
        ),
    ],
    n: Annotated[int, typer.Option("--n", help="Runs per task.")] = 5,
    out: Annotated[
        Path | None,
        typer.Option("--out", callback=writable_dir, help="Directory for runs and state."),
    ] = None,
    max_runs: Annotated[
        int | None, typer.Option("--max-runs", help="Most agent runs this command may make.")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue an interrupted evolve.")
    ] = False,
    generator: Annotated[
        str, typer.Option("--generator", help="Guideline generator: contrastive or llm.")
    ] = "contrastive",
    seed: Annotated[int, typer.Option("--seed", help="Base seed.")] = 0,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Parallel runs.")] = 4,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
) -> None:
    """Baseline on train -> analyze -> generate -> screen -> add -> validate (promote/retire)."""
    from oncourse.adapters._runlog import default_evolve_dir
    from oncourse.adapters.evolve import evolve, summary_lines

    result = evolve(
        suite,
        model,
        n,
        memory,
        out if out is not None else default_evolve_dir(memory),
        generator=generator,
        max_runs=max_runs,
        resume=resume,
        seed=seed,
        concurrency=concurrency,
        run_many=run_many_for(backend, ray_address),
    )
    if as_json:
        print_json(result)
        return
    from rich.console import Console

    out_console = Console(soft_wrap=True, highlight=False)
    if result.simulated:
        out_console.print("[bold yellow]SIMULATED model — a mechanism check, not an LLM result[/]")
    for line in summary_lines(result):
        out_console.print(esc(line))


def register(app: typer.Typer) -> None:
    """Add `evolve` to the CLI."""
    app.command("evolve")(evolve_command)
