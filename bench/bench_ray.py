"""Throughput of `run_many` with local threads vs Ray tasks, at 1, 2 and 4 workers.

The model is `delayed:SECONDS:simulated`: the simulated agent's replies after a fixed wait per
call (200 ms by default), so the numbers measure scheduling and transport, not this machine's
CPU. W workers means W threads (`--backend local --concurrency W`) or a local Ray instance with
W CPUs and W runs in flight (`--backend ray --concurrency W`). Ray is started before the clock
and warmed up with one batch (worker processes spawned, oncourse imported), so the figures are
the steady state; Ray's start-up is reported on its own. Each setting is timed `--repeats` times
and the median is reported.

    python bench/bench_ray.py                      # 6 tasks x 2 runs, 200 ms a call
    python bench/bench_ray.py --workers 1 2 4 --tasks 6 --n 2 --delay 0.2 --repeats 3 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from oncourse.adapters.runner import run_many
from oncourse.adapters.suites import load_suite

SUITE = "mini-apps"


def _timed_batch(
    backend: str, workers: int, model: str, tasks: list[str], n: int, out: Path
) -> tuple[float, int, int]:
    """(seconds, runs, model calls) of one `run_many` into a new file."""
    started = time.perf_counter()
    runs = run_many(
        SUITE,
        model,
        n,
        "train",
        out,
        concurrency=workers,
        progress=False,
        task_ids=tasks,
        backend=backend,
    )
    elapsed = time.perf_counter() - started
    calls = sum(len(r.steps) for r in runs)
    return elapsed, len(runs), calls


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Median seconds per setting, with runs/s and Ray's overhead per run."""
    import ray

    tasks = [t.task_id for t in load_suite(SUITE).tasks("train")][: args.tasks]
    model = f"delayed:{args.delay}:simulated"
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-ray-") as tmp:
        folder = Path(tmp)
        counter = iter(range(10**6))

        def out() -> Path:
            return folder / f"{next(counter)}.jsonl"

        _timed_batch("local", 1, model, tasks[:1], 1, out())  # warm-up: imports, first calls
        for workers in args.workers:
            local = [
                _timed_batch("local", workers, model, tasks, args.n, out())
                for _ in range(args.repeats)
            ]
            started = time.perf_counter()
            ray.init(
                address="local", num_cpus=workers, include_dashboard=False, logging_level="WARNING"
            )
            startup = time.perf_counter() - started
            try:
                _timed_batch("ray", workers, model, tasks[:workers], 1, out())  # warm-up
                remote = [
                    _timed_batch("ray", workers, model, tasks, args.n, out())
                    for _ in range(args.repeats)
                ]
            finally:
                ray.shutdown()
            runs, calls = local[0][1], local[0][2]
            local_s = statistics.median(t for t, _, _ in local)
            ray_s = statistics.median(t for t, _, _ in remote)
            rows.append(
                {
                    "workers": workers,
                    "runs": runs,
                    "model_calls": calls,
                    "local_s": round(local_s, 3),
                    "ray_s": round(ray_s, 3),
                    "local_runs_per_s": round(runs / local_s, 3),
                    "ray_runs_per_s": round(runs / ray_s, 3),
                    "ray_over_local_throughput": round(local_s / ray_s, 3),
                    "ray_overhead_ms_per_run": round(1000 * (ray_s - local_s) / runs * workers, 1),
                    "ray_startup_s": round(startup, 1),
                }
            )
            print(json.dumps(rows[-1]), file=sys.stderr)
    base = {r["workers"]: r for r in rows}
    first = rows[0]
    for row in rows:
        row["local_speedup_vs_first"] = round(first["local_s"] / row["local_s"], 2)
        row["ray_speedup_vs_first"] = round(first["ray_s"] / row["ray_s"], 2)
    return {
        "simulated": True,
        "suite": SUITE,
        "model": model,
        "tasks": len(tasks),
        "n": args.n,
        "repeats": args.repeats,
        "rows": [base[w] for w in args.workers],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--tasks", type=int, default=6)
    parser.add_argument("--n", type=int, default=2)
    parser.add_argument("--delay", type=float, default=0.2, help="Seconds per model call.")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"simulated model, {args.delay * 1000:.0f} ms a call; {result['tasks']} tasks x "
        f"{args.n} runs; median of {args.repeats}"
    )
    print("workers  local runs/s  ray runs/s  ray/local  ray overhead ms/run  ray start s")
    for row in result["rows"]:
        print(
            f"{row['workers']:>7}  {row['local_runs_per_s']:>12.2f}  {row['ray_runs_per_s']:>10.2f}"
            f"  {row['ray_over_local_throughput']:>9.2f}  {row['ray_overhead_ms_per_run']:>19.1f}"
            f"  {row['ray_startup_s']:>11.1f}"
        )


if __name__ == "__main__":
    main()
