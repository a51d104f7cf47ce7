"""Terminal rendering of an `EvalResult` (used by `oncourse eval` and `oncourse demo`).

Held-out splits come first; train is labelled in-sample (the guidelines were learned there).
Per-run ranges are bootstraps over tasks (a task's runs stay together); a zero-width range is
printed as degenerate, not as certainty.
"""

from __future__ import annotations

from typing import Any

from oncourse.adapters.eval_models import EvalResult, SplitEvaluation
from oncourse.consistency.compare import ArmSummary, LiftInterval
from oncourse.consistency.paired import RateInterval

SIMULATED_LABEL = "SIMULATED model — a mechanism check, not an LLM result"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def _range(rate: float, low: float, high: float) -> str:
    if low == high:
        return f"{_pct(rate)} [degenerate]"
    return f"{_pct(rate)} [{100 * low:.0f}–{100 * high:.0f}]"


def _per_run(arm: ArmSummary, cluster: RateInterval | None) -> str:
    if cluster is not None:
        return _range(cluster.rate, cluster.low, cluster.high)
    return _range(arm.per_run_rate, arm.per_run_low, arm.per_run_high)


def _lift(lift: LiftInterval) -> str:
    if lift.low == lift.high:
        return f"{lift.points:+.1f} [degenerate]"
    return f"{lift.points:+.1f} [{lift.low:+.1f}, {lift.high:+.1f}]"


def ordered_splits(result: EvalResult) -> list[tuple[str, SplitEvaluation]]:
    """Held-out splits first, the in-sample (train) split last."""
    return sorted(result.splits.items(), key=lambda kv: (kv[1].in_sample, kv[0] == "train"))


def _label(split: str, ev: SplitEvaluation) -> str:
    return f"{split} (in-sample)" if ev.in_sample else split


def rates_table(result: EvalResult) -> Any:
    """Per split and arm: per-run and all-N rates with their 95% ranges."""
    from rich.table import Table

    table = Table(title=f"Pass rates, N = {result.n} runs per task per arm (95% ranges)")
    for name, justify in (("split", "left"), ("tasks", "right"), ("arm", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    table.add_column("per-run (task bootstrap)", justify="right")
    table.add_column(f"all-{result.n} (task bootstrap)", justify="right")
    for split, ev in ordered_splits(result):
        rows: list[tuple[str, ArmSummary, RateInterval | None]] = [
            ("baseline", ev.baseline, ev.baseline_per_run_cluster)
        ]
        rows += [(name, c.arm, c.per_run_cluster) for name, c in ev.controls.items()]
        rows.append(("memory", ev.memory, ev.memory_per_run_cluster))
        for i, (arm, summary, cluster) in enumerate(rows):
            table.add_row(
                _label(split, ev) if i == 0 else "",
                str(ev.tasks) if i == 0 else "",
                arm,
                _per_run(summary, cluster),
                _range(summary.all_n_rate, summary.all_n_low, summary.all_n_high),
                end_section=i == len(rows) - 1,
            )
    return table


def effects_table(result: EvalResult) -> Any:
    """Per split: memory minus baseline and minus placebo, the paired tests, the verdict."""
    from rich.table import Table

    table = Table(title="Memory minus baseline and minus placebo, paired on tasks (points)")
    table.add_column("split")
    table.add_column("per-run vs base", justify="right")
    table.add_column(f"all-{result.n} vs base", justify="right")
    table.add_column("per-run vs placebo", justify="right")
    table.add_column(f"all-{result.n} vs placebo", justify="right")
    table.add_column("sign p (+/-)", justify="right")
    table.add_column("min detectable", justify="right")
    table.add_column("verdict")
    for split, ev in ordered_splits(result):
        placebo = ev.controls.get("placebo")
        vs = ("n/a", "n/a", "n/a")
        verdict = "no placebo run"
        if placebo is not None:
            st = placebo.sign_test
            vs = (
                _lift(placebo.per_run_lift),
                _lift(placebo.all_n_lift),
                f"{st.p_value:.2g} ({st.higher}/{st.lower})",
            )
            verdict = "helped" if placebo.helped else "not shown"
        mde = ev.min_detectable_per_run_points
        table.add_row(
            _label(split, ev),
            _lift(ev.per_run_lift),
            _lift(ev.all_n_lift),
            *vs,
            "n/a" if mde is None else f"±{mde:.0f}",
            verdict,
        )
    return table


def harm_lines(result: EvalResult) -> list[str]:
    """One line per task whose per-run rate fell beyond noise, with the guidelines injected."""
    lines = []
    for split, ev in ordered_splits(result):
        changes = {c.task_id: c for c in ev.task_changes}
        for task in ev.harmed_beyond_noise:
            change = changes[task]
            ids = ", ".join(change.guidelines) or "no guideline"
            lines.append(
                f"  harmed in {split}: {task} {_pct(change.baseline_rate)} -> "
                f"{_pct(change.memory_rate)} (p = {change.p_value:.2g}; injected: {ids})"
            )
    return lines


def print_eval(result: EvalResult, console: Any | None = None) -> None:
    """Print the eval on stdout: label, both tables, harmed tasks, the report path."""
    from rich.console import Console
    from rich.markup import escape

    out = console or Console(soft_wrap=True, highlight=False, width=output_width())
    if result.simulated:
        out.print(f"[bold yellow]{SIMULATED_LABEL}[/]")
    out.print(rates_table(result))
    out.print(effects_table(result))
    for line in harm_lines(result):
        out.print(escape(line))  # task ids and guideline ids come from user files
    out.print(
        "Ranges resample tasks (a task's runs stay together). 'helped' needs memory above the "
        "placebo on per-task per-run rates (sign test p < 0.05) with no all-N loss; 'min "
        "detectable' is the per-run lift these tasks could detect (alpha .05, power .8).",
        style="dim",
    )
    if result.html_report:
        out.print(f"HTML report: {result.html_report}")


def output_width() -> int | None:
    """Console width: the terminal's, or 130 columns when piped (CI logs, README captures)."""
    import sys

    return None if sys.stdout.isatty() else 130


__all__ = [
    "SIMULATED_LABEL",
    "effects_table",
    "harm_lines",
    "ordered_splits",
    "output_width",
    "print_eval",
    "rates_table",
]
