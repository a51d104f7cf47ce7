"""`oncourse plan`: pick N from volume, and see what the runs on disk already rule out.

The computation is `oncourse.consistency.planning.make_plan` (over the files:
`oncourse.adapters.recorded.plan_files`); `--json` is
`Plan.model_dump(mode="json")` (a contract):
    flip_rate, confidence, volume_per_day: the inputs (volume in runs per day).
    runs_per_task: smallest N with 1 - (1 - flip_rate)^N >= confidence.
    expected_wrong_per_day: volume_per_day x flip_rate.
    detection_probability: {"1": .., "5": .., "<runs_per_task>": ..}: chance that N runs of a
        task show at least one flip, for N = 1, 5 and the planned N.
    observed: null without --runs; else {runs, tasks, min_runs_per_task, flips, flip_rate,
        low, high (Wilson), upper_bound, upper_bound_method, rules_out_flip_rate (bool: the
        asked flip rate is above the upper bound), smallest_detectable_rate (at
        min_runs_per_task runs per task), expected_wrong_per_day_at_upper, duplicates}.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from oncourse.adapters.cli._console import out_console
from oncourse.adapters.cli._json import JsonOption, print_result
from oncourse.adapters.cli._params import number_in
from oncourse.consistency.planning import Plan

_OPEN_UNIT = number_in(0, 1, low_open=True, high_open=True)


def _print_plan(plan: Plan) -> None:
    out = out_console()
    p, conf, n = plan.flip_rate, plan.confidence, plan.runs_per_task
    out.print(
        f"At a per-run flip rate of {p:.2%} and {plan.volume_per_day:g} runs/day, "
        f"expect [bold]{plan.expected_wrong_per_day:.3g}[/] wrong decisions per day."
    )
    n_text = str(n) if n < 10**12 else f"{float(n):.3g}"
    out.print(
        f"Runs per task to see at least one flip with {conf:.0%} confidence: [bold]{n_text}[/]"
    )
    for k, prob in plan.detection_probability.items():
        k = k if len(k) < 13 else f"{float(k):.3g}"
        out.print(f"  N = {k:>4}: a flip shows up in a task's runs with probability {prob:.1%}")
    obs = plan.observed
    if obs is None:
        return
    out.print(
        f"Observed: {obs.flips} flips in {obs.runs} runs over {obs.tasks} tasks "
        f"(flip rate {obs.flip_rate:.2%}, {conf:.0%} range {obs.low:.2%}-{obs.high:.2%})."
    )
    out.print(
        f"  The data rule out flip rates above {obs.upper_bound:.2%} ({obs.upper_bound_method}); "
        f"at most {obs.expected_wrong_per_day_at_upper:.3g} wrong decisions/day at that rate."
    )
    verdict = "rules out" if obs.rules_out_flip_rate else "does NOT rule out"
    out.print(f"  The current data {verdict} a flip rate of {p:.2%}.")
    out.print(
        f"  With {obs.min_runs_per_task} runs per task, a single task shows flips only when "
        f"its rate is above {obs.smallest_detectable_rate:.1%} ({conf:.0%} confidence)."
    )


def plan(
    flip_rate: Annotated[
        float,
        typer.Option(
            "--flip-rate", callback=_OPEN_UNIT, help="Per-run flip rate to plan for (0.02 = 2%)."
        ),
    ],
    volume: Annotated[
        str, typer.Option("--volume", help="Runs per period: 400/day, 50/hour, 2000/week.")
    ] = "400/day",
    confidence: Annotated[
        float,
        typer.Option("--confidence", callback=_OPEN_UNIT, help="Wanted chance of seeing a flip."),
    ] = 0.95,
    runs: Annotated[
        list[Path] | None,
        typer.Option("--runs", help="Runs on disk (JSONL/tau-bench); repeatable."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Pick N from volume: runs per task needed to see a flip rate, and what data rules out."""
    from oncourse.adapters.recorded import plan_files

    result = plan_files(flip_rate, volume, confidence, runs)
    print_result(result, as_json, _print_plan)


def register(app: typer.Typer) -> None:
    """Add `plan` to the CLI."""
    app.command("plan")(plan)
