"""One run of one task, as any process makes it: the request that travels, the run, its failure.

`run_many` makes runs in its own threads (`local`) or on Ray workers (`ray`); both call
`make_run` with a `RunRequest`, so a run's result does not depend on where it was made. The
request names the suite and model instead of carrying them, and keeps the memory location's
password out of what is logged.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oncourse.adapters.agent import MemoryHook, effective_temperature, run_agent
from oncourse.adapters.models import describe_model
from oncourse.adapters.suites.base import Suite, Task
from oncourse.consistency._version import __version__
from oncourse.consistency.chat import ChatModel, ModelSettings
from oncourse.consistency.errors import InputError
from oncourse.consistency.trajectory import RunError, RunMeta, Trajectory
from pydantic import BaseModel, Field


def run_id_for(task_id: str, index: int) -> str:
    """The id of run `index` of a task: `task_id#r{index}`."""
    return f"{task_id}#r{index}"


def derive_seed(seed: int, task_id: str, index: int) -> int:
    """The seed of run `index` of a task: a hash of (seed, task_id, index), below 2**31."""
    digest = hashlib.sha256(f"{seed}\x1f{task_id}\x1f{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (2**31)


def is_url(location: str | Path) -> bool:
    """True for a `scheme://...` location (a server store), False for a file path."""
    return "://" in str(location)


def memory_location(memory_path: str | Path) -> str:
    """Where a memory lives, for workers on any host: a URL as given, a path made absolute."""
    return str(memory_path) if is_url(memory_path) else str(Path(memory_path).resolve())


def public_location(location: str | None) -> str | None:
    """A memory location fit for the run log: a URL's password is dropped."""
    if location is None or not is_url(location):
        return location
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(location)
    if parts.password is None:
        return location
    host = parts.hostname or ""
    netloc = f"{parts.username}@{host}" if parts.username else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def memory_hook_for(
    memory_path: str | Path | None, control: str | None = None
) -> MemoryHook | None:
    """The injection hook of a guideline memory (path or URL); None for no memory.

    With `control` (`placebo`, `shuffled`) the hook retrieves as the memory would and injects
    that control arm's text instead (see `adapters.controls`).
    """
    if memory_path is None:
        return None
    from oncourse.memory.backend import store_exists

    if not store_exists(memory_path):
        raise InputError("no guideline memory here", path=public_location(str(memory_path)))
    if control is not None:
        from oncourse.adapters.controls import control_hook

        return control_hook(memory_path, control)
    from oncourse.memory.inject import memory_hook
    from oncourse.memory.store import GuidelineMemory

    hook: MemoryHook = memory_hook(GuidelineMemory(memory_path))  # type: ignore[assignment]
    return hook


RUN_BACKENDS = ("local", "ray")
"""Where runs execute: `local` (a thread pool in this process) or `ray` (one Ray task per run)."""


class RunRequest(BaseModel):
    """What a run needs besides its task, by name and value, so a worker anywhere can make it.

    The suite and model travel as the names `load_suite` and `get_model` take; provider keys
    come from the worker's own environment. Nothing here is written to the run log except
    `extra_meta`, whose memory location has its password removed.
    """

    suite: str = Field(description="Built-in suite name or absolute suite directory.")
    model: str = Field(description="Model spec for `get_model`.")
    split: str = Field(description="The split the tasks come from.")
    seed: int = Field(description="Base seed; each run's seed derives from it.")
    settings: ModelSettings | None = Field(default=None, description="Sampling settings.")
    system_prompt: str = Field(description="Base system prompt of every run.")
    max_steps: int = Field(description="Step limit per run.")
    timeout_s: float = Field(description="Wall-clock limit per run, in seconds.")
    memory: str | None = Field(default=None, description="Where to open the guideline memory.")
    control: str | None = Field(default=None, description="Control arm injected instead, if any.")
    extra_meta: dict[str, Any] = Field(default_factory=dict, description="Added to run meta.")


def make_run(
    suite: Suite,
    model: ChatModel,
    hook: MemoryHook | None,
    request: RunRequest,
    task: Task,
    index: int,
) -> Trajectory:
    """Run `index` of a task (a failed run when the harness throws), with the arm's meta."""
    run_id = run_id_for(task.task_id, index)
    try:
        traj = run_agent(
            model,
            suite.make_env(task),
            task,
            settings=request.settings,
            system_prompt=request.system_prompt,
            memory_hook=hook,
            max_steps=request.max_steps,
            timeout_s=request.timeout_s,
            seed=derive_seed(request.seed, task.task_id, index),
            run_id=run_id,
        )
    except Exception as exc:  # noqa: BLE001 - a thrown run is a failed run
        return failed_run(model, request, task, index, exc)
    return _with_extra_meta(traj, request)


def _with_extra_meta(traj: Trajectory, request: RunRequest) -> Trajectory:
    for key, value in request.extra_meta.items():
        setattr(traj.meta, key, value)
    return traj


def failed_run(
    model: ChatModel,
    request: RunRequest,
    task: Task,
    index: int,
    error: BaseException | RunError,
) -> Trajectory:
    """A run the harness could not complete (it threw, or never came back): a failed run."""
    traj = harness_failure(
        task,
        run_id_for(task.task_id, index),
        derive_seed(request.seed, task.task_id, index),
        model,
        request.settings,
        error,
    )
    return _with_extra_meta(traj, request)


def harness_failure(
    task: Task,
    run_id: str,
    seed: int,
    model: ChatModel,
    settings: ModelSettings | None,
    exc: BaseException | RunError,
) -> Trajectory:
    """A run the harness itself could not complete (an environment bug): a failed run."""
    error = (
        exc
        if isinstance(exc, RunError)
        else RunError(kind="harness_error", message=f"{type(exc).__name__}: {exc}")
    )
    return Trajectory(
        task_id=task.task_id,
        run_id=run_id,
        task=task.instruction,
        success=False,
        steps=[],
        error=error,
        meta=RunMeta(
            **describe_model(model),
            temperature=effective_temperature(model, settings),
            seed=seed,
            started_at=datetime.now(UTC).isoformat(timespec="seconds"),
            oncourse_version=__version__,
        ),
    )


__all__ = [
    "RUN_BACKENDS",
    "RunRequest",
    "derive_seed",
    "failed_run",
    "harness_failure",
    "make_run",
    "memory_hook_for",
    "memory_location",
    "public_location",
    "run_id_for",
]
