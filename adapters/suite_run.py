"""`oncourse run` as a library call: run a suite N times into a results file and summarise it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from oncourse.adapters._runlog import complete_lines, default_out_path
from oncourse.consistency.chat import ModelSettings
from oncourse.consistency.errors import ConfigError
from oncourse.consistency.run_summary import RunReport, summarize_runs
from pydantic import BaseModel, ConfigDict, Field


class SuiteRunOptions(BaseModel):
    """What `oncourse run` was asked: suite, model, N, where to write, limits, backend."""

    model_config = ConfigDict(extra="forbid")

    suite: str = Field(description="Built-in suite name or a suite directory.")
    model: str = Field(default="simulated", description="Model spec.")
    n: int = Field(default=5, description="Runs per task.")
    split: str = Field(default="all", description="train, heldout, heldout-novel or all.")
    out: Path | None = Field(default=None, description="Results file; None: new file in runs/.")
    memory: str | None = Field(default=None, description="Guideline memory to inject from.")
    concurrency: int = Field(default=4, description="Runs at once.")
    resume: bool = Field(default=False, description="Complete an interrupted `out`.")
    seed: int = Field(default=0, description="Base seed; run seeds derive from it.")
    max_steps: int = Field(default=30, description="Step limit per run.")
    timeout: float = Field(default=120.0, description="Wall-clock seconds per run.")
    temperature: float | None = Field(default=None, description="Sampling temperature.")
    progress: bool = Field(default=True, description="Show a progress bar on stderr.")
    backend: str = Field(default="local", description="local or ray.")
    ray_address: str | None = Field(default=None, description="Ray cluster to join.")


def results_path(options: SuiteRunOptions) -> Path:
    """The results file: `out` as given, or a new one under runs/ (said on stderr)."""
    if options.out is not None:
        return options.out
    if options.resume:
        raise ConfigError("--resume needs --out: the file to complete")
    out = default_out_path(options.suite, options.split, options.model, options.n)
    print(f"oncourse run: writing {out}", file=sys.stderr)
    return out


def run_suite(options: SuiteRunOptions) -> RunReport:
    """Run every task of the split N times, append each run to the results file, summarise it."""
    from oncourse.adapters.runner import public_location, run_many

    o = options
    out = results_path(o)
    before = complete_lines(out) if o.resume else 0
    started = time.monotonic()
    runs = run_many(
        o.suite, o.model, o.n, o.split, out, memory_path=o.memory, concurrency=o.concurrency,
        resume=o.resume, seed=o.seed, progress=o.progress,
        settings=ModelSettings(temperature=o.temperature), max_steps=o.max_steps,
        timeout_s=o.timeout, backend=o.backend, ray_address=o.ray_address,
    )  # fmt: skip
    summary = summarize_runs(runs, o.n, max(0, complete_lines(out) - before))
    return RunReport(
        **summary.model_dump(), out=str(out), suite=o.suite, split=o.split, model=o.model,
        seed=o.seed, memory=public_location(o.memory) if o.memory else None,
        duration_s=round(time.monotonic() - started, 2),
    )  # fmt: skip


__all__ = ["SuiteRunOptions", "results_path", "run_suite"]
