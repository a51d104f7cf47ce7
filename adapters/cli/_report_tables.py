"""The tables of `oncourse report`: the reliability summary and the flaky tasks' paths.

Every string that comes from the runs (task ids, paths, error kinds) is escaped: it is data.
"""

from __future__ import annotations

from oncourse.adapters.cli._console import esc
from oncourse.consistency.reliability import ReliabilityReport
from rich.table import Table


def pct(value: float | None) -> str:
    """A rate as a percentage with one decimal; n/a when undefined."""
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _range(pair: list[float] | None) -> str:
    return "n/a" if pair is None else f"{100 * pair[0]:.0f}–{100 * pair[1]:.0f}%"


def _all_n_text(result: ReliabilityReport) -> str:
    all_n = result.pass_hat_k[str(result.k)]
    rpt = result.runs_per_task
    if all_n is not None and rpt.min == rpt.max == result.k:
        passed_all = sum(1 for t in result.per_task if t.successes == t.runs)
        return f"{passed_all}/{result.tasks} tasks = {pct(all_n)}"
    return pct(all_n)


def summary_table(result: ReliabilityReport) -> Table:
    """Per-run rate, all-N, gap, pass^k and pass@k, tasks, path and output variance."""
    n_key = str(result.k)
    rpt = result.runs_per_task
    table = Table(title="Reliability", show_header=False, title_justify="left")
    table.add_column("measure", style="bold")
    table.add_column("value")
    table.add_row(
        "per-run pass rate",
        f"{result.successes}/{result.runs} = {pct(result.pass_at_1_pooled)}  "
        f"(95% Wilson {_range(result.pass_at_1_wilson)})",
    )
    if result.unequal_runs:
        table.add_row("mean of task rates", f"{pct(result.pass_at_1)} (pass@1; run counts differ)")
    table.add_row(
        f"all-{n_key} (pass^{n_key})",
        f"{_all_n_text(result)}  (95% bootstrap over tasks {_range(result.pass_hat_n_bootstrap)})",
    )
    gap = result.gap_points
    table.add_row("consistency gap", "n/a" if gap is None else f"{gap:.1f} points")
    table.add_row("pass^k", "  ".join(f"k={k}: {pct(v)}" for k, v in result.pass_hat_k.items()))
    table.add_row("pass@k", "  ".join(f"k={k}: {pct(v)}" for k, v in result.pass_at_k.items()))
    runs_text = str(rpt.min) if rpt.min == rpt.max else f"{rpt.min}–{rpt.max}"
    table.add_row(
        "tasks",
        f"{result.tasks} tasks, {result.distinct_instructions} distinct instructions, "
        f"{runs_text} runs each",
    )
    table.add_row("identical run pairs", pct(result.identical_pair_share))
    pv = result.path_variance
    table.add_row(
        "path variance",
        f"{pv.mean_distinct_paths:.2f} distinct paths per task; "
        f"{pv.all_pass_with_several_paths} all-pass task(s) on several paths",
    )
    errors = result.run_errors
    if errors:
        kinds = esc(", ".join(f"{kind}: {n}" for kind, n in sorted(errors.items())))
        table.add_row("thrown runs (counted failed)", f"{sum(errors.values())} ({kinds})")
    table.add_row(
        "output variance",
        f"{result.output_variance.mean_distinct_final_answers:.2f} distinct final answers "
        "per task",
    )
    return table


def flaky_table(result: ReliabilityReport) -> Table:
    """Each flaky task with its distinct paths: runs × path (passes)."""
    table = Table(title="Flaky tasks (0 < passes < runs), worst first", title_justify="left")
    table.add_column("task")
    table.add_column("passed", justify="right")
    table.add_column("runs × path (passes)")
    for task in result.flaky:
        paths = "\n".join(f"{p.runs} × {esc(p.path)} ({p.successes} passed)" for p in task.paths)
        table.add_row(esc(task.task_id), f"{task.successes}/{task.runs}", paths)
    return table
