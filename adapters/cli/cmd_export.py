"""`oncourse export`: write runs in another format (OTLP JSON traces, or oncourse JSONL).

    oncourse export runs.jsonl --otel -o runs.otlp.json      # runs -> OpenTelemetry GenAI traces
    oncourse export traces.json --format otel --success-attr app.passed -o runs.jsonl

`--json` prints {path, runs, format}.
"""

from __future__ import annotations

from pathlib import Path

import typer
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.cli._otel_flags import (
    OTEL_SUCCESS_ATTR,
    OTEL_TASK_ATTR,
    OTEL_TASK_ID_ATTR,
    otel_options,
)
from oncourse.adapters.importers import FORMATS
from oncourse.consistency.errors import ConfigError, InputError


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
    from oncourse.adapters.importers import load_trajectories, write_trajectories
    from oncourse.adapters.otel import write_otel

    options = otel_options(task_attr, task_id_attr, success_attr)
    runs = load_trajectories(files, fmt, options)
    if not runs:
        raise InputError("no runs in the input")
    if out.is_dir():
        raise ConfigError(f"{out}: is a directory; --out names a file")
    if as_otel:
        count = write_otel(out, runs, service=service)
    else:
        if out.exists() and out.stat().st_size:
            raise ConfigError(f"{out}: exists; runs are appended to JSONL only by `run`/`record`")
        count = write_trajectories(out, runs)
    target = "otel" if as_otel else "oncourse"
    if as_json:
        print_json({"path": str(out), "runs": count, "format": target})
    else:
        print(f"{count} run(s) written to {out} ({target})")


def register(app: typer.Typer) -> None:
    """Add `export` to the CLI."""
    app.command("export")(export)
