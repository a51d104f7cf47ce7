"""`oncourse evolve`: learn guidelines on train, validate each on replay, keep what holds up.

`--json` prints `EvolveResult` (keys documented in `adapters/evolve.py`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from oncourse.adapters.cli._backend import (
    BackendOption,
    ConcurrencyOption,
    ModelOption,
    RayAddressOption,
    StoreOption,
    SuiteOption,
    run_many_for,
)
from oncourse.adapters.cli._console import esc, out_console
from oncourse.adapters.cli._json import JsonOption, print_result
from oncourse.adapters.cli._params import writable_dir

if TYPE_CHECKING:
    from oncourse.adapters.evolve_models import EvolveResult


def evolve_command(
    suite: SuiteOption,
    model: ModelOption,
    memory: StoreOption,
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
    concurrency: ConcurrencyOption = 4,
    as_json: JsonOption = False,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
) -> None:
    """Baseline on train -> analyze -> generate -> screen -> add -> validate (promote/retire)."""
    from oncourse.adapters._runlog import default_evolve_dir
    from oncourse.adapters.evolve import evolve

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
    print_result(result, as_json, _print_summary)


def _print_summary(result: EvolveResult) -> None:
    from oncourse.adapters.evolve import summary_lines

    out = out_console()
    if result.simulated:
        out.print("[bold yellow]SIMULATED model — a mechanism check, not an LLM result[/]")
    for line in summary_lines(result):
        out.print(esc(line))


def register(app: typer.Typer) -> None:
    """Add `evolve` to the CLI."""
    app.command("evolve")(evolve_command)
