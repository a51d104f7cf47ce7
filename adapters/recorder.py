"""Record runs of your own agent loop in the oncourse trajectory format.

    from oncourse.adapters.recorder import record

    with record("refund-042", task_text, out="runs.jsonl", meta={"model": "gpt-4.1"}) as run:
        for call in my_agent(task_text):
            run.step(call.tool, call.args, observation=call.result, thought=call.reasoning)
        run.finish(success=check(world), final_answer=reply)

An exception inside the block records a failed run whose `error.kind` is the exception's class
name, then propagates (or not, with `reraise=False`). A block left without `finish` is recorded
as a failed run of kind `unfinished`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from oncourse.adapters.agent import MemoryHook
from oncourse.consistency._version import __version__
from oncourse.consistency.trajectory import RunError, RunMeta, Step, Trajectory

_APPEND_LOCK = threading.Lock()


def append_trajectory(path: str | Path, trajectory: Trajectory) -> None:
    """Append one run as one flushed JSONL line."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    line = trajectory.model_dump_json() + "\n"
    with _APPEND_LOCK, target.open("a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()


class RunRecorder:
    """One run being recorded; use it through `record(...)` as a context manager."""

    def __init__(
        self,
        task_id: str,
        task: str | None = None,
        *,
        out: str | Path | None = None,
        meta: RunMeta | dict[str, Any] | None = None,
        run_id: str | None = None,
        reraise: bool = True,
    ):
        """Prepare the record; the clock starts when the block is entered."""
        self.task_id = task_id
        self.task = task
        self.out = Path(out) if out is not None else None
        self.meta = RunMeta.model_validate(meta or {})
        self.run_id = run_id
        self.reraise = reraise
        self.steps: list[Step] = []
        self.trajectory: Trajectory | None = None
        self._start = 0.0
        self._started_at = ""

    def __enter__(self) -> RunRecorder:
        self._start = time.monotonic()
        self._started_at = datetime.now(UTC).isoformat(timespec="seconds")
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        if exc is not None:
            if self.trajectory is None:
                self._close(False, None, RunError(kind=type(exc).__name__, message=str(exc)))
            return not self.reraise and isinstance(exc, Exception)
        if self.trajectory is None:
            self._close(
                False, None, RunError(kind="unfinished", message="block ended before finish()")
            )
        return False

    def step(
        self,
        tool: str,
        args: dict[str, Any] | None = None,
        *,
        observation: Any = None,
        thought: str | None = None,
        error: str | None = None,
    ) -> Step:
        """Record one tool call of your agent, with what it saw back."""
        step = Step.model_validate(
            {
                "action": {"tool": tool, "args": args or {}},
                "observation": observation,
                "thought": thought,
                "error": error,
            }
        )
        self.steps.append(step)
        return step

    def apply_memory(self, hook: MemoryHook, tool_names: Sequence[str] = ()) -> str:
        """Run a memory hook for this task; returns the text to add to your system prompt.

        The ids of the injected guidelines are recorded in the run's provenance.
        """
        extra, ids = hook(self.task or "", list(tool_names))
        self.meta.injected_guidelines = [*self.meta.injected_guidelines, *ids]
        return extra

    def add_usage(self, tokens_in: int = 0, tokens_out: int = 0) -> None:
        """Add one model call's token usage to the run's totals."""
        self.meta.tokens_in = (self.meta.tokens_in or 0) + tokens_in
        self.meta.tokens_out = (self.meta.tokens_out or 0) + tokens_out

    def finish(
        self, *, success: bool, final_answer: str | None = None, reward: float | None = None
    ) -> Trajectory:
        """End the run with its outcome; the trajectory is written to `out` if one was given."""
        if self.trajectory is not None:
            raise RuntimeError(f"run {self.run_id or self.task_id} is already finished")
        return self._close(success, final_answer, None, reward)

    def _close(
        self,
        success: bool,
        final_answer: str | None,
        error: RunError | None,
        reward: float | None = None,
    ) -> Trajectory:
        meta = self.meta.model_copy()
        meta.started_at = meta.started_at or self._started_at or None
        meta.duration_s = round(time.monotonic() - self._start, 4) if self._start else None
        meta.oncourse_version = meta.oncourse_version or __version__
        self.trajectory = Trajectory(
            task_id=self.task_id,
            run_id=self.run_id,
            task=self.task,
            success=success,
            steps=list(self.steps),
            final_answer=final_answer,
            reward=reward,
            error=error,
            meta=meta,
        )
        if self.out is not None:
            append_trajectory(self.out, self.trajectory)
        return self.trajectory


def record(
    task_id: str,
    task: str | None = None,
    *,
    out: str | Path | None = None,
    meta: RunMeta | dict[str, Any] | None = None,
    run_id: str | None = None,
    reraise: bool = True,
) -> RunRecorder:
    """Start recording one run of your own agent; use the result as a context manager.

    Args:
        task_id: Id of the task; the N runs of a task share it.
        task: The instruction text the agent was given.
        out: A JSONL file the finished run is appended to.
        meta: Provenance: model, provider, temperature, seed, ... (a `RunMeta` or a dict).
        run_id: Id of this run, unique within the file.
        reraise: Let an exception raised inside the block propagate after recording it.
    """
    return RunRecorder(task_id, task, out=out, meta=meta, run_id=run_id, reraise=reraise)


__all__ = ["RunRecorder", "append_trajectory", "record"]
