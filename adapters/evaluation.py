"""`oncourse eval`: baseline vs memory on each split, paired, with intervals, harm and cost.

For every split the same tasks run N times without memory (baseline) and N times with the
memory injected (memory arm), with the same seeds and settings, so each task is its own control.
Runs are written to keyed files in the output directory next to a small provenance JSON; a
later eval (or `evolve`) reuses a baseline whose provenance (suite, model, n, seed, split)
matches instead of paying for it again.

`EvalResult.model_dump(mode="json")` is the `--json` object of `oncourse eval` (a contract):

    suite, model, n, seed: what ran (model is the spec string).
    simulated: true when the runs came from the simulated model.
    memory: path of the guideline store; memory_fingerprint: hash of its active guidelines;
    active_guidelines: how many were active (only active ones are injected).
    oncourse_version, started_at, finished_at: provenance.
    html_report: path of the HTML report (null if not written).
    splits: {split name: SplitEvaluation}, each with
        split, tasks: the split and its task count;
        baseline_runs, memory_runs: the JSONL files; baseline_reused: true when reused;
        baseline, memory: ArmSummary {n_tasks, n_runs, k, per_run_rate, per_run_low,
            per_run_high (95% Wilson), all_n_rate, all_n_low, all_n_high (95% bootstrap
            over tasks)};
        all_n_lift, per_run_lift: {points, low, high, confidence}: memory minus baseline in
            percentage points with a paired bootstrap interval over tasks;
        mcnemar: {n_pairs, only_baseline, only_memory, p_value}: exact McNemar test on the
            task-level all-N outcomes;
        baseline_consistent: tasks all-N in the baseline;
        harm_rate: share of those that are not all-N with memory (null when there are none);
            harmed: [{task_id, guidelines}] with the ids of
            the guidelines injected into each harmed task;
        mean_injected_tokens: mean over tasks of the mean tokens injected per run;
        mean_injected_guidelines: same, in guidelines; tasks_with_injection: tasks that got
            at least one guideline.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oncourse.consistency._version import __version__
from oncourse.consistency.compare import (
    ArmSummary,
    LiftInterval,
    all_runs_passed,
    compare_arms,
)
from oncourse.consistency.errors import InputError
from oncourse.consistency.stats import group_by_task
from oncourse.consistency.trajectory import Trajectory
from oncourse.memory.backend import store_exists
from pydantic import BaseModel, Field

DEFAULT_SPLITS = ("train", "heldout", "heldout-novel")


class PairedTest(BaseModel):
    """Exact McNemar test on task-level all-N outcomes, baseline vs memory."""

    n_pairs: int = Field(description="Tasks compared.")
    only_baseline: int = Field(description="Tasks all-N in the baseline only.")
    only_memory: int = Field(description="Tasks all-N with memory only.")
    p_value: float = Field(description="Two-sided exact p-value.")


class HarmedTask(BaseModel):
    """A task all-N in the baseline that is not with memory, and what was injected into it."""

    task_id: str = Field(description="The task.")
    guidelines: list[str] = Field(description="Ids of guidelines injected into its runs.")


class SplitEvaluation(BaseModel):
    """Baseline vs memory on one split."""

    split: str = Field(description="Split name.")
    tasks: int = Field(description="Tasks compared (both arms ran them).")
    baseline_runs: str = Field(description="JSONL file of the baseline runs.")
    memory_runs: str = Field(description="JSONL file of the memory-arm runs.")
    baseline_reused: bool = Field(description="True when the baseline came from disk.")
    baseline: ArmSummary = Field(description="Rates of the baseline arm.")
    memory: ArmSummary = Field(description="Rates of the memory arm.")
    all_n_lift: LiftInterval = Field(description="All-N lift in points, paired bootstrap.")
    per_run_lift: LiftInterval = Field(description="Per-run lift in points, paired bootstrap.")
    mcnemar: PairedTest = Field(description="Exact McNemar test on task all-N outcomes.")
    baseline_consistent: int = Field(description="Tasks all-N in the baseline (harm's base).")
    harm_rate: float | None = Field(description="Share of baseline-consistent tasks lost.")
    harmed: list[HarmedTask] = Field(description="The lost tasks and their guidelines.")
    mean_injected_tokens: float | None = Field(description="Mean tokens injected per run/task.")
    mean_injected_guidelines: float = Field(description="Mean guidelines injected per run/task.")
    tasks_with_injection: int = Field(description="Tasks that got at least one guideline.")


class EvalResult(BaseModel):
    """Everything `oncourse eval` measured, with provenance."""

    suite: str = Field(description="Suite name or path.")
    model: str = Field(description="Model spec.")
    n: int = Field(description="Runs per task per arm.")
    seed: int = Field(description="Base seed shared by both arms.")
    simulated: bool = Field(description="True when a simulated model produced the runs.")
    memory: str = Field(description="Path of the guideline store.")
    memory_fingerprint: str = Field(description="Hash of the active guidelines' ids and text.")
    active_guidelines: int = Field(description="Active guidelines in the store.")
    oncourse_version: str = Field(default=__version__, description="oncourse version.")
    started_at: str = Field(description="ISO-8601 start time (UTC).")
    finished_at: str = Field(description="ISO-8601 end time (UTC).")
    html_report: str | None = Field(default=None, description="Path of the HTML report.")
    splits: dict[str, SplitEvaluation] = Field(description="Per-split results.")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _key(fields: dict[str, Any]) -> str:
    blob = json.dumps(fields, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:10]


def suite_label(suite: Any) -> str:
    """A stable name for a suite: the built-in name, a directory's resolved path, or `.name`."""
    if not isinstance(suite, str | Path):
        return str(getattr(suite, "name", type(suite).__name__))
    path = Path(suite)
    return str(path.resolve()) if path.exists() else str(suite)


def model_label(model: Any) -> str:
    """The model as provenance names it: the spec string, or a model object's name."""
    if isinstance(model, str):
        return model
    return str(getattr(model, "name", type(model).__name__))


def resolve_suite(suite: Any) -> Any:
    """A Suite from a built-in name or a directory; a Suite object is returned as is."""
    if not isinstance(suite, str | Path):
        return suite
    from oncourse.adapters.suites import load_suite

    return load_suite(suite)


def memory_fingerprint(memory_path: str | Path | None) -> tuple[str, int]:
    """(hash of the active guidelines' ids, status and text, how many are active)."""
    if memory_path is None or not store_exists(memory_path):
        return "empty", 0
    from oncourse.memory.store import GuidelineMemory

    active = GuidelineMemory(memory_path).all(status="active")
    blob = "\n".join(f"{g.id}\t{g.text()}" for g in sorted(active, key=lambda g: g.id))
    return hashlib.sha256(blob.encode()).hexdigest()[:12], len(active)


class ArmRunner:
    """Runs (or reuses) one arm of one split into a keyed file with a provenance JSON.

    The file name is `<arm>-<split>-<key>.jsonl`, where the key hashes the provenance (suite,
    model, n, seed, split, and for a memory arm the memory fingerprint), so a changed setting
    never reuses stale runs. A file whose provenance matches and which holds n runs of every
    task is reused; otherwise `run_many` resumes it.
    """

    def __init__(
        self,
        suite: Any,
        model: Any,
        n: int,
        out_dir: str | Path,
        seed: int = 0,
        concurrency: int = 4,
        progress: bool = True,
        run_many: Callable[..., list[Trajectory]] | None = None,
    ):
        self.suite = suite
        self.model = model
        self.n = n
        self.out_dir = Path(out_dir)
        self.seed = seed
        self.concurrency = concurrency
        self.progress = progress
        self._run_many = run_many
        self.runs_made = 0

    def provenance(self, arm: str, split: str, memory: str | None = None) -> dict[str, Any]:
        """The fields that must match for runs on disk to be reused."""
        prov: dict[str, Any] = {
            "arm": arm,
            "suite": suite_label(self.suite),
            "model": model_label(self.model),
            "n": self.n,
            "seed": self.seed,
            "split": split,
        }
        if memory is not None:
            prov["memory"] = memory
        return prov

    def _paths(self, prov: dict[str, Any]) -> tuple[Path, Path]:
        stem = f"{prov['arm']}-{prov['split']}-{_key(prov)}"
        return self.out_dir / f"{stem}.jsonl", self.out_dir / f"{stem}.json"

    def runs_missing(
        self, arm: str, split: str, task_ids: Sequence[str], memory_key: str | None = None
    ) -> int:
        """How many runs `run` would have to make (0 when everything is on disk)."""
        prov = self.provenance(arm, split, memory_key)
        existing = _read_matching(*self._paths(prov), prov) or []
        by_task = group_by_task(existing)
        return sum(max(0, self.n - len(by_task.get(t, []))) for t in task_ids)

    def run(
        self,
        arm: str,
        split: str,
        task_ids: Sequence[str],
        memory_path: str | Path | None = None,
        memory_key: str | None = None,
    ) -> tuple[list[Trajectory], Path, bool]:
        """Runs of `task_ids` for one arm: (trajectories, file, reused)."""
        prov = self.provenance(arm, split, memory_key)
        runs_path, prov_path = self._paths(prov)
        existing = _read_matching(runs_path, prov_path, prov)
        if existing is not None and _complete(existing, task_ids, self.n):
            return _only(existing, task_ids), runs_path, True
        self.out_dir.mkdir(parents=True, exist_ok=True)
        prov_path.write_text(json.dumps({**prov, "created_at": _now()}, indent=2) + "\n")
        before = len(existing or [])
        trajs = self._call_run_many(split, runs_path, memory_path, task_ids)
        self.runs_made += max(0, len(trajs) - before)
        return _only(trajs, task_ids), runs_path, False

    def _call_run_many(
        self,
        split: str,
        runs_path: Path,
        memory_path: str | Path | None,
        task_ids: Sequence[str],
    ) -> list[Trajectory]:
        run_many = self._run_many or _default_run_many()
        return run_many(
            self.suite,
            self.model,
            self.n,
            split,
            runs_path,
            memory_path=memory_path,
            concurrency=self.concurrency,
            resume=True,
            seed=self.seed,
            progress=self.progress,
            task_ids=list(task_ids),
        )


def _default_run_many() -> Callable[..., list[Trajectory]]:
    from oncourse.adapters.runner import run_many

    return run_many


def _read_matching(
    runs_path: Path, prov_path: Path, prov: dict[str, Any]
) -> list[Trajectory] | None:
    if not runs_path.exists() or not prov_path.exists():
        return None
    try:
        stored = json.loads(prov_path.read_text())
    except json.JSONDecodeError:
        return None
    if any(stored.get(k) != v for k, v in prov.items()):
        return None
    from oncourse.adapters.importers import read_jsonl_trajectories

    return list(read_jsonl_trajectories(runs_path))


def _complete(trajs: Sequence[Trajectory], task_ids: Sequence[str], n: int) -> bool:
    by_task = group_by_task(trajs)
    return all(len(by_task.get(t, [])) >= n for t in task_ids)


def _only(trajs: Sequence[Trajectory], task_ids: Sequence[str]) -> list[Trajectory]:
    wanted = set(task_ids)
    return [t for t in trajs if t.task_id in wanted]


TokenCounts = Callable[[Sequence[str]], int]
"""Tokens of the guideline block injected for a list of guideline ids (in injection order)."""


def injected_tokens(traj: Trajectory, block_tokens: TokenCounts | dict[str, int]) -> int:
    """Tokens injected into one run: the loop's own count when recorded, else recomputed."""
    recorded = getattr(traj.meta, "injected_tokens", None)
    if isinstance(recorded, int):
        return recorded
    ids = traj.meta.injected_guidelines
    if not ids:
        return 0
    if isinstance(block_tokens, dict):
        return sum(block_tokens.get(g, 0) for g in ids)
    return block_tokens(ids)


def block_token_counter(memory_path: str | Path | None) -> TokenCounts:
    """Counts the tokens of the exact block `memory.inject` builds for a list of guideline ids.

    The block is re-rendered from the stored guidelines (header included) and counted with the
    injector's tokenizer, so the figure is what the model was sent; cached per id list.
    """
    from oncourse.memory.embedding import count_tokens
    from oncourse.memory.inject import HEADER, render_guideline

    guidelines: dict[str, Any] = {}
    if memory_path is not None and store_exists(memory_path):
        from oncourse.memory.store import GuidelineMemory

        guidelines = {g.id: g for g in GuidelineMemory(memory_path).all()}
    cache: dict[tuple[str, ...], int] = {}

    def count(ids: Sequence[str]) -> int:
        key = tuple(ids)
        if key not in cache:
            known = [guidelines[g] for g in key if g in guidelines]
            entries = [render_guideline(i + 1, g) for i, g in enumerate(known)]
            cache[key] = count_tokens("\n".join([HEADER, *entries])) if entries else 0
        return cache[key]

    return count


def evaluate_split(
    split: str,
    baseline: Sequence[Trajectory],
    memory_arm: Sequence[Trajectory],
    token_counts: TokenCounts | dict[str, int] | None = None,
    seed: int = 0,
    baseline_runs: str = "",
    memory_runs: str = "",
    baseline_reused: bool = False,
) -> SplitEvaluation:
    """The paired comparison of one split's two arms (pure given the runs)."""
    cmp = compare_arms(baseline, memory_arm, seed=seed)
    shared = set(group_by_task(baseline)) & set(group_by_task(memory_arm))
    mem_by_task = {t: r for t, r in group_by_task(memory_arm).items() if t in shared}
    harmed = [
        HarmedTask(
            task_id=task,
            guidelines=sorted({g for r in mem_by_task[task] for g in r.meta.injected_guidelines}),
        )
        for task in cmp.harmed_tasks
    ]
    tokens_per_task: list[float] = []
    guidelines_per_task: list[float] = []
    counts = token_counts or {}
    for runs in mem_by_task.values():
        tokens_per_task.append(sum(injected_tokens(r, counts) for r in runs) / len(runs))
        guidelines_per_task.append(sum(len(r.meta.injected_guidelines) for r in runs) / len(runs))
    return SplitEvaluation(
        split=split,
        tasks=cmp.shared_tasks,
        baseline_runs=baseline_runs,
        memory_runs=memory_runs,
        baseline_reused=baseline_reused,
        baseline=cmp.baseline,
        memory=cmp.candidate,
        all_n_lift=cmp.all_n_lift,
        per_run_lift=cmp.per_run_lift,
        mcnemar=PairedTest(
            n_pairs=cmp.mcnemar.n_pairs,
            only_baseline=cmp.mcnemar.only_baseline,
            only_memory=cmp.mcnemar.only_candidate,
            p_value=cmp.mcnemar.p_value,
        ),
        baseline_consistent=sum(
            1 for task, ok in all_runs_passed(baseline).items() if ok and task in shared
        ),
        harm_rate=None if math.isnan(cmp.harm_rate) else cmp.harm_rate,
        harmed=harmed,
        mean_injected_tokens=_mean(tokens_per_task),
        mean_injected_guidelines=_mean(guidelines_per_task) or 0.0,
        tasks_with_injection=sum(1 for g in guidelines_per_task if g > 0),
    )


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def run_eval(
    suite: Any,
    model: Any,
    n: int,
    memory_path: str | Path,
    out_dir: str | Path,
    splits: Sequence[str] = DEFAULT_SPLITS,
    seed: int = 0,
    concurrency: int = 4,
    progress: bool = True,
    html: bool = True,
    run_many: Callable[..., list[Trajectory]] | None = None,
) -> EvalResult:
    """Run both arms on every split (reusing matching runs on disk) and compare them."""
    if n < 1:
        raise InputError(f"--n must be a positive number of runs per task, got {n}")
    started = _now()
    suite_obj = resolve_suite(suite)
    fingerprint, active = memory_fingerprint(memory_path)
    runner = ArmRunner(suite, model, n, out_dir, seed, concurrency, progress, run_many)
    counts = block_token_counter(memory_path)
    results: dict[str, SplitEvaluation] = {}
    all_runs: list[Trajectory] = []
    for split in splits:
        task_ids = [t.task_id for t in suite_obj.tasks(split)]
        if not task_ids:
            raise InputError(f"suite {suite_label(suite)} has no tasks in split {split!r}")
        base, base_path, reused = runner.run("baseline", split, task_ids)
        mem, mem_path, _ = runner.run("memory", split, task_ids, memory_path, fingerprint)
        results[split] = evaluate_split(
            split,
            base,
            mem,
            counts,
            seed,
            str(base_path),
            str(mem_path),
            reused,
        )
        all_runs += mem
    result = EvalResult(
        suite=suite_label(suite),
        model=model_label(model),
        n=n,
        seed=seed,
        simulated=any(bool(t.meta.simulated) for t in all_runs),
        memory=str(memory_path),
        memory_fingerprint=fingerprint,
        active_guidelines=active,
        started_at=started,
        finished_at=_now(),
        splits=results,
    )
    if html:
        result.html_report = str(write_eval_report(result, all_runs, memory_path, out_dir))
    return result


def write_eval_report(
    result: EvalResult,
    memory_runs: Sequence[Trajectory],
    memory_path: str | Path | None,
    out_dir: str | Path,
    analyses: Sequence[Any] = (),
    name: str = "report.html",
) -> Path:
    """Write the HTML report of an eval (memory-arm runs, lift per split, guidelines)."""
    from oncourse.adapters.html_report import write_report

    guidelines: list[Any] = []
    if memory_path is not None and store_exists(memory_path):
        from oncourse.memory.store import GuidelineMemory

        guidelines = list(GuidelineMemory(memory_path).all())
    splits = {}
    for split, ev in result.splits.items():
        row = ev.model_dump(mode="json")
        row["candidate"] = row["memory"]
        row["shared_tasks"] = ev.tasks
        splits[split] = row
    return write_report(
        Path(out_dir) / name,
        trajectories=list(memory_runs),
        analyses=analyses,
        splits=splits,
        guidelines=guidelines,
        provenance={
            "suite": result.suite,
            "model spec": result.model,
            "N (runs per task per arm)": result.n,
            "base seed": result.seed,
            "memory": f"{result.memory} ({result.active_guidelines} active)",
            "eval started": result.started_at,
            "simulated": result.simulated,
        },
        title=f"oncourse eval: {result.suite} with {result.model}",
        runs_label="memory arm",
    )


__all__ = [
    "DEFAULT_SPLITS",
    "ArmRunner",
    "EvalResult",
    "HarmedTask",
    "PairedTest",
    "SplitEvaluation",
    "evaluate_split",
    "block_token_counter",
    "injected_tokens",
    "memory_fingerprint",
    "model_label",
    "resolve_suite",
    "run_eval",
    "suite_label",
    "write_eval_report",
]
