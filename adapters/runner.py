"""Run every task of a suite N times, concurrently, into an append-only JSONL file that resumes.

Run ids are `f"{task_id}#r{i}"` and each run's seed is derived from (seed, task_id, i) alone, so
two arms of an experiment (with and without memory) get the same seeds run for run: a paired
design. Each finished run is one flushed line; `resume=True` keeps the complete lines of an
earlier, interrupted invocation and runs only what is missing, so the file ends with exactly N
runs per task.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from oncourse.adapters._run_request import (
    RUN_BACKENDS,
    RunRequest,
    derive_seed,
    failed_run,
    make_run,
    memory_hook_for,
    memory_location,
    public_location,
    run_id_for,
)
from oncourse.adapters._runlog import RunLog, read_run_log
from oncourse.adapters.agent import (
    DEFAULT_SYSTEM_PROMPT,
    effective_temperature,
)
from oncourse.adapters.models import describe_model, get_model
from oncourse.adapters.suites.base import Suite, Task
from oncourse.consistency.chat import ChatModel, ModelSettings
from oncourse.consistency.errors import ConfigError, InputError
from oncourse.consistency.trajectory import Trajectory


def _check_settings(n: int, concurrency: int, max_steps: int, timeout_s: float) -> None:
    if n < 1:
        raise ConfigError(f"n must be a positive number of runs per task, got {n}")
    if concurrency < 1:
        raise ConfigError(f"concurrency must be at least 1, got {concurrency}")
    if max_steps < 1:
        raise ConfigError(f"max_steps must be at least 1, got {max_steps}")
    if not timeout_s > 0:
        raise ConfigError(f"timeout must be a positive number of seconds, got {timeout_s}")


def _select_tasks(suite: Suite, split: str, task_ids: Sequence[str] | None) -> list[Task]:
    tasks = suite.tasks(split)
    if task_ids is not None:
        by_id = {t.task_id: t for t in tasks}
        missing = [t for t in task_ids if t not in by_id]
        if missing:
            raise InputError(f"no task {missing[0]!r} in split {split!r} of suite {suite.name!r}")
        tasks = [by_id[t] for t in dict.fromkeys(task_ids)]
    if not tasks:
        raise InputError(f"suite {suite.name!r} has no tasks in split {split!r}")
    return tasks


def _mismatch(run: Trajectory, arm: dict[str, Any]) -> str | None:
    """Why an earlier run belongs to another arm (model, temperature, memory), if it does."""
    recorded = run.meta.model_dump()
    for key, value in arm.items():
        if key in recorded and recorded[key] != value:
            return f"{key} {recorded[key]!r}, not {value!r}"
    return None


def _existing_runs(
    out: Path, resume: bool, tasks: list[Task], n: int, arm: dict[str, Any]
) -> dict[str, Trajectory]:
    """Finished runs already in the file, keyed by run id (resume) or a refusal to mix."""
    if not resume:
        if out.exists() and out.stat().st_size > 0:
            raise InputError(
                "the output file already holds runs; pass --resume to complete it "
                "or choose another --out",
                path=str(out),
            )
        return {}
    wanted = {run_id_for(t.task_id, i) for t in tasks for i in range(n)}
    selected = {t.task_id for t in tasks}
    done: dict[str, Trajectory] = {}
    for number, run in enumerate(read_run_log(out, repair=True), start=1):
        if run.task_id not in selected:
            continue  # another slice of the same file (an eval over a subset of tasks)
        if run.run_id not in wanted:
            raise InputError(
                f"run {run.run_id!r} is not one of the {n} runs per task asked for; "
                "use the same --n or another --out",
                path=str(out),
                line=number,
            )
        if run.run_id in done:
            raise InputError(f"run {run.run_id!r} appears twice", path=str(out), line=number)
        mismatch = _mismatch(run, arm)
        if mismatch is not None:
            raise InputError(
                f"run {run.run_id!r} was made with {mismatch}; resume with the same "
                "settings or choose another --out",
                path=str(out),
                line=number,
            )
        done[run.run_id] = run
    return done


@contextmanager
def _progress_bar(
    enabled: bool, total: int, done: int, label: str
) -> Iterator[Callable[[bool], None]]:
    """A rich progress bar on stderr; yields `advance(success)`."""
    if not enabled:
        yield lambda success: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("passed {task.fields[passed]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    passed = 0
    lock = threading.Lock()
    with progress:
        bar = progress.add_task(label, total=total, completed=done, passed=0)

        def advance(success: bool) -> None:
            nonlocal passed
            with lock:
                passed += int(success)
                progress.update(bar, advance=1, passed=passed)

        yield advance


def _suite_name(suite: Suite | str | Path, loaded: Suite) -> str:
    if not isinstance(suite, str | Path):
        return loaded.name
    path = Path(suite).expanduser()
    return str(path.resolve()) if path.is_dir() else str(suite)


def _check_backend(backend: str, suite: Suite | str | Path, model: str | ChatModel) -> None:
    if backend not in RUN_BACKENDS:
        raise ConfigError(f"backend must be one of {', '.join(RUN_BACKENDS)}, got {backend!r}")
    if backend == "local":
        return
    if not isinstance(suite, str | Path):
        raise ConfigError(
            f"the {backend} backend rebuilds the suite on each worker: "
            "give a built-in suite name or a suite directory"
        )
    if not isinstance(model, str):
        raise ConfigError(
            f"the {backend} backend rebuilds the model on each worker: give a model spec string"
        )


def run_many(
    suite: Suite | str | Path,
    model_spec_or_model: str | ChatModel,
    n: int,
    split: str,
    out_path: str | Path,
    memory_path: str | Path | None = None,
    concurrency: int = 4,
    resume: bool = False,
    seed: int = 0,
    progress: bool = True,
    settings: ModelSettings | None = None,
    max_steps: int = 30,
    timeout_s: float = 120.0,
    task_ids: Sequence[str] | None = None,
    system_prompt: str | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    control: str | None = None,
) -> list[Trajectory]:
    """Run each task of a split `n` times and append every finished run to `out_path`.

    Args:
        suite: A suite, or a built-in suite name / suite directory for `load_suite`.
        model_spec_or_model: A model spec for `get_model` (`simulated`, `openai:gpt-4.1`, ...)
            or a model; one model object serves all runs, so it must be thread-safe.
        n: Runs per task.
        split: `train`, `heldout`, `heldout-novel` or `all`.
        out_path: The JSONL results file (append-only).
        memory_path: A guideline memory (path or `postgresql://` URL); None runs without one.
        concurrency: Runs in flight at once.
        resume: Complete an interrupted file instead of refusing a non-empty one.
        seed: Base seed; each run's seed is derived from it, the task id and the run index.
        progress: Show a progress bar on stderr.
        settings: Sampling settings for every model call.
        max_steps: Step limit per run.
        timeout_s: Wall-clock limit per run.
        task_ids: Run only these tasks of the split.
        system_prompt: Base system prompt; the suite's own prompt by default.
        backend: `local` (threads here) or `ray` (one Ray task per run; suite and model must
            then be given by name). This process alone writes `out_path` either way.
        ray_address: The Ray cluster to join (`auto`, `ray://host:10001`, ...); None starts a
            local one for this call.
        control: Inject a control arm's text (`placebo`, `shuffled`; see `adapters.controls`)
            where the memory would inject its guidelines; None injects the memory itself.

    Returns:
        All runs of the selected tasks (earlier ones from the file included), ordered by task
        then run index.
    """
    _check_settings(n, concurrency, max_steps, timeout_s)
    _check_backend(backend, suite, model_spec_or_model)
    if not isinstance(suite, str | Path):
        loaded: Suite = suite
    else:
        from oncourse.adapters.suites import load_suite

        loaded = load_suite(suite)
    tasks = _select_tasks(loaded, split, task_ids)
    model = (
        get_model(model_spec_or_model)
        if isinstance(model_spec_or_model, str)
        else model_spec_or_model
    )
    location = memory_location(memory_path) if memory_path is not None else None
    hook = memory_hook_for(memory_path, control) if backend == "local" else None
    if backend != "local" and memory_path is not None:
        memory_hook_for(memory_path, control)  # fail here, once, rather than on every worker
    out = Path(out_path)
    memory = public_location(location)
    # Runs of another arm must never be mixed in: a paired comparison would be meaningless.
    arm = {
        "model": describe_model(model)["model"],
        "temperature": effective_temperature(model, settings),
        "memory": memory,
    }
    if control is not None:
        arm["control"] = control
    done = _existing_runs(out, resume, tasks, n, arm)
    request = RunRequest(
        suite=_suite_name(suite, loaded),
        model=model_spec_or_model
        if isinstance(model_spec_or_model, str)
        else describe_model(model)["model"],
        split=split,
        seed=seed,
        settings=settings,
        system_prompt=system_prompt
        if system_prompt is not None
        else (loaded.system_prompt or DEFAULT_SYSTEM_PROMPT),
        max_steps=max_steps,
        timeout_s=timeout_s,
        memory=location,
        control=control,
        extra_meta={"suite": loaded.name, "split": split, "memory": memory}
        | ({"control": control} if control is not None else {}),
    )
    todo = [
        (task, i) for task in tasks for i in range(n) if run_id_for(task.task_id, i) not in done
    ]
    total = len(tasks) * n
    label = f"{loaded.name}/{split} x{n} {describe_model(model)['model']}"
    with RunLog(out) as log, _progress_bar(progress, total, total - len(todo), label) as advance:
        if backend == "ray":
            from oncourse.adapters._ray_backend import run_on_ray

            run_on_ray(
                request,
                todo,
                log,
                advance,
                concurrency,
                done,
                failed=lambda task, index, error: failed_run(model, request, task, index, error),
                address=ray_address,
            )
        else:
            one_run = partial(make_run, loaded, model, hook, request)
            _execute(todo, one_run, log, advance, concurrency, done)
    return [done[run_id_for(t.task_id, i)] for t in tasks for i in range(n)]


def _execute(
    todo: list[tuple[Task, int]],
    one_run: Callable[[Task, int], Trajectory],
    log: RunLog,
    advance: Callable[[bool], None],
    concurrency: int,
    done: dict[str, Trajectory],
) -> None:
    """Run the jobs on a bounded thread pool, writing each run as soon as it finishes."""
    if not todo:
        return
    pending = iter(todo)
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="oncourse-run") as pool:
        in_flight: set[Future[Trajectory]] = set()

        def submit_next() -> None:
            job = next(pending, None)
            if job is not None:
                in_flight.add(pool.submit(one_run, *job))

        for _ in range(concurrency):
            submit_next()
        try:
            while in_flight:
                finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in finished:
                    in_flight.discard(future)
                    traj = future.result()
                    log.append(traj)
                    done[traj.run_id or ""] = traj
                    advance(traj.success)
                    submit_next()
        except BaseException:
            # Interrupted: start nothing new; runs already in flight finish and are written.
            for future in in_flight:
                future.cancel()
            for future in wait(in_flight).done:
                if not future.cancelled() and future.exception() is None:
                    log.append(future.result())
            raise


__all__ = [
    "RUN_BACKENDS",
    "RunRequest",
    "derive_seed",
    "make_run",
    "memory_location",
    "public_location",
    "run_id_for",
    "run_many",
]
