"""`oncourse memory ...`: list, read, search and curate the guideline store.

Every subcommand takes `--memory PATH` (or `ONCOURSE_MEMORY`); every listing takes `--json`.
JSON shapes (schemas in docs/json-schemas.md): `ls` -> StoredGuidelines {memory, count,
guidelines: [Guideline]}; `show`, `activate`, `retire` -> one Guideline object; `search` ->
InjectionPreview {query, retrieval_query, mode, min_similarity, hits: [{similarity, guideline}],
block, tokens}; `import` -> ImportReport {added, merged, skipped, quarantined}; `export` ->
GuidelineExport {path, count}; `rm` -> RemovedGuideline {removed}; `check` -> IntegrityReport;
`salvage` -> SalvageReport; `migrate` -> MigrateReport {source, target, copied, skipped,
embedder}. `--memory` is a file or a `postgresql://user@host/db#store` URL.

The subcommands live in `_memory_read.py` (ls, show, search), `_memory_curate.py` (activate,
retire, rm) and `_memory_files.py` (export, import, check, salvage, migrate); importing them
adds them to `memory_app` in that order.
"""

from __future__ import annotations

import importlib

import typer
from oncourse.adapters.cli._memory_app import memory_app

_SUBCOMMANDS = ("_memory_read", "_memory_curate", "_memory_files")
"""Modules whose import adds their subcommands, in the order `--help` lists them."""


def register(app: typer.Typer) -> None:
    """Add `oncourse memory ...` to the app."""
    for name in _SUBCOMMANDS:
        importlib.import_module(f"{__package__}.{name}")
    app.add_typer(memory_app, name="memory")
