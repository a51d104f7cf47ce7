"""`oncourse gate`: block a release only on a drop larger than both the tolerance and the noise.

The rule (agreed before results arrive, as the brief asks):

    fail  <=>  drop > --max-drop  AND  the drop is beyond noise

where `drop` is baseline minus candidate in points on the tasks both files ran, and "beyond
noise" is, for `--metric all-n`, the exact paired McNemar test on task-level all-N outcomes
(p < --alpha, with more tasks lost than gained), and for `--metric per-run`, the paired
bootstrap interval over tasks of the per-run rate difference lying wholly below zero. A
tolerance smaller than the half-width of that interval is flagged: such a gate is a coin toss.

Exit codes: 0 pass, 1 fail, 2 bad input.

`--json` keys (a contract): metric, max_drop, alpha, confidence, passed, beyond_tolerance,
beyond_noise, noise_test, drop_points, drop_low, drop_high (interval of the drop, points),
shared_tasks, baseline_only_tasks, candidate_only_tasks, baseline and candidate (ArmSummary:
n_tasks, n_runs, k, per_run_rate/low/high, all_n_rate/low/high), mcnemar (n_pairs,
only_baseline, only_candidate, p_value), harm_rate, harmed_tasks, reasons, warnings.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.consistency.errors import InputError, StatsError


class GateMetric(StrEnum):
    """Which rate the gate compares."""

    all_n = "all-n"
    per_run = "per-run"


def evaluate_gate(
    baseline_path: Path,
    candidate_path: Path,
    max_drop: float = 5.0,
    metric: str = "all-n",
    alpha: float = 0.05,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, Any]:
    """Compare two run files on their shared tasks and decide; returns the `--json` object."""
    from oncourse.adapters.importers import load_trajectories
    from oncourse.consistency.compare import compare_arms
    from oncourse.consistency.stats import group_by_task

    if max_drop < 0:
        raise InputError(f"--max-drop must be >= 0 points, got {max_drop}")
    base = load_trajectories([baseline_path])
    cand = load_trajectories([candidate_path])
    if not base:
        raise InputError("no runs", path=str(baseline_path))
    if not cand:
        raise InputError("no runs", path=str(candidate_path))
    base_tasks, cand_tasks = set(group_by_task(base)), set(group_by_task(cand))
    try:
        cmp = compare_arms(base, cand, confidence=confidence, seed=seed)
    except StatsError as exc:
        raise InputError(f"{baseline_path} vs {candidate_path}: {exc}") from None
    lift = cmp.all_n_lift if metric == "all-n" else cmp.per_run_lift
    drop, drop_low, drop_high = -lift.points, -lift.high, -lift.low
    if metric == "all-n":
        mc = cmp.mcnemar
        beyond_noise = mc.p_value < alpha and mc.only_baseline > mc.only_candidate
        noise_test = (
            f"exact McNemar on {mc.n_pairs} tasks: {mc.only_baseline} lost, "
            f"{mc.only_candidate} gained, p = {mc.p_value:.3g} (alpha {alpha})"
        )
    else:
        beyond_noise = drop_low > 0
        verb = "excludes" if beyond_noise else "includes"
        noise_test = (
            f"paired bootstrap over {cmp.shared_tasks} tasks: drop {confidence:.0%} interval "
            f"[{drop_low:.1f}, {drop_high:.1f}] points {verb} 0"
        )
    beyond_tolerance = drop > max_drop
    passed = not (beyond_tolerance and beyond_noise)
    reasons = [
        f"{metric} rate {_rate(cmp.baseline, metric):.1%} -> {_rate(cmp.candidate, metric):.1%}: "
        f"drop {drop:+.1f} points {'>' if beyond_tolerance else '<='} tolerance {max_drop:g}",
        noise_test + (": beyond noise" if beyond_noise else ": within noise"),
    ]
    warnings = []
    half_width = (drop_high - drop_low) / 2
    if max_drop < half_width:
        warnings.append(
            f"tolerance {max_drop:g} points is smaller than the interval's half-width "
            f"({half_width:.1f} points): with this many tasks the gate cannot resolve it"
        )
    if base_tasks ^ cand_tasks:
        warnings.append(
            f"{len(base_tasks - cand_tasks)} baseline-only and {len(cand_tasks - base_tasks)} "
            "candidate-only tasks were left out of the paired comparison"
        )
    return {
        "metric": metric,
        "max_drop": max_drop,
        "alpha": alpha,
        "confidence": confidence,
        "passed": passed,
        "beyond_tolerance": beyond_tolerance,
        "beyond_noise": beyond_noise,
        "noise_test": noise_test,
        "drop_points": drop,
        "drop_low": drop_low,
        "drop_high": drop_high,
        "shared_tasks": cmp.shared_tasks,
        "baseline_only_tasks": len(base_tasks - cand_tasks),
        "candidate_only_tasks": len(cand_tasks - base_tasks),
        "baseline": cmp.baseline.model_dump(),
        "candidate": cmp.candidate.model_dump(),
        "mcnemar": cmp.mcnemar.model_dump(),
        "harm_rate": cmp.harm_rate,
        "harmed_tasks": cmp.harmed_tasks,
        "reasons": reasons,
        "warnings": warnings,
    }


def _rate(arm: Any, metric: str) -> float:
    return float(arm.all_n_rate if metric == "all-n" else arm.per_run_rate)


def gate(
    baseline: Annotated[Path, typer.Option("--baseline", help="Runs of the released version.")],
    candidate: Annotated[Path, typer.Option("--candidate", help="Runs of the candidate.")],
    max_drop: Annotated[
        float, typer.Option("--max-drop", help="Tolerated drop in points (5 = 5 points).")
    ] = 5.0,
    metric: Annotated[
        GateMetric, typer.Option("--metric", help="all-n (pass^N) or per-run (pass@1).")
    ] = GateMetric.all_n,
    alpha: Annotated[
        float, typer.Option("--alpha", help="Significance level of the paired test.")
    ] = 0.05,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Fail (exit 1) only when the candidate drops by more than the tolerance AND the noise."""
    result = evaluate_gate(baseline, candidate, max_drop=max_drop, metric=metric.value, alpha=alpha)
    if as_json:
        print_json(result)
    else:
        from rich.console import Console

        out = Console(soft_wrap=True)
        verdict = "[green]PASS[/]" if result["passed"] else "[red]FAIL[/]"
        out.print(f"gate {verdict} ({result['shared_tasks']} shared tasks)")
        for line in result["reasons"]:
            out.print(f"  {line}")
        for line in result["warnings"]:
            out.print(f"  [yellow]warning:[/] {line}")
    if not result["passed"]:
        # sys.exit, not typer.Exit: the CLI runs click with standalone_mode=False, where a
        # typer.Exit code would be returned and dropped instead of becoming the exit status.
        sys.exit(1)


def register(app: typer.Typer) -> None:
    """Add `gate` to the CLI."""
    app.command("gate")(gate)
