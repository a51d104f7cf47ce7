"""`oncourse demo`: the whole loop on the built-in `mini-apps` suite, offline by default.

baseline on train -> evolve (analyze, contrastive guidelines, validate on replay) -> eval on
train, heldout and heldout-novel (baseline vs memory, paired) -> terminal summary and the HTML
report. With `--model openai:...` or `--model anthropic:...` the same loop runs on a provider.
Re-running with the same `--out` reuses every run already made.

`--json` keys (a contract): label (the SIMULATED notice or null), suite, model, n, seed,
out, memory, elapsed_s, html_report, evolve (the `oncourse evolve --json` object) and eval
(the `oncourse eval --json` object).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from oncourse.adapters.cli._console import esc
from oncourse.adapters.cli._json import print_json
from oncourse.adapters.cli._params import writable_dir

DEMO_SUITE = "mini-apps"
DEMO_SPLITS = ("train", "heldout", "heldout-novel")


def run_demo(
    model: str = "simulated",
    out: str | Path = "oncourse-demo",
    n: int = 5,
    seed: int = 0,
    concurrency: int = 2,
    progress: bool = True,
) -> dict[str, Any]:
    """Run the loop and return the `--json` object (with `EvolveResult`/`EvalResult` inside)."""
    from oncourse.adapters.evaluation import run_eval, write_eval_report
    from oncourse.adapters.evolve import evolve
    from oncourse.consistency.analyzer import analyze_runs

    started = time.monotonic()
    out_dir = Path(out)
    memory = out_dir / "memory.sqlite"
    evolved = evolve(
        DEMO_SUITE,
        model,
        n,
        memory,
        out_dir,
        generator="contrastive",
        resume=True,
        seed=seed,
        concurrency=concurrency,
        progress=progress,
    )
    result = run_eval(
        DEMO_SUITE,
        model,
        n,
        memory,
        out_dir,
        splits=DEMO_SPLITS,
        seed=seed,
        concurrency=concurrency,
        progress=progress,
        html=False,
    )
    # The report shows the memory-arm runs of every split and the divergences the guidelines
    # were learned from (the train baseline's).
    from oncourse.adapters.importers import read_jsonl_trajectories

    memory_runs = [
        t for ev in result.splits.values() for t in read_jsonl_trajectories(ev.memory_runs)
    ]
    baseline_train = list(read_jsonl_trajectories(evolved.baseline_runs))
    result.html_report = str(
        write_eval_report(
            result, memory_runs, memory, out_dir, analyses=analyze_runs(baseline_train)
        )
    )
    simulated = result.simulated or evolved.simulated
    return {
        "label": "SIMULATED model — a mechanism check, not an LLM result" if simulated else None,
        "suite": DEMO_SUITE,
        "model": model,
        "n": n,
        "seed": seed,
        "out": str(out_dir),
        "memory": str(memory),
        "elapsed_s": round(time.monotonic() - started, 1),
        "html_report": result.html_report,
        "evolve": evolved,
        "eval": result,
    }


def print_demo(demo: dict[str, Any]) -> None:
    """The terminal summary: label, what evolve learned, the eval tables, the report path."""
    from oncourse.adapters.cli.cmd_eval import effects_table, output_width, rates_table
    from oncourse.adapters.evolve import summary_lines
    from rich.console import Console

    out = Console(soft_wrap=True, highlight=False, width=output_width())
    if demo["label"]:
        out.print(f"[bold yellow]{demo['label']}[/]")
    out.print(
        f"oncourse demo: suite {demo['suite']}, model {demo['model']}, N = {demo['n']}, "
        f"seed {demo['seed']}"
    )
    out.print("[bold]Learning on train (evolve)[/]")
    for line in summary_lines(demo["evolve"]):
        out.print(f"  {line}")
    result = demo["eval"]
    out.print(rates_table(result))
    out.print(effects_table(result))
    for split, ev in result.splits.items():
        for harmed in ev.harmed:
            ids = ", ".join(harmed.guidelines) or "no guideline"
            out.print(esc(f"  harmed in {split}: {harmed.task_id} (injected: {ids})"))
    out.print(
        "Intervals treat tasks as independent; repeats of a task are not. McNemar counts tasks "
        "that became all-N (won) or stopped being all-N (lost) with memory.",
        style="dim",
    )
    out.print(f"Took {demo['elapsed_s']:.0f} s. HTML report: {demo['html_report']}")


def demo(
    model: Annotated[
        str, typer.Option("--model", help="simulated (offline), openai:MODEL, anthropic:MODEL.")
    ] = "simulated",
    out: Annotated[
        Path,
        typer.Option("--out", callback=writable_dir, help="Directory for runs, memory and report."),
    ] = Path("oncourse-demo"),
    n: Annotated[int, typer.Option("--n", help="Runs per task per arm.")] = 5,
    seed: Annotated[int, typer.Option("--seed", help="Base seed.")] = 0,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Parallel runs.")] = 2,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The whole loop offline: baseline, evolve, eval on unseen splits, summary and report."""
    result = run_demo(model, out, n, seed, concurrency)
    if as_json:
        print_json(
            {
                **result,
                "evolve": result["evolve"].model_dump(mode="json"),
                "eval": result["eval"].model_dump(mode="json"),
            }
        )
    else:
        print_demo(result)


def register(app: typer.Typer) -> None:
    """Add `demo` to the CLI."""
    app.command("demo")(demo)
