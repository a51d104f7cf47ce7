"""`oncourse memory activate`, `retire` and `rm`: change one guideline's life cycle."""

from __future__ import annotations

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.cli._memory_app import JSON, MEMORY, memory_app, tool_list
from oncourse.adapters.cli._memory_render import print_one


@memory_app.command("activate")
def activate(
    guideline_id: str = typer.Argument(...),
    memory: str = MEMORY,
    tools: str | None = typer.Option(
        None, "--tools", help="The task's tool names, comma-separated (screened against)."
    ),
    force: bool = typer.Option(False, "--force", help="Activate even if the screen objects."),
    as_json: bool = JSON,
) -> None:
    """Make a guideline active (after the safety screen; a failing one is quarantined)."""
    from oncourse.memory.curation import open_store

    store = open_store(memory)
    guideline = store.activate(guideline_id, allowed_tools=tool_list(tools), force=force)
    if as_json:
        print_json(guideline)
    else:
        print_one(guideline, "activated")


@memory_app.command("retire")
def retire(
    guideline_id: str = typer.Argument(...), memory: str = MEMORY, as_json: bool = JSON
) -> None:
    """Stop injecting a guideline (kept with its provenance)."""
    from oncourse.memory.curation import open_store

    guideline = open_store(memory).retire(guideline_id)
    if as_json:
        print_json(guideline)
    else:
        print_one(guideline, "retired")


@memory_app.command("rm")
def rm(guideline_id: str = typer.Argument(...), memory: str = MEMORY, as_json: bool = JSON) -> None:
    """Delete a guideline for good."""
    from oncourse.memory.curation import remove_guideline

    result = remove_guideline(memory, guideline_id)
    if as_json:
        print_json(result)
    else:
        print(f"{result.removed} removed")
