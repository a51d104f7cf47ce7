"""`oncourse learn`: analyze runs, write a guideline per divergent task, screen it, store it.

analyze -> generate (contrastive by default, or an LLM) -> safety screen -> add to the memory as
`proposed` (or `active` with `--activate`; a guideline that fails the screen is `quarantined`
whatever the flag). Near-duplicates merge into the stored guideline, keeping both provenances.

`--json` prints one object: {memory, generator, model, tasks, divergent_tasks, guidelines:
[{task_id, id, status, merged_into, instruction, trigger, rationale, scope, quarantine_reasons}],
errors: [{task_id, error}]}; `merged_into` is the stored guideline's id when the new one merged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.importers import FORMATS, load_trajectories
from oncourse.consistency.errors import ModelCallError
from oncourse.consistency.generators import GENERATORS, make_generator
from oncourse.consistency.guidelines import Guideline
from oncourse.consistency.trajectory import RESPOND_TOOL, Trajectory
from rich.console import Console
from rich.markup import escape
from rich.table import Table


def _task_tools(trajs: list[Trajectory]) -> dict[str, set[str]]:
    tools: dict[str, set[str]] = {}
    for traj in trajs:
        tools.setdefault(traj.task_id, {RESPOND_TOOL}).update(s.action.tool for s in traj.steps)
    return tools


def _screened(guideline: Guideline, allowed: set[str], activate: bool) -> Guideline:
    from oncourse.memory.screen import screen

    verdict = screen(guideline, allowed)
    if not verdict.ok:
        return guideline.model_copy(
            update={"status": "quarantined", "quarantine_reasons": verdict.reasons}
        )
    return guideline.model_copy(update={"status": "active" if activate else "proposed"})


def learn_guidelines(
    files: list[Path],
    memory_path: Path,
    generator_name: str = "contrastive",
    model_spec: str | None = None,
    activate: bool = False,
    fmt: str = "auto",
    console: Console | None = None,
) -> dict[str, Any]:
    """Run the learn pipeline and return the `--json` object."""
    from oncourse.consistency.analyzer import analyze_runs
    from oncourse.memory.store import GuidelineMemory

    console = console or Console(stderr=True)
    options: dict[str, Any] = {}
    if model_spec is not None:
        from oncourse.adapters.models import get_model

        options["model"] = get_model(model_spec)
    generator = make_generator(generator_name, **options)
    trajs = load_trajectories(files, fmt)
    console.print(f"Analyzing {len(trajs)} runs …", highlight=False)
    analyses = analyze_runs(trajs)
    tools = _task_tools(trajs)
    divergent = [a for a in analyses if a.divergence is not None]
    rows: list[dict[str, Any]] = []
    errors: list[dict[str, str]] = []
    with GuidelineMemory(memory_path) as memory:
        for analysis in divergent:
            console.print(f"Task {analysis.task_id}: writing a guideline …", highlight=False)
            try:
                guidelines = generator.generate(analysis)
            except ModelCallError as exc:
                errors.append({"task_id": analysis.task_id, "error": str(exc)})
                continue
            for guideline in guidelines:
                candidate = _screened(guideline, tools.get(analysis.task_id, set()), activate)
                stored = memory.add(candidate)
                rows.append(
                    {
                        "task_id": analysis.task_id,
                        "id": stored.id,
                        "status": stored.status,
                        "merged_into": stored.id if stored.id != candidate.id else None,
                        "instruction": stored.instruction,
                        "trigger": stored.trigger,
                        "rationale": stored.rationale,
                        "scope": stored.scope.model_dump(),
                        "quarantine_reasons": stored.quarantine_reasons,
                    }
                )
    return {
        "memory": str(memory_path),
        "generator": generator_name,
        "model": model_spec,
        "tasks": len(analyses),
        "divergent_tasks": len(divergent),
        "guidelines": rows,
        "errors": errors,
    }


def _render(result: dict[str, Any]) -> None:
    out = Console()
    out.print(
        f"{result['divergent_tasks']} of {result['tasks']} tasks diverge; "
        f"{len(result['guidelines'])} guideline(s) in {result['memory']} "
        f"(generator: {result['generator']}).",
        highlight=False,
    )
    table = Table(show_lines=True)
    for column in ("task", "guideline", "status", "when / do"):
        table.add_column(column)
    for row in result["guidelines"]:
        status = row["status"] + (" (merged)" if row["merged_into"] else "")
        if row["quarantine_reasons"]:
            status += "\n" + "\n".join(row["quarantine_reasons"])
        text = f"When: {row['trigger']}\nDo: {row['instruction']}"
        table.add_row(row["task_id"], row["id"], escape(status), escape(text))
    out.print(table)
    for error in result["errors"]:
        out.print(f"task {error['task_id']}: no guideline ({error['error']})", highlight=False)


def learn(
    files: list[Path] = typer.Argument(  # noqa: B008
        ..., help="Trajectory files (JSONL, JSON, tau-bench, ...).", show_default=False
    ),
    memory: Path = typer.Option(  # noqa: B008
        ..., "--memory", envvar="ONCOURSE_MEMORY", help="Guideline store (SQLite file)."
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
    result = learn_guidelines(files, memory, generator, model, activate, fmt)
    if as_json:
        print_json(result)
    else:
        _render(result)


def register(app: typer.Typer) -> None:
    """Add `oncourse learn` to the app."""
    app.command("learn")(learn)
