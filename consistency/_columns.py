"""The runs of a mixed task, column by column: what each run decided there, and how they split.

Helpers of `decision`: a reply is keyed by its decision word and, within one word, by its
subject (`ReplyMeaning`); a call by its signature; a scratch call or no step by nothing. A column
split groups the runs by that key and says how well it separates passes from failures, and
whether the branches saw different things right before it (context-driven).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from oncourse.consistency.align import Alignment
from oncourse.consistency.canonical import CanonicalTask, TextClusterer, observation_text
from oncourse.consistency.decision_words import main_decision
from oncourse.consistency.forks import best_split
from oncourse.consistency.tool_kinds import FAILED_RESULT, ToolKind
from oncourse.consistency.trajectory import Step, Trajectory

CandidateKind = Literal["write", "reply", "read", "text"]

_CONTEXT_CHARS = 240
_NOTHING = ("-",)


@dataclass(slots=True)
class ColumnSplit:
    """The runs of one column grouped by what they decided there."""

    column: int
    step: int
    kind: CandidateKind
    groups: list[list[int]]
    """Run indices per group, best success rate first."""
    successes: list[int]
    separation: float
    p_value: float
    cut: int
    labels: list[str]
    blank: tuple[int, ...]
    """Groups that decided nothing here (no step, or only a note)."""
    writes_differ: bool
    context_driven: bool | None = None
    by_subject: bool = False
    """Only the subject of replies with the same decision word tells the groups apart: a link
    in the trace-back's chain, never a candidate on its own."""


class ReplyMeaning:
    """Tells replies that decide alike by their words apart when they talk of other things.

    Two replies in one column may both `confirm` while one proposes the change the user asked
    for and the other answers a side question ("yes, a gift card works, once you have the
    booking"). Within a decision, replies whose cosine lies `UNRELATED_MARGIN` or more below the
    embedder's same-meaning threshold are different decisions; paraphrases and replies on one
    subject (which score from about the threshold down to 0.2 below it) stay together.
    """

    UNRELATED_MARGIN = 0.3

    def __init__(self, texts: TextClusterer, clean: Callable[[str, Any], str] | None = None):
        self.texts = texts
        self.clean = clean
        self.related = texts.threshold - self.UNRELATED_MARGIN

    def text(self, run: Trajectory, step: int) -> str:
        """The reply's text as the embedder saw it."""
        action = run.steps[step].action
        if self.clean is not None:
            cleaned = self.clean(action.tool, action.args)
            if cleaned:
                return cleaned
        return _reply_text(run, step)

    def topics(self, texts: Sequence[str]) -> list[int]:
        """A topic number per text (leader clustering at the related threshold, in order)."""
        leaders: list[str] = []
        out: list[int] = []
        for text in texts:
            hit = next(
                (
                    i
                    for i, lead in enumerate(leaders)
                    if self.texts.similarity(text, lead) >= self.related
                ),
                None,
            )
            if hit is None:
                hit = len(leaders)
                leaders.append(text)
            out.append(hit)
        return out


class _Cells:
    """Per run and column: the step there and the key of what was decided."""

    def __init__(
        self,
        runs: Sequence[Trajectory],
        canon: CanonicalTask,
        alignment: Alignment,
        kinds: Mapping[str, ToolKind],
        meaning: ReplyMeaning | None = None,
    ):
        self.runs, self.canon, self.alignment, self.kinds = runs, canon, alignment, kinds
        self.meaning = meaning
        self._topics: dict[int, dict[int, int]] = {}

    def reply_texts(self, columns: Iterable[int]) -> list[str]:
        """The texts of the replies in these columns (to embed them in one batch)."""
        if self.meaning is None:
            return []
        out = []
        for column in columns:
            for r in range(len(self.runs)):
                step = self.step(r, column)
                if step >= 0 and self.kind(r, step) == "reply":
                    out.append(self.meaning.text(self.runs[r], step))
        return out

    def topic(self, r: int, column: int) -> int:
        """Which of the column's reply subjects run r's reply is on (0 without a comparer)."""
        if self.meaning is None:
            return 0
        topics = self._topics.get(column)
        if topics is None:
            topics = self._topics[column] = {}
            by_decision: dict[str, list[int]] = {}
            for run in range(len(self.runs)):
                step = self.step(run, column)
                if step >= 0 and self.kind(run, step) == "reply":
                    decision = main_decision(_reply_text(self.runs[run], step))
                    by_decision.setdefault(decision, []).append(run)
            for decision, members in by_decision.items():
                # Replies that decide nothing (greetings, facts) are not told apart by subject.
                if len(members) < 2 or decision == "inform":
                    topics.update({m: 0 for m in members})
                    continue
                texts = [self.meaning.text(self.runs[m], self.step(m, column)) for m in members]
                topics.update(zip(members, self.meaning.topics(texts), strict=True))
        return topics.get(r, 0)

    def step(self, r: int, column: int) -> int:
        pos = self.alignment.position(r, column)
        return self.canon.runs[r].order[pos] if pos >= 0 else -1

    def kind(self, r: int, step: int) -> ToolKind:
        return self.kinds.get(self.runs[r].steps[step].action.tool, "write")

    def key(self, r: int, column: int) -> tuple[object, ...]:
        step = self.step(r, column)
        if step < 0:
            return _NOTHING
        kind = self.kind(r, step)
        if kind == "scratch":
            return _NOTHING
        if kind == "reply":
            decision = main_decision(_reply_text(self.runs[r], step))
            return ("reply", decision, self.topic(r, column))
        return (kind, int(self.alignment.matrix[r, column]))

    def label(self, r: int, column: int) -> str:
        step = self.step(r, column)
        if step < 0:
            return "no step"
        tool = self.runs[r].steps[step].action.tool
        kind = self.kind(r, step)
        if kind == "reply":
            return f"reply ({main_decision(_reply_text(self.runs[r], step))})"
        return f"{tool} ({kind})"


def _failed(step: Step) -> bool:
    return step.error is not None or bool(FAILED_RESULT.match(observation_text(step.observation)))


def _reply_text(run: Trajectory, step: int) -> str:
    args = run.steps[step].action.args
    text = args.get("text") or args.get("content")
    return text if isinstance(text, str) else observation_text(args)


def _split(
    cells: _Cells, column: int, outcomes: Sequence[bool], rows: list[set[int]]
) -> ColumnSplit:
    n = len(outcomes)
    keys = [cells.key(r, column) for r in range(n)]
    sigs = cells.alignment.matrix[:, column].tolist()
    # Replies group by the decision they show, calls by their signature: two replies in one
    # meaning cluster may still decide opposite things ("I can" / "I can't" issue it).
    by_key: dict[tuple[object, ...], list[int]] = {}
    for r in range(n):
        by_key.setdefault(keys[r], []).append(r)
    groups = list(by_key.values())
    succ = [sum(outcomes[r] for r in g) for g in groups]
    order = sorted(range(len(groups)), key=lambda i: (-succ[i] / len(groups[i]), groups[i][0]))
    groups, succ = [groups[i] for i in order], [succ[i] for i in order]
    separation, p_value, cut = best_split([len(g) for g in groups], succ)
    kinds = {keys[g[0]][0] for g in groups}
    writes_differ = any(
        keys[g[0]][0] == "write" and not all(sigs[g[0]] in row for row in rows) for g in groups
    )
    decisions = {keys[g[0]][1] for g in groups if keys[g[0]][0] == "reply"}
    kind: CandidateKind
    by_subject = False
    if writes_differ:
        kind = "write"
    elif "reply" in kinds and (len(decisions) > 1 or (decisions - {"inform"} and "-" in kinds)):
        kind = "reply"
    elif kinds & {"read", "write"}:
        kind = "read"  # lookups differ, or the same write is made at another point
    elif kinds == {"reply"} and decisions - {"inform"}:
        kind, by_subject = "reply", True  # one decision word, said about different things
    else:
        kind = "text"
    steps = [s for s in (cells.step(r, column) for r in range(n)) if s >= 0]
    return ColumnSplit(
        column=column,
        step=min(steps) if steps else -1,
        kind=kind,
        groups=groups,
        successes=succ,
        separation=separation,
        p_value=p_value,
        cut=cut,
        labels=["no step" if keys[g[0]] == _NOTHING else cells.label(g[0], column) for g in groups],
        blank=tuple(i for i, g in enumerate(groups) if keys[g[0]] == _NOTHING),
        writes_differ=writes_differ,
        by_subject=by_subject,
    )


def _preceding(cells: _Cells, r: int, column: int) -> tuple[str, str]:
    """(tool, observation) of the last step before the column that brought news.

    Scratch steps are skipped: a note or a calculation returns what the agent itself wrote.
    """
    run = cells.runs[r]
    at = cells.step(r, column)
    if at < 0:
        cols = cells.alignment.columns[r]
        order = cells.canon.runs[r].order
        at = 1 + max((order[p] for p, c in enumerate(cols) if c < column), default=-1)
    for i in range(at - 1, -1, -1):
        obs = run.steps[i].observation
        if obs not in (None, "") and cells.kind(r, i) != "scratch":
            return run.steps[i].action.tool, observation_text(obs)[:_CONTEXT_CHARS]
    return "", ""


def _context_driven(cells: _Cells, split: ColumnSplit, texts: TextClusterer) -> bool:
    """Whether the branches saw different things right before the column.

    When the column separates passes from failures, a failing branch that saw the same thing
    as a passing one and still did otherwise shows the agent's own choice: then the fork is not
    context-driven, whatever a third branch was told.
    """
    seen = [_preceding(cells, g[0], split.column) for g in split.groups]

    def alike(i: int, j: int) -> bool:
        (tool_a, a), (tool_b, b) = seen[i], seen[j]
        return a == b or (tool_a == tool_b and texts.same(a, b))

    pairs = [(i, j) for i in range(len(seen)) for j in range(i + 1, len(seen))]
    if 0 < split.cut < len(seen):
        across = [(i, j) for i, j in pairs if i < split.cut <= j]
        return not any(alike(i, j) for i, j in across)
    return not all(alike(i, j) for i, j in pairs)


def _next_write(cells: _Cells, r: int, column: int) -> int | None:
    """Signature of run r's first write call at or after `column` (failed calls count)."""
    matrix = cells.alignment.matrix
    for c in range(column, matrix.shape[1]):
        step = cells.step(r, c)
        if step >= 0 and cells.kind(r, step) == "write":
            return int(matrix[r, c])
    return None


def _settled(cells: _Cells, split: ColumnSplit) -> bool:
    """Whether every run goes on to make the same write next, whatever it did at the column.

    Then the difference there (a reworded question, a lookup in another order, asking before
    rather than after) did not change what the agent did next, and cannot be what decided the
    outcome: the decision lies later, where the writes part.
    """
    nexts = {_next_write(cells, r, split.column) for g in split.groups for r in g}
    return len(nexts) == 1 and None not in nexts


def _same_way(cells: _Cells, split: ColumnSplit, high: set[int]) -> bool:
    """Whether a column splits the runs present there as `high` does.

    Runs with no step there (or only a note) are left out: gaps are where the alignment put a
    run's extra steps, not evidence. False when the runs present are all on one side.
    """
    present = [[r for r in g if cells.key(r, split.column) != _NOTHING] for g in split.groups]
    present = [g for g in present if g]
    sides = {r in high for g in present for r in g}
    if len(sides) < 2:
        return False
    return all(set(g) <= high or not (set(g) & high) for g in present)


__all__ = ["CandidateKind", "ColumnSplit", "ReplyMeaning"]
