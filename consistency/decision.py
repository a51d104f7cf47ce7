"""Rank the forks of a task with mixed outcomes and find its decision point.

With few repeats many steps separate passes from failures perfectly (with one passing run,
every difference in it does), so the earliest separating fork is often a reworded reply, a note
or a calculation. Here each fork is looked at for what differs there:

- runs are grouped per column by what they decided: the same tool call; a reply with the same
  decision (`decision_words.main_decision`: refuse, confirm, ask, transfer, done, inform) or the
  same meaning; a scratch call (`tool_kinds`) or no step at all count alike (nothing decided);
- a candidate is a column whose groups separate passes from failures better than the majority
  guess; it is weighed by kind (a write, then a deciding reply, then a read, then a reply that
  differs only in meaning), by how well it separates, and marked `context_driven` when the
  observation right before it (what the user or a tool said) differs in meaning between branches;
- the consequence is the earliest separating fork where a write differs (a call some run never
  makes; the same write made at another point is no difference); from there the analysis
  traces back through the earlier columns where the same runs already split the same way (no
  group mixes the two sides of the consequence's split): the earliest of them is the decision
  point. When the consequence is a write only failing runs make and the user's answer right
  before it differs, the decision is the reply that proposed it (a `confirm` reply at a fork);
- without a consequence, the best-weighed candidate is the decision point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from oncourse.consistency._columns import (
    _NOTHING,
    CandidateKind,
    ColumnSplit,
    ReplyMeaning,
    _Cells,
    _context_driven,
    _failed,
    _preceding,
    _reply_text,
    _same_way,
    _settled,
    _split,
)
from oncourse.consistency.align import Alignment
from oncourse.consistency.canonical import CanonicalTask, TextClusterer
from oncourse.consistency.decision_words import main_decision
from oncourse.consistency.forks import RawFork
from oncourse.consistency.tool_kinds import ToolKind
from oncourse.consistency.trajectory import Trajectory
from pydantic import BaseModel, Field

MAX_CANDIDATES = 12
"""Candidates listed per task: the decision, the consequence, then the best-weighed others."""

_BASE: dict[str, float] = {"write": 3.0, "reply": 2.0, "read": 1.0, "text": 0.5}


class Candidate(BaseModel):
    """A fork weighed as a possible decision point (what `analyze --json` shows was weighed)."""

    step: int = Field(description="0-based step index in the run that reaches the column first.")
    column: int = Field(description="Index of the aligned column.")
    kind: CandidateKind = Field(description="What differs: write, reply (decision), read, text.")
    score: float = Field(description="Weight: kind, separation, minus context-driven penalty.")
    why: str = Field(description="One line: what the branches did and how they ended.")
    context_driven: bool = Field(description="The observation before it differs by branch.")
    role: Literal["decision", "consequence", "candidate"] = Field(
        default="candidate", description="decision point, consequence, or only weighed."
    )


@dataclass(slots=True)
class DecisionPoint:
    """What `find_decision` found: the ranked candidates, the decision and its consequence."""

    candidates: list[Candidate] = field(default_factory=list)
    decision: ColumnSplit | None = None
    consequence: ColumnSplit | None = None


def _why(split: ColumnSplit) -> str:
    parts = [
        f"{label}: {s}/{len(g)} passed"
        for label, g, s in zip(split.labels, split.groups, split.successes, strict=True)
    ]
    text = f"{split.kind} fork; " + "; ".join(parts)
    if split.context_driven:
        text += "; the observation before it differs between branches"
    return text


def _score(split: ColumnSplit) -> float:
    perfect = all(s in (0, len(g)) for g, s in zip(split.groups, split.successes, strict=True))
    value = _BASE[split.kind] + split.separation + (0.5 if perfect else 0.0)
    return round(value - (1.0 if split.context_driven else 0.0), 3)


def find_decision(
    runs: Sequence[Trajectory],
    canon: CanonicalTask,
    alignment: Alignment,
    outcomes: Sequence[bool],
    forks: Sequence[RawFork],
    kinds: Mapping[str, ToolKind],
    texts: TextClusterer,
    meaning: ReplyMeaning | None = None,
) -> DecisionPoint:
    """Rank the forks of a mixed task and pick its decision point and consequence.

    `texts` compares the observations before a fork; `meaning` the replies at a fork (default:
    `texts` too).
    """
    n = len(outcomes)
    meaning = meaning if meaning is not None else ReplyMeaning(texts)
    cells = _Cells(runs, canon, alignment, kinds, meaning)
    meaning.texts.prefetch(cells.reply_texts(f.column for f in forks))
    rows = [set(row) for row in alignment.matrix.tolist()]
    baseline = max(sum(outcomes), n - sum(outcomes)) / n
    splits: dict[int, ColumnSplit] = {}
    for fork in forks:
        split = _split(cells, fork.column, outcomes, rows)
        if len(split.groups) > 1:
            splits[fork.column] = split
    separating = [
        s for s in splits.values() if s.cut and s.separation > baseline + 1e-12 and not s.by_subject
    ]
    # A fork after which every run makes the same write is not where the runs parted, when
    # they part later; when they never part, what differs is what they were told.
    # (They stay listed as weighed, with that note.)
    unsettled = [s for s in separating if s.kind == "write" or not _settled(cells, s)]
    choosable = unsettled or separating
    # One batch for every observation compared below (a model embeds far faster in batches).
    texts.prefetch(
        [
            _preceding(cells, r, split.column)[1]
            for split in separating
            for g in split.groups
            for r in g[:1]
        ]
    )
    for split in separating:
        split.context_driven = _context_driven(cells, split, texts)
    out = DecisionPoint()
    consequence = min(
        (s for s in choosable if s.kind == "write"), key=lambda s: s.column, default=None
    )
    decision: ColumnSplit | None = None
    why: dict[int, str] = {
        s.column: "every run then made the same write" for s in separating if s not in choosable
    }
    if consequence is not None:
        decision = _behind(cells, consequence, splits, outcomes, rows, texts, why)
    elif choosable:
        decision = max(choosable, key=lambda s: (_score(s), -s.column))
    if decision is not None and decision.context_driven is None:
        decision.context_driven = _context_driven(cells, decision, texts)
    out.consequence = consequence
    out.decision = decision
    ranked = sorted(separating, key=lambda s: (-_score(s), s.column))
    if decision is not None:
        ranked = [decision, *(s for s in ranked if s.column != decision.column)]
    if consequence is not None and consequence not in ranked[:MAX_CANDIDATES]:
        ranked.insert(1, consequence)
    ranked = ranked[:MAX_CANDIDATES]
    for split in ranked:
        role: Literal["decision", "consequence", "candidate"] = "candidate"
        if decision is not None and split.column == decision.column:
            role = "decision"
        elif consequence is not None and split.column == consequence.column:
            role = "consequence"
        note = why.get(split.column)
        out.candidates.append(
            Candidate(
                step=split.step,
                column=split.column,
                kind=split.kind,
                score=_score(split),
                why=_why(split) + (f"; {note}" if note else ""),
                context_driven=bool(split.context_driven),
                role=role,
            )
        )
    return out


def _behind(
    cells: _Cells,
    consequence: ColumnSplit,
    splits: dict[int, ColumnSplit],
    outcomes: Sequence[bool],
    rows: list[set[int]],
    texts: TextClusterer,
    why: dict[int, str],
) -> ColumnSplit:
    """The decision behind a consequence: traced back, the proposal, or the question asked."""
    decision = _trace_back(cells, consequence, splits, len(outcomes))
    if decision is not consequence:
        why[decision.column] = "the same runs already split the same way here"
    proposal = _proposal(cells, consequence, decision, outcomes, rows, texts)
    if proposal is not None:
        why[proposal.column] = "the reply that proposed the consequence's write"
        return proposal
    if decision is consequence:
        asked = _asked_first(cells, consequence, outcomes, rows, texts)
        if asked is not None:
            why[asked.column] = "one side asked the user first, the other acted"
            return asked
    return decision


def _trace_back(
    cells: _Cells,
    consequence: ColumnSplit,
    splits: dict[int, ColumnSplit],
    n_runs: int,
) -> ColumnSplit:
    """The earliest column before the consequence, in an unbroken chain, that splits alike."""
    high = {r for g in consequence.groups[: consequence.cut] for r in g}
    best = consequence
    for column in range(consequence.column - 1, -1, -1):
        split = splits.get(column)
        if split is None:
            keys = {cells.key(r, column) for r in range(n_runs)}
            if keys == {_NOTHING}:
                continue  # only notes or calculations here: nothing was decided
            break  # every run did the same: the split comes later
        # Stop where only one side has a step: the chain of evidence breaks there (jumping over
        # such gaps finds splits that match the outcomes by chance, with few runs).
        if not _same_way(cells, split, high) or split.kind == "text" or _settled(cells, split):
            break
        best = split
    return best


def _context_driven_sides(
    cells: _Cells, consequence: ColumnSplit, texts: TextClusterer
) -> tuple[list[int], list[int]] | None:
    """The consequence's higher and lower runs when it is context-driven; None when it is not."""
    if consequence.context_driven is None:
        consequence.context_driven = _context_driven(cells, consequence, texts)
    if not consequence.context_driven:
        return None
    high = [r for g in consequence.groups[: consequence.cut] for r in g]
    low = [r for g in consequence.groups[consequence.cut :] for r in g]
    return high, low


def _proposal(
    cells: _Cells,
    consequence: ColumnSplit,
    decision: ColumnSplit,
    outcomes: Sequence[bool],
    all_rows: list[set[int]],
    texts: TextClusterer,
) -> ColumnSplit | None:
    """The fork of the `confirm` reply that led a failing run to a write no passing run made."""
    if decision is not consequence:
        return None
    sides = _context_driven_sides(cells, consequence, texts)
    if sides is None:
        return None
    high, low = sides
    sigs = cells.alignment.matrix[:, consequence.column].tolist()
    rows = [set(cells.alignment.matrix[r].tolist()) for r in high]
    # A write that some failing run made and no passing run ever made.
    writer = next(
        (
            r
            for r in low
            if cells.key(r, consequence.column)[0] == "write"
            and not any(sigs[r] in row for row in rows)
        ),
        None,
    )
    if writer is None:
        return None
    at = cells.step(writer, consequence.column)
    run = cells.runs[writer]
    for i in range(at - 1, -1, -1):
        kind = cells.kind(writer, i)
        if kind in ("scratch", "read") or _failed(run.steps[i]):
            continue  # nothing decided, or a call that changed nothing
        if kind != "reply" or main_decision(_reply_text(run, i)) != "confirm":
            return None
        pos = cells.canon.runs[writer].order.index(i)
        column = cells.alignment.columns[writer][pos]
        split = _split(cells, column, outcomes, all_rows)
        rates = [s / len(g) for g, s in zip(split.groups, split.successes, strict=True)]
        mine = next(rate for g, rate in zip(split.groups, rates, strict=True) if writer in g)
        if len(split.groups) < 2 or mine >= max(rates):
            return None  # the proposal does not tell the writer's runs from the others
        split.context_driven = _context_driven(cells, split, texts)
        return split
    return None


_QUESTIONS = ("ask", "confirm")


def _asked_before(cells: _Cells, r: int, column: int) -> int | None:
    """The column of run r's question to the user right before its step at `column`, if any.

    Notes, lookups and failed calls in between are skipped; any other step means the run acted
    (or answered) without asking first.
    """
    at = cells.step(r, column)
    run = cells.runs[r]
    for i in range(at - 1, -1, -1):
        kind = cells.kind(r, i)
        if kind in ("scratch", "read") or _failed(run.steps[i]):
            continue
        if kind == "reply" and main_decision(_reply_text(run, i)) in _QUESTIONS:
            pos = cells.canon.runs[r].order.index(i)
            return cells.alignment.columns[r][pos]
        return None
    return None


def _asked_first(
    cells: _Cells,
    consequence: ColumnSplit,
    outcomes: Sequence[bool],
    all_rows: list[set[int]],
    texts: TextClusterer,
) -> ColumnSplit | None:
    """Ask vs act: one side asked the user a question right before the consequence's step.

    The other side took its step there without asking, so the user's answer (which makes the
    consequence look context-driven) only exists on the asking side: the decision is the
    question, at a column where the other side has no question.
    """
    sides = _context_driven_sides(cells, consequence, texts)
    if sides is None:
        return None
    high, low = sides
    for side, other in ((high, low), (low, high)):
        present = [r for r in side if cells.step(r, consequence.column) >= 0]
        if len(present) < len(side) or not present:
            continue
        columns = {_asked_before(cells, r, consequence.column) for r in side}
        if None in columns or len(columns) != 1:
            continue
        if any(
            cells.step(r, consequence.column) >= 0
            and _asked_before(cells, r, consequence.column) is not None
            for r in other
        ):
            continue
        column = next(iter(columns))
        if column is None:
            continue
        # Ask vs assume: the other side made the same call without asking (another call there,
        # or none, is another decision, not the same one taken without a question).
        def tool(r: int) -> str:
            return cells.runs[r].steps[cells.step(r, consequence.column)].action.tool

        acted = [r for r in other if cells.step(r, consequence.column) >= 0]
        if not acted or {tool(r) for r in acted} - {tool(r) for r in side}:
            continue
        keys = {cells.key(r, column) for r in side}
        if keys & {cells.key(r, column) for r in other}:
            continue
        split = _split(cells, column, outcomes, all_rows)
        split.context_driven = _context_driven(cells, split, texts)
        return split if not split.context_driven else None
    return None


def as_raw_fork(split: ColumnSplit, raw: RawFork | None) -> RawFork:
    """The split as a fork (its groups as branches), keeping the column's fork kind."""
    n = sum(len(g) for g in split.groups)
    n_success = sum(split.successes)
    baseline = max(n_success, n - n_success) / n if n else 0.0
    if split.cut == 0:
        effect = "benign"
    elif split.separation > baseline + 1e-12:
        effect = "separating"
    else:
        effect = "inconclusive"
    return RawFork(
        column=split.column,
        step=split.step,
        kind=raw.kind if raw is not None else "text",
        effect=effect,  # type: ignore[arg-type]
        groups=split.groups,
        successes=split.successes,
        p_value=split.p_value,
        separation=split.separation,
        blank=split.blank,
    )


__all__ = [
    "Candidate",
    "CandidateKind",
    "ColumnSplit",
    "MAX_CANDIDATES",
    "DecisionPoint",
    "ReplyMeaning",
    "as_raw_fork",
    "find_decision",
]
