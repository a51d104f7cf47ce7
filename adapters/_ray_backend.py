"""Runs on a Ray cluster: one Ray task per run, while this process alone writes the run log.

Workers never touch the results file: each returns its trajectory as JSON and the driver appends
it, so `--resume`, exactly N runs per task and no duplicates hold as with local threads. A worker
rebuilds the suite, the model and the memory hook from the names in the `RunRequest` (once per
worker process), and calls the same `make_run` as the local backend, so a run's result does not
depend on where it ran. Provider keys are read from the worker's own environment.

Failures are told apart by who failed:
- the model or the environment (an error, a timeout inside the run): a failed run, as locally;
- the infrastructure (a worker process or node lost): Ray retries the task up to `retries`
  times; a run still lost after that is not written, and `RunsLostError` tells the user to
  complete the file with `--resume`;
- a worker that cannot make runs at all (the suite directory is missing there, ...): stop.

Backpressure: at most `concurrency` runs are submitted at once, and never more than the cluster
has CPUs for, so a submitted run is a running run and the driver's backstop deadline (the run's
own timeout plus a grace) measures run time, not queueing.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from oncourse.adapters._run_request import RunRequest, make_run, memory_hook_for, run_id_for
from oncourse.adapters._runlog import RunLog
from oncourse.adapters.suites.base import Suite, Task
from oncourse.consistency.chat import ChatModel
from oncourse.consistency.errors import ConfigError, RunsLostError
from oncourse.consistency.trajectory import RunError, Trajectory

DEFAULT_RETRIES = 3
"""Ray's own retries of a run whose worker or node was lost (never of a failed run)."""
CPUS_PER_RUN = 1.0
"""Ray CPUs each run reserves; the cluster's CPUs over this bound the runs in flight."""
_CAPACITY_REFRESH_S = 1.0
_POLL_S = 0.5


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ConfigError("--backend ray needs Ray: pip install 'oncourse[ray]'") from exc
    return ray


# -- the worker side ----------------------------------------------------------------------------


class _Worker:
    """A worker process's suite, model and memory hook for one request, built once."""

    def __init__(self, request: RunRequest):
        from oncourse.adapters.models import get_model
        from oncourse.adapters.suites import load_suite

        self.request = request
        self.suite: Suite = load_suite(request.suite)
        self.model: ChatModel = get_model(request.model)
        self.hook = memory_hook_for(request.memory, request.control)
        self.tasks = {t.task_id: t for t in self.suite.tasks(request.split)}

    def run(self, task_id: str, index: int) -> Trajectory:
        return make_run(self.suite, self.model, self.hook, self.request, self.tasks[task_id], index)


_WORKERS: dict[str, _Worker] = {}
_KEEP_WORKERS = 4


def run_in_worker(request_json: str, task_id: str, index: int) -> str:
    """Make run `index` of a task inside a Ray worker; returns the trajectory as JSON."""
    worker = _WORKERS.get(request_json)
    if worker is None:
        while len(_WORKERS) >= _KEEP_WORKERS:
            _WORKERS.pop(next(iter(_WORKERS)))
        worker = _WORKERS[request_json] = _Worker(RunRequest.model_validate_json(request_json))
    return worker.run(task_id, index).model_dump_json()


# -- the driver side ----------------------------------------------------------------------------


def _connect(ray: Any, address: str | None, concurrency: int) -> None:
    """Join the given cluster, or start a local one, unless this process already joined one.

    Ray stays up for the next call (an eval makes several `run_many` calls) and is shut down
    when the process exits (`ray.init` registers that); call `ray.shutdown()` to end it sooner.
    """
    if ray.is_initialized():
        return
    options: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": True}
    if address is None:
        # A new local instance sized for the runs asked for ("local": never another user's
        # instance that happens to run on this machine).
        address = "local"
        options.update(num_cpus=max(1, concurrency), include_dashboard=False)
    try:
        ray.init(address=address, **options)
    except ConnectionError as exc:
        raise ConfigError(f"cannot join the Ray cluster at {address!r}: {exc}") from exc


class _Driver:
    """Submits runs under a cap, writes each finished run, and keeps the infrastructure losses."""

    def __init__(
        self,
        ray: Any,
        request: RunRequest,
        log: RunLog,
        advance: Callable[[bool], None],
        done: dict[str, Trajectory],
        failed: Callable[[Task, int, RunError], Trajectory],
        concurrency: int,
        retries: int,
        cpus_per_run: float,
    ):
        self.ray = ray
        self.log = log
        self.advance = advance
        self.done = done
        self.failed = failed
        self.concurrency = concurrency
        self.cpus_per_run = cpus_per_run
        # The run's own timeout fires inside the worker; this backstop catches a hung worker.
        self.deadline_s = request.timeout_s + max(60.0, request.timeout_s)
        self.remote = ray.remote(
            num_cpus=cpus_per_run, max_retries=retries, retry_exceptions=False
        )(run_in_worker)
        self.request_ref = ray.put(request.model_dump_json())
        self.in_flight: dict[Any, tuple[Task, int, float]] = {}
        self.lost: list[str] = []
        self._capacity = (0, -_CAPACITY_REFRESH_S)

    def capacity(self) -> int:
        """Runs the cluster can hold at once (refreshed about once a second)."""
        value, at = self._capacity
        now = time.monotonic()
        if now - at >= _CAPACITY_REFRESH_S:
            cpus = float(self.ray.cluster_resources().get("CPU", 0.0))
            value = max(1, min(self.concurrency, int(cpus // self.cpus_per_run)))
            self._capacity = (value, now)
        return value

    def submit(self, task: Task, index: int) -> None:
        ref = self.remote.remote(self.request_ref, task.task_id, index)
        self.in_flight[ref] = (task, index, time.monotonic() + self.deadline_s)

    def write(self, traj: Trajectory) -> None:
        self.log.append(traj)
        self.done[traj.run_id or ""] = traj
        self.advance(traj.success)

    def collect(self, timeout: float) -> None:
        """Write the runs that finish within `timeout` seconds (at least one if any do)."""
        refs = list(self.in_flight)
        if not refs:
            return
        ready, rest = self.ray.wait(refs, num_returns=1, timeout=timeout)
        if ready and rest:
            more, _ = self.ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        for ref in ready:
            self.receive(ref)

    def receive(self, ref: Any) -> None:
        ray_errors = self.ray.exceptions
        task, index, _ = self.in_flight.pop(ref)
        try:
            payload = self.ray.get(ref)
        except ray_errors.RayTaskError as exc:
            # The worker itself threw (make_run never does for a model failure): a set-up problem.
            cause = exc.cause if exc.cause is not None else exc
            raise ConfigError(
                f"a Ray worker could not make run {run_id_for(task.task_id, index)}: {cause}"
            ) from None
        except ray_errors.RayError:
            self.lost.append(run_id_for(task.task_id, index))
            return
        self.write(Trajectory.model_validate_json(payload))

    def expire(self) -> None:
        """Cancel runs past the backstop deadline and write them as timed-out failed runs."""
        now = time.monotonic()
        for ref, (task, index, deadline) in list(self.in_flight.items()):
            if now > deadline:
                self.ray.cancel(ref, force=True)
                del self.in_flight[ref]
                message = f"no result from the Ray worker within {self.deadline_s:g} s"
                self.write(self.failed(task, index, RunError(kind="timeout", message=message)))

    def drain(self) -> None:
        """After an interrupt: write the runs that finish within the deadline, cancel the rest."""
        end = time.monotonic() + self.deadline_s
        while self.in_flight and time.monotonic() < end:
            try:
                self.collect(min(_POLL_S, max(0.0, end - time.monotonic())))
            except ConfigError:
                continue
        for ref in self.in_flight:
            self.ray.cancel(ref, force=True)
        self.in_flight.clear()


def run_on_ray(
    request: RunRequest,
    todo: list[tuple[Task, int]],
    log: RunLog,
    advance: Callable[[bool], None],
    concurrency: int,
    done: dict[str, Trajectory],
    *,
    failed: Callable[[Task, int, RunError], Trajectory],
    address: str | None = None,
    retries: int | None = None,
    cpus_per_run: float = CPUS_PER_RUN,
) -> None:
    """Make the runs in `todo` as Ray tasks, appending each to `log` as it arrives.

    Args:
        request: What every run needs, by name (see `RunRequest`).
        todo: (task, run index) pairs still missing from the log.
        log: The open run log; only this process writes it.
        advance: Progress callback, called with each run's success.
        concurrency: Most runs in flight at once.
        done: Finished runs by run id; every written run is added.
        failed: Builds the failed run of a task that never came back (the backstop).
        address: The cluster to join; None starts a local one (or uses an initialised Ray).
        retries: Ray's retries of a run whose worker or node was lost (`DEFAULT_RETRIES`).
        cpus_per_run: Ray CPUs each run reserves.

    Raises:
        RunsLostError: runs were lost to the infrastructure after all retries; every other run
            is written, and a `--resume` completes the file.
    """
    if not todo:
        return
    ray = _ray()
    retries = DEFAULT_RETRIES if retries is None else retries
    _connect(ray, address, concurrency)
    driver = _Driver(ray, request, log, advance, done, failed, concurrency, retries, cpus_per_run)
    pending = deque(todo)
    try:
        while pending or driver.in_flight:
            while pending and len(driver.in_flight) < driver.capacity():
                driver.submit(*pending.popleft())
            driver.collect(_POLL_S)
            driver.expire()
    except BaseException:
        # Interrupted or stopped: start nothing new; runs that finish are still written.
        driver.drain()
        raise
    if driver.lost:
        raise RunsLostError(
            f"{len(driver.lost)} run(s) lost with their Ray worker or node after "
            f"{retries} retries (first: {driver.lost[0]}); every finished run is written: "
            "run again with --resume to complete the file"
        )


__all__ = ["CPUS_PER_RUN", "DEFAULT_RETRIES", "run_in_worker", "run_on_ray"]
