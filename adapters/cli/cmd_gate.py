"""`oncourse gate`: block a release only on a drop larger than both the tolerance and the noise.

The rule lives in `oncourse.consistency.gate` (`decide_gate`), reading the two files in
`oncourse.adapters.recorded.gate_files`; this module parses, calls it and prints the result.
Exit codes: 0 pass, 1 fail, 2 bad input.

`--json` is `GateResult.model_dump(mode="json")` (a contract): metric, max_drop, alpha,
confidence, passed, beyond_tolerance, beyond_noise, noise_test, drop_points, drop_low, drop_high
(interval of the drop, points), shared_tasks, baseline_only_tasks, candidate_only_tasks,
baseline and candidate (ArmSummary: n_tasks, n_runs, k, per_run_rate/low/high,
all_n_rate/low/high), mcnemar (n_pairs, only_baseline, only_candidate, p_value), harm_rate,
harmed_tasks, reasons, warnings, duplicates (repeated runs dropped while reading).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from oncourse.adapters.cli._console import esc, out_console
from oncourse.adapters.cli._json import JsonOption, print_result
from oncourse.adapters.cli._params import number_in
from oncourse.consistency.gate import GateOptions, GateResult


class GateMetric(StrEnum):
    """Which rate the gate compares."""

    all_n = "all-n"
    per_run = "per-run"


def _print(result: GateResult) -> None:
    out = out_console()
    verdict = "[green]PASS[/]" if result.passed else "[red]FAIL[/]"
    out.print(f"gate {verdict} ({result.shared_tasks} shared tasks)")
    for line in result.reasons:
        out.print(f"  {esc(line)}")
    for line in result.warnings:
        out.print(f"  [yellow]warning:[/] {esc(line)}")


def gate(
    baseline: Annotated[Path, typer.Option("--baseline", help="Runs of the released version.")],
    candidate: Annotated[Path, typer.Option("--candidate", help="Runs of the candidate.")],
    max_drop: Annotated[
        float,
        typer.Option(
            "--max-drop", callback=number_in(0, 100), help="Tolerated drop in points (5 = 5)."
        ),
    ] = 5.0,
    metric: Annotated[
        GateMetric, typer.Option("--metric", help="all-n (pass^N) or per-run (pass@1).")
    ] = GateMetric.all_n,
    alpha: Annotated[
        float,
        typer.Option(
            "--alpha",
            callback=number_in(0, 1, low_open=True, high_open=True),
            help="Significance level of the paired test, in (0, 1).",
        ),
    ] = 0.05,
    as_json: JsonOption = False,
) -> None:
    """Fail (exit 1) only when the candidate drops by more than the tolerance AND the noise."""
    options = GateOptions(max_drop=max_drop, metric=metric.value, alpha=alpha)
    from oncourse.adapters.recorded import gate_files

    result = gate_files(baseline, candidate, options)
    print_result(result, as_json, _print)
    if not result.passed:
        # sys.exit, not typer.Exit: the CLI runs click with standalone_mode=False, where a
        # typer.Exit code would be returned and dropped instead of becoming the exit status.
        sys.exit(1)


def register(app: typer.Typer) -> None:
    """Add `gate` to the CLI."""
    app.command("gate")(gate)
