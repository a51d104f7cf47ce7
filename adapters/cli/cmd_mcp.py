"""`oncourse mcp`: serve the guideline memory to MCP clients (Claude Code, Codex, Cursor, ...).

oncourse mcp --memory guidelines.db                      # stdio
oncourse mcp --memory guidelines.db --http 127.0.0.1:8765 # streamable HTTP at /mcp
"""

from __future__ import annotations

import sys

import typer


def mcp(
    memory: str = typer.Option(
        ..., "--memory", envvar="ONCOURSE_MEMORY", help="Guideline store: file or postgresql://."
    ),
    http: str | None = typer.Option(
        None, "--http", help="Serve streamable HTTP on HOST:PORT (path /mcp) instead of stdio."
    ),
    allow_writes: bool = typer.Option(
        False, "--allow-writes", help="Also offer add_guideline (screened) and retire_guideline."
    ),
    allow_remote: bool = typer.Option(
        False, "--allow-remote", help="Allow --http on a non-loopback address (no auth!)."
    ),
    k: int = typer.Option(5, "--k", min=1, help="At most this many guidelines per task."),
) -> None:
    """Serve the guideline memory over MCP (stdio by default; read-only unless --allow-writes)."""
    from oncourse.adapters.integrations.mcp_server import build_server, http_address

    address = http_address(http, allow_remote) if http is not None else None
    server = build_server(memory, allow_writes=allow_writes, k=k)
    mode = "read-write" if allow_writes else "read-only"
    if address is None:
        print(f"oncourse mcp: serving {memory} over stdio ({mode})", file=sys.stderr)
        server.run("stdio")
        return
    host, port = address
    print(f"oncourse mcp: serving {memory} at http://{host}:{port}/mcp ({mode})", file=sys.stderr)
    server.run("streamable-http", host=host, port=port)


def register(app: typer.Typer) -> None:
    """Add `mcp` to the CLI."""
    app.command("mcp")(mcp)
