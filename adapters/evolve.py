"""`oncourse evolve`: learn guidelines from the train split and keep only those that hold up.

Phases: baseline runs on `train` -> analyze (consistency analyzer) -> generate (contrastive by
default) -> screen, dedupe, store as `proposed` (`memory.admit`) -> validate. Validation uses
the suite's `validation` split (tasks disjoint from train and from the held-out splits; train
only when a suite has no validation tasks, and the verdict says so): it runs the validation
tasks a proposed guideline is retrieved for without and with it (the active guidelines plus
that one injected), same seeds, and compares them paired. A guideline that lowers the all-N or
the per-run rate is `retired`; one that raises either without lowering the other becomes
`active`; a tie stays `proposed` (no evidence either way). Guidelines are validated one after
another, so each is judged next to the ones already promoted.

Budget: `max_runs` caps the agent runs this command may make (baseline included); validations
that do not fit are left `proposed` for a later run. Resume: runs live in keyed files (see
`adapters.evaluation.ArmRunner`) and the phase state in `evolve-state.json`; `resume=True`
continues where an interrupted evolve stopped.

`EvolveResult.model_dump(mode="json")` is the `--json` object of `oncourse evolve` (a
contract): suite, model, n, seed, memory, generator, simulated, started_at, finished_at;
baseline_runs (file) and baseline (ArmSummary on train); analyzed_tasks, divergent_tasks;
generated (guidelines written), added (ids stored as new), merged (ids of existing guidelines
a new one merged into), quarantined (ids the safety screen set aside); abstentions (a list of
{task_id, reason}: divergent tasks the generator wrote no guideline for); validations: a list of
{guideline_id, instruction, tasks, split, runs_file, baseline_all_n, with_all_n,
baseline_per_run, with_per_run, lift_points, per_run_lift_points, status, reason}; promoted,
retired, unvalidated (id lists); runs_made, max_runs, budget_exhausted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from oncourse.adapters.arms import (
    ArmRunner,
    RunSpec,
    memory_fingerprint,
    model_label,
    resolve_suite,
    suite_label,
)
from oncourse.adapters.arms import now as _now
from oncourse.adapters.evolve_models import (
    STATE_FILE,
    EvolveResult,
    GuidelineValidation,
    state_of,
    summary_lines,
)
from oncourse.adapters.learning import LearnAbstention
from oncourse.consistency.compare import arm_summary, compare_arms
from oncourse.consistency.errors import InputError, MemoryStoreError
from oncourse.consistency.guidelines import Guideline, GuidelineGenerator, NoGuideline
from oncourse.consistency.trajectory import Trajectory


def _phase(label: str, total: int, progress: bool) -> Any:
    """A rich progress bar on stderr for one phase (a no-op object when progress is off)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn(f"[bold]{label}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        disable=not progress,
        transient=False,
    )
    bar.start()
    task = bar.add_task(label, total=total)
    return bar, task


def _make_generator(generator: str | GuidelineGenerator, model: Any) -> GuidelineGenerator:
    if not isinstance(generator, str):
        return generator
    from oncourse.consistency.generators import make_generator

    if generator == "llm":
        from oncourse.adapters.models import get_model

        return make_generator("llm", model=get_model(model) if isinstance(model, str) else model)
    return make_generator(generator)


def _tool_names(suite: Any, task: Any) -> list[str]:
    return [t.name for t in suite.make_env(task).tools()]


class Evolver:
    """One evolve run: holds the settings, the store, the runner and the result so far."""

    def __init__(
        self,
        spec: RunSpec,
        memory_path: str | Path,
        out_dir: str | Path,
        generator: str | GuidelineGenerator = "contrastive",
        max_runs: int | None = None,
    ):
        from oncourse.memory.store import GuidelineMemory

        self.spec = spec.check()
        if max_runs is not None and max_runs < 1:
            raise InputError(f"--max-runs must be positive, got {max_runs}")
        suite, model, n = spec.suite, spec.model, spec.n
        self.suite_ref = suite
        self.suite = resolve_suite(suite)
        self.model = model
        self.n = n
        self.memory_path = memory_path
        self.memory = GuidelineMemory(self.memory_path)
        self.out_dir = Path(out_dir)
        self.generator = _make_generator(generator, model)
        self.max_runs = max_runs
        self.progress = spec.progress
        self.runner = ArmRunner(self.spec, out_dir=out_dir)
        # Guidelines are judged on tasks they were not learned from: the suite's validation
        # split when it has one (train only as a labelled fallback).
        self.validation_split = "validation" if self.suite.tasks("validation") else "train"
        self.result = EvolveResult(
            suite=suite_label(suite),
            model=model_label(model),
            n=n,
            seed=spec.seed,
            memory=str(memory_path),
            generator=str(getattr(self.generator, "name", type(self.generator).__name__)),
            simulated=False,
            started_at=_now(),
            max_runs=max_runs,
        )

    # -- state -----------------------------------------------------------------------------

    @property
    def state_path(self) -> Path:
        """Where the phase state is kept."""
        return self.out_dir / STATE_FILE

    def _save(self) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.state_path.with_suffix(".tmp")
        tmp.write_text(self.result.model_dump_json(indent=2) + "\n")
        tmp.replace(self.state_path)

    def _load(self, resume: bool) -> bool:
        """True when a previous evolve already generated guidelines (resume skips that)."""
        if not self.state_path.exists():
            return False
        if not resume:
            raise InputError(
                "an evolve state exists here; pass --resume to continue it or use another --out",
                path=str(self.state_path),
            )
        try:
            previous = EvolveResult.model_validate_json(self.state_path.read_text())
        except ValueError as exc:
            raise InputError(f"unreadable evolve state: {exc}", path=str(self.state_path)) from None
        mine = (self.result.suite, self.result.model, self.result.n, self.result.memory)
        if (previous.suite, previous.model, previous.n, previous.memory) != mine:
            raise InputError(
                "the evolve state was made with another suite, model, n or memory",
                path=str(self.state_path),
            )
        self.result = previous.model_copy(
            update={"started_at": self.result.started_at, "max_runs": self.max_runs}
        )
        return previous.analyzed_tasks > 0

    # -- phases ----------------------------------------------------------------------------

    def _budget_left(self) -> int | None:
        if self.max_runs is None:
            return None
        return self.max_runs - self.result.runs_made

    def _run(
        self, arm: str, task_ids: Sequence[str], split: str = "train", **kw: Any
    ) -> tuple[list[Trajectory], Path]:
        before = self.runner.runs_made
        trajs, path, _ = self.runner.run(arm, split, task_ids, **kw)
        self.result.runs_made += self.runner.runs_made - before
        self.result.simulated = self.result.simulated or any(t.meta.simulated for t in trajs)
        return trajs, path

    def baseline(self) -> list[Trajectory]:
        """Phase 1: N runs of every train task without memory (reused when on disk)."""
        task_ids = [t.task_id for t in self.suite.tasks("train")]
        if not task_ids:
            raise InputError(f"suite {self.result.suite} has no train tasks")
        left = self._budget_left()
        needed = self.runner.runs_missing("baseline", "train", task_ids)
        if left is not None and left < needed:
            raise InputError(
                f"--max-runs {self.max_runs} cannot cover the train baseline "
                f"({needed} runs still to make: {len(task_ids)} tasks x {self.n})"
            )
        trajs, path = self._run("baseline", task_ids)
        self.result.baseline_runs = str(path)
        self.result.baseline = arm_summary(trajs, k=self.n)
        return trajs

    def learn(self, baseline: list[Trajectory]) -> None:
        """Phases 2-4: analyze the baseline, generate guidelines, screen and store them."""
        from oncourse.consistency.analyzer import analyze_runs, group_runs

        analyses = analyze_runs(baseline)
        groups = group_runs(baseline)  # the generator reads the runs, as `learn` has it do
        divergent = [a for a in analyses if a.divergence is not None]
        self.result.analyzed_tasks = len(analyses)
        self.result.divergent_tasks = len(divergent)
        tasks = {t.task_id: t for t in self.suite.tasks("train")}
        bar, job = _phase("generate", len(divergent), self.progress)
        try:
            for analysis in divergent:
                tools = (
                    _tool_names(self.suite, tasks[analysis.task_id])
                    if analysis.task_id in tasks
                    else None
                )
                try:
                    written = self.generator.generate(analysis, groups.get(analysis.task_id, []))
                except NoGuideline as exc:
                    self.result.abstentions.append(
                        LearnAbstention(task_id=analysis.task_id, reason=exc.reason)
                    )
                    written = []
                for guideline in written:
                    self.result.generated += 1
                    self._store(guideline, tools)
                bar.advance(job)
        finally:
            bar.stop()

    def _store(self, guideline: Guideline, tools: list[str] | None) -> None:
        from oncourse.memory.admit import admit

        (admission,) = admit(self.memory, [guideline], status="proposed", allowed_tools=tools)
        target = {
            "added": self.result.added,
            "merged": self.result.merged,
            "quarantined": self.result.quarantined,
        }[admission.outcome]
        if admission.guideline.id not in target:
            target.append(admission.guideline.id)

    def retrieved_for(self, guideline: Guideline, scratch: Path) -> list[str]:
        """Validation tasks into which `guideline` would be injected next to the active ones."""
        from oncourse.memory.inject import inject

        return [
            task.task_id
            for task in self.suite.tasks(self.validation_split)
            if guideline.id
            in inject(
                _scratch_memory(self.memory, guideline, scratch),
                task.instruction,
                "",
                tools=_tool_names(self.suite, task),
            ).guideline_ids
        ]

    def validate(self, baseline: list[Trajectory]) -> None:
        """Phase 5: replay each proposed guideline's tasks; promote or retire it."""
        proposed = self.memory.all(status="proposed")
        bar, job = _phase("validate", len(proposed), self.progress)
        try:
            for guideline in proposed:
                verdict = self._validate_one(guideline, baseline)
                self.result.validations = [
                    v for v in self.result.validations if v.guideline_id != guideline.id
                ] + [verdict]
                self._save()
                bar.advance(job)
        finally:
            bar.stop()

    def _validate_one(
        self, guideline: Guideline, baseline: list[Trajectory]
    ) -> GuidelineValidation:
        scratch = self.out_dir / "validate" / f"{guideline.id}.sqlite"
        tasks = self.retrieved_for(guideline, scratch)
        split = self.validation_split
        verdict = GuidelineValidation(
            guideline_id=guideline.id,
            instruction=guideline.instruction,
            tasks=tasks,
            split=split,
            status="proposed",
            reason="",
        )
        if not tasks:
            verdict.reason = f"retrieved for no {split} task; left proposed"
            return verdict
        key, _ = memory_fingerprint(scratch)
        arm = f"validate-{guideline.id}"
        left = self._budget_left()
        needed = self.runner.runs_missing(arm, split, tasks, key)
        if split != "train":
            needed += self.runner.runs_missing("baseline", split, tasks)
        if left is not None and left < needed:
            self.result.budget_exhausted = True
            verdict.reason = f"run budget left ({left}) < {needed} runs needed; left proposed"
            return verdict
        if split == "train":
            base = [t for t in baseline if t.task_id in set(tasks)]
        else:
            base, _ = self._run("baseline", tasks, split)
        trajs, path = self._run(arm, tasks, split, memory_path=scratch, memory_key=key)
        cmp = compare_arms(base, trajs)
        self._count_outcomes(guideline.id, base, trajs)
        verdict.runs_file = str(path)
        verdict.baseline_all_n = cmp.baseline.all_n_rate
        verdict.with_all_n = cmp.candidate.all_n_rate
        verdict.baseline_per_run = cmp.baseline.per_run_rate
        verdict.with_per_run = cmp.candidate.per_run_rate
        verdict.lift_points = cmp.all_n_lift.points
        verdict.per_run_lift_points = cmp.per_run_lift.points
        change = (
            f"on its {len(tasks)} {split} task(s): all-{self.n} {cmp.baseline.all_n_rate:.0%} -> "
            f"{cmp.candidate.all_n_rate:.0%}, per-run {cmp.baseline.per_run_rate:.0%} -> "
            f"{cmp.candidate.per_run_rate:.0%}"
        )
        all_n, per_run = cmp.all_n_lift.points, cmp.per_run_lift.points
        if all_n < 0 or per_run < 0:
            self.memory.retire(guideline.id)
            verdict.status, verdict.reason = "retired", f"lowers {change}"
            self.result.retired.append(guideline.id)
            return verdict
        if all_n == 0 and per_run == 0:
            # A tie is no evidence: the guideline waits for more tasks instead of being promoted.
            verdict.reason = f"no paired change {change}; left proposed"
            return verdict
        tools = sorted({n for t in tasks for n in self._tools_of(t)})
        try:
            self.memory.activate(guideline.id, allowed_tools=tools)
        except MemoryStoreError as exc:
            verdict.status, verdict.reason = "quarantined", str(exc)
            self.result.quarantined.append(guideline.id)
            return verdict
        verdict.status = "active"
        verdict.reason = f"raises {change}"
        self.result.promoted.append(guideline.id)
        return verdict

    def _tools_of(self, task_id: str) -> list[str]:
        task = next(t for t in self.suite.tasks("all") if t.task_id == task_id)
        return _tool_names(self.suite, task)

    def _count_outcomes(
        self, guideline_id: str, base: list[Trajectory], with_it: list[Trajectory]
    ) -> None:
        for traj in base:
            self.memory.record_outcome(guideline_id, traj.success, injected=False)
        for traj in with_it:
            self.memory.record_outcome(guideline_id, traj.success, injected=True)

    def run(self, resume: bool = False) -> EvolveResult:
        """All phases, saving the state after each."""
        learned = self._load(resume)
        baseline = self.baseline()
        self._save()
        if not learned:
            self.learn(baseline)
            self._save()
        self.validate(baseline)
        decided = {v.guideline_id for v in self.result.validations if v.status != "proposed"}
        self.result.unvalidated = [
            g.id for g in self.memory.all(status="proposed") if g.id not in decided
        ]
        self.result.finished_at = _now()
        self._save()
        return self.result


def _scratch_memory(memory: Any, guideline: Guideline, path: Path) -> Any:
    """A store holding the active guidelines plus `guideline` (as active), for one validation."""
    from oncourse.memory.store import GuidelineMemory

    scratch = GuidelineMemory(path, embedder=memory.embedder)
    if path.exists() and guideline.id in scratch:
        return scratch
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(path.name + "*"):
        stale.unlink()
    scratch = GuidelineMemory(path, embedder=memory.embedder)
    chosen = [g for g in memory.all(status="active") if g.id != guideline.id]
    chosen.append(guideline)
    scratch.add_many([g.model_copy(update={"status": "active"}) for g in chosen], dedupe=False)
    return scratch


def evolve(
    suite: Any,
    model: Any,
    n: int,
    memory_path: str | Path,
    out_dir: str | Path,
    generator: str | GuidelineGenerator = "contrastive",
    max_runs: int | None = None,
    resume: bool = False,
    seed: int = 0,
    concurrency: int = 4,
    progress: bool = True,
    run_many: Callable[..., list[Trajectory]] | None = None,
) -> EvolveResult:
    """Baseline -> analyze -> generate -> screen -> add -> validate (see the module doc)."""
    spec = RunSpec.of(suite, model, n, seed, concurrency, progress, run_many)
    evolver = Evolver(spec, memory_path, out_dir, generator=generator, max_runs=max_runs)
    return evolver.run(resume=resume)


__all__ = [
    "STATE_FILE",
    "EvolveResult",
    "Evolver",
    "GuidelineValidation",
    "evolve",
    "state_of",
    "summary_lines",
]
