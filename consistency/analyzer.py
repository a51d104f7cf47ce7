"""The Consistency Analyzer: align the N runs of each task and find where they fork.

Uses only the runs already made (zero extra model calls): steps are canonicalised
(`consistency.canonical`), the runs of a task aligned (`consistency.align`), and the forks
contrasted with the outcomes (`consistency.forks`). Each task gets one status:

- `consistent_pass`: all runs succeed and take one path;
- `fragile`: all runs succeed but their paths differ (benign forks listed);
- `divergent`: mixed outcomes and a fork whose branches separate successes from failures;
- `mixed_no_fork`: mixed outcomes but no fork separates them (identical actions, or only forks
  whose branches have the same outcome mix): the difference lies in the environment or the text;
- `consistent_fail`: all runs fail; `failing_step` names the common failing step when the runs
  agree on it.
"""

from __future__ import annotations

import gc
import multiprocessing
import pickle
import queue
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from oncourse.consistency.align import Alignment, align_runs
from oncourse.consistency.canonical import (
    CanonicalConfig,
    Canonicaliser,
    CanonicalTask,
    StepTemplate,
)
from oncourse.consistency.forks import (
    Branch,
    Divergence,
    Fork,
    ForkContext,
    ObservationAt,
    RawFork,
    build_divergence,
    build_fork,
    choose_divergence,
    raw_forks,
)
from oncourse.consistency.text import LexicalEmbedder, TextEmbedder
from oncourse.consistency.trajectory import Trajectory
from pydantic import BaseModel, Field

TaskStatus = Literal["consistent_pass", "fragile", "divergent", "mixed_no_fork", "consistent_fail"]


class TaskAnalysis(BaseModel):
    """What the analyzer found for one task (the `--json` task object of `oncourse analyze`)."""

    task_id: str = Field(description="The task.")
    n_runs: int = Field(description="Number of runs of the task.")
    n_success: int = Field(description="Number of runs that succeeded.")
    status: TaskStatus = Field(description="One of the five statuses (see module doc).")
    divergence: Divergence | None = Field(description="The fork that separates the outcomes.")
    benign_forks: list[Fork] = Field(description="Forks whose branches have the same outcome.")
    n_forks: int = Field(default=0, description="Number of aligned columns where actions differ.")
    n_columns: int = Field(default=0, description="Number of aligned columns.")
    distinct_paths: int = Field(default=1, description="Number of distinct canonical paths.")
    run_ids: list[str] = Field(default_factory=list, description="The runs, in input order.")
    failing_step: int | None = Field(
        default=None, description="consistent_fail only: the step where all runs fail alike."
    )
    volatile_ids: dict[str, list[str]] = Field(
        default_factory=dict, description="Run id -> values masked there as per-run ids."
    )


def _run_ids(task_id: str, runs: Sequence[Trajectory]) -> list[str]:
    ids = [run.run_id or f"{task_id}#{i}" for i, run in enumerate(runs)]
    if len(set(ids)) < len(ids):
        # Run ids must tell the branches apart; number repeated ones.
        ids = [f"{rid}#{i}" if ids.count(rid) > 1 else rid for i, rid in enumerate(ids)]
    return ids


def _failing_step(
    runs: Sequence[Trajectory], canon: CanonicalTask, alignment: Alignment
) -> int | None:
    """The column where every run fails alike: first errored step, else last step."""
    cells: set[tuple[int, int]] = set()
    steps: list[int] = []
    for r, run in enumerate(runs):
        if not run.steps:
            return None
        at = next((i for i, s in enumerate(run.steps) if s.error), len(run.steps) - 1)
        pos = canon.runs[r].order.index(at)
        column = alignment.columns[r][pos]
        cells.add((column, canon.runs[r].sigs[pos]))
        steps.append(at)
    return min(steps) if len(cells) == 1 else None


def _status(n: int, n_success: int, n_forks: int, divergence: RawFork | None) -> TaskStatus:
    if n_success == n:
        return "consistent_pass" if n_forks == 0 else "fragile"
    if n_success == 0:
        return "consistent_fail"
    return "divergent" if divergence is not None else "mixed_no_fork"


def analyze_task(
    task_id: str,
    runs: Sequence[Trajectory],
    canonicaliser: Canonicaliser,
    templates: list[list[StepTemplate]] | None = None,
) -> TaskAnalysis:
    """Analyze the runs of one task."""
    canon = canonicaliser.task(runs, templates)
    alignment = align_runs([c.sigs for c in canon.runs], canon.sig_tools, canon.sig_is_text)
    outcomes = [run.success for run in runs]
    forks = raw_forks(canon, alignment, outcomes)
    chosen = choose_divergence(forks) if 0 < sum(outcomes) < len(runs) else None
    run_ids = _run_ids(task_id, runs)
    n_success = sum(outcomes)
    status = _status(len(runs), n_success, len(forks), chosen)
    divergence = (
        build_divergence(chosen, runs, run_ids, canon, alignment) if chosen is not None else None
    )
    benign = [build_fork(f, runs, run_ids, canon, alignment) for f in forks if f.effect == "benign"]
    return TaskAnalysis.model_construct(
        task_id=task_id,
        n_runs=len(runs),
        n_success=n_success,
        status=status,
        divergence=divergence,
        benign_forks=benign,
        n_forks=len(forks),
        n_columns=alignment.n_columns,
        distinct_paths=len({tuple(c.sigs) for c in canon.runs}),
        run_ids=run_ids,
        failing_step=_failing_step(runs, canon, alignment) if n_success == 0 else None,
        volatile_ids={run_ids[r]: sorted(v) for r, v in canon.volatile_ids.items()},
    )


def group_runs(trajs: Iterable[Trajectory]) -> dict[str, list[Trajectory]]:
    """Runs grouped by task id, tasks in order of first appearance."""
    groups: dict[str, list[Trajectory]] = {}
    for traj in trajs:
        groups.setdefault(traj.task_id, []).append(traj)
    return groups


# State shared with forked worker processes (set just before they start).
_WORK: dict[str, Any] = {}


def _work_chunk(bounds: tuple[int, int]) -> list[TaskAnalysis]:
    items, canonicaliser = _WORK["items"], _WORK["canon"]
    return [analyze_task(tid, runs, canonicaliser) for tid, runs in items[bounds[0] : bounds[1]]]


def _claim(counter: Any) -> int:
    """The index of the next chunk nobody has taken yet (shared by every process)."""
    with counter.get_lock():
        index = int(counter.value)
        counter.value = index + 1
    return index


def _worker(conn: Any, counter: Any, chunks: list[tuple[int, int]]) -> None:
    """Forked child: analyse chunks until none is left, sending each result as it is done.

    A thread of its own does the sending: a result is bigger than the pipe holds, and the
    parent reads it only when its own thread gets a turn, so a send can wait a while.
    """
    outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()

    def send() -> None:
        while (data := outbox.get()) is not None:
            conn.send_bytes(data)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        while (index := _claim(counter)) < len(chunks):
            part = _work_chunk(chunks[index])
            outbox.put(pickle.dumps((index, part), protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:  # noqa: BLE001 - the parent redoes unsent chunks and raises there
        pass
    finally:
        outbox.put(None)
        sender.join()
        conn.close()


def _receive(conn: Any, parts: list[list[TaskAnalysis] | None]) -> None:
    """Parent thread: store a child's results as they arrive (so the child never waits)."""
    try:
        while True:
            index, part = pickle.loads(conn.recv_bytes())
            parts[index] = part
    except (EOFError, OSError):
        pass
    finally:
        conn.close()


def analyze_runs(
    trajs: Iterable[Trajectory],
    embedder: TextEmbedder | None = None,
    *,
    config: CanonicalConfig | None = None,
    workers: int = 1,
) -> list[TaskAnalysis]:
    """Analyze every task in a set of runs: align each task's runs, find forks, give a status.

    Args:
        trajs: runs of one or more tasks (runs of a task share `task_id`).
        embedder: compares free text (replies, notes) by meaning; default: LexicalEmbedder.
        config: canonicalisation rules (volatile patterns, text threshold, read-only tools).
        workers: processes to use (forked, POSIX only); 1 runs in this process.

    Returns:
        One TaskAnalysis per task, in order of the tasks' first appearance.
    """
    # The analysis (grouping included) makes many small objects and no reference cycles; with
    # the cyclic collector on, every collection would walk the whole set of loaded runs
    # (quadratic on big inputs).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        groups = group_runs(trajs)
        if not groups:
            return []
        return _analyze_groups(groups, embedder, config, workers)
    finally:
        if was_enabled:
            gc.enable()


def _analyze_groups(
    groups: dict[str, list[Trajectory]],
    embedder: TextEmbedder | None,
    config: CanonicalConfig | None,
    workers: int,
) -> list[TaskAnalysis]:
    canonicaliser = Canonicaliser(config, embedder)
    items = list(groups.items())
    workers = max(1, min(workers, len(items) // 200 or 1))
    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        templates = [canonicaliser.templates(runs) for _, runs in items]
        # Embed every distinct free text once, in one batch, before any per-task work.
        canonicaliser.texts.prefetch(
            [x for task in templates for run in task for t in run if t.texts for x in t.texts]
        )
        return [
            analyze_task(tid, runs, canonicaliser, templates[i])
            for i, (tid, runs) in enumerate(items)
        ]
    if not isinstance(canonicaliser.texts.embedder, LexicalEmbedder):
        # A model embeds in this process, in one batch, and is never used in a forked child;
        # the cheap lexical embedder just runs in the workers.
        canonicaliser.texts.prefetch(canonicaliser.free_texts(t for _, runs in items for t in runs))
    # This process and `workers - 1` forked children take chunks of tasks in turn from a shared
    # counter. The parent's own results need no transfer; the children's are received by a
    # thread while the parent works. A chunk a child took but never sent is redone here.
    _WORK.update(items=items, canon=canonicaliser)
    context = multiprocessing.get_context("fork")
    size = max(1, -(-len(items) // (workers * 64)))
    chunks = [(i, min(i + size, len(items))) for i in range(0, len(items), size)]
    parts: list[list[TaskAnalysis] | None] = [None] * len(chunks)
    counter = context.Value("q", 0)
    children, readers = [], []
    try:
        receivers = []
        for _ in range(workers - 1):
            recv, send = context.Pipe(duplex=False)
            child = context.Process(target=_worker, args=(send, counter, chunks), daemon=True)
            child.start()
            send.close()
            children.append(child)
            receivers.append(recv)
        # Threads only after the last fork: a child must not inherit a lock a thread holds.
        for recv in receivers:
            reader = threading.Thread(target=_receive, args=(recv, parts), daemon=True)
            reader.start()
            readers.append(reader)
        while (index := _claim(counter)) < len(chunks):
            parts[index] = _work_chunk(chunks[index])
        for reader in readers:
            reader.join()
        for child in children:
            child.join()
        for index, part in enumerate(parts):
            if part is None:
                parts[index] = _work_chunk(chunks[index])
    finally:
        for child in children:
            if child.is_alive():
                child.terminate()
                child.join()
        _WORK.clear()
    return [analysis for part in parts if part is not None for analysis in part]


__all__ = [
    "Branch",
    "Divergence",
    "Fork",
    "ForkContext",
    "ObservationAt",
    "TaskAnalysis",
    "TaskStatus",
    "analyze_runs",
    "analyze_task",
    "group_runs",
]
