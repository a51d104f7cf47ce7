"""Text rendering of `oncourse report`: summary table, caveats, provenance, flaky tasks.

Every string that comes from the runs (task ids, paths, model names) is escaped: it is data.
"""

from __future__ import annotations

from typing import Any

from oncourse.adapters.cli._console import esc
from rich.console import Console
from rich.table import Table

DEPENDENCE_CAVEAT = (
    "Intervals treat runs as independent; repeats of one task are not, so they are optimistic "
    "when identical pairs are common. Quote the task count next to them."
)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _range(pair: list[float] | None) -> str:
    return "n/a" if pair is None else f"{100 * pair[0]:.0f}–{100 * pair[1]:.0f}%"


def _provenance_line(result: dict[str, Any]) -> str:
    prov = result["provenance"]
    models = esc(", ".join(prov["models"]) or "unknown model")
    providers = esc(", ".join(prov["providers"]))
    dates = prov["dates"]
    when = "no dates" if dates is None else esc(f"{dates['first']} … {dates['last']}")
    source = esc(f"; from {', '.join(prov['sources'])}") if prov["sources"] else ""
    parts = [
        models + (f" ({providers})" if providers else ""),
        when,
        f"k = {result['k']}",
        f"{result['tasks']} tasks",
    ]
    return " · ".join(parts) + source


def _summary_table(result: dict[str, Any]) -> Table:
    n_key = str(result["k"])
    rpt = result["runs_per_task"]
    table = Table(title="Reliability", show_header=False, title_justify="left")
    table.add_column("measure", style="bold")
    table.add_column("value")
    table.add_row(
        "per-run pass rate",
        f"{result['successes']}/{result['runs']} = {_pct(result['pass@1_pooled'])}  "
        f"(95% Wilson {_range(result['pass@1_wilson'])})",
    )
    if result["unequal_runs"]:
        table.add_row("mean of task rates", f"{_pct(result['pass@1'])} (pass@1; run counts differ)")
    all_n = result["pass^k"][n_key]
    all_n_text = _pct(all_n)
    if all_n is not None and rpt["min"] == rpt["max"] == result["k"]:
        passed_all = sum(1 for t in result["per_task"] if t["successes"] == t["runs"])
        all_n_text = f"{passed_all}/{result['tasks']} tasks = {all_n_text}"
    table.add_row(
        f"all-{n_key} (pass^{n_key})",
        f"{all_n_text}  (95% bootstrap over tasks {_range(result['pass^N_bootstrap'])})",
    )
    gap = result["gap_points"]
    table.add_row("consistency gap", "n/a" if gap is None else f"{gap:.1f} points")
    table.add_row("pass^k", "  ".join(f"k={k}: {_pct(v)}" for k, v in result["pass^k"].items()))
    table.add_row("pass@k", "  ".join(f"k={k}: {_pct(v)}" for k, v in result["pass@k"].items()))
    runs_text = str(rpt["min"]) if rpt["min"] == rpt["max"] else f"{rpt['min']}–{rpt['max']}"
    table.add_row(
        "tasks",
        f"{result['tasks']} tasks, {result['distinct_instructions']} distinct instructions, "
        f"{runs_text} runs each",
    )
    share = result["identical_pair_share"]
    table.add_row("identical run pairs", _pct(share))
    pv = result["path_variance"]
    table.add_row(
        "path variance",
        f"{pv['mean_distinct_paths']:.2f} distinct paths per task; "
        f"{pv['all_pass_with_several_paths']} all-pass task(s) on several paths",
    )
    errors = result["run_errors"]
    if errors:
        kinds = esc(", ".join(f"{kind}: {n}" for kind, n in sorted(errors.items())))
        table.add_row("thrown runs (counted failed)", f"{sum(errors.values())} ({kinds})")
    table.add_row(
        "output variance",
        f"{result['output_variance']['mean_distinct_final_answers']:.2f} distinct final answers "
        "per task",
    )
    return table


def _flaky_table(result: dict[str, Any]) -> Table:
    table = Table(title="Flaky tasks (0 < passes < runs), worst first", title_justify="left")
    table.add_column("task")
    table.add_column("passed", justify="right")
    table.add_column("runs × path (passes)")
    for task in result["flaky"]:
        paths = "\n".join(
            f"{p['runs']} × {esc(p['path'])} ({p['successes']} passed)" for p in task["paths"]
        )
        table.add_row(esc(task["task_id"]), f"{task['successes']}/{task['runs']}", paths)
    return table


def render_text(result: dict[str, Any], console: Console) -> None:
    """Print the human report: summary, caveats, provenance, then the flaky tasks."""
    if result["provenance"]["simulated"]:
        console.print("[bold yellow]SIMULATED[/] — these runs are not from a real model.")
    console.print(f"Provenance: {_provenance_line(result)}", highlight=False)
    console.print(_summary_table(result))
    console.print(DEPENDENCE_CAVEAT, style="dim", highlight=False)
    if result["unequal_runs"]:
        console.print(
            f"Run counts differ between tasks ({result['runs_per_task']['min']}–"
            f"{result['runs_per_task']['max']}); N = {result['k']}.",
            highlight=False,
        )
    short = result["tasks_with_fewer_than_k_runs"]
    if short:
        console.print(
            f"pass^k and pass@k for k above a task's run count are undefined; "
            f"{len(short)} task(s) have fewer than {result['k']} runs: {esc(', '.join(short))}.",
            highlight=False,
        )
    if result["flaky"]:
        console.print(_flaky_table(result))
    else:
        console.print("No flaky tasks: every task passed on all its runs or on none.")


__all__ = ["DEPENDENCE_CAVEAT", "render_text"]
