"""`oncourse memory ...`: list, read, search and curate the guideline store.

Every subcommand takes `--memory PATH` (or `ONCOURSE_MEMORY`); every listing takes `--json`.
JSON shapes: `ls` -> {memory, count, guidelines: [Guideline]}; `show`, `activate`, `retire` ->
one Guideline object; `search` -> {query, retrieval_query, mode, min_similarity,
hits: [{similarity, guideline}], block, tokens}; `import` -> {added, merged, skipped,
quarantined}; `export` -> {path, count}; `rm` -> {removed}; `migrate` -> {source, target,
copied, skipped, embedder}. `--memory` is a file or a `postgresql://user@host/db#store` URL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.consistency.errors import ConfigError
from oncourse.consistency.guidelines import GUIDELINE_STATUSES, Guideline
from rich.console import Console
from rich.markup import escape
from rich.table import Table

memory_app = typer.Typer(
    name="memory", help="List, search and curate stored guidelines.", no_args_is_help=True
)

_MEMORY = typer.Option(
    ..., "--memory", envvar="ONCOURSE_MEMORY", help="Guideline store: file or postgresql:// URL."
)
_JSON = typer.Option(False, "--json", help="Print one JSON object on stdout.")


def _open(location: str, must_exist: bool = True, read_only: bool | None = None) -> Any:
    """The store at a path or `postgresql://` URL (nothing is created by opening it)."""
    from oncourse.memory.store import GuidelineMemory

    store = GuidelineMemory(location, read_only=read_only)
    if must_exist and not store.backend.exists():
        raise ConfigError(
            f"{store.backend.location}: no guideline store there (create one with `oncourse learn`)"
        )
    return store


def _statuses(status: str) -> Any:
    if status == "all":
        return None
    chosen = [s.strip() for s in status.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in GUIDELINE_STATUSES]
    if unknown:
        raise ConfigError(f"unknown status {unknown}; use all or {', '.join(GUIDELINE_STATUSES)}")
    return chosen


def _dump(guideline: Guideline) -> dict[str, Any]:
    return guideline.model_dump(mode="json")


def _listing(guidelines: list[Guideline], similarities: list[float] | None = None) -> Table:
    table = Table()
    table.add_column("id")
    table.add_column("status")
    if similarities is not None:
        table.add_column("cosine", justify="right")
    table.add_column("tasks")
    table.add_column("injected", justify="right")
    table.add_column("instruction")
    for i, g in enumerate(guidelines):
        cells = [escape(g.id), g.status]
        if similarities is not None:
            cells.append(f"{similarities[i]:.2f}")
        tasks = escape(", ".join(g.source_tasks()))
        cells += [tasks, str(g.counters.injected), escape(g.instruction)]
        table.add_row(*cells)
    return table


def _show_text(guideline: Guideline) -> None:
    out = Console()
    out.print(f"{guideline.id} ({guideline.status})", style="bold", markup=False)
    out.print(f"When: {guideline.trigger}", highlight=False, markup=False)
    out.print(f"Do:   {guideline.instruction}", highlight=False, markup=False)
    if guideline.rationale:
        out.print(f"Why:  {guideline.rationale}", highlight=False, markup=False)
    scope = guideline.scope
    out.print(
        f"Scope: families {scope.families or 'any'}; tools {scope.tools or 'any'}", highlight=False
    )
    for reason in guideline.quarantine_reasons:
        out.print(f"Quarantined: {reason}", style="yellow", highlight=False, markup=False)
    c = guideline.counters
    out.print(
        f"Injected {c.injected} times; with it {c.outcomes_with.successes}/"
        f"{c.outcomes_with.runs} passed, without {c.outcomes_without.successes}/"
        f"{c.outcomes_without.runs}",
        highlight=False,
        markup=False,
    )
    for p in guideline.provenance:
        rates = ", ".join(f"{k}: {v:.0%}" for k, v in p.branch_success_rates.items())
        out.print(
            f"From tasks {p.source_tasks} step {p.fork_step} by {p.generator}"
            f"{' (' + p.model + ')' if p.model else ''} at {p.created_at}; branches {rates}",
            highlight=False,
            markup=False,
        )


@memory_app.command("ls")
def ls(
    memory: str = _MEMORY,
    status: str = typer.Option("all", "--status", help="all, or statuses separated by commas."),
    as_json: bool = _JSON,
) -> None:
    """List stored guidelines, oldest first."""
    guidelines = _open(memory, read_only=True).all(_statuses(status))
    if as_json:
        print_json(
            {
                "memory": str(memory),
                "count": len(guidelines),
                "guidelines": [_dump(g) for g in guidelines],
            }
        )
    else:
        Console().print(_listing(guidelines))


@memory_app.command("show")
def show(guideline_id: str = typer.Argument(...), memory: str = _MEMORY, as_json: bool = _JSON):
    """Show one guideline with its provenance and counters."""
    guideline = _open(memory, read_only=True).get(guideline_id)
    if as_json:
        print_json(_dump(guideline))
    else:
        _show_text(guideline)


@memory_app.command("search")
def search(
    query: str = typer.Argument(..., help="Task text to match."),
    memory: str = _MEMORY,
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
    as_json: bool = _JSON,
) -> None:
    """Show what injection would inject for a task (`--raw`: the plain nearest neighbours)."""
    from oncourse.memory.inject import search_preview

    with _open(memory, read_only=True) as store:
        preview = search_preview(
            store,
            query,
            k=k,
            min_similarity=min_similarity,
            statuses=_statuses(status),
            tools=_tool_list(tools),
            raw=raw,
        )
    if as_json:
        print_json(preview.model_dump(mode="json"))
    else:
        hits = preview.hits
        Console().print(_listing([h.guideline for h in hits], [h.similarity for h in hits]))


def _tool_list(tools: str | None) -> list[str] | None:
    return None if tools is None else [t.strip() for t in tools.split(",") if t.strip()]


@memory_app.command("activate")
def activate(
    guideline_id: str = typer.Argument(...),
    memory: str = _MEMORY,
    tools: str | None = typer.Option(
        None, "--tools", help="The task's tool names, comma-separated (screened against)."
    ),
    force: bool = typer.Option(False, "--force", help="Activate even if the screen objects."),
    as_json: bool = _JSON,
) -> None:
    """Make a guideline active (after the safety screen; a failing one is quarantined)."""
    guideline = _open(memory).activate(guideline_id, allowed_tools=_tool_list(tools), force=force)
    _print_one(guideline, as_json, "activated")


@memory_app.command("retire")
def retire(guideline_id: str = typer.Argument(...), memory: str = _MEMORY, as_json: bool = _JSON):
    """Stop injecting a guideline (kept with its provenance)."""
    _print_one(_open(memory).retire(guideline_id), as_json, "retired")


def _print_one(guideline: Guideline, as_json: bool, verb: str) -> None:
    if as_json:
        print_json(_dump(guideline))
    else:
        print(f"{guideline.id} {verb}: {guideline.instruction}")


@memory_app.command("rm")
def rm(guideline_id: str = typer.Argument(...), memory: str = _MEMORY, as_json: bool = _JSON):
    """Delete a guideline for good."""
    _open(memory).remove(guideline_id)
    if as_json:
        print_json({"removed": guideline_id})
    else:
        print(f"{guideline_id} removed")


@memory_app.command("export")
def export(
    path: Path = typer.Argument(..., help="JSONL file to write."),  # noqa: B008
    memory: str = _MEMORY,
    as_json: bool = _JSON,
) -> None:
    """Write every guideline as JSON lines."""
    count = _open(memory, read_only=True).export_jsonl(path)
    if as_json:
        print_json({"path": str(path), "count": count})
    else:
        print(f"{count} guideline(s) written to {path}")


@memory_app.command("import")
def import_(
    path: Path = typer.Argument(..., help="JSONL file from `memory export`."),  # noqa: B008
    memory: str = _MEMORY,
    as_json: bool = _JSON,
) -> None:
    """Add guidelines from a JSONL export (near-duplicates merge; active ones are re-screened)."""
    with _open(memory, must_exist=False) as store:
        report = store.import_jsonl(path)
    if as_json:
        print_json(report.model_dump())
    else:
        print(f"{report.added} added, {report.merged} merged, {report.skipped} skipped")


@memory_app.command("check")
def check(
    memory: str = _MEMORY,
    repair: bool = typer.Option(True, "--repair/--no-repair", help="Rebuild a bad index cache."),
    as_json: bool = _JSON,
) -> None:
    """Check a store: engine integrity, rows readable, index cache verified (exit 1: damaged)."""
    from oncourse.memory.integrity import check as check_store

    with _open(memory, read_only=None if repair else True) as store:
        report = check_store(store, repair=repair)
    if as_json:
        print_json(report.model_dump(mode="json"))
    else:
        state = "ok" if report.ok else "DAMAGED"
        cache = "valid" if report.cache.valid else f"not used ({report.cache.reason})"
        rebuilt = ", rebuilt" if report.cache_rebuilt else ""
        print(f"{memory}: {state}; {report.rows} rows; cache {cache}{rebuilt}")
        for problem in report.problems:
            print(f"  {problem}")
    if not report.ok:
        raise typer.Exit(1)


@memory_app.command("salvage")
def salvage(
    source: Path = typer.Argument(..., help="The damaged store file."),  # noqa: B008
    target: Path = typer.Argument(..., help="A new store file to write."),  # noqa: B008
    as_json: bool = _JSON,
) -> None:
    """Recover every readable guideline of a damaged store into a new store."""
    from oncourse.memory.integrity import salvage as salvage_store

    if target.exists():
        raise ConfigError(f"{target}: already exists; salvage writes a new store")
    report = salvage_store(source, target)
    if as_json:
        print_json(report.model_dump(mode="json"))
    else:
        print(
            f"{report.recovered} guideline(s) recovered into {target} ({report.method}); "
            f"{report.unreadable} unreadable"
        )


@memory_app.command("migrate")
def migrate(
    source: str = typer.Argument(..., help="Store to copy: a file or postgresql:// URL."),
    target: str = typer.Argument(..., help="Store to copy into (created when missing)."),
    as_json: bool = _JSON,
) -> None:
    """Copy a store to another backend with ids, statuses, provenance and vectors intact."""
    from oncourse.memory.migrate import migrate as migrate_store

    report = migrate_store(source, target)
    if as_json:
        print_json(report.model_dump(mode="json"))
    else:
        print(
            f"{report.copied} guideline(s) copied from {report.source} to {report.target}"
            f" ({report.skipped} already there)"
        )


def register(app: typer.Typer) -> None:
    """Add `oncourse memory ...` to the app."""
    app.add_typer(memory_app, name="memory")
