"""The verbs over runs already on disk: report, analyze, gate, plan and export.

Each reads the files (repeated files and run ids are dropped and counted) and calls the pure
layer; what it returns is the pydantic model that `--json` prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from oncourse.adapters.importers import read_runs
from oncourse.adapters.otel import OtelOptions
from oncourse.consistency.analyzer import TaskAnalysis, analyze_runs
from oncourse.consistency.errors import ConfigError, InputError, StatsError
from oncourse.consistency.gate import GateOptions, GateResult, decide_gate
from oncourse.consistency.planning import Plan, make_plan
from oncourse.consistency.reliability import ReliabilityReport, reliability
from oncourse.consistency.text import TextEmbedder
from oncourse.consistency.trajectory import Trajectory
from pydantic import BaseModel, Field


class RunsReport(ReliabilityReport):
    """`oncourse report --json`: the reliability report and the runs dropped as repeats."""

    duplicates: int = Field(description="Runs dropped: a file given twice or a run id repeated.")


class AnalyzeReport(BaseModel):
    """`oncourse analyze --json`: the embedder used and every task's analysis."""

    embedder: str = Field(description="How free text was compared (minilm or lexical).")
    tasks: list[TaskAnalysis] = Field(description="One analysis per task, in input order.")


class ExportResult(BaseModel):
    """`oncourse export --json`: what was written where."""

    path: str = Field(description="The file written.")
    runs: int = Field(description="Runs written.")
    format: Literal["otel", "oncourse"] = Field(description="otel (OTLP JSON) or oncourse JSONL.")


def report_files(
    files: Sequence[Path], fmt: str = "auto", otel: OtelOptions | None = None, k: int | None = None
) -> tuple[RunsReport, list[Trajectory]]:
    """The reliability report of the runs in `files` (and the runs, for other renderers)."""
    loaded = read_runs(files, fmt, otel)
    report = reliability(loaded.trajectories, k=k)
    return RunsReport(**dict(report), duplicates=loaded.duplicates), loaded.trajectories


def select_runs(
    files: Sequence[Path],
    fmt: str = "auto",
    otel: OtelOptions | None = None,
    task: str | None = None,
) -> list[Trajectory]:
    """The runs in `files`, of one task when `task` is given; InputError when none are left."""
    trajs = read_runs(files, fmt, otel).trajectories
    if task is not None:
        trajs = [t for t in trajs if t.task_id == task]
        if not trajs:
            raise InputError(f"no runs of task {task!r} in the input")
    if not trajs:
        raise InputError("no runs in the input")
    return trajs


def analyze_selected(
    trajs: Sequence[Trajectory],
    embedder: TextEmbedder,
    embedder_name: str,
    workers: int = 1,
    read_only_tools: Sequence[str] = (),
    scratch_tools: Sequence[str] = (),
) -> AnalyzeReport:
    """Analyze the runs with the named embedder; the `analyze --json` object."""
    analyses = analyze_runs(
        trajs,
        embedder,
        workers=workers,
        read_only_tools=read_only_tools,
        scratch_tools=scratch_tools,
    )
    return AnalyzeReport(embedder=embedder_name, tasks=analyses)


def gate_files(baseline_path: Path, candidate_path: Path, options: GateOptions) -> GateResult:
    """Read both run files and decide (bad or empty files are `InputError`s)."""
    base, cand = read_runs([baseline_path]), read_runs([candidate_path])
    try:
        result = decide_gate(base.trajectories, cand.trajectories, options)
    except StatsError as exc:
        raise InputError(f"{baseline_path} vs {candidate_path}: {exc}") from None
    return result.model_copy(update={"duplicates": base.duplicates + cand.duplicates})


def plan_files(
    flip_rate: float, volume: str, confidence: float, runs: Sequence[Path] | None
) -> Plan:
    """Read the runs (if any) and make the plan; bad values are `InputError`s."""
    loaded = read_runs(runs) if runs else None
    try:
        plan = make_plan(flip_rate, volume, confidence, loaded.trajectories if loaded else None)
    except StatsError as exc:
        raise InputError(str(exc)) from None
    if plan.observed is not None and loaded is not None:
        plan.observed.duplicates = loaded.duplicates
    return plan


def export_runs(
    files: Sequence[Path],
    out: Path,
    *,
    as_otel: bool = False,
    fmt: str = "auto",
    otel: OtelOptions | None = None,
    service: str = "oncourse",
) -> ExportResult:
    """Write the runs of `files` to `out` as OTLP JSON or as a new oncourse JSONL file."""
    from oncourse.adapters.importers import write_trajectories
    from oncourse.adapters.otel import write_otel

    runs = read_runs(files, fmt, otel).trajectories
    if not runs:
        raise InputError("no runs in the input")
    if out.is_dir():
        raise ConfigError(f"{out}: is a directory; --out names a file")
    if as_otel:
        count = write_otel(out, runs, service=service)
    else:
        if out.exists() and out.stat().st_size:
            raise ConfigError(f"{out}: exists; runs are appended to JSONL only by `run`/`record`")
        count = write_trajectories(out, runs)
    return ExportResult(path=str(out), runs=count, format="otel" if as_otel else "oncourse")


__all__ = [
    "AnalyzeReport",
    "ExportResult",
    "RunsReport",
    "analyze_selected",
    "export_runs",
    "gate_files",
    "plan_files",
    "report_files",
    "select_runs",
]
