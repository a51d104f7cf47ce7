"""`oncourse plan`: pick N from volume, and see what the runs on disk already rule out.

`--json` keys (a contract):
    flip_rate, confidence, volume_per_day: the inputs (volume in runs per day).
    runs_per_task: smallest N with 1 - (1 - flip_rate)^N >= confidence.
    expected_wrong_per_day: volume_per_day x flip_rate.
    detection_probability: {"1": .., "5": .., "<runs_per_task>": ..}: chance that N runs of a
        task show at least one flip, for N = 1, 5 and the planned N.
    observed: null without --runs; else {runs, tasks, min_runs_per_task, flips, flip_rate,
        low, high (Wilson), upper_bound, upper_bound_method, rules_out_flip_rate (bool: the
        asked flip rate is above the upper bound), smallest_detectable_rate (at
        min_runs_per_task runs per task), expected_wrong_per_day_at_upper}.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.consistency.errors import InputError, StatsError
from oncourse.consistency.planning import (
    count_flips,
    detection_probability,
    expected_flips,
    flip_rate_upper_bound,
    parse_volume,
    runs_to_detect,
    smallest_detectable_rate,
)


def build_plan(
    flip_rate: float, volume: str, confidence: float, runs: list[Path] | None
) -> dict[str, Any]:
    """Compute everything `oncourse plan` reports, as the `--json` object."""
    try:
        per_day = parse_volume(volume)
        n = runs_to_detect(flip_rate, confidence)
    except StatsError as exc:
        raise InputError(str(exc)) from None
    plan: dict[str, Any] = {
        "flip_rate": flip_rate,
        "confidence": confidence,
        "volume_per_day": per_day,
        "runs_per_task": n,
        "expected_wrong_per_day": expected_flips(per_day, flip_rate),
        "detection_probability": {
            str(k): detection_probability(flip_rate, k) for k in sorted({1, 5, n})
        },
        "observed": None,
    }
    if runs:
        plan["observed"] = _observed(runs, flip_rate, confidence, per_day)
    return plan


def _observed(
    paths: list[Path], flip_rate: float, confidence: float, per_day: float
) -> dict[str, Any]:
    from oncourse.adapters.importers import load_trajectories
    from oncourse.consistency.stats import group_by_task, wilson_interval

    trajs = load_trajectories(list(paths))
    if not trajs:
        raise InputError("no runs found", path=str(paths[0]))
    flips, total = count_flips(trajs)
    by_task = group_by_task(trajs)
    min_runs = min(len(r) for r in by_task.values())
    low, high = wilson_interval(flips, total, confidence)
    upper, method = flip_rate_upper_bound(flips, total, confidence)
    return {
        "runs": total,
        "tasks": len(by_task),
        "min_runs_per_task": min_runs,
        "flips": flips,
        "flip_rate": flips / total,
        "low": low,
        "high": high,
        "upper_bound": upper,
        "upper_bound_method": method,
        "rules_out_flip_rate": flip_rate > upper,
        "smallest_detectable_rate": smallest_detectable_rate(min_runs, confidence),
        "expected_wrong_per_day_at_upper": expected_flips(per_day, upper),
    }


def _print_plan(plan: dict[str, Any]) -> None:
    from rich.console import Console

    out = Console(soft_wrap=True)
    p, conf = plan["flip_rate"], plan["confidence"]
    n = plan["runs_per_task"]
    out.print(
        f"At a per-run flip rate of {p:.2%} and {plan['volume_per_day']:g} runs/day, "
        f"expect [bold]{plan['expected_wrong_per_day']:.3g}[/] wrong decisions per day."
    )
    out.print(f"Runs per task to see at least one flip with {conf:.0%} confidence: [bold]{n}[/]")
    for k, prob in plan["detection_probability"].items():
        out.print(f"  N = {k:>4}: a flip shows up in a task's runs with probability {prob:.1%}")
    obs = plan["observed"]
    if obs is None:
        return
    out.print(
        f"Observed: {obs['flips']} flips in {obs['runs']} runs over {obs['tasks']} tasks "
        f"(flip rate {obs['flip_rate']:.2%}, {conf:.0%} range {obs['low']:.2%}-{obs['high']:.2%})."
    )
    out.print(
        f"  The data rule out flip rates above {obs['upper_bound']:.2%} "
        f"({obs['upper_bound_method']}); at most "
        f"{obs['expected_wrong_per_day_at_upper']:.3g} wrong decisions/day at that rate."
    )
    verdict = "rules out" if obs["rules_out_flip_rate"] else "does NOT rule out"
    out.print(f"  The current data {verdict} a flip rate of {p:.2%}.")
    out.print(
        f"  With {obs['min_runs_per_task']} runs per task, a single task shows flips only when "
        f"its rate is above {obs['smallest_detectable_rate']:.1%} ({conf:.0%} confidence)."
    )


def plan(
    flip_rate: Annotated[
        float, typer.Option("--flip-rate", help="Per-run flip rate to plan for (0.02 = 2%).")
    ],
    volume: Annotated[
        str, typer.Option("--volume", help="Runs per period: 400/day, 50/hour, 2000/week.")
    ] = "400/day",
    confidence: Annotated[
        float, typer.Option("--confidence", help="Wanted chance of seeing a flip.")
    ] = 0.95,
    runs: Annotated[
        list[Path] | None,
        typer.Option("--runs", help="Runs on disk (JSONL/tau-bench); repeatable."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Pick N from volume: runs per task needed to see a flip rate, and what data rules out."""
    result = build_plan(flip_rate, volume, confidence, runs)
    if as_json:
        print_json(result)
    else:
        _print_plan(result)


def register(app: typer.Typer) -> None:
    """Add `plan` to the CLI."""
    app.command("plan")(plan)
