"""`oncourse analyze`: align each task's runs and show where they fork (zero extra model calls).

Human output: one line per task (status, passes, forks), and for divergent tasks a tree: the
shared prefix, the fork step, then each branch with its run count and success rate. `--json`
prints `{"tasks": [TaskAnalysis...]}`; the task object's keys are a contract (see
`consistency.analyzer.TaskAnalysis`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.cli._otel_flags import (
    OTEL_SUCCESS_ATTR,
    OTEL_TASK_ATTR,
    OTEL_TASK_ID_ATTR,
    otel_options,
)
from oncourse.adapters.importers import FORMATS, load_trajectories
from oncourse.consistency.errors import ConfigError, InputError
from oncourse.consistency.forks import NO_STEP
from oncourse.consistency.text import LexicalEmbedder, TextEmbedder
from oncourse.consistency.trajectory import Action
from rich.console import Console
from rich.markup import escape
from rich.tree import Tree

if TYPE_CHECKING:
    from oncourse.consistency.analyzer import TaskAnalysis


def _minilm() -> TextEmbedder:
    from oncourse.memory.embedding import MiniLMEmbedder

    return MiniLMEmbedder()


EMBEDDERS: dict[str, Callable[[], TextEmbedder]] = {"minilm": _minilm, "lexical": LexicalEmbedder}
"""Embedders that `--embedder` can name: how free text (replies, notes) is compared."""

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


def render_text(analyses: list[Any], console: Console) -> None:
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


def _names(values: list[str]) -> list[str]:
    """Tool names from repeated and comma-separated option values."""
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def analyze(
    files: list[Path] = typer.Argument(  # noqa: B008
        ..., help="Trajectory files or folders (oncourse JSONL, tau-bench JSON, openai JSONL)."
    ),
    fmt: str = typer.Option("auto", "--format", help=f"auto, {', '.join(FORMATS)}."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
    task: str | None = typer.Option(None, "--task", help="Analyze only this task id."),
    embedder: str = typer.Option(
        "minilm", "--embedder", help="How replies are compared: minilm (meaning) or lexical."
    ),
    workers: int = typer.Option(1, "--workers", min=1, help="Processes for large inputs."),
    task_attr: str | None = OTEL_TASK_ATTR,
    task_id_attr: str | None = OTEL_TASK_ID_ATTR,
    success_attr: str | None = OTEL_SUCCESS_ATTR,
    read_only_tools: list[str] = typer.Option(  # noqa: B008
        [], "--read-only-tools", help="Tools that change no state (comma-separated, repeatable)."
    ),
    scratch_tools: list[str] = typer.Option(  # noqa: B008
        [],
        "--scratch-tools",
        help="Notes/calculators that never decide on their own (comma-separated, repeatable).",
    ),
) -> None:
    """Align each task's runs, find the step where they fork, and contrast the branches."""
    from oncourse.consistency.analyzer import analyze_runs

    if embedder not in EMBEDDERS:
        raise ConfigError(f"unknown embedder {embedder!r}; choose {', '.join(EMBEDDERS)}")
    log = Console(stderr=True, highlight=False)
    otel = otel_options(task_attr, task_id_attr, success_attr)
    trajs = load_trajectories(files, fmt, otel)
    if task is not None:
        trajs = [t for t in trajs if t.task_id == task]
        if not trajs:
            raise InputError(f"no runs of task {task!r} in the input")
    if not trajs:
        raise InputError("no runs in the input")
    n_tasks = len({t.task_id for t in trajs})
    log.print(f"Analyzing {len(trajs)} runs of {n_tasks} task(s) (embedder: {embedder}) …")
    analyses = analyze_runs(
        trajs,
        EMBEDDERS[embedder](),
        workers=workers,
        read_only_tools=_names(read_only_tools),
        scratch_tools=_names(scratch_tools),
    )
    if as_json:
        print_json({"embedder": embedder, "tasks": [a.model_dump(mode="json") for a in analyses]})
        return
    render_text(analyses, Console(highlight=False))


def register(app: typer.Typer) -> None:
    """Add `analyze` to the CLI."""
    app.command("analyze")(analyze)
