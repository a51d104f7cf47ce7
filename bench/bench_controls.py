"""Does the instrument tell a right lesson from a wrong one and from a placebo? (simulated)

Hand-written plain-English guidelines (bench/data/handwritten_guidelines.jsonl) and their
inversions (bench/data/inverted_guidelines.jsonl) are imported with `oncourse memory import`
into two stores; `oncourse eval` then runs baseline, placebo and memory on the held-out split
of mini-apps (templates and entities never seen in train) with the same seeds. Reported, in
points: placebo minus baseline, memory minus baseline, memory minus placebo, for per-run and
all-N rates, and whether each acceptance threshold of issue 10 holds:

    placebo:   |per-run| <= 4 and |all-N| <= 6 (both stores' placebo arms)
    correct:   per-run >= +5 and all-N above placebo
    inverted:  per-run <= -5

    python bench/bench_controls.py [--n 5] [--seed 0] [--out /tmp/bench-controls] [--json]

Everything here runs the simulated model: the figures are simulated, a mechanism check.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "bench" / "data"
SETS = {"correct": "handwritten_guidelines.jsonl", "inverted": "inverted_guidelines.jsonl"}
THRESHOLDS = {
    "placebo_per_run_abs": 4.0,
    "placebo_all_n_abs": 6.0,
    "correct_per_run_min": 5.0,
    "inverted_per_run_max": -5.0,
}


def _import(jsonl: Path, store: Path) -> None:
    """Import guidelines exactly as a user would: the `oncourse memory import` command."""
    cmd = [sys.executable, "-m", "oncourse.adapters.cli", "memory", "import", str(jsonl)]
    done = subprocess.run(
        [*cmd, "--memory", str(store)], capture_output=True, text=True, cwd=REPO, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"memory import failed: {done.stderr.strip()}")


def measure(
    out: Path, n: int = 5, seed: int = 0, concurrency: int = 2, split: str = "heldout"
) -> dict[str, Any]:
    """Run the two stores' evals and return the lifts (points) and threshold checks."""
    from oncourse.adapters.arms import RunSpec
    from oncourse.adapters.evaluation import run_eval

    spec = RunSpec(
        suite="mini-apps", model="simulated", n=n, seed=seed, concurrency=concurrency,
        progress=False,
    )  # fmt: skip
    rows: dict[str, Any] = {}
    for name, file in SETS.items():
        store = out / f"{name}.sqlite"
        if not store.exists():
            _import(DATA / file, store)
        result = run_eval(
            spec, memory_path=store, out_dir=out / name, splits=[split], controls=["placebo"],
            html=False,
        )  # fmt: skip
        ev = result.splits[split]
        placebo = ev.controls["placebo"]
        rows[name] = {
            "tasks": ev.tasks,
            "tasks_with_injection": ev.tasks_with_injection,
            "baseline_per_run": 100 * ev.baseline.per_run_rate,
            "baseline_all_n": 100 * ev.baseline.all_n_rate,
            "placebo_per_run_lift": 100 * (placebo.arm.per_run_rate - ev.baseline.per_run_rate),
            "placebo_all_n_lift": 100 * (placebo.arm.all_n_rate - ev.baseline.all_n_rate),
            "memory_per_run_lift": ev.per_run_lift.points,
            "memory_all_n_lift": ev.all_n_lift.points,
            "memory_vs_placebo_per_run": placebo.per_run_lift.points,
            "memory_vs_placebo_all_n": placebo.all_n_lift.points,
            "sign_test_p": placebo.sign_test.p_value,
            "helped": placebo.helped,
            "harmed_beyond_noise": ev.harmed_beyond_noise,
        }
    c, i = rows["correct"], rows["inverted"]
    checks = {
        "placebo_small": all(
            abs(r["placebo_per_run_lift"]) <= THRESHOLDS["placebo_per_run_abs"]
            and abs(r["placebo_all_n_lift"]) <= THRESHOLDS["placebo_all_n_abs"]
            for r in rows.values()
        ),
        "correct_raises_per_run": c["memory_per_run_lift"] >= THRESHOLDS["correct_per_run_min"],
        "correct_all_n_above_placebo": c["memory_vs_placebo_all_n"] > 0,
        "inverted_lowers_per_run": i["memory_per_run_lift"] <= THRESHOLDS["inverted_per_run_max"],
    }
    return {"simulated": True, "n": n, "seed": seed, "split": split, "sets": rows, "checks": checks}


def main() -> None:
    """Parse the flags, measure, print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-controls-"))
    report = measure(out, args.n, args.seed, args.concurrency)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"SIMULATED — held-out split of mini-apps, N = {args.n}, seed {args.seed}, runs in {out}")
    head = f"{'set':<9}{'placebo':>18}{'memory':>18}{'mem-placebo':>18}{'sign p':>8}"
    print(head + "\n" + f"{'':<9}{'per-run / all-N':>18}{'per-run / all-N':>18}" * 1)
    for name, r in report["sets"].items():
        cells = [
            f"{r['placebo_per_run_lift']:+.1f} / {r['placebo_all_n_lift']:+.1f}",
            f"{r['memory_per_run_lift']:+.1f} / {r['memory_all_n_lift']:+.1f}",
            f"{r['memory_vs_placebo_per_run']:+.1f} / {r['memory_vs_placebo_all_n']:+.1f}",
        ]
        print(f"{name:<9}{cells[0]:>18}{cells[1]:>18}{cells[2]:>18}{r['sign_test_p']:>8.2g}")
    for check, ok in report["checks"].items():
        print(f"  {'PASS' if ok else 'FAIL'}  {check}")


if __name__ == "__main__":
    main()
