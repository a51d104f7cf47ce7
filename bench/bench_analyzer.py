"""Benchmark of the Consistency Analyzer on synthetic runs with planted forks.

Generates T tasks x N runs x L steps (default 10,000 x 5 x 30). About 60% of the tasks have mixed
outcomes with one planted fork: at step k the failing runs take another action (half of them also
continue on another path afterwards). Every task carries benign noise the analyzer must see
through: replies reworded per run, per-run booking ids returned by a write and used later, two
read-only lookups swapped in some runs, and an extra harmless lookup in one run of some tasks.

Reports wall and CPU time of `analyze_runs` (CPU time is the fairer figure on a shared machine),
peak memory (max RSS of the process, and the Python heap
peak of the analysis measured by tracemalloc in a separate smaller pass), and the share of planted
forks reported at the exact step (the step index in the run that reaches the fork first). Prints
one JSON line, with a calibration figure (seconds for a 10M-iteration Python loop; about 0.4-0.6 s
on an idle current CPU) so that times taken on a busy or slow machine can be compared.

    python bench/bench_analyzer.py [--tasks 10000] [--runs 5] [--steps 30] [--workers 2]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import scipy.stats  # noqa: E402, F401  (imported before timing: a one-off process cost)
from oncourse.consistency.analyzer import analyze_runs  # noqa: E402
from oncourse.consistency.trajectory import Action, Step, Trajectory  # noqa: E402

READS = ["get_order", "get_user", "search_items", "list_payments", "get_inventory"]
WRITES = ["update_order", "cancel_order", "refund_payment", "book_item", "set_address"]
MEANINGS = [
    f"{subject} {verb} {thing} number {i}."
    for i, (subject, verb, thing) in enumerate(
        (s, v, t)
        for s in ("Your order", "The refund", "The booking", "Your address", "The payment")
        for v in ("has been updated for", "is pending on", "was cancelled for", "now includes")
        for t in ("item", "account", "invoice")
    )
]
REWORDINGS = ["", "Sure! ", "Of course. ", "Certainly, ", "Thanks for waiting. "]


# Reply steps are built once per (meaning, wording) and shared by every run that uses them; so are
# the tool-call steps of a task's base path. The analyzer never relies on object identity; sharing
# only keeps generation time and the input's memory down.
REPLY_STEPS = [
    [
        Step.model_construct(
            action=Action.model_construct(tool="respond", args={"text": prefix + meaning}),
            observation="ok, go on",
        )
        for prefix in REWORDINGS
    ]
    for meaning in MEANINGS
]


def _call(tool: str, **args: object) -> Step:
    action = Action.model_construct(tool=tool, args=dict(args))
    return Step.model_construct(action=action, observation=f"{tool} result")


def _base_path(task: int, length: int, rng: random.Random) -> list[tuple[str, object]]:
    """Abstract steps: ("call", Step), ("reply", meaning), ("book", None), ("use_booking", None)."""
    out: list[tuple[str, object]] = []
    for k in range(length):
        roll = rng.random()
        if roll < 0.3:
            out.append(("reply", rng.randrange(len(MEANINGS))))
        elif roll < 0.75:
            out.append(
                ("read", _call(rng.choice(READS), id=f"T{task}-{k}", limit=rng.randint(1, 9)))
            )
        else:
            out.append(("write", _call(rng.choice(WRITES), id=f"T{task}-{k}", amount=k * 10)))
    if length >= 6:
        booked = rng.randrange(0, length - 3)
        out[booked] = ("book", None)
        out[booked + 2] = ("use_booking", None)
    return out


def _materialise(
    abstract: list[tuple[str, object]], run_seed: int, rng: random.Random
) -> list[Step]:
    steps: list[Step] = []
    booking = f"BK{run_seed:08d}"  # a per-run id, returned by the booking and used later
    for kind, payload in abstract:
        if kind == "reply":
            assert isinstance(payload, int)
            steps.append(REPLY_STEPS[payload][rng.randrange(len(REWORDINGS))])
        elif kind == "book":
            book = Action.model_construct(tool="book_item", args={"item": "widget", "qty": 2})
            obs = f'{{"booking": "{booking}"}}'
            steps.append(Step.model_construct(action=book, observation=obs))
        elif kind == "use_booking":
            use = Action.model_construct(
                tool="update_order", args={"booking": booking, "note_count": 1}
            )
            steps.append(Step.model_construct(action=use, observation="updated"))
        else:
            assert isinstance(payload, Step)
            steps.append(payload)
    return steps


def generate(
    n_tasks: int, n_runs: int, n_steps: int, seed: int = 0
) -> tuple[list[Trajectory], dict[str, int]]:
    """Synthetic runs and the planted divergence step of every mixed task."""
    rng = random.Random(seed)
    trajs: list[Trajectory] = []
    planted: dict[str, int] = {}
    for t in range(n_tasks):
        task_id = f"task-{t}"
        base = _base_path(t, n_steps, rng)
        mixed = rng.random() < 0.6
        if mixed:
            n_success = rng.randint(1, n_runs - 1)
        else:
            n_success = n_runs if rng.random() < 0.5 else 0
        outcomes = [r < n_success for r in range(n_runs)]
        rng.shuffle(outcomes)
        fork_at = rng.randrange(n_steps)
        new_tail = rng.random() < 0.5
        # Benign noise: swapped lookups in some runs, an extra lookup in one run.
        swap_at = rng.randrange(n_steps - 1) if rng.random() < 0.3 else -1
        extra_run = rng.randrange(n_runs) if rng.random() < 0.3 else -1
        extra_at = rng.randrange(n_steps)
        starts: list[int] = []
        wrong = _call(WRITES[(t + 1) % len(WRITES)], id=f"T{t}-wrong", amount=-1)
        alt_tail = {k: _call("get_help", id=f"T{t}-alt-{k}") for k in range(fork_at + 1, n_steps)}
        extra = _call("get_user", id=f"T{t}-extra")
        for r, success in enumerate(outcomes):
            path = list(base)
            if mixed and not success:
                path[fork_at] = ("write", wrong)
                if new_tail:
                    for k in range(fork_at + 1, n_steps):
                        if path[k][0] in ("book", "use_booking"):
                            continue
                        path[k] = ("read", alt_tail[k])
            if (
                swap_at >= 0
                and r % 2 == 1
                and path[swap_at][0] == "read"
                and path[swap_at + 1][0] == "read"
                and swap_at != fork_at
                and swap_at + 1 != fork_at
            ):
                path[swap_at], path[swap_at + 1] = path[swap_at + 1], path[swap_at]
            shift = 0
            if r == extra_run:
                path.insert(extra_at, ("read", extra))
                shift = 1 if extra_at <= fork_at else 0
            starts.append(fork_at + shift)
            steps = _materialise(path, rng.randrange(10**8), rng)
            trajs.append(
                Trajectory.model_construct(
                    task_id=task_id,
                    run_id=f"{task_id}:{r}",
                    success=success,
                    steps=steps,
                    task=f"Synthetic task {t}",
                )
            )
        if mixed:
            planted[task_id] = min(starts)
    return trajs, planted


def _calibration_s() -> float:
    """Seconds for 10 million integer additions in a Python loop: how fast this CPU is now."""
    t0 = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - t0


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (the forked workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--heap-tasks", type=int, default=1000, help="tasks in the tracemalloc pass"
    )
    args = parser.parse_args()

    t0 = time.perf_counter()
    gc.disable()  # millions of small objects, no cycles: collections would walk them all
    trajs, planted = generate(args.tasks, args.runs, args.steps, args.seed)
    gc.enable()
    gen_s = time.perf_counter() - t0
    rss_before = _max_rss_mb()

    times, cpus, calibrations = [], [], []
    analyses = []
    for _ in range(args.repeats):
        calibrations.append(_calibration_s())
        cpu0 = _cpu_s()
        t0 = time.perf_counter()
        analyses = analyze_runs(trajs, workers=args.workers)
        times.append(time.perf_counter() - t0)
        cpus.append(_cpu_s() - cpu0)
    rss_after = _max_rss_mb()

    by_task = {a.task_id: a for a in analyses}
    exact = sum(
        1
        for tid, step in planted.items()
        if by_task[tid].divergence is not None and by_task[tid].divergence.step == step
    )
    found = sum(1 for tid in planted if by_task[tid].divergence is not None)
    unmixed = [a for a in analyses if a.task_id not in planted]
    false_div = sum(1 for a in unmixed if a.divergence is not None)

    # Python heap of the analysis alone, on a slice (tracemalloc slows allocation a lot).
    heap_n = min(args.heap_tasks, args.tasks) * args.runs
    tracemalloc.start()
    analyze_runs(trajs[:heap_n], workers=1)
    _, heap_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    print(
        json.dumps(
            {
                "calibration_10M_loop_s": [round(x, 2) for x in calibrations],
                "tasks": args.tasks,
                "runs": args.runs,
                "steps": args.steps,
                "total_steps": sum(len(t.steps) for t in trajs),
                "workers": args.workers,
                "embedder": "lexical",
                "wall_s_median": round(statistics.median(times), 3),
                "wall_s_all": [round(x, 3) for x in times],
                "cpu_s_median": round(statistics.median(cpus), 3),
                "cpu_s_all": [round(x, 3) for x in cpus],
                "generate_s": round(gen_s, 2),
                "max_rss_mb_after_generation": round(rss_before, 1),
                "max_rss_mb_after_analysis": round(rss_after, 1),
                "analysis_heap_peak_mb_per_1000_tasks": round(
                    heap_peak / 2**20 * 1000 / max(1, heap_n // args.runs), 1
                ),
                "planted_forks": len(planted),
                "found": found,
                "exact_step": exact,
                "exact_share": round(exact / max(1, len(planted)), 4),
                "unmixed_tasks_with_divergence": false_div,
            }
        )
    )


if __name__ == "__main__":
    main()
