"""Text rendering of `oncourse report`: provenance, summary table, caveats, flaky tasks.

Every string that comes from the runs (task ids, paths, model names) is escaped: it is data.
"""

from __future__ import annotations

from oncourse.adapters.cli._console import esc
from oncourse.adapters.cli._report_tables import flaky_table, summary_table
from oncourse.consistency.reliability import ReliabilityReport
from rich.console import Console

DEPENDENCE_CAVEAT = (
    "Intervals treat runs as independent; repeats of one task are not, so they are optimistic "
    "when identical pairs are common. Quote the task count next to them."
)


def _provenance_line(result: ReliabilityReport) -> str:
    prov = result.provenance
    models = esc(", ".join(prov.models) or "unknown model")
    providers = esc(", ".join(prov.providers))
    dates = prov.dates
    when = "no dates" if dates is None else esc(f"{dates.first} … {dates.last}")
    source = esc(f"; from {', '.join(prov.sources)}") if prov.sources else ""
    parts = [
        models + (f" ({providers})" if providers else ""),
        when,
        f"k = {result.k}",
        f"{result.tasks} tasks",
    ]
    return " · ".join(parts) + source


def render_text(result: ReliabilityReport, console: Console) -> None:
    """Print the human report: summary, caveats, provenance, then the flaky tasks."""
    if result.provenance.simulated:
        console.print("[bold yellow]SIMULATED[/] — these runs are not from a real model.")
    console.print(f"Provenance: {_provenance_line(result)}", highlight=False)
    console.print(summary_table(result))
    console.print(DEPENDENCE_CAVEAT, style="dim", highlight=False)
    if result.unequal_runs:
        console.print(
            f"Run counts differ between tasks ({result.runs_per_task.min}–"
            f"{result.runs_per_task.max}); N = {result.k}.",
            highlight=False,
        )
    short = result.tasks_with_fewer_than_k_runs
    if short:
        console.print(
            f"pass^k and pass@k for k above a task's run count are undefined; "
            f"{len(short)} task(s) have fewer than {result.k} runs: {esc(', '.join(short))}.",
            highlight=False,
        )
    if result.flaky:
        console.print(flaky_table(result))
    else:
        console.print("No flaky tasks: every task passed on all its runs or on none.")


__all__ = ["DEPENDENCE_CAVEAT", "render_text"]
