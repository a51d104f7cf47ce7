"""`oncourse export`: write runs in another format (OTLP JSON traces, or oncourse JSONL).

    oncourse export runs.jsonl --otel -o runs.otlp.json      # runs -> OpenTelemetry GenAI traces
    oncourse export traces.json --format otel --success-attr app.passed -o runs.jsonl

`--json` prints `ExportResult` {path, runs, format} (`adapters/recorded.py`).
"""

from __future__ import annotations

from pathlib import Path

import typer
from oncourse.adapters.cli._json import print_result
from oncourse.adapters.cli._otel_flags import (
    OTEL_SUCCESS_ATTR,
    OTEL_TASK_ATTR,
    OTEL_TASK_ID_ATTR,
    otel_options,
)
from oncourse.adapters.importers import FORMATS


def export(
    files: list[Path] = typer.Argument(..., help="Run files or folders to read."),  # noqa: B008
    out: Path = typer.Option(..., "--out", "-o", help="File to write."),  # noqa: B008
    as_otel: bool = typer.Option(False, "--otel", help="Write OTLP JSON (GenAI conventions)."),
    fmt: str = typer.Option("auto", "--format", help=f"Input format: auto, {', '.join(FORMATS)}."),
    task_attr: str | None = OTEL_TASK_ATTR,
    task_id_attr: str | None = OTEL_TASK_ID_ATTR,
    success_attr: str | None = OTEL_SUCCESS_ATTR,
    service: str = typer.Option("oncourse", "--service", help="OTLP service.name."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Write runs as OpenTelemetry GenAI traces (--otel) or as oncourse JSONL."""
    from oncourse.adapters.recorded import export_runs

    options = otel_options(task_attr, task_id_attr, success_attr)
    result = export_runs(files, out, as_otel=as_otel, fmt=fmt, otel=options, service=service)
    print_result(result, as_json, lambda r: print(f"{r.runs} run(s) written to {out} ({r.format})"))


def register(app: typer.Typer) -> None:
    """Add `export` to the CLI."""
    app.command("export")(export)
