"""The eval report's arms section: baseline, the control arms and memory side by side.

Held-out splits come first; the split the guidelines were learned from is labelled in-sample.
Beside each split: memory against each control on the same tasks and seeds (per-run and all-N
lift, the sign test on per-task per-run rates, McNemar on all-N) and the verdict, so a reader
sees at once whether the guidelines' content did anything a placebo of the same size did not.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from typing import Any

from oncourse.adapters.eval_models import EvalResult, SplitEvaluation


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _pct(value: float | None) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    return f"{100 * value:.0f}%"


def _points(value: float | None) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:+.1f}"


def _p(value: float | None) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.2g}"


def split_label(name: str, ev: SplitEvaluation) -> str:
    """The split's name, marked in-sample when the guidelines were learned from it."""
    return f"{name} (in-sample)" if ev.in_sample else name


def ordered_splits(result: EvalResult) -> list[tuple[str, SplitEvaluation]]:
    """Held-out splits first (in their order), the in-sample split last."""
    items = list(result.splits.items())
    return [i for i in items if not i[1].in_sample] + [i for i in items if i[1].in_sample]


def _arm_rows(name: str, ev: SplitEvaluation) -> list[str]:
    per_run = {"baseline": ev.baseline_per_run_cluster, "memory": ev.memory_per_run_cluster}
    arms: list[tuple[str, Any, Any]] = [("baseline", ev.baseline, per_run["baseline"])]
    arms += [(c, comp.arm, comp.per_run_cluster) for c, comp in ev.controls.items()]
    arms.append(("memory", ev.memory, per_run["memory"]))
    rows = []
    for i, (arm, summary, cluster) in enumerate(arms):
        head = (
            f"<td rowspan='{len(arms)}'><b>{_e(split_label(name, ev))}</b></td>"
            f"<td rowspan='{len(arms)}' class='num'>{ev.tasks}</td>"
            if i == 0
            else ""
        )
        if cluster is not None:
            flag = " <span class='muted'>(degenerate)</span>" if cluster.degenerate else ""
            run_text = f"{_pct(cluster.rate)} [{_pct(cluster.low)}–{_pct(cluster.high)}]{flag}"
        else:
            run_text = _pct(summary.per_run_rate)
        rows.append(
            f"<tr>{head}<td>{_e(arm)}</td><td class='num'>{run_text}</td><td class='num'>"
            f"{_pct(summary.all_n_rate)} [{_pct(summary.all_n_low)}–{_pct(summary.all_n_high)}]"
            "</td></tr>"
        )
    return rows


def _test_rows(name: str, ev: SplitEvaluation) -> list[str]:
    rows = [
        f"<tr><td>{_e(split_label(name, ev))}</td><td>baseline</td><td class='num'>"
        f"{_points(ev.per_run_lift.points)} [{_points(ev.per_run_lift.low)}, "
        f"{_points(ev.per_run_lift.high)}]</td><td class='num'>{_points(ev.all_n_lift.points)}"
        f"</td><td class='num'>n/a</td><td class='num'>{_p(ev.mcnemar.p_value)}</td><td>"
        f"{len(ev.harmed_beyond_noise)} harmed, {len(ev.helped_beyond_noise)} helped beyond "
        "noise</td></tr>"
    ]
    for control, comp in ev.controls.items():
        test = comp.sign_test
        verdict = "helped (beats it)" if comp.helped else "not shown"
        rows.append(
            f"<tr><td>{_e(split_label(name, ev))}</td><td>{_e(control)}</td><td class='num'>"
            f"{_points(comp.per_run_lift.points)} [{_points(comp.per_run_lift.low)}, "
            f"{_points(comp.per_run_lift.high)}]</td><td class='num'>"
            f"{_points(comp.all_n_lift.points)}</td><td class='num'>{_p(test.p_value)} "
            f"({test.higher}/{test.lower})</td><td class='num'>{_p(comp.mcnemar.p_value)}</td>"
            f"<td><b>{verdict}</b></td></tr>"
        )
    return rows


def arms_section(result: EvalResult | Mapping[str, Any]) -> str:
    """HTML: every arm's rates per split, then memory against baseline and each control."""
    ev_result = result if isinstance(result, EvalResult) else EvalResult.model_validate(result)
    splits = ordered_splits(ev_result)
    if not splits:
        return ""
    n = ev_result.n
    arm_rows = [row for name, ev in splits for row in _arm_rows(name, ev)]
    test_rows = [row for name, ev in splits for row in _test_rows(name, ev)]
    controls = ", ".join(ev_result.controls) or "none"
    return (
        f"<h2>Arms: baseline, controls ({_e(controls)}) and memory, held-out first</h2>"
        "<p class='muted'>Same tasks and seeds in every arm. The placebo injects generic advice "
        "of the same count and token length on the same tasks with the same triggers; the "
        "shuffled arm attaches the learned instructions to other guidelines' triggers. Per-run "
        "ranges resample tasks (cluster bootstrap); all-N ranges are bootstrap over tasks.</p>"
        "<table><tr><th>split</th><th>tasks</th><th>arm</th><th>per-run [95%]</th>"
        f"<th>all-{n} [95%]</th></tr>" + "".join(arm_rows) + "</table>"
        "<h2>Memory against each arm (paired on tasks, points)</h2>"
        "<p class='muted'>'helped' only when memory beats the control: per-run lift &gt; 0 with "
        "the sign test's p &lt; 0.05 and no all-N loss.</p>"
        "<table><tr><th>split</th><th>memory vs</th><th>per-run lift [95%]</th>"
        f"<th>all-{n} lift</th><th>sign p (+/−)</th><th>McNemar p</th><th>verdict</th></tr>"
        + "".join(test_rows)
        + "</table>"
    )


__all__ = ["arms_section", "ordered_splits", "split_label"]
