"""The `oncourse memory` sub-app and the options its subcommands share."""

from __future__ import annotations

import typer

memory_app = typer.Typer(
    name="memory", help="List, search and curate stored guidelines.", no_args_is_help=True
)

MEMORY = typer.Option(
    ..., "--memory", envvar="ONCOURSE_MEMORY", help="Guideline store: file or postgresql:// URL."
)
JSON = typer.Option(False, "--json", help="Print one JSON object on stdout.")


def tool_list(tools: str | None) -> list[str] | None:
    """Tool names from a comma-separated option value (None when not given)."""
    return None if tools is None else [t.strip() for t in tools.split(",") if t.strip()]
