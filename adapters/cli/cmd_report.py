"""`oncourse report`: per-run vs all-N reliability of recorded runs, with intervals and provenance.

The command is load -> compute -> render; each output option (`--json`, and later ones such as an
HTML page) is one more renderer of the same `reliability_report` dict.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.cli._otel_flags import (
    OTEL_SUCCESS_ATTR,
    OTEL_TASK_ATTR,
    OTEL_TASK_ID_ATTR,
    otel_options,
)
from oncourse.adapters.importers import FORMATS, load_trajectories
from oncourse.consistency.stats import reliability_report
from rich.console import Console
from rich.table import Table

FORMAT_HELP = f"Input format: auto (detect per file), {', '.join(FORMATS)}."
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
    models = ", ".join(prov["models"]) or "unknown model"
    providers = ", ".join(prov["providers"])
    dates = prov["dates"]
    when = "no dates" if dates is None else f"{dates['first']} … {dates['last']}"
    source = f"; from {', '.join(prov['sources'])}" if prov["sources"] else ""
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
        kinds = ", ".join(f"{kind}: {n}" for kind, n in sorted(errors.items()))
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
            f"{p['runs']} × {p['path']} ({p['successes']} passed)" for p in task["paths"]
        )
        table.add_row(task["task_id"], f"{task['successes']}/{task['runs']}", paths)
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
            f"{len(short)} task(s) have fewer than {result['k']} runs: {', '.join(short)}.",
            highlight=False,
        )
    if result["flaky"]:
        console.print(_flaky_table(result))
    else:
        console.print("No flaky tasks: every task passed on all its runs or on none.")


def report(
    files: list[Path] = typer.Argument(  # noqa: B008
        ..., help="Trajectory files or folders (oncourse JSONL, tau-bench JSON, openai JSONL)."
    ),
    k: int | None = typer.Option(
        None, "--k", help="Compute pass^k up to this k (default: the smallest run count)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
    fmt: str = typer.Option("auto", "--format", help=FORMAT_HELP),
    html: Path | None = typer.Option(  # noqa: B008
        None, "--html", help="Also write a self-contained HTML report to this file."
    ),
    task_attr: str | None = OTEL_TASK_ATTR,
    task_id_attr: str | None = OTEL_TASK_ID_ATTR,
    success_attr: str | None = OTEL_SUCCESS_ATTR,
) -> None:
    """Per-run vs all-N pass rates with intervals, the gap, and the flaky tasks' paths."""
    otel = otel_options(task_attr, task_id_attr, success_attr)
    trajs = load_trajectories(files, fmt, otel)
    result = reliability_report(trajs, k=k)
    if html is not None:
        from oncourse.adapters.html_report import write_runs_report

        written = write_runs_report(html, trajs, sources=[str(f) for f in files])
        Console(stderr=True).print(f"HTML report: {written}", highlight=False)
    if as_json:
        print_json(result)
        return
    render_text(result, Console(highlight=False))


def register(app: typer.Typer) -> None:
    """Add `report` to the CLI."""
    app.command("report")(report)
