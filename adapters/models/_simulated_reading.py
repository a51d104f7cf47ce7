"""What the simulated model reads: the conversation, the values in it, and the guidelines.

Everything here works from the chat messages and tool specs alone, the way an LLM sees them:
the system prompt (and any guidelines block in it), the user's task, the tool calls made and the
JSON observations that came back.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from oncourse.consistency.chat import Message

_WORD = re.compile(r"[a-z0-9]+")
STOPWORDS = frozenset(
    "a an the of to in on at for from by with and or is are be it its this that their his her "
    "your you our we i me my as into one any all not no yes up so e g eg such than then there "
    "who which what when where how do does did has have had was were will would should can "
    "please use using via".split()
)
_SUFFIXES = ("ments", "ment", "ings", "ing", "ies", "ied", "ers", "ed", "es", "er", "s")
_READ_VERBS = frozenset("search list get find lookup look read show query fetch view check".split())


def stem(word: str) -> str:
    """A crude English stem, enough to match `payment` with `pay` and `invoices` with `invoice`."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@functools.lru_cache(maxsize=65536)
def words(text: str) -> frozenset[str]:
    """Content-word stems of a text (identifiers split on `_`, `.` and `@`)."""
    found = _WORD.findall(text.lower().replace("_", " "))
    return frozenset(stem(w) for w in found if w not in STOPWORDS)


def is_read_tool(name: str) -> bool:
    """Whether a tool's name says it only looks things up (search_*, get_*, list_*, ...)."""
    return name.lower().split("_")[0] in _READ_VERBS


@dataclass(frozen=True)
class Value:
    """A value the model could put into an argument, with where it saw it."""

    value: Any
    kind: str
    field: str | None = None
    record: int | None = None
    tool: str | None = None

    @property
    def from_task(self) -> bool:
        """True when the value was read from the task text rather than an observation."""
        return self.record is None


@dataclass
class Record:
    """One object of an observation (a search hit, a profile), with its siblings' count."""

    index: int
    tool: str
    fields: dict[str, Any]
    siblings: list[int] = field(default_factory=list)


@dataclass
class Call:
    """A tool call the model made, and what it got back."""

    name: str
    arguments: dict[str, Any]
    observation: Any = None
    failed: bool = False


@dataclass
class Conversation:
    """The model's reading of a chat: prompt, guidelines, task, calls and what they returned."""

    system: str
    guidelines: list[str]
    task: str
    calls: list[Call]
    records: list[Record]

    def digest(self) -> str:
        """A text naming the state of the run (task + calls + observations; not the prompt)."""
        parts = [self.task]
        for call in self.calls:
            parts.append(json.dumps([call.name, call.arguments, call.observation], sort_keys=True))
        return "\n".join(parts)


_HEADING = re.compile(r"^\s*(#+\s*.*|[^-*•\d].*:\s*)$")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.*)$")


def parse_guidelines(system: str) -> list[str]:
    """The bullets that follow a heading mentioning guidelines in a system prompt."""
    found: list[str] = []
    inside = False
    for line in system.splitlines():
        bullet = _BULLET.match(line)
        if bullet and inside:
            found.append(bullet.group(1).strip())
        elif _HEADING.match(line) and not bullet:
            inside = "guideline" in line.lower() or "lesson" in line.lower()
        elif inside and line.strip() and found and line.startswith((" ", "\t")):
            found[-1] = f"{found[-1]}\n{line.strip()}"
    return found


def _observation(content: str) -> Any:
    try:
        return json.loads(content)
    except (json.JSONDecodeError, TypeError):
        return content


def _failed(observation: Any) -> bool:
    if isinstance(observation, str):
        return observation.strip().lower().startswith(("error", "exception"))
    return isinstance(observation, dict) and "error" in observation


def read_conversation(messages: list[Message]) -> Conversation:
    """Turn chat messages into the model's reading of the run so far."""
    system = "\n\n".join(m.content for m in messages if m.role == "system")
    task = "\n".join(m.content for m in messages if m.role == "user")
    calls: list[Call] = []
    by_id: dict[str, Call] = {}
    for message in messages:
        if message.role == "assistant":
            for tool_call in message.tool_calls:
                call = Call(tool_call.name, dict(tool_call.arguments))
                calls.append(call)
                by_id[tool_call.id] = call
        elif message.role == "tool":
            answered = by_id.get(message.tool_call_id or "")
            if answered is None:  # unmatched ids: answer the oldest call still waiting
                answered = next((c for c in calls if c.observation is None), None)
            if answered is not None:
                answered.observation = _observation(message.content)
                answered.failed = _failed(answered.observation)
    records: list[Record] = []
    for call in calls:
        if is_read_tool(call.name) and not call.failed:
            _collect_records(call.name, call.observation, records)
    return Conversation(system, parse_guidelines(system), task, calls, records)


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) and value != ""


def _collect_records(tool: str, data: Any, out: list[Record]) -> None:
    if isinstance(data, dict):
        data = [data] if any(_scalar(v) for v in data.values()) else list(data.values())
    if not isinstance(data, list):
        return
    group = [item for item in data if isinstance(item, dict)]
    first = len(out)
    indices = list(range(first, first + len(group)))
    for offset, item in enumerate(group):
        fields = {k: v for k, v in item.items() if _scalar(v)}
        out.append(
            Record(first + offset, tool, fields, [i for i in indices if i != first + offset])
        )
        for nested in item.values():
            if isinstance(nested, list | dict):
                _collect_records(tool, nested, out)


_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b")),
    ("time", re.compile(r"\b\d{1,2}:\d{2}\b")),
    ("amount", re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?")),
    ("timezone", re.compile(r"\b(?:[A-Z][a-z]+/[A-Z][A-Za-z_]+|UTC)\b")),
    ("id", re.compile(r"\b[A-Z]{2,}-\d+\b")),
]
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
_CAPITALISED = re.compile(r"\b[A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*")
# Words that open an instruction rather than a name: common imperative verbs and determiners.
_OPENERS = frozenset(
    "email send write pay settle record log add book set schedule put share give invite create "
    "file update change please our invoice move find tell ask reply forward the a an mail drop "
    "let get arrange plan pass enter note clear make take bring show check look call contact "
    "reach message notify inform remind cancel delete remove open close start stop keep hold "
    "transfer submit approve confirm register sign review prepare draft organise organize "
    "order buy sell return refund issue assign list fetch copy attach upload download print "
    "there we you this that these those my your his her their its".split()
)


def _kind_of(text: str) -> str:
    for kind, pattern in _PATTERNS:
        if pattern.fullmatch(text):
            return kind
    return "text"


def observed_value(field_name: str, value: Any, record: Record) -> Value:
    """A value seen in an observation, typed by its shape."""
    kind = "number" if isinstance(value, int | float) else _kind_of(str(value))
    return Value(value, kind, field_name, record.index, record.tool)


def task_values(task: str) -> list[Value]:
    """Values a reader picks out of the task text: quoted text, addresses, dates, names, ..."""
    found: list[Value] = []
    masked = task
    for match in _QUOTED.finditer(task):
        found.append(Value(match.group(1).strip(), "quoted"))
        masked = masked.replace(match.group(0), " ; ")
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(masked):
            text = match.group(0)
            value: Any = text
            if kind == "amount":
                value = float(re.sub(r"[^\d.]", "", text))
            found.append(Value(value, kind))
            masked = masked.replace(text, " ; ")
    for sentence in re.split(r"[.;:!?\n]", masked):
        for match in _CAPITALISED.finditer(sentence):
            tokens = match.group(0).split()
            at_start = not sentence[: match.start()].strip()
            while tokens and tokens[0].lower() in _OPENERS and (at_start or len(tokens) > 1):
                tokens = tokens[1:]
            if tokens and not (at_start and len(tokens) == 1 and match.group(0) == tokens[0]):
                found.append(Value(" ".join(tokens), "name"))
    found.append(Value(task.strip(), "text"))
    unique: dict[tuple[str, str], Value] = {}
    for item in found:
        unique.setdefault((item.kind, str(item.value)), item)
    return list(unique.values())
