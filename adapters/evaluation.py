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
            at least one guideline;
        in_sample: true for train (the split guidelines were learned from);
        baseline_per_run_cluster, memory_per_run_cluster: {rate, low, high, degenerate}: the
            per-run rate with a 95% bootstrap over tasks (repeats of a task stay together);
        min_detectable_per_run_points, min_detectable_all_n_points: the smallest lift these
            tasks could detect (two-sided alpha .05, power .8, from the observed spread);
        task_changes: [{task_id, baseline_rate, memory_rate, change_points, p_value,
            beyond_noise, guidelines}] for every task; harmed_beyond_noise,
            helped_beyond_noise: task ids whose per-run rate fell / rose beyond noise (Fisher
            exact p < .05);
        controls: {placebo|shuffled: {control, runs, arm (ArmSummary), per_run_cluster,
            all_n_lift, per_run_lift (memory minus control), mcnemar {n_pairs, only_control,
            only_memory, p_value}, sign_test {n_pairs, higher, lower, p_value}, helped}}.
    controls: the control arms run (placebo by default).

Control arms (see `adapters.controls`) run on the same tasks and seeds as the memory arm, with
the same retrieval deciding where text is injected, but the lessons taken out. "Guidelines
helped" is said only when memory beats the placebo (`controls.placebo.helped`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from oncourse.adapters.arms import (
    ArmRunner,
    RunSpec,
    memory_fingerprint,
    model_label,
    now,
    resolve_suite,
    suite_label,
)
from oncourse.adapters.eval_models import (
    ControlComparison,
    EvalResult,
    HarmedTask,
    PairedTest,
    SplitEvaluation,
    TaskChange,
)
from oncourse.adapters.suites.base import EVAL_SPLITS
from oncourse.consistency.compare import all_runs_passed, compare_arms, per_task_rates
from oncourse.consistency.errors import InputError
from oncourse.consistency.paired import (
    cluster_bootstrap_rate,
    min_detectable_lift,
    sign_test,
    task_change_p,
)
from oncourse.consistency.stats import group_by_task, pass_hat_k
from oncourse.consistency.trajectory import Trajectory
from oncourse.memory.backend import store_exists

DEFAULT_SPLITS = EVAL_SPLITS
DEFAULT_CONTROLS = ("placebo",)
NOISE_P = 0.05
"""A task's per-run change counts as beyond noise below this Fisher exact p-value."""


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


def _counts(trajs: Sequence[Trajectory]) -> dict[str, tuple[int, int]]:
    return {t: (len(r), sum(x.success for x in r)) for t, r in group_by_task(list(trajs)).items()}


def _injected(runs: Sequence[Trajectory]) -> list[str]:
    return sorted({g for r in runs for g in r.meta.injected_guidelines})


def task_changes(
    baseline: Sequence[Trajectory], memory_arm: Sequence[Trajectory]
) -> list[TaskChange]:
    """Every shared task's per-run change with memory, with its exact p-value and guidelines."""
    base, mem = _counts(baseline), _counts(memory_arm)
    mem_runs = group_by_task(list(memory_arm))
    out = []
    for task in sorted(set(base) & set(mem)):
        p = task_change_p(base[task], mem[task])
        b_rate, m_rate = base[task][1] / base[task][0], mem[task][1] / mem[task][0]
        out.append(
            TaskChange(
                task_id=task,
                baseline_rate=b_rate,
                memory_rate=m_rate,
                change_points=100 * (m_rate - b_rate),
                p_value=p,
                beyond_noise=p < NOISE_P and m_rate != b_rate,
                guidelines=_injected(mem_runs[task]),
            )
        )
    return out


def compare_control(
    control: str,
    control_arm: Sequence[Trajectory],
    memory_arm: Sequence[Trajectory],
    seed: int = 0,
    runs: str = "",
) -> ControlComparison:
    """Memory vs one control arm, paired on tasks: lifts, McNemar, sign test, `helped`."""
    cmp = compare_arms(control_arm, memory_arm, seed=seed)
    ctl_rate, mem_rate = per_task_rates(control_arm), per_task_rates(memory_arm)
    shared = sorted(set(ctl_rate) & set(mem_rate))
    test = sign_test([ctl_rate[t] for t in shared], [mem_rate[t] for t in shared])
    helped = cmp.per_run_lift.points > 0 and test.p_value < NOISE_P and cmp.all_n_lift.points >= 0
    return ControlComparison(
        control=control,
        runs=runs,
        arm=cmp.baseline,
        per_run_cluster=cluster_bootstrap_rate(list(_counts(control_arm).values()), seed=seed),
        all_n_lift=cmp.all_n_lift,
        per_run_lift=cmp.per_run_lift,
        mcnemar=cmp.mcnemar,
        sign_test=test,
        helped=helped,
    )


def _detectable(
    baseline: Sequence[Trajectory], memory_arm: Sequence[Trajectory], k: int
) -> tuple[float | None, float | None]:
    """The smallest per-run and all-N lifts these tasks could detect, in points."""
    base, mem = _counts(baseline), _counts(memory_arm)
    shared = sorted(set(base) & set(mem))
    per_run, all_n = [], []
    for t in shared:
        runs = base[t][0] + mem[t][0]
        p = (base[t][1] + mem[t][1]) / runs
        per_run.append(2 * p * (1 - p) / (runs / 2))
        q = (pass_hat_k(*base[t], k) + pass_hat_k(*mem[t], k)) / 2
        all_n.append(2 * q * (1 - q))
    values = (100 * min_detectable_lift(per_run), 100 * min_detectable_lift(all_n))
    return tuple(None if math.isnan(v) else v for v in values)  # type: ignore[return-value]


def evaluate_split(
    split: str,
    baseline: Sequence[Trajectory],
    memory_arm: Sequence[Trajectory],
    token_counts: TokenCounts | dict[str, int] | None = None,
    seed: int = 0,
    baseline_runs: str = "",
    memory_runs: str = "",
    baseline_reused: bool = False,
    controls: dict[str, ControlComparison] | None = None,
) -> SplitEvaluation:
    """The paired comparison of one split's two arms (pure given the runs)."""
    cmp = compare_arms(baseline, memory_arm, seed=seed)
    shared = set(group_by_task(baseline)) & set(group_by_task(memory_arm))
    mem_by_task = {t: r for t, r in group_by_task(memory_arm).items() if t in shared}
    harmed = [
        HarmedTask(task_id=task, guidelines=_injected(mem_by_task[task]))
        for task in cmp.harmed_tasks
    ]
    tokens_per_task: list[float] = []
    guidelines_per_task: list[float] = []
    counts = token_counts or {}
    for runs in mem_by_task.values():
        tokens_per_task.append(sum(injected_tokens(r, counts) for r in runs) / len(runs))
        guidelines_per_task.append(sum(len(r.meta.injected_guidelines) for r in runs) / len(runs))
    changes = task_changes(baseline, memory_arm)
    base_counts = [c for t, c in _counts(baseline).items() if t in shared]
    mem_counts = [c for t, c in _counts(memory_arm).items() if t in shared]
    mde_per_run, mde_all_n = _detectable(baseline, memory_arm, cmp.baseline.k)
    return SplitEvaluation(
        split=split,
        in_sample=split == "train",
        tasks=cmp.shared_tasks,
        baseline_runs=baseline_runs,
        memory_runs=memory_runs,
        baseline_reused=baseline_reused,
        baseline=cmp.baseline,
        memory=cmp.candidate,
        baseline_per_run_cluster=cluster_bootstrap_rate(base_counts, seed=seed),
        memory_per_run_cluster=cluster_bootstrap_rate(mem_counts, seed=seed),
        all_n_lift=cmp.all_n_lift,
        per_run_lift=cmp.per_run_lift,
        mcnemar=cmp.mcnemar,
        min_detectable_per_run_points=mde_per_run,
        min_detectable_all_n_points=mde_all_n,
        baseline_consistent=sum(
            1 for task, ok in all_runs_passed(baseline).items() if ok and task in shared
        ),
        harm_rate=None if math.isnan(cmp.harm_rate) else cmp.harm_rate,
        harmed=harmed,
        task_changes=changes,
        harmed_beyond_noise=[c.task_id for c in changes if c.beyond_noise and c.change_points < 0],
        helped_beyond_noise=[c.task_id for c in changes if c.beyond_noise and c.change_points > 0],
        controls=controls or {},
        mean_injected_tokens=_mean(tokens_per_task),
        mean_injected_guidelines=_mean(guidelines_per_task) or 0.0,
        tasks_with_injection=sum(1 for g in guidelines_per_task if g > 0),
    )


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def run_eval(
    suite: Any,
    model: Any = None,
    n: int | None = None,
    memory_path: str | Path = "",
    out_dir: str | Path = ".",
    splits: Sequence[str] = DEFAULT_SPLITS,
    seed: int = 0,
    concurrency: int = 4,
    progress: bool = True,
    html: bool = True,
    run_many: Callable[..., list[Trajectory]] | None = None,
    controls: Sequence[str] = DEFAULT_CONTROLS,
) -> EvalResult:
    """Run baseline, memory and control arms on every split (reusing runs on disk); compare.

    `suite` may be a `RunSpec` (then model, n, seed, concurrency, progress and run_many come
    from it).
    """
    spec = RunSpec.of(suite, model, n, seed, concurrency, progress, run_many).check()
    started = now()
    suite_obj = resolve_suite(spec.suite)
    fingerprint, active = memory_fingerprint(memory_path)
    runner = ArmRunner(spec, out_dir=out_dir)
    counts = block_token_counter(memory_path)
    results: dict[str, SplitEvaluation] = {}
    all_runs: list[Trajectory] = []
    for split in splits:
        task_ids = [t.task_id for t in suite_obj.tasks(split)]
        if not task_ids:
            raise InputError(f"suite {suite_label(spec.suite)} has no tasks in split {split!r}")
        base, base_path, reused = runner.run("baseline", split, task_ids)
        mem, mem_path, _ = runner.run("memory", split, task_ids, memory_path, fingerprint)
        compared: dict[str, ControlComparison] = {}
        for control in controls:
            ctl, ctl_path, _ = runner.run(
                control, split, task_ids, memory_path, fingerprint, control=control
            )
            compared[control] = compare_control(control, ctl, mem, spec.seed, str(ctl_path))
        results[split] = evaluate_split(
            split,
            base,
            mem,
            counts,
            spec.seed,
            str(base_path),
            str(mem_path),
            reused,
            controls=compared,
        )
        all_runs += mem
    result = EvalResult(
        suite=suite_label(spec.suite),
        model=model_label(spec.model),
        n=spec.n,
        seed=spec.seed,
        simulated=any(bool(t.meta.simulated) for t in all_runs),
        memory=str(memory_path),
        memory_fingerprint=fingerprint,
        active_guidelines=active,
        controls=list(controls),
        started_at=started,
        finished_at=now(),
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
    """Write the HTML report of an eval (arms side by side, lift per split, guidelines)."""
    from oncourse.adapters._html_eval import arms_section, ordered_splits, split_label
    from oncourse.adapters.html_report import write_report

    guidelines: list[Any] = []
    if memory_path is not None and store_exists(memory_path):
        from oncourse.memory.store import GuidelineMemory

        guidelines = list(GuidelineMemory(memory_path).all())
    splits = {}
    for split, ev in ordered_splits(result):
        row = ev.model_dump(mode="json")
        row["candidate"] = row["memory"]
        row["shared_tasks"] = ev.tasks
        splits[split_label(split, ev)] = row
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
        sections=[arms_section(result)],
    )


__all__ = [
    "DEFAULT_CONTROLS",
    "DEFAULT_SPLITS",
    "ArmRunner",
    "ControlComparison",
    "EvalResult",
    "HarmedTask",
    "PairedTest",
    "RunSpec",
    "SplitEvaluation",
    "TaskChange",
    "block_token_counter",
    "compare_control",
    "evaluate_split",
    "injected_tokens",
    "memory_fingerprint",
    "model_label",
    "resolve_suite",
    "run_eval",
    "suite_label",
    "task_changes",
    "write_eval_report",
]
