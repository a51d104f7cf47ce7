"""What a task's runs teach, read from the runs: effects, looked-up facts, stated reasons.

A guideline that carries a lesson says what to do *and why*. The why is in the runs:

- **effects**: the state-changing calls (writes) the passing runs made and the failing ones did
  not (`missing`), and those only failing runs made (`harmful`). A call whose tool returned an
  error changed nothing and is no effect;
- **facts**: fields of the records the runs looked up (the item a write concerns) whose value the
  passing runs cite in their own words ("since your membership is regular, ...");
- **stated reason**: the passing run's sentence that gives the reason, with names, ids, amounts
  and dates replaced by roles;
- **situation**: what every branch had seen: the user's request (first user messages, never a
  simulator's hidden script) and the observation right before the decision.

Tool kinds (reply, read, write, scratch) are the analyzer's (`TaskAnalysis.tool_kinds`, read
from the runs or declared by the user). Nothing here names a benchmark's tools or fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oncourse.consistency._records import (
    RecordFact,
    ToolKind,
    arg_contrast,
    cited_facts,
    records_about,
)
from oncourse.consistency._roles import leaves
from oncourse.consistency._run_text import (
    Move,
    abstract_text,
    agent_texts,
    consensus_request,
    decision_move,
    mentions,
    reason_sentences,
    refuses,
    run_specific_strings,
)
from oncourse.consistency.analyzer import TaskAnalysis
from oncourse.consistency.forks import NO_STEP
from oncourse.consistency.tool_kinds import FAILED_RESULT, infer_tool_kinds
from oncourse.consistency.trajectory import RESPOND_TOOL, Action, Step, Trajectory
from pydantic import BaseModel, Field


class WriteEffect(BaseModel):
    """A state-changing call that separates the passing runs from the failing ones."""

    tool: str = Field(description="The tool called.")
    args: dict[str, Any] = Field(description="The arguments of one such call (as recorded).")
    runs: list[str] = Field(description="Runs that made it.")
    item: str | None = Field(default=None, description="The id-like argument it acts on, if any.")


class LessonEvidence(BaseModel):
    """Everything the runs of one divergent task say about what to do and why."""

    task_id: str = Field(description="The task.")
    passing_runs: list[str] = Field(description="Runs that passed.")
    failing_runs: list[str] = Field(description="Runs that failed.")
    tool_kinds: dict[str, ToolKind] = Field(description="Kind of every tool the runs used.")
    request: str = Field(default="", description="The user's request, abstracted to roles.")
    situation: str = Field(default="", description="The observation before the decision.")
    missing: list[WriteEffect] = Field(default_factory=list, description="Writes only passes made.")
    harmful: list[WriteEffect] = Field(
        default_factory=list, description="Writes only failures made."
    )
    facts: list[RecordFact] = Field(default_factory=list, description="Cited record fields.")
    reason: str | None = Field(default=None, description="The passing run's stated reason.")
    failing_reason: str | None = Field(default=None, description="A failing run's stated reason.")
    winner_move: Move = Field(default="reply", description="What the passing branch did.")
    loser_move: Move = Field(default="reply", description="What the failing branch did.")
    loser_tool: str = Field(default="", description="The failing branch's tool at the fork.")
    choices: dict[str, str] = Field(
        default_factory=dict,
        description="Per tool that passing and failing runs both wrote with: what passes chose.",
    )
    lookup: str | None = Field(
        default=None,
        description="The read that found the missing writes' record in the passing runs, when "
        "some failing runs never made it.",
    )
    abstain: str | None = Field(default=None, description="Why no guideline should be written.")


# -- tool kinds and effects ----------------------------------------------------------------------


def _is_error(observation: Any) -> bool:
    return isinstance(observation, str) and bool(FAILED_RESULT.search(observation))


def tool_kinds(analysis: TaskAnalysis, runs: Sequence[Trajectory]) -> dict[str, ToolKind]:
    """Each tool's kind: as the analyzer found it, else inferred from these runs."""
    kinds: dict[str, ToolKind] = dict(analysis.tool_kinds) or infer_tool_kinds(runs)
    for run in runs:
        for step in run.steps:
            kinds.setdefault(
                step.action.tool, "reply" if step.action.tool == RESPOND_TOOL else "write"
            )
    return kinds


def _item(args: dict[str, Any]) -> str | None:
    """The first id-like scalar argument: what the call acts on."""
    for value in args.values():
        if isinstance(value, str) and 3 <= len(value) <= 80 and any(c.isdigit() for c in value):
            return value
    return None


def _identity(action: Action) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A write's tool and the ids and numbers it was given (free text and wording aside)."""
    ids = sorted(
        (str(k), str(v))
        for k, v in leaves(action.args)
        if (isinstance(v, int | float) and not isinstance(v, bool))
        or (isinstance(v, str) and any(c.isdigit() for c in v) and len(v) <= 80)
    )
    return action.tool, tuple(ids)


def _writes(run: Trajectory, kinds: dict[str, ToolKind]) -> list[Step]:
    return [
        s for s in run.steps if kinds.get(s.action.tool) == "write" and not _is_error(s.observation)
    ]


def write_effects(
    runs: dict[str, Trajectory], passing: list[str], failing: list[str], kinds: dict[str, ToolKind]
) -> tuple[list[WriteEffect], list[WriteEffect]]:
    """(missing, harmful) writes.

    Missing: writes every passing run made that some failing run lacks. Harmful: writes failing
    runs made that no passing run made.
    """
    ids = {rid: {_identity(s.action) for s in _writes(runs[rid], kinds)} for rid in runs}
    missing: dict[Any, WriteEffect] = {}
    harmful: dict[Any, WriteEffect] = {}
    if passing:
        for step in _writes(runs[passing[0]], kinds):
            key = _identity(step.action)
            if all(key in ids[r] for r in passing) and any(key not in ids[r] for r in failing):
                missing.setdefault(
                    key,
                    WriteEffect(
                        tool=step.action.tool,
                        args=step.action.args,
                        runs=list(passing),
                        item=_item(step.action.args),
                    ),
                )
    passed = set().union(*(ids[r] for r in passing)) if passing else set()
    for rid in failing:
        for step in _writes(runs[rid], kinds):
            key = _identity(step.action)
            if key in passed:
                continue
            effect = harmful.setdefault(
                key,
                WriteEffect(
                    tool=step.action.tool,
                    args=step.action.args,
                    runs=[],
                    item=_item(step.action.args),
                ),
            )
            if rid not in effect.runs:
                effect.runs.append(rid)
    return list(missing.values()), list(harmful.values())


# -- putting it together -------------------------------------------------------------------------


def _useragent_texts(run: Trajectory, end: int) -> tuple[str, str]:
    """(first user message, everything the user said before step `end`) of a run."""
    said = [str((s.model_extra or {}).get("user_before") or "") for s in run.steps[: max(end, 0)]]
    said = [t for t in said if t]
    first = said[0] if said else (run.task or "")
    return first, " ".join([run.task or "", *said])


def _window_start(run: Trajectory, at: int, kinds: dict[str, ToolKind]) -> int:
    """The step after the last lookup or write before `at`: where the run starts deciding."""
    start = at
    while start > 0 and kinds.get(run.steps[start - 1].action.tool) in ("reply", "scratch"):
        start -= 1
    return start


def _best_reason(sentences: Sequence[str], facts: Sequence[RecordFact]) -> str | None:
    def score(sentence: str) -> tuple[int, int]:
        cited = sum(mentions(sentence, f.value) for f in facts)
        return cited, int(refuses(sentence))

    if not sentences:
        return None
    best = max(sentences, key=score)
    return best if score(best)[0] or not facts else None


def _situation(analysis: TaskAnalysis, kinds: dict[str, ToolKind], specific: set[str]) -> str:
    """The observation before the decision when it is a tool's error (a failed write)."""
    divergence = analysis.divergence
    if divergence is None:
        return ""
    for seen in divergence.context.preceding_observations:
        if seen.tool and kinds.get(seen.tool) != "reply" and _is_error(seen.observation):
            text = abstract_text(seen.observation.splitlines()[0][:160], specific)
            return f'{seen.tool} returns an error ("{text}")'
    return ""


def gather_evidence(analysis: TaskAnalysis, runs: Sequence[Trajectory]) -> LessonEvidence | None:
    """The lesson evidence of a divergent task from its runs (None without a divergence)."""
    divergence = analysis.divergence
    if divergence is None or len(divergence.branches) < 2:
        return None
    by_id = dict(zip(analysis.run_ids, runs, strict=False))
    passing = [rid for rid, run in by_id.items() if run.success]
    failing = [rid for rid, run in by_id.items() if not run.success]
    kinds = tool_kinds(analysis, runs)
    missing, harmful = write_effects(by_id, passing, failing, kinds)
    specific = run_specific_strings(runs)
    at = {rid: step for b in divergence.branches for rid, step in zip(b.runs, b.steps, strict=True)}
    sentences: list[str] = []
    for rid in passing:
        run, step = by_id[rid], at.get(rid, -1)
        step = step if step >= 0 else len(run.steps)
        # The reason may come before the decision (a note, a verdict) or after it (a refusal
        # explained when the user insists): from the last lookup before it to the end.
        sentences += reason_sentences(run, _window_start(run, step, kinds), len(run.steps))
    items = [e.item for e in [*missing, *harmful] if e.item]
    # The records about the item a write concerns; with no write, every record looked up.
    records = [r for item in dict.fromkeys(items) for r in records_about(runs, item, kinds)]
    if not missing and not harmful:
        records = records_about(runs, None, kinds)
    facts = cited_facts(records, sentences)
    reason = _best_reason(sentences, facts)
    win, lose = divergence.branches[0], divergence.branches[-1]
    lose_run = by_id.get(lose.runs[0])
    failing_reason = None
    if lose_run is not None and lose.steps[0] >= 0:
        found = reason_sentences(lose_run, lose.steps[0], lose.steps[0])
        failing_reason = abstract_text(found[0], specific) if found else None
    win_text = (
        " ".join(agent_texts(by_id[win.runs[0]].steps[win.steps[0]])) if win.steps[0] >= 0 else ""
    )
    lose_text = (
        " ".join(agent_texts(by_id[lose.runs[0]].steps[lose.steps[0]]))
        if lose.steps[0] >= 0
        else ""
    )
    firsts, seen = [], []
    for rid, run in by_id.items():
        first, said = _useragent_texts(run, at.get(rid, len(run.steps)))
        firsts.append(first)
        seen.append(said)
    evidence = LessonEvidence(
        task_id=analysis.task_id,
        passing_runs=passing,
        failing_runs=failing,
        tool_kinds=kinds,
        request=consensus_request(firsts, seen, specific),
        situation=_situation(analysis, kinds, specific),
        missing=missing,
        harmful=harmful,
        facts=facts,
        reason=abstract_text(reason, specific) if reason else None,
        failing_reason=failing_reason,
        winner_move=decision_move(win.action, win_text),
        loser_move=decision_move(lose.action, lose_text),
        loser_tool=lose.action.tool,
    )
    if evidence.winner_move == "reply" and reason and refuses(reason):
        evidence.winner_move = "refuse"  # its words decided nothing; its stated reason refused
    evidence.lookup = _missed_lookup(by_id, passing, failing, missing, kinds)
    for good in missing:
        bad = next((e for e in harmful if e.tool == good.tool), None)
        if bad is not None and good.tool not in evidence.choices:
            evidence.choices[good.tool] = arg_contrast(good.args, bad.args, runs, kinds)
    evidence.abstain = abstention(analysis, evidence)
    return evidence


def _missed_lookup(
    runs: dict[str, Trajectory],
    passing: list[str],
    failing: list[str],
    missing: list[WriteEffect],
    kinds: dict[str, ToolKind],
) -> str | None:
    """The read every passing run made for the missing writes' item that a failing run skipped."""
    items = {e.item for e in missing if e.item}
    if not items or not passing:
        return None

    def reads(rid: str) -> set[str]:
        return {
            s.action.tool
            for s in runs[rid].steps
            if kinds.get(s.action.tool) == "read"
            and items & {str(v) for _, v in leaves(s.action.args)}
        }

    common = set.intersection(*(reads(r) for r in passing))
    lacking = [t for t in sorted(common) if any(t not in reads(r) for r in failing)]
    return lacking[0] if lacking else None


def abstention(analysis: TaskAnalysis, evidence: LessonEvidence) -> str | None:
    """Why no guideline should be written for this fork, or None when one should."""
    divergence = analysis.divergence
    if divergence is None:
        return "no divergence"
    if divergence.context_driven and not any(
        not c.context_driven and c.kind in ("write", "reply") for c in analysis.candidates
    ):
        # A context-driven decision point is left alone only when no agent-caused fork (a
        # write or a deciding reply after the same observations) separates the runs too.
        return (
            "context-driven fork: the branches saw different observations just before it "
            "(the user or a tool said something else), and no agent-caused fork separates the runs"
        )
    if evidence.missing or evidence.harmful:
        return None
    tools = {b.action.tool for b in divergence.branches}
    best, worst = divergence.branches[0].action.tool, divergence.branches[-1].action.tool
    if "scratch" in (evidence.tool_kinds.get(best), evidence.tool_kinds.get(worst)) or all(
        evidence.tool_kinds.get(t) == "scratch" or t == NO_STEP for t in tools
    ):
        return (
            "scratch-only contrast: the branches differ in a note or a calculation, and no "
            "write separates passing from failing runs"
        )
    if all(evidence.tool_kinds.get(t) in ("scratch", "reply") or t == NO_STEP for t in tools):
        if not (evidence.reason or evidence.facts):
            return (
                "the branches differ only in wording or in stopping without a further action, "
                "and no passing run states a reason"
            )
    return None


__all__ = [
    "LessonEvidence",
    "Move",
    "RecordFact",
    "ToolKind",
    "WriteEffect",
    "abstention",
    "abstract_text",
    "arg_contrast",
    "cited_facts",
    "consensus_request",
    "decision_move",
    "gather_evidence",
    "reason_sentences",
    "run_specific_strings",
    "tool_kinds",
    "write_effects",
]
