"""`oncourse run`: run an agent on every task of a suite N times into an append-only JSONL file.

The summary goes to stdout (one line, or one object with `--json`); the progress bar and
warnings go to stderr. An interrupted run is completed with `--resume`.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from oncourse.adapters.cli._backend import BackendOption, RayAddressOption, check_backend
from oncourse.consistency.trajectory import Trajectory


def summarize(runs: list[Trajectory], n: int, new_runs: int) -> dict[str, Any]:
    """The `--json` object of `oncourse run` (without the invocation fields)."""
    by_task: dict[str, list[bool]] = {}
    for run in runs:
        by_task.setdefault(run.task_id, []).append(run.success)
    successes = sum(run.success for run in runs)
    all_n = sum(1 for outcomes in by_task.values() if all(outcomes))
    models = sorted({run.meta.model for run in runs if run.meta.model})
    return {
        "tasks": len(by_task),
        "runs": len(runs),
        "new_runs": new_runs,
        "successes": successes,
        "per_run": successes / len(runs) if runs else None,
        "all_n_tasks": all_n,
        f"all_{n}": all_n / len(by_task) if by_task else None,
        "errors": dict(Counter(run.error.kind for run in runs if run.error is not None)),
        "models": models,
        "simulated": any(run.meta.simulated for run in runs),
    }


def run(
    suite: Annotated[
        str, typer.Option("--suite", help="Built-in suite name (mini-apps) or a suite directory.")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
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
    n: Annotated[int, typer.Option("--n", help="Runs per task.")] = 5,
    memory: Annotated[
        str | None,
        typer.Option("--memory", help="Guideline memory to inject from (path or postgresql://)."),
    ] = None,
    split: Annotated[
        str, typer.Option("--split", help="train, heldout, heldout-novel or all.")
    ] = "all",
    concurrency: Annotated[int, typer.Option("--concurrency", help="Runs in flight at once.")] = 4,
    resume: Annotated[
        bool, typer.Option("--resume", help="Complete an interrupted --out file.")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Base seed; run seeds derive from it.")] = 0,
    max_steps: Annotated[int, typer.Option("--max-steps", help="Step limit per run.")] = 30,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Wall-clock seconds per run.")
    ] = 120.0,
    temperature: Annotated[
        float | None, typer.Option("--temperature", help="Sampling temperature.")
    ] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object on stdout.")
    ] = False,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
) -> None:
    """Run an agent on every task of a suite N times; append each run to --out."""
    from oncourse.adapters.cli._json import print_json
    from oncourse.adapters.runner import public_location, run_many
    from oncourse.consistency.chat import ModelSettings
    from oncourse.consistency.errors import ConfigError

    check_backend(backend, ray_address)
    valid_splits = ("train", "heldout", "heldout-novel", "all")
    if split not in valid_splits:
        raise ConfigError(f"--split must be one of {', '.join(valid_splits)}, got {split!r}")
    if out is None:
        if resume:
            raise ConfigError("--resume needs --out: the file to complete")
        out = default_out_path(suite, split, model, n)
        print(f"oncourse run: writing {out}", file=sys.stderr)
    before = _count_lines(out) if resume else 0
    started = time.monotonic()
    runs = run_many(
        suite,
        model,
        n,
        split,
        out,
        memory_path=memory,
        concurrency=concurrency,
        resume=resume,
        seed=seed,
        progress=not no_progress,
        settings=ModelSettings(temperature=temperature),
        max_steps=max_steps,
        timeout_s=timeout,
        backend=backend,
        ray_address=ray_address,
    )
    result = {
        "out": str(out),
        "suite": suite,
        "split": split,
        "model": model,
        "n": n,
        "seed": seed,
        "memory": public_location(memory) if memory else None,
        **summarize(runs, n, max(0, _count_lines(out) - before)),
        "duration_s": round(time.monotonic() - started, 2),
    }
    if as_json:
        print_json(result)
        return
    label = " (simulated)" if result["simulated"] else ""
    per_run = result["per_run"] or 0.0
    all_n = result[f"all_{n}"] or 0.0
    print(
        f"{out}: {result['runs']} runs of {result['tasks']} tasks x {n} "
        f"({result['new_runs']} new) by {model}{label}; "
        f"per-run {100 * per_run:.1f}% ({result['successes']}/{result['runs']}), "
        f"all-{n} {100 * all_n:.1f}% ({result['all_n_tasks']}/{result['tasks']} tasks)"
    )


def default_out_path(suite: str, split: str, model: str, n: int, root: Path = Path("runs")) -> Path:
    """A new results file under `root` named after the suite, split, model, N and the time."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    raw = f"{Path(suite).name}-{split}-{model}-n{n}-{stamp}"
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", raw)
    path = root / f"{name}.jsonl"
    counter = 1
    while path.exists():
        counter += 1
        path = root / f"{name}-{counter}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _count_lines(path: Path) -> int:
    if not path.exists():
        return 0
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.endswith(b"\n"))


def register(app: typer.Typer) -> None:
    """Add `oncourse run` to the app."""
    app.command("run")(run)
