"""`oncourse eval`: baseline vs memory per split, paired, with intervals, harm and token cost.

`--json` prints `EvalResult` (keys documented in `adapters/evaluation.py`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from oncourse.adapters.cli._backend import BackendOption, RayAddressOption, run_many_for
from oncourse.adapters.cli._console import esc
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.cli._params import writable_dir, writable_file
from oncourse.consistency.errors import InputError

SIMULATED_LABEL = "SIMULATED model — a mechanism check, not an LLM result"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def _arm(arm: Any, key: str) -> str:
    rate, low, high = (getattr(arm, f"{key}_{s}") for s in ("rate", "low", "high"))
    if low is None or high is None:
        return _pct(rate)
    return f"{_pct(rate)} [{100 * low:.0f}–{100 * high:.0f}]"


def rates_table(result: Any) -> Any:
    """Rich table: per split and arm, the per-run and all-N rates with their 95% ranges."""
    from rich.table import Table

    table = Table(title=f"Pass rates, N = {result.n} runs per task per arm (95% ranges)")
    table.add_column("split")
    table.add_column("tasks", justify="right")
    table.add_column("arm")
    table.add_column("per-run (Wilson)", justify="right")
    table.add_column(f"all-{result.n} (bootstrap)", justify="right")
    for split, ev in result.splits.items():
        table.add_row(
            split, str(ev.tasks), "baseline", _arm(ev.baseline, "per_run"),
            _arm(ev.baseline, "all_n"),
        )  # fmt: skip
        table.add_row(
            "", "", "memory", _arm(ev.memory, "per_run"), _arm(ev.memory, "all_n"),
            end_section=True,
        )  # fmt: skip
    return table


def effects_table(result: Any) -> Any:
    """Rich table: per split, the all-N lift, the paired test, harm and token cost."""
    from rich.table import Table

    table = Table(title="Memory minus baseline, paired on tasks")
    table.add_column("split")
    table.add_column(f"all-{result.n} lift, pts [95%]", justify="right")
    table.add_column("McNemar p (won/lost)", justify="right")
    table.add_column("harm", justify="right")
    table.add_column("tokens/task", justify="right")
    for split, ev in result.splits.items():
        lift, mc = ev.all_n_lift, ev.mcnemar
        tokens = "n/a" if ev.mean_injected_tokens is None else f"{ev.mean_injected_tokens:.0f}"
        harm = f"{_pct(ev.harm_rate)} ({len(ev.harmed)}/{ev.baseline_consistent})"
        table.add_row(
            split,
            f"{lift.points:+.1f} [{lift.low:+.1f}, {lift.high:+.1f}]",
            f"{mc.p_value:.2g} ({mc.only_memory}/{mc.only_baseline})",
            harm,
            tokens,
        )
    return table


def print_eval(result: Any, console: Any | None = None) -> None:
    """Print the eval on stdout: label, tables, harmed tasks and the report path."""
    from rich.console import Console

    out = console or Console(soft_wrap=True, highlight=False, width=output_width())
    if result.simulated:
        out.print(f"[bold yellow]{SIMULATED_LABEL}[/]")
    out.print(rates_table(result))
    out.print(effects_table(result))
    for split, ev in result.splits.items():
        for harmed in ev.harmed:
            ids = ", ".join(harmed.guidelines) or "no guideline"
            out.print(esc(f"  harmed in {split}: {harmed.task_id} (injected: {ids})"))
    if result.html_report:
        out.print(f"HTML report: {result.html_report}")


def _splits(text: str) -> list[str]:
    splits = [s.strip() for s in text.split(",") if s.strip()]
    if not splits:
        raise InputError("--splits must name at least one split")
    return splits


def eval_command(
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
    out: Annotated[
        Path,
        typer.Option("--out", callback=writable_dir, help="Directory for runs and the report."),
    ],
    n: Annotated[int, typer.Option("--n", help="Runs per task per arm.")] = 5,
    splits: Annotated[
        str, typer.Option("--splits", help="Comma-separated splits.")
    ] = "train,heldout,heldout-novel",
    seed: Annotated[int, typer.Option("--seed", help="Base seed shared by both arms.")] = 0,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Parallel runs.")] = 4,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    backend: BackendOption = "local",
    ray_address: RayAddressOption = None,
) -> None:
    """Baseline vs memory on each split: rates with ranges, lift, McNemar, harm, tokens."""
    from oncourse.adapters.evaluation import run_eval

    if concurrency < 1:
        raise InputError(f"--concurrency must be >= 1, got {concurrency}")
    result = run_eval(
        suite,
        model,
        n,
        memory,
        out,
        splits=_splits(splits),
        seed=seed,
        concurrency=concurrency,
        run_many=run_many_for(backend, ray_address),
    )
    if as_json:
        print_json(result.model_dump(mode="json"))
    else:
        print_eval(result)


def output_width() -> int | None:
    """Console width: the terminal's, or 110 columns when piped (CI logs, README captures)."""
    import sys

    return None if sys.stdout.isatty() else 110


def register(app: typer.Typer) -> None:
    """Add `eval` to the CLI."""
    app.command("eval")(eval_command)
