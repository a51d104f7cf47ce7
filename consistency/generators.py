"""Guideline generators: from a task's divergence to an instruction for next time.

Both implement `GuidelineGenerator.generate(analysis, runs) -> list[Guideline]` (or raise
`NoGuideline` with the reason when the runs teach nothing worth injecting):

- `ContrastiveGuidelineGenerator` (offline default, deterministic, no model). Given the task's
  runs, it writes the lesson they carry (`consistency.lessons`): the writes the passing runs made
  and the failing ones did not (or the reverse), under the condition the passing runs cited from
  the records they looked up, with the passing run's stated reason abstracted to roles. Without
  runs it contrasts the two actions at the fork ("When <tool> returns <shape>, <winning action>
  rather than <losing action>"), naming argument values by their role.
- `LLMGuidelineGenerator` (`consistency.llm_generator`): asks a `ChatModel` for a structured
  guideline (or an explicit abstention) from both branches' context.

Choose one by name through `GENERATORS` / `make_generator`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from oncourse.consistency._roles import (
    leaves,
    parse_observation,
    scrub,
    specific_values,
    task_gist,
    value_role,
)
from oncourse.consistency.analyzer import TaskAnalysis
from oncourse.consistency.chat import ChatModel
from oncourse.consistency.errors import ConfigError
from oncourse.consistency.forks import NO_STEP, Branch, Divergence, ForkContext
from oncourse.consistency.guidelines import (
    Guideline,
    GuidelineGenerator,
    GuidelineProvenance,
    GuidelineScope,
    NoGuideline,
)
from oncourse.consistency.lessons import LessonEvidence, gather_evidence
from oncourse.consistency.trajectory import RESPOND_TOOL, Action, Trajectory

NOT_TOOLS = {RESPOND_TOOL, NO_STEP}


def ranked_branches(divergence: Divergence) -> list[Branch]:
    """The branches of a fork, best success rate first."""
    return sorted(divergence.branches, key=lambda b: -b.success_rate)


def _action(branch: Branch) -> Action:
    return branch.action


def _preceding(context: ForkContext) -> tuple[str | None, Any]:
    """Tool and parsed observation just before the fork (the winning branch's first run)."""
    if not context.preceding_observations:
        prefix = context.shared_prefix
        return (prefix[-1].tool if prefix else None), None
    first = context.preceding_observations[0]
    return first.tool, parse_observation(first.observation)


def branch_labels(branches: Sequence[Branch]) -> list[str]:
    """Readable, unique labels of branches (tool names, numbered when a tool repeats)."""
    labels: list[str] = []
    for branch in branches:
        base = _action(branch).tool
        label, n = base, 2
        while label in labels:
            label, n = f"{base} #{n}", n + 1
        labels.append(label)
    return labels


def run_specific_values(analysis: TaskAnalysis) -> set[str]:
    """Values a guideline for this task must not quote: ids, names, amounts, dates, e-mails."""
    divergence = analysis.divergence
    if divergence is None:
        return set()
    context = divergence.context
    scalars: list[Any] = []
    actions = [_action(b) for b in ranked_branches(divergence)] + list(context.shared_prefix)
    for action in actions:
        if action.tool == RESPOND_TOOL:
            continue  # a reply's text is words, not a value
        scalars.extend(
            v for _, v in leaves(action.args) if not isinstance(v, str) or len(v.split()) < 4
        )
    for observed in context.preceding_observations:
        scalars.extend(v for _, v in leaves(parse_observation(observed.observation)))
    task = context.task or ""
    scalars.extend(re.findall(r"\b(?=\w*\d)\w{3,}\b|[\w.+-]+@[\w.-]+\.\w+", task))
    return specific_values(scalars)


# -- the contrastive generator -------------------------------------------------------------------


def describe_observation(observation: Any) -> str:
    """The shape of an observation, with no values: "several results", "an error", ..."""
    if observation is None or observation == "":
        return "nothing"
    if isinstance(observation, list):
        return {0: "no results", 1: "one result"}.get(len(observation), "several results")
    if isinstance(observation, dict):
        many = [k for k, v in observation.items() if isinstance(v, list | dict) and len(v) > 1]
        many = [k for k in many if not any(c.isdigit() for c in k)]
        if many:
            return "a record with several " + ", ".join(k.replace("_", " ") for k in many[:2])
        keys = [k for k in observation if not any(c.isdigit() for c in str(k))][:3]
        return "a record with " + ", ".join(str(k).replace("_", " ") for k in keys)
    if isinstance(observation, int | float):
        return "a number"
    text = str(observation).strip().lower()
    if text.startswith(("error", "exception", "failed")) or "not found" in text:
        return "an error"
    return "a text reply"


_CONFIRM = re.compile(
    r"^\W*(yes|yeah|yep|sure|ok|okay|confirm|confirmed|correct|please (do|proceed)|go ahead|"
    r"that'?s (right|correct|fine)|sounds good)\b",
    re.IGNORECASE,
)
_DECLINE = re.compile(r"^\W*(no|nope|don'?t|do not|cancel that|never mind)\b", re.IGNORECASE)


def describe_user_reply(reply: Any) -> tuple[str, str]:
    """What a user's reply does, as (present, perfect): ("confirms", "confirmed"), ..."""
    text = str(reply or "").strip()
    if _CONFIRM.search(text):
        return "confirms", "confirmed"
    if _DECLINE.search(text):
        return "declines", "declined"
    if "?" in text:
        return "asks a question", "asked a question"
    return "replies", "replied"


def describe_action(
    action: Action, task: str, observation: Any, observation_tool: str | None
) -> str:
    """An action as a pattern: the tool and the roles of its arguments, not their values."""
    if action.tool == NO_STEP:
        return "stop without a further action"
    if action.tool == RESPOND_TOOL:
        text = str(action.args.get("text") or action.args.get("content") or "")
        return "ask the user a question" if "?" in text else "reply to the user"
    roles = [
        value_role(key, value, task, observation, observation_tool)
        for key, value in sorted(action.args.items())
    ]
    if not roles:
        return f"call {action.tool}"
    if len(roles) > 3:
        roles = roles[:3] + ["the other arguments"]
    joined = roles[0] if len(roles) == 1 else ", ".join(roles[:-1]) + " and " + roles[-1]
    return f"call {action.tool} with {joined}"


class ContrastiveGuidelineGenerator:
    """Deterministic guidelines: the lesson the runs carry, else the fork's two actions."""

    name = "contrastive"

    def generate(self, analysis: TaskAnalysis, runs: Sequence[Trajectory] = ()) -> list[Guideline]:
        """One guideline for the task's divergence; `NoGuideline` when the runs teach nothing."""
        divergence = analysis.divergence
        branches = ranked_branches(divergence) if divergence is not None else []
        if divergence is None or len(branches) < 2:
            return []
        win, lose = branches[0], branches[-1]
        if win.success_rate <= lose.success_rate:
            return []
        if runs:
            evidence = gather_evidence(analysis, runs)
            if evidence is not None and evidence.abstain:
                raise NoGuideline(evidence.abstain)
            written = lesson_text(evidence) if evidence is not None else None
            if written is not None and evidence is not None:
                instruction, trigger, rationale = written
                forbidden = run_specific_values(analysis)
                tools = {e.tool for e in [*evidence.missing, *evidence.harmful]}
                tools |= {f.tool for f in evidence.facts}
                return [
                    Guideline(
                        instruction=scrub(instruction, forbidden),
                        trigger=scrub(trigger, forbidden),
                        rationale=scrub(rationale, forbidden),
                        scope=GuidelineScope(tools=sorted(tools - NOT_TOOLS)),
                        provenance=[guideline_provenance(analysis, branches, self.name, None)],
                    )
                ]
        return [self._fork_guideline(analysis, divergence, branches)]

    def _fork_guideline(
        self, analysis: TaskAnalysis, divergence: Divergence, branches: list[Branch]
    ) -> Guideline:
        """The fork's winning versus losing action, with argument values named by role."""
        win, lose = branches[0], branches[-1]
        context = divergence.context
        task = context.task or ""
        tool, observation = _preceding(context)
        win_text = describe_action(_action(win), task, observation, tool)
        lose_text = describe_action(_action(lose), task, observation, tool)
        situation = self._situation(tool, observation)
        if win_text == lose_text:
            instruction = _same_pattern_advice(_action(win), _action(lose), situation[0], win_text)
        else:
            instruction = f"{situation[0]}, {win_text} rather than {lose_text}."
        gist = task_gist(task) if task else ""
        trigger = f"{gist}; {situation[1]}" if gist else situation[1][0].upper() + situation[1][1:]
        win_label, lose_label = branch_labels(branches)[0], branch_labels(branches)[-1]
        rationale = (
            f"In the source runs, {win.successes} of {len(win.runs)} runs "
            f"that took the winning action ({win_label}) succeeded, against "
            f"{lose.successes} of {len(lose.runs)} that took the losing one ({lose_label})."
        )
        forbidden = run_specific_values(analysis)
        instruction, trigger, rationale = (
            scrub(t, forbidden) for t in (instruction, trigger, rationale)
        )
        tools = {_action(b).tool for b in (win, lose)} | ({tool} if tool else set())
        return Guideline(
            instruction=instruction[0].upper() + instruction[1:],
            trigger=trigger,
            rationale=rationale,
            scope=GuidelineScope(tools=sorted(tools - NOT_TOOLS)),
            provenance=[guideline_provenance(analysis, branches, self.name, None)],
        )

    @staticmethod
    def _situation(tool: str | None, observation: Any) -> tuple[str, str]:
        """("When X returns Y", "X has returned Y") for the step before the fork."""
        if tool is None:
            return "At the start of the task", "the agent is about to take its first action"
        if tool == RESPOND_TOOL:
            kind = describe_user_reply(observation)
            return f"After the user {kind[0]}", f"the user has just {kind[1]}"
        shape = describe_observation(observation)
        return f"When {tool} returns {shape}", f"{tool} has returned {shape}"


def _same_pattern_advice(win: Action, lose: Action, situation: str, pattern: str) -> str:
    """Advice for branches that differ only in argument values with the same roles."""
    keys = sorted(k for k in set(win.args) | set(lose.args) if win.args.get(k) != lose.args.get(k))
    if not keys or win.tool in NOT_TOOLS:
        return f"{situation}, check the task's requirements again before you {pattern}."
    named = ", ".join(k.replace("_", " ") for k in keys[:3])
    return (
        f"{situation}, check the {named} against the task before you {pattern}; "
        f"runs that chose a different {named} failed."
    )


def guideline_provenance(
    analysis: TaskAnalysis, branches: Sequence[Branch], generator: str, model: str | None
) -> GuidelineProvenance:
    """Where a guideline for this task's divergence came from: task, runs, fork, branch rates."""
    divergence = analysis.divergence
    runs = [r for b in branches for r in b.runs]
    rates = {
        label: float(b.success_rate)
        for label, b in zip(branch_labels(branches), branches, strict=True)
    }
    return GuidelineProvenance(
        source_tasks=[str(analysis.task_id)],
        source_runs=[str(r) for r in runs],
        fork_step=divergence.step if divergence is not None else None,
        branch_success_rates=rates,
        generator=generator,
        model=model,
    )


# -- the lesson, in words ------------------------------------------------------------------------


def _join(words: Sequence[str], last: str = "and") -> str:
    words = list(dict.fromkeys(words))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def _condition(evidence: LessonEvidence) -> str:
    """The cited facts as a condition: "the X result shows f 'v' and ..."."""
    by_tool: dict[str, list[str]] = {}
    for fact in evidence.facts[:4]:
        by_tool.setdefault(fact.tool, []).append(f"{fact.field.replace('_', ' ')} '{fact.value}'")
    return " and ".join(f"the {tool} result shows {_join(v)}" for tool, v in by_tool.items())


_INSTEAD = {
    "refuse": "tell the user why it cannot be done",
    "transfer": "offer the user a transfer",
    "ask": "ask the user before any change",
    "reply": "answer the user without making that change",
    "stop": "make no change",
    "act": "take the action the passing runs took",
}


_MOVE = {
    "refuse": "tell the user it cannot be done and why",
    "transfer": "offer the user a transfer",
    "ask": "ask the user before you act",
    "reply": "answer the user",
    "stop": "end the conversation",
}


def _quote(reason: str | None, max_words: int = 22) -> str:
    """The passing run's reason as a short quote (its last sentence when the whole is long)."""
    if not reason:
        return ""
    words = reason.split()
    if len(words) > max_words:
        last = re.split(r"(?<=[.!?])\s+", reason.strip())[-1]
        words = last.split()
        if len(words) > max_words:
            words = [*words[:max_words], "…"]
    return f' A passing run said: "{" ".join(words).rstrip(".")}."'


def _reply_lesson(evidence: LessonEvidence) -> tuple[str, str, str] | None:
    """A decision made in words (refuse, ask, transfer) with the passing run's stated reason."""
    if evidence.winner_move == "act" or not evidence.reason:
        return None
    if evidence.loser_move == "act":
        instead = f"rather than call {evidence.loser_tool}"
    elif evidence.loser_move != evidence.winner_move:
        instead = f"rather than {_MOVE[evidence.loser_move]}"
    else:
        return None  # both branches did the same kind of thing: no decision to name
    condition = _condition(evidence)
    when = condition or evidence.situation
    do = f"{_MOVE[evidence.winner_move]} {instead}"
    head = f"When {when}, {do}." if when else f"{do[0].upper()}{do[1:]}."
    instruction = head + _quote(evidence.reason)
    trigger = evidence.request or "The user makes a request"
    lost = (
        f"call {evidence.loser_tool}"
        if evidence.loser_move == "act"
        else _MOVE[evidence.loser_move]
    )
    rationale = (
        f"In the source runs, {len(evidence.passing_runs)} runs passed and "
        f"{len(evidence.failing_runs)} failed; the failing branch at the decision chose to {lost}."
    )
    return instruction, trigger, rationale


def lesson_text(evidence: LessonEvidence) -> tuple[str, str, str] | None:
    """(instruction, trigger, rationale) of the lesson, or None when it has no effect to name."""
    missing = list(dict.fromkeys(e.tool for e in evidence.missing))
    harmful = list(dict.fromkeys(e.tool for e in evidence.harmful))
    if not missing and not harmful:
        return _reply_lesson(evidence)
    # Facts are the condition of one decision; with several missing changes the lesson is
    # completeness, and a field the runs mentioned on the way is no condition of it.
    condition = _condition(evidence) if len(set(missing)) <= 1 else ""
    situation = evidence.situation
    when = f"When {condition}" if condition else (f"When {situation}" if situation else "")
    chosen = [f"{t} {evidence.choices[t]}" if t in evidence.choices else t for t in missing]
    harmful = [t for t in harmful if t not in evidence.choices]
    asked = (
        evidence.winner_move == "ask"
        and evidence.loser_move == "stop"
        and bool(missing)
        and all(t in evidence.choices for t in missing)
    )
    if asked:
        # The passing runs asked the user where the failing ones went on and chose themselves.
        do = f"ask the user which one they mean before you call {_join(missing)}"
        head = f"{when}, {do}" if when else f"{do[0].upper()}{do[1:]}"
        head += "; runs that chose without asking failed."
    elif missing:
        do = f"call {_join(chosen)}"
        if len(set(missing)) > 1:
            do = f"make every change the user asked for: call {_join(chosen)}"
        if harmful and evidence.choices:
            # "X on the one whose s is 'a', not the one whose s is 'b' rather than call Y" reads
            # as a double negation; the other tool gets a sentence of its own.
            instead = f"; do not call {_join(harmful, 'or')}"
        elif harmful:
            instead = f"rather than call {_join(harmful, 'or')}"
        elif evidence.choices:
            instead = ""
        else:
            instead = "rather than end without " + ("them" if len(set(missing)) > 1 else "it")
        head = f"{when}, {do} {instead}".rstrip() if when else f"{do[0].upper()}{do[1:]} {instead}"
        head = head.rstrip().replace(" ; ", "; ") + "."
        if evidence.lookup:
            head += (
                f" Find the record first with {evidence.lookup} (runs that never looked it up "
                "failed)."
            )
    else:
        again = {t for t in harmful if situation.startswith(f"{t} ")}
        named = _join(
            [f"{t} again with other arguments" if t in again else t for t in harmful], "or"
        )
        head = (
            f"{when}, do not call {named}; {_INSTEAD[evidence.winner_move]} instead."
            if when
            else f"Do not call {named}; {_INSTEAD[evidence.winner_move]} instead."
        )
    quote = _quote(evidence.reason) if len(set(missing)) <= 1 else ""
    instruction = head + quote
    # The trigger is what the agent will see again: the request (retrieval matches on it).
    trigger = evidence.request or "The user makes a request"
    if situation and not when.endswith(situation):
        trigger += f"; {situation}"
    n_pass, n_fail = len(evidence.passing_runs), len(evidence.failing_runs)
    parts = []
    if missing:
        who = "the only passing run" if n_pass == 1 else f"all {n_pass} passing runs"
        parts.append(f"{who} called {_join(missing)}")
    for effect in evidence.harmful:
        parts.append(f"{len(effect.runs)} of {n_fail} failing runs called {effect.tool}")
    if evidence.lookup:
        parts.append(f"failing runs that never called {evidence.lookup} for the record failed")
    if not evidence.harmful:
        parts.append(f"none of the {n_fail} failing runs did all of it")
    if harmful and not missing:
        parts.append("no passing run did")
    rationale = "In the source runs, " + "; ".join(parts) + "."
    return instruction, trigger, rationale


GeneratorFactory = Callable[..., GuidelineGenerator]

GENERATORS: dict[str, GeneratorFactory] = {
    "contrastive": lambda **_: ContrastiveGuidelineGenerator(),
    "llm": lambda model=None, **kw: _llm(_need_model(model), **kw),
}


def _llm(model: ChatModel, **options: Any) -> GuidelineGenerator:
    return LLMGuidelineGenerator(model, **options)


def _need_model(model: ChatModel | None) -> ChatModel:
    if model is None:
        raise ConfigError("the llm generator needs a model (--model openai:gpt-4.1, ...)")
    return model


def make_generator(name: str, **options: Any) -> GuidelineGenerator:
    """Build a generator by registry name (`contrastive`, `llm`); options go to its factory."""
    try:
        factory = GENERATORS[name]
    except KeyError:
        raise ConfigError(f"unknown generator {name!r}; choose from {sorted(GENERATORS)}") from None
    return factory(**options)


# The LLM generator builds on the helpers above (its module imports this one).
from oncourse.consistency.llm_generator import LLMGuidelineGenerator  # noqa: E402

__all__ = [
    "GENERATORS",
    "ContrastiveGuidelineGenerator",
    "GuidelineGenerator",
    "LLMGuidelineGenerator",
    "NoGuideline",
    "lesson_text",
    "NOT_TOOLS",
    "branch_labels",
    "guideline_provenance",
    "ranked_branches",
    "describe_action",
    "describe_observation",
    "describe_user_reply",
    "make_generator",
    "run_specific_values",
]
