"""Harness overhead per run with the simulated model, and the end-to-end `oncourse demo` time.

Overhead of a run = its wall time (`meta.duration_s`, measured by the agent loop) minus the time
spent inside the model's `complete` for that run; it is the loop, the environment, the memory
retrieval (when a memory is given) and the trajectory building. The model is wrapped so every
call's time is booked to the run's seed (each run has its own derived seed). Reported as
medians (and means) over runs, at concurrency 1 and 8, plus the throughput of `run_many` (runs
per second of wall time, which also covers thread scheduling and the JSONL writes). With more
threads than cores a run's wall time includes waiting for a core, so at concurrency 8 on a
2-core machine the per-run figures grow and throughput is the figure to read.

    .venv/bin/python bench/bench_harness.py [--n 3] [--memory PATH] [--skip-demo]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from oncourse.adapters.models import get_model  # noqa: E402
from oncourse.adapters.runner import run_many  # noqa: E402


class TimedModel:
    """Wraps a chat model and books the time of each call to the run's seed."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.provider = inner.provider
        self.simulated = inner.simulated
        self.by_seed: dict[int, float] = defaultdict(float)
        self.calls = 0
        self._lock = threading.Lock()

    def complete(self, messages, tools, settings):
        start = time.perf_counter()
        try:
            return self.inner.complete(messages, tools, settings)
        finally:
            spent = time.perf_counter() - start
            with self._lock:
                self.by_seed[settings.seed] += spent
                self.calls += 1


def measure(concurrency: int, n: int, memory: str | None) -> dict[str, float]:
    """Run every mini-apps task n times; return median overhead, model time and throughput."""
    model = TimedModel(get_model("simulated"))
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        runs = run_many(
            "mini-apps",
            model,
            n,
            "all",
            Path(tmp) / "runs.jsonl",
            memory_path=memory,
            concurrency=concurrency,
            progress=False,
        )
        wall = time.perf_counter() - start
    timed = [r for r in runs if r.meta.duration_s is not None]  # harness errors have none
    overhead = [r.meta.duration_s - model.by_seed[r.meta.seed] for r in timed]
    model_time = [model.by_seed[r.meta.seed] for r in timed]
    return {
        "runs": len(runs),
        "harness_errors": sum(1 for r in runs if r.error and r.error.kind == "harness_error"),
        "overhead_ms": 1000 * statistics.median(overhead),
        "overhead_mean_ms": 1000 * statistics.fmean(overhead),
        "model_ms": 1000 * statistics.median(model_time),
        "model_mean_ms": 1000 * statistics.fmean(model_time),
        "steps": statistics.median(len(r.steps) for r in runs),
        "runs_per_s": len(runs) / wall,
        "wall_s": wall,
    }


def demo_time() -> float:
    """Wall time of a fresh `oncourse demo` (default N = 5) in a temporary directory."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "oncourse.adapters.cli", "demo",
             "--out", str(Path(tmp) / "demo")],
            cwd=REPO,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=3, help="runs per task (60 tasks)")
    parser.add_argument("--memory", help="a guideline store to inject from (e.g. a demo's)")
    parser.add_argument("--skip-demo", action="store_true", help="do not time the demo")
    args = parser.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, "
        f"{len(os.sched_getaffinity(0))} CPUs available, python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    # Warm the imports and the embedding model so the first measurement is not a cold start.
    measure(1, 1, args.memory)
    for label, memory in [("no memory", None)] + ([("memory", args.memory)] if args.memory else []):
        for concurrency in (1, 8):
            r = measure(concurrency, args.n, memory)
            print(
                f"{label:>9}, concurrency {concurrency}: {r['runs']} runs, harness overhead "
                f"median {r['overhead_ms']:.1f} ms/run (mean {r['overhead_mean_ms']:.1f}), "
                f"model time median {r['model_ms']:.1f} ms/run (mean {r['model_mean_ms']:.1f}), "
                f"{r['steps']:.0f} steps/run, "
                f"{r['runs_per_s']:.1f} runs/s ({r['wall_s']:.1f} s wall), "
                f"{r['harness_errors']} harness errors"
            )
    if not args.skip_demo:
        print(f"oncourse demo (fresh, N = 5): {demo_time():.0f} s end to end")


if __name__ == "__main__":
    main()
