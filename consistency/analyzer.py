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
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Literal

from oncourse.consistency.align import Alignment, align_runs
from oncourse.consistency.canonical import (
    CanonicalConfig,
    Canonicaliser,
    CanonicalTask,
    StepTemplate,
    TextClusterer,
)
from oncourse.consistency.decision import Candidate, ReplyMeaning, as_raw_fork, find_decision
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
from oncourse.consistency.tool_kinds import ToolKind, infer_tool_kinds
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
    decision_step: int | None = Field(
        default=None, description="Step of the decision point (the divergence fork's step)."
    )
    consequence_step: int | None = Field(
        default=None, description="Step of the first separating fork where a write differs."
    )
    consequence: Fork | None = Field(
        default=None, description="That fork, with its branches (None when no write differs)."
    )
    candidates: list[Candidate] = Field(
        default_factory=list, description="Separating forks weighed, best first, with why."
    )
    tool_kinds: dict[str, ToolKind] = Field(
        default_factory=dict, description="Tool -> reply, read, write or scratch, as used here."
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


def _decides(
    fork: RawFork,
    runs: Sequence[Trajectory],
    canon: CanonicalTask,
    alignment: Alignment,
    kinds: Mapping[str, ToolKind],
) -> bool:
    """Whether some run does more than a scratch call (or nothing) at the fork's column."""
    for r, run in enumerate(runs):
        pos = alignment.position(r, fork.column)
        if pos >= 0 and kinds.get(run.steps[canon.runs[r].order[pos]].action.tool) != "scratch":
            return True
    return False


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
    tool_kinds: Mapping[str, ToolKind] | None = None,
    context_texts: TextClusterer | None = None,
) -> TaskAnalysis:
    """Analyze the runs of one task.

    Args:
        task_id: the task.
        runs: its runs.
        canonicaliser: shared step canonicalisation (and text comparison).
        templates: the runs' step templates when already made.
        tool_kinds: tool -> kind over the whole input; default: inferred from these runs.
        context_texts: compares observations by meaning; default: the canonicaliser's.
    """
    canon = canonicaliser.task(runs, templates)
    alignment = align_runs([c.sigs for c in canon.runs], canon.sig_tools, canon.sig_is_text)
    outcomes = [run.success for run in runs]
    forks = raw_forks(canon, alignment, outcomes)
    run_ids = _run_ids(task_id, runs)
    n_success = sum(outcomes)
    mixed = 0 < n_success < len(runs)
    kinds = dict(tool_kinds) if tool_kinds is not None else None
    if kinds is None or any(s.action.tool not in kinds for run in runs for s in run.steps):
        kinds = {**infer_tool_kinds(runs, canonicaliser.config), **(kinds or {})}
    used = {s.action.tool for run in runs for s in run.steps}
    found = (
        find_decision(
            runs,
            canon,
            alignment,
            outcomes,
            forks,
            kinds,
            context_texts or canonicaliser.texts,
            ReplyMeaning(canonicaliser.texts, canonicaliser.step_text),
        )
        if mixed and forks
        else None
    )
    raw_at = {f.column: f for f in forks}
    # Scratch calls (notes, sums) never make the divergence on their own.
    chosen = (
        choose_divergence([f for f in forks if _decides(f, runs, canon, alignment, kinds)])
        if mixed
        else None
    )
    context_driven = False
    if found is not None and found.decision is not None:
        chosen = as_raw_fork(found.decision, raw_at.get(found.decision.column))
        context_driven = bool(found.decision.context_driven)
    status = _status(len(runs), n_success, len(forks), chosen)
    divergence = (
        build_divergence(chosen, runs, run_ids, canon, alignment, context_driven=context_driven)
        if chosen is not None
        else None
    )
    consequence = None
    if found is not None and found.consequence is not None:
        split = found.consequence
        consequence = build_fork(
            as_raw_fork(split, raw_at.get(split.column)), runs, run_ids, canon, alignment
        )
        consequence.context_driven = bool(split.context_driven)
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
        decision_step=divergence.step if divergence is not None else None,
        consequence_step=consequence.step if consequence is not None else None,
        consequence=consequence,
        candidates=found.candidates if found is not None else [],
        tool_kinds={tool: kinds[tool] for tool in sorted(used)},
    )


def group_runs(trajs: Iterable[Trajectory]) -> dict[str, list[Trajectory]]:
    """Runs grouped by task id, tasks in order of first appearance."""
    groups: dict[str, list[Trajectory]] = {}
    for traj in trajs:
        groups.setdefault(traj.task_id, []).append(traj)
    return groups


# What every worker process analyses from: set by the pool's initializer. With the `fork` start
# method the initializer's arguments are inherited, not pickled, so the loaded runs are shared.
_WORK: dict[str, Any] = {}


def _init_worker(work: dict[str, Any]) -> None:
    _WORK.update(work)
    gc.disable()  # see analyze_runs: many small objects, no cycles


def _work_chunk(bounds: tuple[int, int]) -> list[TaskAnalysis]:
    items, canonicaliser = _WORK["items"], _WORK["canon"]
    kinds, context = _WORK["kinds"], _WORK.get("context")
    return [
        analyze_task(tid, runs, canonicaliser, tool_kinds=kinds, context_texts=context)
        for tid, runs in items[bounds[0] : bounds[1]]
    ]


def analyze_runs(
    trajs: Iterable[Trajectory],
    embedder: TextEmbedder | None = None,
    *,
    config: CanonicalConfig | None = None,
    workers: int = 1,
    read_only_tools: Sequence[str] = (),
    scratch_tools: Sequence[str] = (),
) -> list[TaskAnalysis]:
    """Analyze every task in a set of runs: align each task's runs, find forks, give a status.

    Args:
        trajs: runs of one or more tasks (runs of a task share `task_id`).
        embedder: compares free text (replies, notes) by meaning; default: LexicalEmbedder.
        config: canonicalisation rules (volatile patterns, text threshold, read-only tools).
        workers: processes to use (forked, POSIX only); 1 runs in this process. With a model
            embedder the model runs only here: children compare the observations before a fork
            (for `context_driven`) with the lexical embedder.
        read_only_tools: tools declared reads (they change no state), added to `config`'s.
        scratch_tools: tools declared scratch (notes, calculators), added to `config`'s.

    Returns:
        One TaskAnalysis per task, in order of the tasks' first appearance.
    """
    config = config or CanonicalConfig()
    if read_only_tools or scratch_tools:
        config = config.model_copy(
            update={
                "read_tools": (*config.read_tools, *read_only_tools),
                "scratch_tools": (*config.scratch_tools, *scratch_tools),
            }
        )
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
    config: CanonicalConfig,
    workers: int,
) -> list[TaskAnalysis]:
    canonicaliser = Canonicaliser(config, embedder)
    items = list(groups.items())
    kinds = infer_tool_kinds((t for _, runs in items for t in runs), config)
    workers = max(1, min(workers, len(items) // 200 or 1))
    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        templates = [canonicaliser.templates(runs) for _, runs in items]
        # Embed every distinct free text once, in one batch, before any per-task work.
        canonicaliser.texts.prefetch(
            [x for task in templates for run in task for t in run if t.texts for x in t.texts]
        )
        return [
            analyze_task(tid, runs, canonicaliser, templates[i], tool_kinds=kinds)
            for i, (tid, runs) in enumerate(items)
        ]
    work: dict[str, Any] = {"items": items, "canon": canonicaliser, "kinds": kinds}
    if not isinstance(canonicaliser.texts.embedder, LexicalEmbedder):
        # A model embeds in this process, in one batch, and is never used in a forked child:
        # the children compare the free texts it embedded, and observations lexically.
        canonicaliser.texts.prefetch(canonicaliser.free_texts(t for _, runs in items for t in runs))
        work["context"] = TextClusterer(LexicalEmbedder(), None)
    size = max(1, -(-len(items) // (workers * 16)))
    chunks = [(i, min(i + size, len(items))) for i in range(0, len(items), size)]
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_init_worker,
        initargs=(work,),
    ) as pool:
        parts = list(pool.map(_work_chunk, chunks))
    return [analysis for part in parts for analysis in part]


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
