"""How the simulated model chooses: candidate tool calls and their generic scores.

Candidates are built from the tool schemas and the values seen so far (task text and
observations). Their scores come from generic reading heuristics only: how well a tool's
description fits the task, how well a value fits a parameter, whether the record a value came
from matches the task, whether a call repeats one already made, whether the change the task asks
for has been made. Where two candidates differ only in which record or field they draw from and
the task's wording does not match either, the scores tie: the model is genuinely unsure.

Guidelines are read separately, by meaning (`_simulated_guidelines`); this module only
describes each candidate in natural words for that reading.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from oncourse.adapters.models._simulated_guidelines import CandidateDescriber, summary_of
from oncourse.adapters.models._simulated_reading import (
    Conversation,
    Record,
    Value,
    is_read_tool,
    observed_value,
    task_values,
    words,
)
from oncourse.consistency.chat import ToolSpec

RESPOND = "respond"

# Parameters whose name (or the head of their description) names one of these formats accept only
# values of that shape; other parameters take free text of the kinds listed after them.
_FORMATS: dict[str, frozenset[str]] = {
    "email": words("email address recipient"),
    "date": words("date day"),
    "time": words("time hour"),
    "timezone": words("timezone zone"),
    "amount": words("amount price total sum"),
}
_FREE_KINDS: dict[str, frozenset[str]] = {
    "id": words("reference number code query"),
    "quoted": words("title subject topic"),
    "name": words("name company vendor contact query"),
    "text": words("body text message content note"),
}


def _head(description: str) -> str:
    """The head of a parameter description, before any `of ...`/`for ...` modifier."""
    return re.split(r"\b(?:of|for|to|in|with)\b|[,.;(]", description.lower(), maxsplit=1)[0]


def param_format(name: str, schema: dict[str, Any]) -> str | None:
    """The value format a parameter asks for (email, date, ...), if its name or head says so."""
    return _format_of(name, str(schema.get("description", "")))


@functools.lru_cache(maxsize=4096)
def _format_of(name: str, description: str) -> str | None:
    for source in (words(name), words(_head(description))):
        # "timezone" before "time": the more specific format wins.
        for fmt in ("timezone", "email", "date", "time", "amount"):
            if _FORMATS[fmt] & source:
                return fmt
    return None


@dataclass(frozen=True)
class Weights:
    """The generic heuristics' weights (logits); the same for every suite and task."""

    compat: float = 2.0
    in_task: float = 1.0
    record_match: float = 1.2
    field_cue: float = 1.5
    one_record: float = 0.3
    relevance: float = 2.0
    read_base: float = 1.0
    write_base: float = 1.6
    grounded: float = 1.0
    repeat: float = 6.0
    read_again: float = 1.2
    after_write: float = 8.0
    respond_early: float = -6.0
    margin: float = 1.5
    unrelated: float = 3.0
    unmatched: float = 6.0
    verb: float = 0.75
    stated: float = 3.0
    done_margin: float = 3.0


@dataclass
class Option:
    """A value for one parameter, with its score and the part of it read off the task."""

    value: Value
    score: float
    cue: float = 0.0


@dataclass
class Candidate:
    """A possible next move: a tool call (or the final reply) and its score."""

    tool: str
    arguments: dict[str, Any]
    sources: dict[str, Value] = field(default_factory=dict)
    score: float = 0.0
    rendering: str = ""
    detail: str = ""
    cues: dict[str, float] = field(default_factory=dict)


def _param_words(name: str, schema: dict[str, Any]) -> frozenset[str]:
    return words(name) | words(str(schema.get("description", "")))


def _type_ok(schema: dict[str, Any], value: Value) -> bool:
    kind = schema.get("type")
    if kind in {"number", "integer"}:
        return isinstance(value.value, int | float) and not isinstance(value.value, bool)
    if kind == "boolean":
        return isinstance(value.value, bool)
    return isinstance(value.value, str)


def compatibility(name: str, schema: dict[str, Any], value: Value) -> float:
    """How well a value fits a parameter, from names, descriptions and the value's shape."""
    if not _type_ok(schema, value):
        return 0.0
    name_words = words(name)
    field_words = words(value.field or "")
    overlap = len(name_words & field_words) / max(1, len(name_words))
    if name.lower().endswith("id"):
        # Identifiers come from lookups, never from the user's words.
        return 1.0 if value.record is not None and overlap == 1.0 else 0.0
    fmt = param_format(name, schema)
    if fmt is not None:
        if value.kind != fmt and not (fmt == "amount" and value.kind == "number"):
            return 0.0
        return 1.0 if value.from_task or overlap > 0 else 0.8
    if value.from_task:
        return 1.0 if _FREE_KINDS.get(value.kind, set()) & _param_words(name, schema) else 0.0
    return overlap if value.kind in {"text", "name"} else 0.0


class Scorer:
    """Builds and scores candidates for one turn of a conversation."""

    def __init__(self, conv: Conversation, tools: list[ToolSpec], weights: Weights):
        self.conv = conv
        self.tools = tools
        self.w = weights
        self.task_words = words(conv.task)
        self.task_lower = conv.task.lower()
        self.values = task_values(conv.task) + [
            observed_value(name, value, record)
            for record in conv.records
            for name, value in record.fields.items()
        ]
        raw = {r.index: self._match(r) for r in conv.records}
        # Relative to its sibling results: the match decides between records of one lookup.
        self._record_match = {
            r.index: raw[r.index] - max([raw[r.index], *(raw[i] for i in r.siblings)])
            for r in conv.records
        }
        self._mentioned = {index for index, value in raw.items() if value > 0}

    def _match(self, record: Record) -> float:
        """How much of a record's text the task mentions (identifiers excluded)."""
        total = 0.0
        for name, value in record.fields.items():
            if name.endswith("id") or not isinstance(value, str):
                continue
            value_words = words(value)
            if value_words:
                total += len(value_words & self.task_words) / len(value_words) ** 0.5
        return total

    def _field_cue(self, param: str, value: Value) -> float:
        # Only the words that tell fields of one shape apart count (`work` in `work_email`).
        cue = words(value.field or "") - words(param) - _FORMATS.get(value.kind, set())
        return len(cue & self.task_words) / len(cue) if cue else 0.0

    def _option(self, param: str, value: Value, compat: float) -> Option:
        score = self.w.compat
        if value.from_task or str(value.value).lower() in self.task_lower:
            score += self.w.in_task
        score *= compat
        if value.from_task and value.kind in _FORMATS:
            score += self.w.stated  # the user spelled out the address, date, amount, ...
        cue = 0.0
        if value.record is not None:
            cue += self.w.record_match * self._record_match.get(value.record, 0.0)
            cue += self.w.field_cue * self._field_cue(param, value)
        return Option(value, score + cue, cue)

    def options(self, name: str, schema: dict[str, Any]) -> list[Option]:
        """The plausible values for one parameter, best first (at most three distinct)."""
        if "enum" in schema:
            # Named in the task: those values; otherwise the model settles on the first one.
            enum = [str(v) for v in schema["enum"]]
            named = [v for v in enum if words(v) & self.task_words]
            score = self.w.compat + self.w.in_task * bool(named)
            return [Option(Value(v, "enum"), score) for v in (named or enum[:1])[:3]]
        scored: dict[str, Option] = {}
        for value in self.values:
            compat = compatibility(name, schema, value)
            if compat < 0.5:
                continue
            option = self._option(name, value, compat)
            key = f"{value.value}|{value.field}|{value.record}"
            if key not in scored or scored[key].score < option.score:
                scored[key] = option
        ranked = sorted(scored.values(), key=lambda o: -o.score)
        return [o for o in ranked[:3] if o.score >= ranked[0].score - self.w.margin]

    def _relevance(self, tool: ToolSpec) -> float:
        tool_words = words(tool.name) | words(summary_of(tool))
        overlap = len(tool_words & self.task_words) / max(1.0, len(tool_words) ** 0.5)
        # The task's own verb naming the tool's action ("Pay ...", "File ...") says the most.
        verb = words(tool.name.split("_")[0])
        return overlap + self.w.verb * bool(verb & self.task_words)

    def _wrote(self) -> bool:
        return any(not is_read_tool(c.name) and not c.failed for c in self.conv.calls)

    def _phase_score(self, tool: ToolSpec) -> float:
        calls = self.conv.calls
        wrote = self._wrote()
        if is_read_tool(tool.name):
            score = self.w.read_base
            if any(c.name == tool.name and c.observation not in ([], None) for c in calls):
                score -= self.w.read_again
        else:
            score = self.w.write_base
            if self._relevance(tool) < 0.2:
                score -= self.w.unrelated
        return score - (self.w.after_write if wrote else 0.0)

    def tool_candidates(self, tool: ToolSpec) -> list[Candidate]:
        """Every plausible way to call one tool, scored."""
        props: dict[str, Any] = tool.parameters.get("properties", {}) or {}
        required = set(tool.parameters.get("required", []) or [])
        per_param: list[tuple[str, list[Option]]] = []
        for name, schema in props.items():
            opts = self.options(name, schema if isinstance(schema, dict) else {})
            if not opts and name in required:
                return []
            if opts and (name in required or opts[0].score >= self.w.compat + self.w.in_task):
                per_param.append((name, opts))
        base = self._phase_score(tool) + self.w.relevance * self._relevance(tool)
        best = [opts[0].score for _, opts in per_param]
        base += float(np.mean(best)) if best else self.w.compat / 2
        write = not is_read_tool(tool.name)
        made = {(c.name, repr(sorted(c.arguments.items()))) for c in self.conv.calls}
        out: list[Candidate] = []
        for combo in itertools.islice(itertools.product(*(o for _, o in per_param)), 81):
            args = {name: opt.value.value for (name, _), opt in zip(per_param, combo, strict=True)}
            sources = {name: opt.value for (name, _), opt in zip(per_param, combo, strict=True)}
            # A worse option for one parameter costs its full difference: no averaging away.
            score = base + sum(o.score - b for o, b in zip(combo, best, strict=True))
            records = {v.record for v in sources.values() if v.record is not None}
            if records and write:
                score += self.w.grounded + self.w.one_record * (len(records) == 1)
                # Acting on a record the task does not mention at all is a long shot.
                score -= self.w.unmatched * sum(r not in self._mentioned for r in records)
            if (tool.name, repr(sorted(args.items()))) in made:
                score -= self.w.repeat
            cues = {name: opt.cue for (name, _), opt in zip(per_param, combo, strict=True)}
            out.append(Candidate(tool.name, args, sources, float(score), cues=cues))
        return out

    def respond_candidate(self, best_other: float) -> Candidate:
        """The final reply: likely once a change the task asked for went through."""
        done = [c for c in self.conv.calls if not is_read_tool(c.name) and not c.failed]
        if done:
            last = done[-1]
            text = f"Done: {last.name} completed ({_brief(last.arguments)})."
            return Candidate(RESPOND, {"text": text}, score=best_other + self.w.done_margin)
        score = best_other + self.w.respond_early - (0.0 if self.conv.calls else 2.0)
        return Candidate(RESPOND, {"text": "I could not complete the task."}, score=score)

    def candidates(self) -> list[Candidate]:
        """All candidates for this turn, each with its score and rendering."""
        out = [c for tool in self.tools for c in self.tool_candidates(tool)]
        best = max((c.score for c in out), default=0.0)
        out.append(self.respond_candidate(best + self.w.after_write * self._wrote()))
        self.describe(out)
        return out

    def describe(self, candidates: list[Candidate]) -> None:
        """Set each candidate's `rendering`: the move in natural words (see _simulated_guidelines).

        Values are described only where they differ from the rival calls of the same tool, so
        what sets a move apart is what a guideline's meaning is compared with.
        """
        describer = CandidateDescriber(self.conv, self.tools)
        groups: dict[str, list[Candidate]] = {}
        for cand in candidates:
            groups.setdefault(cand.tool, []).append(cand)
        for tool, group in groups.items():
            if tool == RESPOND:
                for cand in group:
                    cand.rendering = "reply to the user with a final answer and stop calling tools"
                continue
            varying = {
                p for p in group[0].sources if len({repr(c.arguments.get(p)) for c in group}) > 1
            }
            for cand in group:
                cand.rendering = describer.describe(tool, cand.sources, varying)
                cand.detail = describer.detail(cand.sources, varying) or cand.rendering

    def context(self) -> str:
        """The situation, as a guideline's trigger would describe it: the last lookup's result."""
        reads = [c for c in self.conv.calls if is_read_tool(c.name) and not c.failed]
        if not reads:
            return f"starting the task: {self.conv.task}"
        last = reads[-1]
        data = last.observation
        count = len(data) if isinstance(data, list) else int(bool(data))
        shape = {0: "no results", 1: "one result"}.get(count, "several results")
        found = [r for r in self.conv.records if r.tool == last.name]
        fields = sorted({k for r in found[-max(count, 1) :] for k in r.fields})
        with_fields = f" with fields {', '.join(fields)}" if count else ""
        return f"{last.name} returned {shape}{with_fields} for the task: {self.conv.task}"


def _brief(arguments: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in arguments.items() if k not in {"body"})
