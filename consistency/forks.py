"""Fork detection and outcome contrast over an aligned set of runs.

A fork is an aligned column where runs take different actions (a run with no step there is its
own branch). Each fork gets its branches with their success rates and an exact test of branch
against outcome:

- two branches: Fisher's exact test on the 2x2 table branch x outcome (two-sided);
- more branches: the branches are ranked by success rate and every cut into "higher" and "lower"
  groups is tried; the cut that classifies the most runs correctly (ties: the smaller p) is the
  reported split, and its 2x2 Fisher p-value is the fork's p-value. It is not corrected for the
  cuts tried: read it as a description, not a proof (with 4 runs no p-value is below 0.25).

A fork is *benign* when every branch has the same success rate, *separating* when its best split
classifies more runs correctly than guessing the majority outcome, else *inconclusive*. Its kind
is `action` when some run makes a tool call there that another run never makes, `lookup` when the
only call is one read that the other runs skip (an extra lookup changes nothing), `shift` when
every run makes those calls but at different points (order or timing), `text` when only replies
or notes differ. The divergence step is chosen among separating forks: `action`, then `lookup`,
`shift`, `text` (in real runs replies are reworded at almost every step, and a reply that means
something else is weaker evidence than a different tool call), then the best split, then the
earliest column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np
from oncourse.consistency.align import Alignment
from oncourse.consistency.canonical import CanonicalTask, observation_text
from oncourse.consistency.stats import fisher_exact_2x2
from oncourse.consistency.trajectory import Action, Trajectory
from pydantic import BaseModel, Field

NO_STEP = "(no step)"
"""Tool name of the branch of runs that have no step at a fork's column."""

ForkKind = Literal["action", "lookup", "shift", "text"]
ForkEffect = Literal["benign", "separating", "inconclusive"]


class Branch(BaseModel):
    """One alternative at a fork: the action and the runs that took it."""

    action: Action = Field(description="The action taken (as recorded in the first such run).")
    runs: list[str] = Field(description="Run ids of the runs that took this branch.")
    successes: int = Field(description="How many of those runs succeeded.")
    success_rate: float = Field(description="successes / len(runs).")
    steps: list[int] = Field(description="Step index of the action in each run (-1: no step).")


class Fork(BaseModel):
    """An aligned column where the runs of a task take different actions."""

    step: int = Field(description="0-based step index in the run that reaches the column first.")
    column: int = Field(description="Index of the aligned column.")
    kind: ForkKind = Field(
        description="action: tool calls differ; lookup: one extra read only; shift: the others "
        "make the same calls at another point; text: only replies/notes differ."
    )
    effect: ForkEffect = Field(description="benign, separating or inconclusive (see module doc).")
    branches: list[Branch] = Field(description="The alternatives, best success rate first.")
    p_value: float = Field(description="Two-sided Fisher exact p of the best split vs outcome.")
    separation: float = Field(description="Share of runs the best split classifies correctly.")
    context_driven: bool = Field(
        default=False,
        description="The observation right before the fork (user or tool) differs by branch.",
    )


class ObservationAt(BaseModel):
    """What a run saw just before a fork (the information it chose on)."""

    run_id: str = Field(description="The run.")
    step: int = Field(description="Index of the step whose observation this is (-1: none).")
    tool: str | None = Field(description="Tool of that step.")
    observation: str = Field(description="The observation text, shortened to a limit.")


class ForkContext(BaseModel):
    """What a guideline writer needs to know about a fork."""

    task: str = Field(description="The task's instruction text.")
    preceding_observations: list[ObservationAt] = Field(
        description="Per branch (its first run), the last non-empty observation before the fork."
    )
    shared_prefix: list[Action] = Field(
        description="Actions before the fork in the run that reaches it first (last ones kept)."
    )
    alternatives: list[Action] = Field(description="The action of every branch, in branch order.")
    thoughts: list[str | None] = Field(
        default_factory=list, description="Per branch, the reasoning recorded at the fork step."
    )


class Divergence(Fork):
    """The fork chosen as the task's divergence step, with its context."""

    context: ForkContext = Field(description="Instruction, preceding observations, alternatives.")
    perfect: bool = Field(description="True when every branch is all-success or all-failure.")


_KIND_RANK = {"action": 0, "lookup": 1, "shift": 2, "text": 3}


@dataclass(slots=True)
class RawFork:
    """A fork before it is turned into a model (most forks never are)."""

    column: int
    step: int
    kind: ForkKind
    effect: ForkEffect
    groups: list[list[int]]
    """Run indices per branch, best success rate first."""
    successes: list[int]
    p_value: float
    separation: float
    blank: tuple[int, ...] = ()
    """Indices of groups that decided nothing there (no step, or only a note): no action."""


@lru_cache(maxsize=4096)
def fisher_p(a: int, b: int, c: int, d: int) -> float:
    """Two-sided Fisher exact p-value of the 2x2 table [[a, b], [c, d]] (cached)."""
    return fisher_exact_2x2(a, b, c, d)


def best_split(sizes: Sequence[int], successes: Sequence[int]) -> tuple[float, float, int]:
    """Best cut of branches (sorted by rate, best first) into higher/lower outcome groups.

    Returns:
        (separation, p_value, cut): the share of runs the split classifies correctly, its
        Fisher p, and how many leading branches form the higher group (0 when all rates tie).
    """
    n = sum(sizes)
    total_s = sum(successes)
    best = (max(total_s, n - total_s) / n if n else 0.0, 1.0, 0)
    high_n = high_s = 0
    for cut in range(1, len(sizes)):
        high_n += sizes[cut - 1]
        high_s += successes[cut - 1]
        if successes[cut - 1] * sizes[cut] == successes[cut] * sizes[cut - 1]:
            continue  # equal rates: no cut between them
        low_n, low_s = n - high_n, total_s - high_s
        sep = (high_s + (low_n - low_s)) / n
        p = fisher_p(high_s, high_n - high_s, low_s, low_n - low_s)
        tie = abs(sep - best[0]) < 1e-12
        if sep > best[0] + 1e-12 or (tie and (best[2] == 0 or p < best[1])):
            best = (sep, p, cut)
    return best


def raw_forks(
    canon: CanonicalTask, alignment: Alignment, outcomes: Sequence[bool]
) -> list[RawFork]:
    """Every fork of an aligned task, in column order, with its outcome contrast."""
    matrix = alignment.matrix
    if matrix.shape[1] == 0 or matrix.shape[0] < 2:
        return []
    differs = np.nonzero((matrix != matrix[0]).any(axis=0))[0]
    if differs.size == 0:
        return []
    n = len(outcomes)
    n_success = sum(outcomes)
    baseline = max(n_success, n - n_success) / n
    text = canon.sig_is_text
    row_sets = [set(row) for row in matrix.tolist()]
    out: list[RawFork] = []
    for column in differs.tolist():
        cells = matrix[:, column].tolist()
        by_sig: dict[int, list[int]] = {}
        for r, sig in enumerate(cells):
            by_sig.setdefault(sig, []).append(r)
        kind = _kind(by_sig, text, canon.sig_is_read, row_sets)
        groups = list(by_sig.values())
        succ = [sum(outcomes[r] for r in g) for g in groups]
        order = sorted(range(len(groups)), key=lambda i: (-succ[i] / len(groups[i]), groups[i][0]))
        groups = [groups[i] for i in order]
        succ = [succ[i] for i in order]
        separation, p_value, cut = best_split([len(g) for g in groups], succ)
        if cut == 0:
            effect: ForkEffect = "benign"
        elif separation > baseline + 1e-12:
            effect = "separating"
        else:
            effect = "inconclusive"
        step = _first_step(canon, alignment, column, cells)
        out.append(RawFork(column, step, kind, effect, groups, succ, p_value, separation))
    return out


def _kind(
    by_sig: dict[int, list[int]],
    text: Sequence[bool],
    read: Sequence[bool],
    rows: list[set[int]],
) -> ForkKind:
    """Classify a fork (see the module doc for the kinds)."""
    calls = [sig for sig in by_sig if sig >= 0 and not text[sig]]
    if not calls:
        return "text"
    if len(calls) == 1 and read[calls[0]] and -1 in by_sig:
        return "lookup"
    for sig in calls:
        if not all(sig in rows[r] for r in range(len(rows))):
            return "action"
    # Every run makes each of these calls somewhere: the runs differ in when, not whether.
    return "shift"


def _first_step(canon: CanonicalTask, alignment: Alignment, column: int, cells: list[int]) -> int:
    best = -1
    for r, sig in enumerate(cells):
        if sig < 0:
            continue
        step = canon.runs[r].order[alignment.position(r, column)]
        if best < 0 or step < best:
            best = step
    return best


def choose_divergence(forks: Sequence[RawFork]) -> RawFork | None:
    """The divergence fork: separating; tool-call forks first, then best split, then earliest."""
    candidates = [f for f in forks if f.effect == "separating"]
    if not candidates:
        return None
    return min(candidates, key=lambda f: (_KIND_RANK[f.kind], -f.separation, f.column))


def _step_at(canon: CanonicalTask, alignment: Alignment, run: int, column: int) -> int:
    pos = alignment.position(run, column)
    return canon.runs[run].order[pos] if pos >= 0 else -1


def build_fork(
    raw: RawFork,
    runs: Sequence[Trajectory],
    run_ids: Sequence[str],
    canon: CanonicalTask,
    alignment: Alignment,
) -> Fork:
    """Turn a raw fork into its model (actions as recorded, run ids)."""
    return Fork.model_construct(**_fork_fields(raw, runs, run_ids, canon, alignment))


def _fork_fields(
    raw: RawFork,
    runs: Sequence[Trajectory],
    run_ids: Sequence[str],
    canon: CanonicalTask,
    alignment: Alignment,
) -> dict[str, Any]:
    branches = []
    for index, (group, succ) in enumerate(zip(raw.groups, raw.successes, strict=True)):
        steps = [_step_at(canon, alignment, r, raw.column) for r in group]
        first = steps[0]
        if first >= 0 and index not in raw.blank:
            action = runs[group[0]].steps[first].action
        else:
            action = Action(tool=NO_STEP)
        branches.append(
            Branch.model_construct(
                action=action,
                runs=[run_ids[r] for r in group],
                successes=succ,
                success_rate=succ / len(group),
                steps=steps,
            )
        )
    return {
        "step": raw.step,
        "column": raw.column,
        "kind": raw.kind,
        "effect": raw.effect,
        "branches": branches,
        "p_value": raw.p_value,
        "separation": raw.separation,
        "context_driven": False,
    }


def _clip(value: Any, limit: int) -> str:
    text = observation_text(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def build_divergence(
    raw: RawFork,
    runs: Sequence[Trajectory],
    run_ids: Sequence[str],
    canon: CanonicalTask,
    alignment: Alignment,
    *,
    observation_chars: int = 2000,
    prefix_steps: int = 30,
    context_driven: bool = False,
) -> Divergence:
    """Turn the chosen fork into a divergence report with the context a guideline needs."""
    fields = _fork_fields(raw, runs, run_ids, canon, alignment)
    fields["context_driven"] = context_driven
    preceding: list[ObservationAt] = []
    thoughts: list[str | None] = []
    for group, branch in zip(raw.groups, fields["branches"], strict=True):
        r = group[0]
        run = runs[r]
        at = branch.steps[0]
        before = at - 1 if at >= 0 else _last_step_before(canon, alignment, r, raw.column)
        # Notes (`think`) and similar steps return nothing: show the last thing the run saw.
        while before >= 0 and run.steps[before].observation in (None, ""):
            before -= 1
        if before >= 0:
            step = run.steps[before]
            preceding.append(
                ObservationAt(
                    run_id=run_ids[r],
                    step=before,
                    tool=step.action.tool,
                    observation=_clip(step.observation, observation_chars),
                )
            )
        else:
            preceding.append(ObservationAt(run_id=run_ids[r], step=-1, tool=None, observation=""))
        thoughts.append(run.steps[at].thought if at >= 0 else None)
    first_run = min(
        (r for g in raw.groups for r in g if _step_at(canon, alignment, r, raw.column) == raw.step),
        default=raw.groups[0][0],
    )
    prefix_end = raw.step if raw.step >= 0 else len(runs[first_run].steps)
    prefix = [s.action for s in runs[first_run].steps[:prefix_end]][-prefix_steps:]
    task = next((run.task for run in runs if run.task), "")
    context = ForkContext(
        task=task,
        preceding_observations=preceding,
        shared_prefix=prefix,
        alternatives=[b.action for b in fields["branches"]],
        thoughts=thoughts,
    )
    perfect = all(s in (0, len(g)) for g, s in zip(raw.groups, raw.successes, strict=True))
    return Divergence.model_construct(**fields, context=context, perfect=perfect)


def _last_step_before(canon: CanonicalTask, alignment: Alignment, run: int, column: int) -> int:
    cols = alignment.columns[run]
    order = canon.runs[run].order
    best = -1
    for pos, col in enumerate(cols):
        if col >= column:
            break
        best = max(best, order[pos])
    return best


__all__ = [
    "NO_STEP",
    "Branch",
    "Divergence",
    "Fork",
    "ForkContext",
    "ObservationAt",
    "RawFork",
    "best_split",
    "build_divergence",
    "build_fork",
    "choose_divergence",
    "fisher_p",
    "raw_forks",
]
