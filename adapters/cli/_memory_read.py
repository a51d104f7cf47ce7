"""`oncourse memory ls`, `show` and `search`: read a store, never change it."""

from __future__ import annotations

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.cli._memory_app import JSON, MEMORY, memory_app, tool_list
from oncourse.adapters.cli._memory_render import print_listing, show_text


@memory_app.command("ls")
def ls(
    memory: str = MEMORY,
    status: str = typer.Option("all", "--status", help="all, or statuses separated by commas."),
    as_json: bool = JSON,
) -> None:
    """List stored guidelines, oldest first."""
    from oncourse.memory.curation import list_guidelines, parse_statuses

    result = list_guidelines(memory, parse_statuses(status))
    if as_json:
        print_json(result)
    else:
        print_listing(result.guidelines)


@memory_app.command("show")
def show(
    guideline_id: str = typer.Argument(...), memory: str = MEMORY, as_json: bool = JSON
) -> None:
    """Show one guideline with its provenance and counters."""
    from oncourse.memory.curation import open_store

    guideline = open_store(memory, read_only=True).get(guideline_id)
    if as_json:
        print_json(guideline)
    else:
        show_text(guideline)


@memory_app.command("search")
def search(
    query: str = typer.Argument(..., help="Task text to match."),
    memory: str = MEMORY,
    k: int = typer.Option(5, "--k", min=1, help="How many hits at most."),
    min_similarity: float | None = typer.Option(
        None, "--min-similarity", help="Cosine floor (default: injection's, or 0 with --raw)."
    ),
    status: str = typer.Option(
        "active", "--status", help="all, or statuses separated by commas (other than active: raw)."
    ),
    tools: str | None = typer.Option(
        None, "--tools", help="The task's tool names, comma-separated (injection's tool scope)."
    ),
    raw: bool = typer.Option(False, "--raw", help="Plain nearest neighbours of the text as given."),
    as_json: bool = JSON,
) -> None:
    """Show what injection would inject for a task (`--raw`: the plain nearest neighbours)."""
    from oncourse.memory.curation import open_store, parse_statuses
    from oncourse.memory.inject import search_preview

    with open_store(memory, read_only=True) as store:
        preview = search_preview(
            store,
            query,
            k=k,
            min_similarity=min_similarity,
            statuses=parse_statuses(status),
            tools=tool_list(tools),
            raw=raw,
        )
    if as_json:
        print_json(preview)
    else:
        hits = preview.hits
        print_listing([h.guideline for h in hits], [h.similarity for h in hits])
