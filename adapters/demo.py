"""The demo loop on the built-in `mini-apps` suite: evolve on train, then eval with a placebo.

baseline on train -> evolve (analyze, contrastive guidelines, validate on the validation split)
-> eval on heldout, heldout-novel and train (baseline, placebo and memory, paired) -> HTML
report. With a provider model spec the same loop runs on that provider. Re-running with the
same output directory reuses every run already made.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from oncourse.adapters.arms import RunSpec
from oncourse.adapters.eval_models import EvalResult
from oncourse.adapters.eval_print import SIMULATED_LABEL
from oncourse.adapters.evolve import EvolveResult
from oncourse.adapters.suites.base import EVAL_SPLITS
from pydantic import BaseModel, Field

DEMO_SUITE = "mini-apps"


class DemoResult(BaseModel):
    """What `oncourse demo` did (its `--json` object)."""

    label: str | None = Field(description="The SIMULATED notice, or null for a provider model.")
    suite: str = Field(description="The suite (mini-apps).")
    model: str = Field(description="Model spec.")
    n: int = Field(description="Runs per task per arm.")
    seed: int = Field(description="Base seed.")
    out: str = Field(description="Output directory.")
    memory: str = Field(description="The guideline store evolve wrote.")
    controls: list[str] = Field(default_factory=list, description="Control arms run by the eval.")
    elapsed_s: float = Field(description="Wall-clock seconds.")
    html_report: str | None = Field(description="Path of the HTML report.")
    evolve: EvolveResult = Field(description="The `oncourse evolve --json` object.")
    eval: EvalResult = Field(description="The `oncourse eval --json` object.")


def run_demo(
    model: str = "simulated",
    out: str | Path = "oncourse-demo",
    n: int = 5,
    seed: int = 0,
    concurrency: int = 2,
    progress: bool = True,
    controls: Sequence[str] = ("placebo",),
) -> DemoResult:
    """Run the loop (see the module doc) and return what it measured."""
    from oncourse.adapters.evaluation import run_eval, write_eval_report
    from oncourse.adapters.evolve import evolve
    from oncourse.adapters.importers import read_jsonl_trajectories
    from oncourse.consistency.analyzer import analyze_runs

    started = time.monotonic()
    out_dir = Path(out)
    memory = out_dir / "memory.sqlite"
    spec = RunSpec(
        suite=DEMO_SUITE, model=model, n=n, seed=seed, concurrency=concurrency, progress=progress
    ).check()
    evolved = evolve(
        DEMO_SUITE,
        model,
        n,
        memory,
        out_dir,
        generator="contrastive",
        resume=True,
        seed=seed,
        concurrency=concurrency,
        progress=progress,
    )
    result = run_eval(
        spec, memory_path=memory, out_dir=out_dir, splits=EVAL_SPLITS, controls=controls, html=False
    )
    # The report shows the memory-arm runs of every split and the divergences the guidelines
    # were learned from (the train baseline's).
    memory_runs = [
        t for ev in result.splits.values() for t in read_jsonl_trajectories(ev.memory_runs)
    ]
    baseline_train = list(read_jsonl_trajectories(evolved.baseline_runs))
    result.html_report = str(
        write_eval_report(
            result, memory_runs, memory, out_dir, analyses=analyze_runs(baseline_train)
        )
    )
    return DemoResult(
        label=SIMULATED_LABEL if result.simulated or evolved.simulated else None,
        suite=DEMO_SUITE,
        model=model,
        n=n,
        seed=seed,
        out=str(out_dir),
        memory=str(memory),
        controls=list(controls),
        elapsed_s=round(time.monotonic() - started, 1),
        html_report=result.html_report,
        evolve=evolved,
        eval=result,
    )


def verdict_lines(result: EvalResult) -> list[str]:
    """Plain sentences: on each held-out split, did memory beat the placebo?"""
    lines = []
    for split, ev in result.splits.items():
        placebo = ev.controls.get("placebo")
        if ev.in_sample or placebo is None:
            continue
        lift, test = placebo.per_run_lift, placebo.sign_test
        said = "beats" if placebo.helped else "does not beat"
        lines.append(
            f"{split}: memory {said} the placebo (per-run {lift.points:+.1f} points, "
            f"sign test p = {test.p_value:.2g} over {test.higher + test.lower} changed tasks; "
            f"all-{result.n} {placebo.all_n_lift.points:+.1f})."
        )
    return lines


__all__ = ["DEMO_SUITE", "DemoResult", "run_demo", "verdict_lines"]
