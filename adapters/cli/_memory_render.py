"""Terminal output of `oncourse memory`: a table of guidelines, one guideline in full.

Guideline texts, ids and task ids come from users' runs: printed literally (escaped or
markup=False), never read as rich markup.
"""

from __future__ import annotations

from oncourse.adapters.cli._console import esc, out_console
from oncourse.consistency.guidelines import Guideline
from rich.table import Table


def listing(guidelines: list[Guideline], similarities: list[float] | None = None) -> Table:
    """One row per guideline: id, status, (cosine), source tasks, times injected, instruction."""
    table = Table()
    table.add_column("id")
    table.add_column("status")
    if similarities is not None:
        table.add_column("cosine", justify="right")
    table.add_column("tasks")
    table.add_column("injected", justify="right")
    table.add_column("instruction")
    for i, g in enumerate(guidelines):
        cells = [esc(g.id), g.status]
        if similarities is not None:
            cells.append(f"{similarities[i]:.2f}")
        tasks = esc(", ".join(g.source_tasks()))
        cells += [tasks, str(g.counters.injected), esc(g.instruction)]
        table.add_row(*cells)
    return table


def print_listing(guidelines: list[Guideline], similarities: list[float] | None = None) -> None:
    """Print the table of `listing`."""
    out_console(soft_wrap=False).print(listing(guidelines, similarities))


def show_text(guideline: Guideline) -> None:
    """A guideline in full: trigger, instruction, reason, scope, counters, provenance."""
    out = out_console(soft_wrap=False)
    out.print(f"{guideline.id} ({guideline.status})", style="bold", markup=False)
    out.print(f"When: {guideline.trigger}", highlight=False, markup=False)
    out.print(f"Do:   {guideline.instruction}", highlight=False, markup=False)
    if guideline.rationale:
        out.print(f"Why:  {guideline.rationale}", highlight=False, markup=False)
    scope = guideline.scope
    out.print(
        f"Scope: families {scope.families or 'any'}; tools {scope.tools or 'any'}", highlight=False
    )
    for reason in guideline.quarantine_reasons:
        out.print(f"Quarantined: {reason}", style="yellow", highlight=False, markup=False)
    c = guideline.counters
    out.print(
        f"Injected {c.injected} times; with it {c.outcomes_with.successes}/"
        f"{c.outcomes_with.runs} passed, without {c.outcomes_without.successes}/"
        f"{c.outcomes_without.runs}",
        highlight=False,
        markup=False,
    )
    for p in guideline.provenance:
        rates = ", ".join(f"{k}: {v:.0%}" for k, v in p.branch_success_rates.items())
        out.print(
            f"From tasks {p.source_tasks} step {p.fork_step} by {p.generator}"
            f"{' (' + p.model + ')' if p.model else ''} at {p.created_at}; branches {rates}",
            highlight=False,
            markup=False,
        )


def print_one(guideline: Guideline, verb: str) -> None:
    """`<id> <verb>: <instruction>` after a change of status."""
    print(f"{guideline.id} {verb}: {guideline.instruction}")
