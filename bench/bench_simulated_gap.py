"""The simulated model's consistency gap on mini-apps: per-run vs all-N, measured and expected.

Runs the real agent loop (`adapters.agent.run_agent`) with `SimulatedModel` on one split of the
built-in suite, N runs per task (seeds 0..N-1), and prints the per-run rate, the all-N rate and
their gap. With `--seeds M` (M > N) it also runs M seeds per task and prints the *expected*
per-run and all-N rates (the unbiased estimate C(c, N) / C(M, N) per task), which are what the
N-run figures scatter around. With `--memory PATH` the same runs are made with that guideline
memory injected (memory.inject.memory_hook), for a paired comparison.

    .venv/bin/python bench/bench_simulated_gap.py --split train --n 5 --seeds 40

All figures come from the simulated model: a mechanism check, not an LLM result.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from math import comb
from typing import Any

from oncourse.adapters.agent import run_agent
from oncourse.adapters.models.simulated import SimulatedModel
from oncourse.adapters.suites import load_suite


def _run_split(
    suite: Any, split: str, seeds: int, hook: Any = None
) -> tuple[dict[str, list[bool]], list[float]]:
    model = SimulatedModel()
    outcomes: dict[str, list[bool]] = defaultdict(list)
    durations: list[float] = []
    for task in suite.tasks(split):
        for seed in range(seeds):
            env = suite.make_env(task)
            start = time.perf_counter()
            traj = run_agent(
                model,
                env,
                task,
                system_prompt=suite.system_prompt,
                memory_hook=hook,
                seed=seed,
                max_steps=15,
            )
            durations.append(time.perf_counter() - start)
            outcomes[task.task_id].append(traj.success)
    return outcomes, durations


def _rates(outcomes: dict[str, list[bool]], n: int) -> dict[str, float]:
    """Per-run rate over the first n runs, and pass^n per task: C(c, n) / C(m, n) over m runs."""
    per_run = statistics.mean(sum(r[:n]) / n for r in outcomes.values())
    all_n = statistics.mean(all(r[:n]) for r in outcomes.values())
    expected_per_run = statistics.mean(sum(r) / len(r) for r in outcomes.values())
    expected_all_n = statistics.mean(comb(sum(r), n) / comb(len(r), n) for r in outcomes.values())
    return {
        "per_run": per_run,
        "all_n": all_n,
        "gap": per_run - all_n,
        "expected_per_run": expected_per_run,
        "expected_all_n": expected_all_n,
        "expected_gap": expected_per_run - expected_all_n,
    }


def _by_family(outcomes: dict[str, list[bool]], n: int) -> dict[str, str]:
    families: dict[str, list[str]] = defaultdict(list)
    for task_id, runs in outcomes.items():
        families[task_id.split(".")[0]].append(f"{sum(runs[:n])}/{n}")
    return {family: " ".join(cells) for family, cells in families.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="mini-apps")
    parser.add_argument("--split", default="train")
    parser.add_argument("--n", type=int, default=5, help="runs per task for the measured rates")
    parser.add_argument("--seeds", type=int, default=0, help="runs per task for expected rates")
    parser.add_argument("--memory", default=None, help="guideline memory to inject (paired arm)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    suite = load_suite(args.suite)
    seeds = max(args.n, args.seeds)
    arms: dict[str, Any] = {"baseline": None}
    if args.memory:
        from oncourse.memory.inject import memory_hook
        from oncourse.memory.store import GuidelineMemory

        arms["memory"] = memory_hook(GuidelineMemory(args.memory), record=False)
    report: dict[str, Any] = {
        "model": "simulated",
        "simulated": True,
        "suite": args.suite,
        "split": args.split,
        "n": args.n,
        "seeds": seeds,
    }
    for arm, hook in arms.items():
        start = time.perf_counter()
        outcomes, durations = _run_split(suite, args.split, seeds, hook)
        rates = _rates(outcomes, args.n)
        report[arm] = {
            **{k: round(v, 4) for k, v in rates.items()},
            "tasks": len(outcomes),
            "wall_s": round(time.perf_counter() - start, 2),
            "median_run_ms": round(1000 * statistics.median(durations), 2),
            "families": _by_family(outcomes, args.n),
        }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"SIMULATED model on {args.suite}/{args.split}: {report['baseline']['tasks']} tasks, "
        f"N={args.n}" + (f", expected rates over {seeds} seeds" if seeds > args.n else "")
    )
    for arm in arms:
        r = report[arm]
        line = (
            f"  {arm:8s} per-run {100 * r['per_run']:5.1f}%  all-{args.n} "
            f"{100 * r['all_n']:5.1f}%  gap {100 * r['gap']:5.1f} pts"
        )
        if seeds > args.n:
            line += (
                f"   | expected per-run {100 * r['expected_per_run']:5.1f}%  all-{args.n} "
                f"{100 * r['expected_all_n']:5.1f}%  gap {100 * r['expected_gap']:5.1f} pts"
            )
        print(line + f"   ({r['wall_s']} s, median run {r['median_run_ms']} ms)")
        for family, cells in r["families"].items():
            print(f"      {family:28s} {cells}")


if __name__ == "__main__":
    main()
