"""The flags that name the span attributes holding task and outcome in OTLP trace input."""

from __future__ import annotations

import typer
from oncourse.adapters.otel import OtelOptions

_OTEL_HELP = "OTLP traces: span attribute holding the {} (default: {})."
OTEL_TASK_ATTR = typer.Option(
    None, "--task-attr", help=_OTEL_HELP.format("task text", "oncourse.task")
)
OTEL_TASK_ID_ATTR = typer.Option(
    None, "--task-id-attr", help=_OTEL_HELP.format("task id", "oncourse.task_id")
)
OTEL_SUCCESS_ATTR = typer.Option(
    None,
    "--success-attr",
    help=_OTEL_HELP.format("outcome", "oncourse.success") + " `status`: the span status.",
)


def otel_options(
    task_attr: str | None, task_id_attr: str | None, success_attr: str | None
) -> OtelOptions:
    """OtelOptions from the `--task-attr`, `--task-id-attr`, `--success-attr` flags."""
    given = {"task_attr": task_attr, "task_id_attr": task_id_attr, "success_attr": success_attr}
    return OtelOptions.model_validate({k: v for k, v in given.items() if v})


__all__ = ["OTEL_SUCCESS_ATTR", "OTEL_TASK_ATTR", "OTEL_TASK_ID_ATTR", "otel_options"]
