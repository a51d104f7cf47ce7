"""`oncourse learn`: analyze runs, write a guideline per divergent task, screen it, store it.

The work is `oncourse.adapters.learning.learn`; `--json` prints its `LearnReport`: {memory,
generator, model, tasks, divergent_tasks, guidelines: [{task_id, id, status, merged_into,
instruction, trigger, rationale, scope, quarantine_reasons}], errors: [{task_id, error}],
abstentions: [{task_id, reason}]}; `merged_into` is the stored guideline's id when the new one
merged.
"""

from __future__ import annotations

from pathlib import Path

import typer
from oncourse.adapters.cli._json import print_result
from oncourse.adapters.cli._params import writable_file
from oncourse.adapters.importers import FORMATS
from oncourse.adapters.learning import LearnReport
from oncourse.adapters.learning import learn as learn_guidelines
from oncourse.consistency.generators import GENERATORS
from rich.console import Console
from rich.markup import escape
from rich.table import Table


def _render(report: LearnReport) -> None:
    out = Console()
    out.print(
        f"{report.divergent_tasks} of {report.tasks} tasks diverge; "
        f"{len(report.guidelines)} guideline(s) in {escape(str(report.memory))} "
        f"(generator: {report.generator}).",
        highlight=False,
    )
    table = Table(show_lines=True)
    for column in ("task", "guideline", "status", "when / do"):
        table.add_column(column)
    for row in report.guidelines:
        status = row.status + (" (merged)" if row.merged_into else "")
        if row.quarantine_reasons:
            status += "\n" + "\n".join(row.quarantine_reasons)
        text = f"When: {row.trigger}\nDo: {row.instruction}"
        table.add_row(escape(row.task_id), row.id, escape(status), escape(text))
    out.print(table)
    for abstention in report.abstentions:
        out.print(
            escape(f"task {abstention.task_id}: no guideline (abstained: {abstention.reason})"),
            highlight=False,
        )
    for error in report.errors:
        out.print(escape(f"task {error.task_id}: no guideline ({error.error})"), highlight=False)


def learn(
    files: list[Path] = typer.Argument(  # noqa: B008
        ..., help="Trajectory files (JSONL, JSON, tau-bench, ...).", show_default=False
    ),
    memory: str = typer.Option(
        ...,
        "--memory",
        envvar="ONCOURSE_MEMORY",
        callback=writable_file,
        help="Guideline store: file or postgresql://.",
    ),
    generator: str = typer.Option(
        "contrastive", "--generator", help=f"Generator: {', '.join(sorted(GENERATORS))}."
    ),
    model: str | None = typer.Option(
        None, "--model", help="Model for the llm generator, e.g. openai:gpt-4.1."
    ),
    activate: bool = typer.Option(
        False, "--activate", help="Store guidelines as active (after the safety screen)."
    ),
    fmt: str = typer.Option("auto", "--format", help=f"Input format: auto, {', '.join(FORMATS)}."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Learn guidelines from the forks of recorded runs and store them in a memory."""
    report = learn_guidelines(files, memory, generator, model, activate, fmt)
    print_result(report, as_json, _render)


def register(app: typer.Typer) -> None:
    """Add `oncourse learn` to the app."""
    app.command("learn")(learn)
