"""Options shared by the commands that run agents (`run`, `eval`, `evolve`, `demo`).

`--backend` and `--ray-address` choose where runs execute; the others are the suite, model,
store and concurrency flags that `eval` and `evolve` spell alike.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

import typer
from oncourse.adapters.cli._paths import writable_file

BackendOption = Annotated[
    str,
    typer.Option(
        "--backend",
        help="Where runs execute: local (threads here) or ray (one Ray task per run).",
    ),
]
RayAddressOption = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        help="Ray cluster to join (auto, ray://HOST:10001); default: start a local one.",
    ),
]

SuiteOption = Annotated[str, typer.Option("--suite", help="Built-in suite name or directory.")]
ModelOption = Annotated[str, typer.Option("--model", help="Model spec, e.g. openai:gpt-4.1.")]
StoreOption = Annotated[
    str,
    typer.Option(
        "--memory",
        callback=writable_file,
        help="Guideline store: SQLite file or postgresql:// URL.",
    ),
]
ConcurrencyOption = Annotated[int, typer.Option("--concurrency", help="Parallel runs.")]


def check_backend(backend: str, ray_address: str | None) -> None:
    """Refuse an unknown backend, or a Ray address without the Ray backend."""
    from oncourse.adapters.runner import RUN_BACKENDS
    from oncourse.consistency.errors import ConfigError

    if backend not in RUN_BACKENDS:
        raise ConfigError(f"--backend must be one of {', '.join(RUN_BACKENDS)}, got {backend!r}")
    if ray_address is not None and backend != "ray":
        raise ConfigError("--ray-address needs --backend ray")


def run_many_for(backend: str, ray_address: str | None) -> Callable[..., Any] | None:
    """The `run_many` that eval and evolve should call; None keeps their default (local)."""
    check_backend(backend, ray_address)
    if backend == "local":
        return None
    from oncourse.adapters.runner import run_many

    return partial(run_many, backend=backend, ray_address=ray_address)
