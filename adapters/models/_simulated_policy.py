"""How the simulated model chooses: candidate tool calls, generic scores, guideline support.

Candidates are built from the tool schemas and the values seen so far (task text and
observations). Their scores come from generic reading heuristics only: how well a tool's
description fits the task, how well a value fits a parameter, whether the record a value came
from matches the task, whether a call repeats one already made, whether the change the task asks
for has been made. Where two candidates differ only in which record or field they draw from and
the task's wording does not match either, the scores tie: the model is genuinely unsure.

Guidelines act only through their text: each candidate is rendered as a sentence describing the
call by the roles of its values ("to = the `work_email` field of the search_contacts result"),
and a guideline whose meaning is close to a candidate (and far from the alternatives it argues
against) raises that candidate's score.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
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
from oncourse.consistency.text import TextEmbedder

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
    guideline: float = 30.0
    tool_choice: float = 3.0
    check: float = 2.5
    gate_low: float = 0.45
    gate_span: float = 0.2
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
    roles: str = ""
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
        tool_words = words(tool.name) | words(tool.description)
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
        for cand in out:
            cand.rendering = self.render(cand)
        self.describe_roles(out)
        return out

    def _describe_record(self, record: Record) -> str:
        siblings = [self.conv.records[i] for i in record.siblings]
        if not siblings:
            return f"the {record.tool} result"
        parts = []
        for name, value in record.fields.items():
            if name.endswith("id") or not isinstance(value, str) or len(value) > 40:
                continue
            if all(s.fields.get(name) != value for s in siblings):
                matched = bool(words(value)) and words(value) <= self.task_words
                parts.append(f"whose {name} is {value}" + (" as the task says" if matched else ""))
        detail = " and ".join(parts[:2]) or "among several"
        return f"the {record.tool} result {detail} (one of {len(siblings) + 1} results)"

    def _describe_value(self, param: str, value: Value) -> str:
        if value.record is None:
            return f"{param} = the {value.kind} given in the task"
        record = self.conv.records[value.record]
        return f"{param} = the `{value.field}` field of {self._describe_record(record)}"

    def render(self, cand: Candidate) -> str:
        """The candidate as a sentence describing its values by their roles."""
        if cand.tool == RESPOND:
            return "reply to the user with a final answer and stop calling tools"
        ordered = sorted(cand.sources.items(), key=lambda pv: pv[1].from_task)
        described = [self._describe_value(p, v) for p, v in ordered]
        text = f"call {cand.tool}"
        return f"{text} with " + "; ".join(described) if described else text

    def describe_roles(self, candidates: list[Candidate]) -> None:
        """Set each candidate's `roles`: where its values differing from rival calls come from."""
        groups: dict[str, list[Candidate]] = {}
        for cand in candidates:
            groups.setdefault(cand.tool, []).append(cand)
        for group in groups.values():
            varying = {
                p for p in group[0].sources if len({repr(c.arguments.get(p)) for c in group}) > 1
            }
            for cand in group:
                cand.roles = "; ".join(
                    self._describe_value(p, v) for p, v in cand.sources.items() if p in varying
                )

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


_WHEN_DO = re.compile(r"^\s*when:?\s*(.+?)\s+do:\s*(.+)$", re.I | re.S)
_TRIGGER = re.compile(r"^\s*(?:when|if|whenever|after|before)\b(.+?)(?::|,)\s+(.+)$", re.I | re.S)
_CONTRAST = re.compile(r"\b(?:rather than|instead of|and not|but not)\b", re.I)
_CHECK = (
    re.compile(r"\b(?:check|compar|verif|match|confirm)\w*\s+(.*?)\s+against\s+the\s+task", re.I),
    re.compile(r"\b(?:check|compar|verif|match|confirm)\w*\b(.*?)\b(?:with|to)\b[^.]*\btask", re.I),
)


@dataclass(frozen=True)
class ReadGuideline:
    """A guideline as the model reads it."""

    trigger: str
    positive: str
    negative: str
    check: str | None  # the words after "check ..." when it asks to check against the task


def split_guideline(text: str) -> ReadGuideline:
    """A guideline's trigger, what it says to do, what not to do, and what to check."""
    text = " ".join(text.strip().strip("-* ").split())
    match = _WHEN_DO.match(text) or _TRIGGER.match(text)
    trigger, instruction = (match.group(1), match.group(2)) if match else (text, text)
    parts = _CONTRAST.split(instruction, maxsplit=1)
    positive = parts[0].strip(" ,;.")
    negative = parts[1].strip(" ,;.") if len(parts) > 1 else ""
    check = _CHECK[0].search(instruction) or _CHECK[1].search(instruction)
    return ReadGuideline(
        trigger.strip(" ;:,"), positive or instruction, negative, check.group(1) if check else None
    )


def _checked_params(check: str, params: set[str]) -> set[str]:
    """The parameters a "check the X against the task" names; all of them when none is named."""
    named = {p for p in params if re.search(rf"\b{re.escape(p.replace('_', ' '))}\b", check)}
    return named or params


_CALLED = re.compile(r"\bcall(?:ing)?\s+`?(\w+)")
_STOP = re.compile(r"\b(?:stop|reply|respond|answer)\b", re.I)
_ACTION_PREFIX = re.compile(r"^.*?\bcall(?:ing)?\s+`?\w+`?\s*(?:with\s+)?", re.I)


def _called_tools(text: str) -> set[str]:
    """The tools a sentence says to call (`respond` when it says to stop or reply)."""
    tools = set(_CALLED.findall(text))
    return tools | ({RESPOND} if not tools and _STOP.search(text) else set())


def _roles_of(text: str) -> str:
    """What a guideline says about argument values, without the "call <tool> with" part."""
    return _ACTION_PREFIX.sub("", text, count=1).strip()


def _centred_by_tool(values: np.ndarray, candidates: list[Candidate]) -> np.ndarray:
    out = np.zeros_like(values)
    for tool in {c.tool for c in candidates}:
        rows = [i for i, c in enumerate(candidates) if c.tool == tool and c.roles]
        if len(rows) > 1:
            out[rows] = values[rows] - values[rows].mean()
    return out


def guideline_boosts(
    guidelines: list[str],
    context: str,
    candidates: list[Candidate],
    embedder: TextEmbedder,
    weights: Weights,
) -> np.ndarray:
    """Extra logits per candidate from the guidelines whose meaning supports it.

    A guideline counts in proportion to how well its trigger matches the situation (the last
    lookup and the task). What it says about values ("the to from the work_email field ...
    rather than the personal_email field") moves probability between calls of one tool, toward
    the candidates whose values' roles are closest in meaning to what it says to use and away
    from those closest to what it says to avoid; this carries over to other tools with the same
    kind of choice. Only a guideline that contrasts two different actions ("call X rather than
    call Y", "stop rather than ...") changes which tool is called. One that asks to check an
    argument against the task makes the model weigh the task's wording harder for it.
    """
    boosts = np.zeros(len(candidates), dtype=np.float64)
    if not guidelines or not candidates:
        return boosts
    parsed = [split_guideline(g) for g in guidelines]
    texts = [context, *(c.roles or c.rendering for c in candidates)]
    for g in parsed:
        texts += [g.trigger, _roles_of(g.positive), _roles_of(g.negative) if g.negative else ""]
    vectors = embedder.embed(texts)
    index = {text: row for row, text in enumerate(texts)}
    ctx, roles = vectors[0], vectors[1 : 1 + len(candidates)]
    for g in parsed:
        relevance = float(vectors[index[g.trigger]] @ ctx)
        gate = float(np.clip((relevance - weights.gate_low) / weights.gate_span, 0.0, 1.0))
        if gate == 0.0:
            continue
        do_tools, avoid_tools = _called_tools(g.positive), _called_tools(g.negative)
        if g.negative and do_tools != avoid_tools:
            for row, cand in enumerate(candidates):
                boosts[row] += (
                    weights.tool_choice
                    * gate
                    * (
                        (cand.tool in do_tools - avoid_tools)
                        - (cand.tool in avoid_tools - do_tools)
                    )
                )
        if g.check is None or g.negative:
            toward = roles @ vectors[index[_roles_of(g.positive)]]
            away = roles @ vectors[index[_roles_of(g.negative)]] if g.negative else 0.0
            boosts += weights.guideline * gate * _centred_by_tool(toward - away, candidates)
        if g.check is not None:
            for row, cand in enumerate(candidates):
                checked = _checked_params(g.check.lower(), set(cand.cues))
                boosts[row] += weights.check * gate * sum(cand.cues[p] for p in checked)
    return boosts
