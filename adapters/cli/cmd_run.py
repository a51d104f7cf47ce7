"""`oncourse run`: run an agent on every task of a suite N times into an append-only JSONL file.

The summary goes to stdout (one line, or one object with `--json`); the progress bar and
warnings go to stderr. An interrupted run is completed with `--resume`.

`--json` is `RunReport.model_dump(mode="json")` (`oncourse.consistency.run_summary`; the
work is `oncourse.adapters.suite_run.run_suite`): out, suite,
split, model, n, seed, memory, tasks, runs, new_runs, successes, per_run, all_n_tasks, all_n,
errors, models, simulated, duration_s, and `all_<n>` (e.g. `all_5`), a deprecated copy of
`all_n` kept for readers of the first versions.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from oncourse.adapters.cli._backend import BackendOption, RayAddressOption, check_backend
from oncourse.adapters.cli._json import JsonOption, print_result
from oncourse.adapters.cli._params import number_in, one_of, writable_file

if TYPE_CHECKING:
    from oncourse.consistency.run_summary import RunReport

_SPLIT = one_of("train", "heldout", "heldout-novel", "all")


def run(
    suite: Annotated[
        str, typer.Option("--suite", help="Built-in suite name (mini-apps) or a suite directory.")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            callback=writable_file,
            help="Results file (JSONL, append-only); default: a new file under runs/.",
        ),
    ] = None,
    model: Annotated[
        str,
        typer.Option(
            "--model",
            help="openai:MODEL, anthropic:MODEL, openai-compatible:URL#MODEL, simulated[:k=v,..].",
        ),
    ] = "simulated",
    n: Annotated[int, typer.Option("--n", min=1, help="Runs per task.")] = 5,
    memory: Annotated[
        str | None,
        typer.Option("--memory", help="Guideline memory to inject from (path or postgresql://)."),
    ] = None,
    split: Annotated[
        str, typer.Option("--split", callback=_SPLIT, help="train, heldout, heldout-novel or all.")
    ] = "all",
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Runs at once.")] = 4,
    resume: Annotated[
        bool, typer.Option("--resume", help="Complete an interrupted --out.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Base seed; run seeds derive from it.")] = 0,
    max_steps: Annotated[int, typer.Option("--max-steps", min=1, help="Step limit per run.")] = 30,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout", callback=number_in(0, low_open=True), help="Wall-clock seconds per run."
        ),
    ] = 120.0,
    temperature: Annotated[
        float | None,
        typer.Option("--temperature", callback=number_in(0), help="Sampling temperature."),
    ] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
    as_json: JsonOption = False,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
) -> None:
    """Run an agent on every task of a suite N times; append each run to --out."""
    from oncourse.adapters.suite_run import SuiteRunOptions, run_suite

    check_backend(backend, ray_address)
    options = SuiteRunOptions(
        suite=suite, model=model, n=n, split=split, out=out, memory=memory,
        concurrency=concurrency, resume=resume, seed=seed, max_steps=max_steps, timeout=timeout,
        temperature=temperature, progress=not no_progress, backend=backend,
        ray_address=ray_address,
    )  # fmt: skip
    print_result(run_suite(options), as_json, _print_summary)


def _print_summary(result: RunReport) -> None:
    label = " (simulated)" if result.simulated else ""
    print(
        f"{result.out}: {result.runs} runs of {result.tasks} tasks x {result.n} "
        f"({result.new_runs} new) by {result.model}{label}; per-run "
        f"{100 * (result.per_run or 0.0):.1f}% ({result.successes}/{result.runs}), "
        f"all-{result.n} {100 * (result.all_n or 0.0):.1f}% "
        f"({result.all_n_tasks}/{result.tasks} tasks)"
    )


def register(app: typer.Typer) -> None:
    """Add `oncourse run` to the app."""
    app.command("run")(run)
