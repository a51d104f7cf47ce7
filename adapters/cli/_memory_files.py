"""`oncourse memory export`, `import`, `check`, `salvage` and `migrate`: a store as a whole."""

from __future__ import annotations

from pathlib import Path

import typer
from oncourse.adapters.cli._json import print_json, print_result
from oncourse.adapters.cli._memory_app import JSON, MEMORY, memory_app


@memory_app.command("export")
def export(
    path: Path = typer.Argument(..., help="JSONL file to write."),  # noqa: B008
    memory: str = MEMORY,
    as_json: bool = JSON,
) -> None:
    """Write every guideline as JSON lines."""
    from oncourse.memory.curation import export_guidelines

    result = export_guidelines(memory, path)
    print_result(result, as_json, lambda r: print(f"{r.count} guideline(s) written to {r.path}"))


@memory_app.command("import")
def import_(
    path: Path = typer.Argument(..., help="JSONL file from `memory export`."),  # noqa: B008
    memory: str = MEMORY,
    as_json: bool = JSON,
) -> None:
    """Add guidelines from a JSONL export (near-duplicates merge; active ones are re-screened)."""
    from oncourse.memory.curation import open_store

    with open_store(memory, must_exist=False) as store:
        report = store.import_jsonl(path)
    print_result(
        report, as_json, lambda r: print(f"{r.added} added, {r.merged} merged, {r.skipped} skipped")
    )


@memory_app.command("check")
def check(
    memory: str = MEMORY,
    repair: bool = typer.Option(True, "--repair/--no-repair", help="Rebuild a bad index cache."),
    as_json: bool = JSON,
) -> None:
    """Check a store: engine integrity, rows readable, index cache verified (exit 1: damaged)."""
    from oncourse.memory.curation import open_store
    from oncourse.memory.integrity import check as check_store

    with open_store(memory, read_only=None if repair else True) as store:
        report = check_store(store, repair=repair)
    if as_json:
        print_json(report)
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
    as_json: bool = JSON,
) -> None:
    """Recover every readable guideline of a damaged store into a new store."""
    from oncourse.memory.curation import salvage_into_new

    print_result(
        salvage_into_new(source, target),
        as_json,
        lambda r: print(
            f"{r.recovered} guideline(s) recovered into {target} ({r.method}); "
            f"{r.unreadable} unreadable"
        ),
    )


@memory_app.command("migrate")
def migrate(
    source: str = typer.Argument(..., help="Store to copy: a file or postgresql:// URL."),
    target: str = typer.Argument(..., help="Store to copy into (created when missing)."),
    as_json: bool = JSON,
) -> None:
    """Copy a store to another backend with ids, statuses, provenance and vectors intact."""
    from oncourse.memory.migrate import migrate as migrate_store

    print_result(
        migrate_store(source, target),
        as_json,
        lambda r: print(
            f"{r.copied} guideline(s) copied from {r.source} to {r.target}"
            f" ({r.skipped} already there)"
        ),
    )
