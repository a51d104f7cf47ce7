"""`oncourse demo`: the whole loop on the built-in `mini-apps` suite, offline by default.

See `adapters/demo.py` for what runs. `--json` prints `DemoResult` (a contract): label (the
SIMULATED notice or null), suite, model, n, seed, out, memory, controls, elapsed_s,
html_report, evolve (the `oncourse evolve --json` object) and eval (the `oncourse eval --json`
object).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from oncourse.adapters.cli._console import esc
from oncourse.adapters.cli._json import JsonOption, print_result
from oncourse.adapters.cli._params import writable_dir


def print_demo(demo: Any) -> None:
    """The terminal summary: label, what evolve learned, the eval tables, the verdicts."""
    from oncourse.adapters.demo import verdict_lines
    from oncourse.adapters.eval_print import effects_table, harm_lines, output_width, rates_table
    from oncourse.adapters.evolve import summary_lines
    from rich.console import Console

    out = Console(soft_wrap=True, highlight=False, width=output_width())
    if demo.label:
        out.print(f"[bold yellow]{demo.label}[/]")
    out.print(
        f"oncourse demo: suite {demo.suite}, model {demo.model}, N = {demo.n}, seed {demo.seed}"
    )
    out.print("[bold]Learning on train, validating on the validation split (evolve)[/]")
    for line in summary_lines(demo.evolve):
        out.print(f"  {line}")
    out.print(rates_table(demo.eval))
    out.print(effects_table(demo.eval))
    for line in harm_lines(demo.eval) + verdict_lines(demo.eval):
        out.print(esc(line))
    out.print(
        "Ranges resample tasks; the placebo injects generic advice of the same length on the "
        "same tasks with the same triggers. 'helped' needs memory above the placebo (sign test "
        "on per-task per-run rates, p < 0.05) with no all-N loss.",
        style="dim",
    )
    out.print(f"Took {demo.elapsed_s:.0f} s. HTML report: {demo.html_report}")


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
    controls: Annotated[
        str, typer.Option("--controls", help="Control arms: placebo, shuffled or none.")
    ] = "placebo",
    as_json: JsonOption = False,
) -> None:
    """The whole loop offline: evolve on train, eval vs baseline and placebo, summary, report."""
    from oncourse.adapters.controls import parse_controls
    from oncourse.adapters.demo import run_demo

    result = run_demo(model, out, n, seed, concurrency, controls=parse_controls(controls))
    print_result(result, as_json, print_demo)


def register(app: typer.Typer) -> None:
    """Add `demo` to the CLI."""
    app.command("demo")(demo)
