"""`oncourse analyze`: align each task's runs and show where they fork (zero extra model calls).

Human output: one line per task (status, passes, forks), and for divergent tasks a tree: the
shared prefix, the fork step, then each branch with its run count and success rate. `--json`
prints `AnalyzeReport` (`{"embedder": ..., "tasks": [TaskAnalysis...]}`; see docs/json-schemas.md).
"""

from __future__ import annotations

from pathlib import Path

import typer
from oncourse.adapters.cli._console import err_console, out_console
from oncourse.adapters.cli._json import print_result
from oncourse.adapters.cli._otel_flags import (
    OTEL_SUCCESS_ATTR,
    OTEL_TASK_ATTR,
    OTEL_TASK_ID_ATTR,
    otel_options,
)
from oncourse.adapters.importers import FORMATS


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
    from oncourse.adapters.cli._render_analysis import render_text
    from oncourse.adapters.recorded import analyze_selected, select_runs
    from oncourse.memory.embedding import text_embedder

    compare = text_embedder(embedder)
    trajs = select_runs(files, fmt, otel_options(task_attr, task_id_attr, success_attr), task)
    n_tasks = len({t.task_id for t in trajs})
    what = f"{len(trajs)} runs of {n_tasks} task(s) (embedder: {embedder})"
    err_console().print(f"Analyzing {what} …")
    result = analyze_selected(
        trajs,
        compare,
        embedder,
        workers=workers,
        read_only_tools=_names(read_only_tools),
        scratch_tools=_names(scratch_tools),
    )
    print_result(result, as_json, lambda r: render_text(r.tasks, out_console(soft_wrap=False)))


def register(app: typer.Typer) -> None:
    """Add `analyze` to the CLI."""
    app.command("analyze")(analyze)
