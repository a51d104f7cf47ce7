"""Text rendering of `oncourse analyze`: a line per task, then a divergence tree per fork.

Every string from the runs (task ids, tool names, arguments, replies) is escaped: it is data.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from oncourse.consistency.analyzer import TaskAnalysis
from oncourse.consistency.forks import NO_STEP
from oncourse.consistency.trajectory import Action
from rich.console import Console
from rich.markup import escape
from rich.tree import Tree

STATUS_STYLE = {
    "consistent_pass": "green",
    "fragile": "yellow",
    "divergent": "bold red",
    "mixed_no_fork": "magenta",
    "consistent_fail": "red",
}


def _short(value: Any, limit: int) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def action_label(action: Action, limit: int = 90) -> str:
    """One line for an action: `tool(key=value, ...)`, or the reply text for `respond`."""
    if action.tool == NO_STEP:
        return NO_STEP
    if action.tool == "respond":
        text = action.args.get("text") or action.args.get("content") or action.args
        return f'respond "{_short(text, limit - 10)}"'
    args = ", ".join(f"{k}={_short(v, 40)}" for k, v in action.args.items())
    return _short(f"{action.tool}({args})", limit)


def divergence_tree(analysis: TaskAnalysis) -> Tree:
    """The divergence of one task as a rich Tree: prefix, fork step, branches."""
    div = analysis.divergence
    if div is None:
        raise ValueError(f"task {analysis.task_id!r} has no divergence to draw")
    quality = "perfect separation" if div.perfect else f"separates {div.separation:.0%} of runs"
    tree = Tree(
        f"[bold]{escape(analysis.task_id)}[/] — {analysis.n_success}/{analysis.n_runs} runs "
        f"passed; runs fork at [bold]step {div.step}[/] (column {div.column}, {div.kind}); "
        f"Fisher p = {div.p_value:.3g}; {quality}"
    )
    prefix = div.context.shared_prefix
    if prefix:
        shown = prefix[-4:]
        more = f"{len(prefix) - len(shown)} earlier steps … → " if len(prefix) > len(shown) else ""
        line = more + " → ".join(action_label(a, 40) for a in shown)
        tree.add(f"[dim]shared prefix ({len(prefix)} steps): {escape(line)}[/]")
    cause = " (context-driven: the branches saw different things just before)"
    fork = tree.add(
        f"[bold]► step {div.step}[/] (decision point)" + (cause if div.context_driven else "")
    )
    for branch, seen in zip(div.branches, div.context.preceding_observations, strict=False):
        mark = "[green]✔[/]" if branch.success_rate >= 0.5 else "[red]✘[/]"
        node = fork.add(
            f"{mark} [bold]{branch.successes}/{len(branch.runs)} passed "
            f"({branch.success_rate:.0%})[/] {escape(action_label(branch.action))}"
        )
        node.add(f"[dim]runs: {escape(', '.join(branch.runs))}[/]")
        if seen.observation:
            node.add(
                f"[dim]after {escape(str(seen.tool))}: {escape(_short(seen.observation, 100))}[/]"
            )
    consequence = analysis.consequence
    if consequence is not None and consequence.step != div.step:
        node = tree.add(f"[bold]► step {consequence.step}[/] (consequence: a write differs)")
        for branch in consequence.branches:
            mark = "[green]✔[/]" if branch.success_rate >= 0.5 else "[red]✘[/]"
            node.add(
                f"{mark} {branch.successes}/{len(branch.runs)} passed "
                f"{escape(action_label(branch.action))} [dim]({escape(', '.join(branch.runs))})[/]"
            )
    weighed = [c for c in analysis.candidates if c.role == "candidate"][:3]
    if weighed:
        node = tree.add("[dim]also weighed[/]")
        for c in weighed:
            node.add(f"[dim]step {c.step} ({c.kind}, score {c.score:g}): {escape(c.why)}[/]")
    return tree


def render_text(analyses: list[TaskAnalysis], console: Console) -> None:
    """Print one line per task, then a tree per divergent task."""
    counts = Counter(a.status for a in analyses)
    console.print(
        f"{len(analyses)} task(s): "
        + ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    )
    for a in analyses:
        style = STATUS_STYLE.get(a.status, "")
        extra = []
        if a.divergence is not None:
            extra.append(f"fork at step {a.divergence.step}")
        if a.benign_forks:
            extra.append(f"{len(a.benign_forks)} benign fork(s)")
        if a.failing_step is not None:
            extra.append(f"all fail alike at step {a.failing_step}")
        extra.append(f"{a.distinct_paths} distinct path(s)")
        console.print(
            f"  {escape(a.task_id)}  {a.n_success}/{a.n_runs}  [{style}]{a.status}[/]  "
            f"[dim]{'; '.join(extra)}[/]"
        )
    for a in analyses:
        if a.divergence is not None:
            console.print()
            console.print(divergence_tree(a))

