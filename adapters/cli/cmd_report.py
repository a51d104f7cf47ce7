"""`oncourse report`: per-run vs all-N reliability of recorded runs, with intervals and provenance.

The command is load -> compute -> render; each output option (`--json`, `--html`) is one more
renderer of the same `RunsReport` (`adapters/recorded.py`; schema in docs/json-schemas.md): the
reliability report plus `duplicates`, runs dropped because a file was given twice or a run id
repeated (each is warned about on stderr).
"""

from __future__ import annotations

from pathlib import Path

import typer
from oncourse.adapters.cli._console import err_console, esc, out_console
from oncourse.adapters.cli._json import print_result
from oncourse.adapters.cli._otel_flags import (
    OTEL_SUCCESS_ATTR,
    OTEL_TASK_ATTR,
    OTEL_TASK_ID_ATTR,
    otel_options,
)
from oncourse.adapters.cli._params import writable_file
from oncourse.adapters.cli._render_report import DEPENDENCE_CAVEAT, render_text
from oncourse.adapters.importers import FORMATS

FORMAT_HELP = f"Input format: auto (detect per file), {', '.join(FORMATS)}."


def _positive_k(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise typer.BadParameter(
            f"k must be a positive integer, got {value} (k = 0 makes pass^k vacuously 1)"
        )
    return value


def report(
    files: list[Path] = typer.Argument(  # noqa: B008
        ..., help="Trajectory files or folders (oncourse JSONL, tau-bench JSON, openai JSONL)."
    ),
    k: int | None = typer.Option(
        None,
        "--k",
        callback=_positive_k,
        help="Compute pass^k up to this k (default: the smallest run count).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
    fmt: str = typer.Option("auto", "--format", help=FORMAT_HELP),
    html: Path | None = typer.Option(  # noqa: B008
        None,
        "--html",
        callback=writable_file,
        help="Also write a self-contained HTML report to this file.",
    ),
    task_attr: str | None = OTEL_TASK_ATTR,
    task_id_attr: str | None = OTEL_TASK_ID_ATTR,
    success_attr: str | None = OTEL_SUCCESS_ATTR,
) -> None:
    """Per-run vs all-N pass rates with intervals, the gap, and the flaky tasks' paths."""
    from oncourse.adapters.recorded import report_files

    otel = otel_options(task_attr, task_id_attr, success_attr)
    result, trajs = report_files(files, fmt, otel, k)
    if html is not None:
        from oncourse.adapters.html_report import write_runs_report

        written = write_runs_report(html, trajs, sources=[str(f) for f in files])
        err_console().print(f"HTML report: {esc(written)}")
    print_result(result, as_json, lambda r: render_text(r, out_console(soft_wrap=False)))


def register(app: typer.Typer) -> None:
    """Add `report` to the CLI."""
    app.command("report")(report)


__all__ = ["DEPENDENCE_CAVEAT", "FORMAT_HELP", "register", "render_text", "report"]
