"""`oncourse eval`: baseline, placebo and memory per split, paired, with ranges, harm and cost.

`--json` prints `EvalResult` (keys documented in `adapters/evaluation.py`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

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
from oncourse.adapters.cli._json import JsonOption, print_result
from oncourse.adapters.cli._params import writable_dir
from oncourse.consistency.errors import InputError


def _splits(text: str) -> list[str]:
    splits = [s.strip() for s in text.split(",") if s.strip()]
    if not splits:
        raise InputError("--splits must name at least one split")
    return splits


def eval_command(
    suite: SuiteOption,
    model: ModelOption,
    memory: StoreOption,
    out: Annotated[
        Path,
        typer.Option("--out", callback=writable_dir, help="Directory for runs and the report."),
    ],
    n: Annotated[int, typer.Option("--n", help="Runs per task per arm.")] = 5,
    splits: Annotated[
        str, typer.Option("--splits", help="Comma-separated splits.")
    ] = "train,heldout,heldout-novel",
    controls: Annotated[
        str,
        typer.Option("--controls", help="Control arms: placebo, shuffled (comma list) or none."),
    ] = "placebo",
    seed: Annotated[int, typer.Option("--seed", help="Base seed shared by every arm.")] = 0,
    concurrency: ConcurrencyOption = 4,
    as_json: JsonOption = False,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
) -> None:
    """Baseline, controls and memory on each split: rates, lifts, paired tests, harm, tokens."""
    from oncourse.adapters.arms import RunSpec
    from oncourse.adapters.controls import parse_controls
    from oncourse.adapters.eval_print import print_eval
    from oncourse.adapters.evaluation import run_eval

    spec = RunSpec(
        suite=suite,
        model=model,
        n=n,
        seed=seed,
        concurrency=concurrency,
        run_many=run_many_for(backend, ray_address),
    ).check()
    result = run_eval(
        spec,
        memory_path=memory,
        out_dir=out,
        splits=_splits(splits),
        controls=parse_controls(controls),
    )
    print_result(result, as_json, print_eval)


def register(app: typer.Typer) -> None:
    """Add `eval` to the CLI."""
    app.command("eval")(eval_command)


__all__ = ["eval_command", "register"]
