"""Step canonicalisation: turn each step into a comparable action signature.

A signature is the tool name plus the arguments normalised (key order, whitespace, case of plain
words, numbers), with volatile values masked (uuids, timestamps, long hex ids, and ids that differ
per run) and free text replaced by a meaning cluster. Two steps with equal signatures count as
"the same action" when runs are aligned and forks are looked for.

Per-run ids are found without any rule per tool: a value counts as volatile in a run when the run
first saw it in the observation of one of its own earlier writes (the booking call returned it)
and no other run of the task ever saw or used it. Values that every run saw (the reservation list
of a user profile), values picked from a lookup's results and values the user typed stay:
choosing one of them is a real decision.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from oncourse.consistency.text import LexicalEmbedder, TextEmbedder
from oncourse.consistency.trajectory import RESPOND_TOOL, Trajectory
from pydantic import BaseModel, ConfigDict, Field

DEFAULT_VOLATILE_PATTERNS: dict[str, str] = {
    "uuid": r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    "timestamp": (r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"),
    "hex": r"(?<![0-9A-Za-z])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{16,}(?![0-9A-Za-z])",
}
"""Regexes whose matches inside any string argument are replaced by `<name>`."""

DEFAULT_READ_ONLY_TOOLS = (
    r"^(get|list|search|find|lookup|read|fetch|query|check|view|show|describe|count|calculate)"
    r"(_|$|[A-Z])"
)
"""Tools whose name matches are taken as reads: consecutive reads may come in any order."""

# Leaf strings that may be ids: no spaces, at least 4 characters, and a digit, or an all-caps code.
_ID_LIKE = re.compile(r"^(?:(?=[^\s]*\d)[A-Za-z0-9][A-Za-z0-9_\-.:/#@]{3,}|[A-Z0-9]{5,12})$")
_SPACES = re.compile(r"\s+")
_SEQUENCES = (list, tuple)
_NUMBERS = (int, float)
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_TEXT_MARK = "\x00text"
_RUN_ID_MARK = "'<run-id>'"


class CanonicalConfig(BaseModel):
    """How steps are made comparable; every rule can be changed per call."""

    model_config = ConfigDict(extra="forbid")

    volatile_patterns: dict[str, str] = Field(
        default_factory=lambda: dict(DEFAULT_VOLATILE_PATTERNS),
        description="Name -> regex; matches inside string arguments are masked as `<name>`.",
    )
    mask_per_run_ids: bool = Field(
        default=True, description="Mask ids a run got from its own observations and no other run."
    )
    free_text_min_words: int = Field(
        default=6, ge=1, description="A string argument with this many words is free text."
    )
    text_tools: tuple[str, ...] = Field(
        default=(RESPOND_TOOL, "think"),
        description="Tools whose string arguments are always free text (replies, notes).",
    )
    text_threshold: float | None = Field(
        default=None,
        ge=-1.0,
        le=1.0,
        description="Cosine at or above which two texts mean the same; None: the embedder's.",
    )
    read_only_tools: str | None = Field(
        default=DEFAULT_READ_ONLY_TOOLS,
        description="Regex on tool names of reads whose order within a run of reads is free.",
    )
    read_tools: tuple[str, ...] = Field(
        default=(), description="Tools the user declares read-only (they change no state)."
    )
    scratch_tools: tuple[str, ...] = Field(
        default=(), description="Tools the user declares scratch (notes, calculators)."
    )


class StepTemplate(NamedTuple):
    """A step's normalised form before per-task work (text clusters, per-run ids)."""

    tool: str
    key: str
    texts: tuple[str, ...]
    ids: tuple[str, ...]
    sig: int
    """Signature id when the step has no free text (so needs no per-task work), else -1."""
    read: bool
    """Whether the tool is a read (its order among neighbouring reads is free)."""
    write: bool
    """Neither a read nor a text tool: a call that may create things (and their ids)."""


@dataclass(slots=True)
class CanonicalRun:
    """One run as integer signature ids, in the order used for alignment."""

    sigs: list[int]
    order: list[int]
    """`order[k]` is the index in `Trajectory.steps` of the k-th signature."""


@dataclass(slots=True)
class CanonicalTask:
    """The runs of one task as comparable signatures (ids shared by a Canonicaliser's tasks)."""

    runs: list[CanonicalRun]
    sig_tools: list[int]
    """Tool id of every signature id (equal tools align better than different ones)."""
    sig_is_text: list[bool]
    """True for signatures of text tools (replies, notes): forks of those weigh less."""
    sig_is_read: list[bool]
    """True for signatures of read tools (lookups): an extra lookup weighs less."""
    volatile_ids: dict[int, set[str]]
    """Run index -> the values masked in that run as per-run ids."""


def _normalise_number(value: float) -> int | float:
    if type(value) is int or not math.isfinite(value):
        return value
    if value.is_integer():
        return int(value)
    return float(f"{value:.6g}")


class _Interner:
    """Signature ids shared by every task analysed with one Canonicaliser."""

    def __init__(self, text_tools: frozenset[str], is_read: Callable[[str], bool]):
        self.ids: dict[tuple[str, str, tuple[int, ...]], int] = {}
        self.tools: dict[str, int] = {}
        self.tool_kinds: dict[str, tuple[int, bool, bool]] = {}
        """Tool -> (tool id, is a text tool, is a read): what every new signature records."""
        self.sig_tools: list[int] = []
        self.sig_is_text: list[bool] = []
        self.sig_is_read: list[bool] = []
        self.text_tools = text_tools
        self.is_read = is_read

    def sig(self, tool: str, key: str, clusters: tuple[int, ...]) -> int:
        sig = (tool, key, clusters)
        sid = self.ids.get(sig)
        if sid is None:
            sid = self.ids[sig] = len(self.ids)
            kinds = self.tool_kinds.get(tool)
            if kinds is None:
                kinds = self.tool_kinds[tool] = (
                    self.tools.setdefault(tool, len(self.tools)),
                    tool in self.text_tools,
                    self.is_read(tool),
                )
            self.sig_tools.append(kinds[0])
            self.sig_is_text.append(kinds[1])
            self.sig_is_read.append(kinds[2])
        return sid


class _Normaliser:
    """Normalises argument values; cached per distinct raw step."""

    def __init__(self, config: CanonicalConfig, interner: _Interner, is_read: Any):
        self.config = config
        # One pass per string: the patterns joined as named alternatives.
        self.volatile = (
            re.compile(
                "|".join(
                    f"(?P<{name}>{pattern})" for name, pattern in config.volatile_patterns.items()
                )
            )
            if config.volatile_patterns
            else None
        )
        self.text_tools = frozenset(config.text_tools)
        self.min_words = config.free_text_min_words
        self.cache: dict[tuple[str, str], StepTemplate] = {}
        self.interner = interner
        self.is_read = is_read

    def template(self, tool: str, args: dict[str, Any]) -> StepTemplate:
        raw = (tool, repr(args))
        hit = self.cache.get(raw)
        if hit is None:
            hit = self.cache[raw] = self._make(tool, args)
        return hit

    def add(self, raw: tuple[str, str], tool: str, args: dict[str, Any]) -> StepTemplate:
        """Make and cache the template of a step not seen yet; `raw` is its `(tool, repr(args))`."""
        made = self.cache[raw] = self._make(tool, args)
        return made

    def _make(self, tool: str, args: dict[str, Any]) -> StepTemplate:
        texts: list[str] = []
        ids: list[str] = []
        always_text = tool in self.text_tools
        # The key is the repr of the normalised value: dicts are rebuilt in sorted key order.
        key = repr(
            self._flat(args, texts, ids, always_text)
            if type(args) is dict
            else self._value(args, texts, ids, always_text)
        )
        tool = tool.strip()
        sig = -1 if texts else self.interner.sig(tool, key, ())
        read = self.is_read(tool)
        write = not read and tool not in self.text_tools
        return StepTemplate(tool, key, tuple(texts), tuple(dict.fromkeys(ids)), sig, read, write)

    def _flat(
        self, args: dict[Any, Any], texts: list[str], ids: list[str], always_text: bool
    ) -> dict[str, Any]:
        """`_value` of an argument dict, with its plain leaves (the usual case) done inline."""
        try:
            keys = sorted(args)
        except TypeError:
            keys = sorted(args, key=str)
        out: dict[str, Any] = {}
        for k in keys:
            value = args[k]
            kind = type(value)
            if kind is str:
                value = self._string(value, texts, ids, always_text)
            elif not (kind is int or kind is bool or value is None):
                value = self._value(value, texts, ids, always_text)
            out[str(k).strip()] = value
        return out

    def _value(self, value: Any, texts: list[str], ids: list[str], always_text: bool) -> Any:
        if isinstance(value, str):
            return self._string(value, texts, ids, always_text)
        if isinstance(value, dict):
            try:
                keys = sorted(value)
            except TypeError:
                keys = sorted(value, key=str)
            return {str(k).strip(): self._value(value[k], texts, ids, always_text) for k in keys}
        if isinstance(value, _SEQUENCES):
            return [self._value(v, texts, ids, always_text) for v in value]
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, _NUMBERS):
            return _normalise_number(value)
        return self._string(str(value), texts, ids, always_text)

    def _clean(self, value: str) -> str:
        text = value.strip()
        if "  " in text or "\n" in text or "\t" in text or "\r" in text:
            text = _SPACES.sub(" ", text)
        if self.volatile is not None:
            text = self.volatile.sub(_mask, text)
        return text

    def free_texts(self, tool: str, args: Any, out: list[str]) -> None:
        """Append the free texts of a step, exactly as its template will hold them."""
        always_text = tool in self.text_tools
        if always_text and len(args) == 1:
            (only,) = args.values()
            if isinstance(only, str):  # a reply: {"text": ...}
                out.append(self._clean(only))
                return
        stack = [args]
        while stack:
            value = stack.pop()
            if isinstance(value, str):
                # Masking and collapsing spaces never add words: skip short strings early.
                if always_text or len(value.split()) >= self.min_words:
                    text = self._clean(value)
                    if always_text or text.count(" ") + 1 >= self.min_words:
                        out.append(text)
            elif isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, _SEQUENCES):
                stack.extend(value)

    def _string(self, value: str, texts: list[str], ids: list[str], always_text: bool) -> Any:
        text = self._clean(value)
        if always_text or text.count(" ") + 1 >= self.min_words:
            # Compared by meaning later; the key holds a mark and its position in `texts`.
            texts.append(text)
            return f"{_TEXT_MARK}{len(texts) - 1}"
        if _ID_LIKE.match(text):
            ids.append(text)
            return text
        if _NUMBER.fullmatch(text):
            return _normalise_number(float(text))
        # Plain words and enum-like values: case is not meaningful ("Economy" == "economy").
        return text.casefold()


def _mask(match: re.Match[str]) -> str:
    return f"<{match.lastgroup}>"


class TextClusterer:
    """Groups free texts by meaning with a cosine threshold.

    Embeddings are cached per distinct string and same-meaning decisions per pair of strings, so
    texts that recur across tasks (templates, stock replies) cost one embedding and one dot
    product in total.
    """

    def __init__(self, embedder: TextEmbedder | None, threshold: float | None):
        self.embedder: TextEmbedder = embedder if embedder is not None else LexicalEmbedder()
        # Each embedder declares the cosine at which two of its vectors mean the same.
        self.threshold = float(
            self.embedder.similarity_threshold if threshold is None else threshold
        )
        self._ids: dict[str, int] = {}
        self._vectors: list[np.ndarray] = []
        self._same: dict[int, bool] = {}
        self._rows: dict[int, dict[int, bool]] = {}
        """Text id -> {leader text id: same meaning}: the pair decisions as `cluster` asks them."""

    def prefetch(self, texts: Sequence[str]) -> None:
        """Embed, in one batch, every text not embedded yet (call once for many tasks)."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._ids]
        if missing:
            rows = np.asarray(self.embedder.embed(missing), dtype=np.float32)
            for text, row in zip(missing, rows, strict=True):
                self._ids[text] = len(self._vectors)
                self._vectors.append(row)

    def same(self, a: str, b: str) -> bool:
        """Whether two texts mean the same (cosine at or above the threshold)."""
        self.prefetch([a, b])
        return self._same_ids(self._ids[a], self._ids[b])

    def similarity(self, a: str, b: str) -> float:
        """Cosine of two texts' embeddings (1.0 for the same text)."""
        if a == b:
            return 1.0
        self.prefetch([a, b])
        return float(np.dot(self._vectors[self._ids[a]], self._vectors[self._ids[b]]))

    def _same_ids(self, i: int, j: int) -> bool:
        key = (i << 32) | j if i < j else (j << 32) | i
        hit = self._same.get(key)
        if hit is None:
            hit = self._same[key] = float(np.dot(self._vectors[i], self._vectors[j])) >= (
                self.threshold
            )
        return hit

    def cluster(self, texts: Sequence[str]) -> dict[str, int]:
        """Map each distinct text to a cluster number (greedy leader clustering, in order)."""
        distinct = list(dict.fromkeys(texts))
        if len(distinct) == 1:
            return {distinct[0]: 0}
        self.prefetch(distinct)
        ids = self._ids
        rows = self._rows
        leaders: list[int] = []
        out: dict[str, int] = {}
        for text in distinct:
            i = ids[text]
            row = rows.get(i)
            if row is None:
                row = rows[i] = {}
            for cluster, leader in enumerate(leaders):
                hit = row.get(leader)
                if hit is None:
                    hit = row[leader] = self._same_ids(i, leader)
                if hit:
                    out[text] = cluster
                    break
            else:
                out[text] = len(leaders)
                leaders.append(i)
        return out


class Canonicaliser:
    """Turns the runs of a task into integer signature sequences.

    Signature ids are shared by all tasks canonicalised by one instance (steps are normalised once
    per distinct raw step); they are comparable within a task.
    """

    def __init__(self, config: CanonicalConfig | None = None, embedder: TextEmbedder | None = None):
        self.config = config or CanonicalConfig()
        self._read_only = (
            re.compile(self.config.read_only_tools) if self.config.read_only_tools else None
        )
        self._reads: dict[str, bool] = {}
        text_tools = frozenset(self.config.text_tools)
        self._interner = _Interner(text_tools, self._is_read_tool)
        self.normaliser = _Normaliser(self.config, self._interner, self._is_read_tool)
        self.texts = TextClusterer(embedder, self.config.text_threshold)

    def _is_read_tool(self, tool: str) -> bool:
        hit = self._reads.get(tool)
        if hit is None:
            hit = self._reads[tool] = tool in self.config.read_tools or bool(
                self._read_only is not None
                and tool not in self.config.text_tools
                and tool not in self.config.scratch_tools
                and self._read_only.search(tool)
            )
        return hit

    def step_text(self, tool: str, args: Any) -> str:
        """A step's free text as it was embedded (a reply's words, cleaned), joined."""
        out: list[str] = []
        self.normaliser.free_texts(tool, args, out)
        return " ".join(out)

    def templates(self, runs: Sequence[Trajectory]) -> list[list[StepTemplate]]:
        """The cached normalised form of every step of every run."""
        cache = self.normaliser.cache
        add = self.normaliser.add
        out = []
        for run in runs:
            row = []
            for step in run.steps:
                action = step.action
                raw = (action.tool, repr(action.args))
                hit = cache.get(raw)
                row.append(hit if hit is not None else add(raw, action.tool, action.args))
            out.append(row)
        return out

    def free_texts(self, runs: Iterable[Trajectory]) -> list[str]:
        """Every free text of the runs (replies, notes, long arguments), for one batch embed."""
        out: list[str] = []
        collect = self.normaliser.free_texts
        for run in runs:
            for step in run.steps:
                collect(step.action.tool, step.action.args, out)
        return out

    def task(
        self, runs: Sequence[Trajectory], templates: list[list[StepTemplate]] | None = None
    ) -> CanonicalTask:
        """Canonicalise the runs of one task."""
        if templates is None:
            templates = self.templates(runs)
        volatile = self._per_run_ids(runs, templates) if self.config.mask_per_run_ids else {}
        clusters = self._text_clusters(templates)
        intern = self._interner.sig
        out: list[list[int]] = []
        for r, run_templates in enumerate(templates):
            masked = volatile.get(r)
            # Most steps keep their template's signature; only texts and masked ids need work.
            sigs = [t.sig for t in run_templates]
            if masked:
                todo = [
                    k
                    for k, t in enumerate(run_templates)
                    if t.sig < 0 or (t.ids and not masked.isdisjoint(t.ids))
                ]
            else:
                todo = [k for k, sig in enumerate(sigs) if sig < 0]
            for k in todo:
                t = run_templates[k]
                key = t.key
                if masked and t.ids:
                    for value in masked.intersection(t.ids):
                        key = key.replace(repr(value), _RUN_ID_MARK)
                sigs[k] = intern(t.tool, key, tuple([clusters[x] for x in t.texts]))
            out.append(sigs)
        orders = [list(range(len(sigs))) for sigs in out]
        if self._read_only is not None or self.config.read_tools:
            _reorder_reads(out, orders, templates)
        runs_out = [CanonicalRun(sigs, order) for sigs, order in zip(out, orders, strict=True)]
        return CanonicalTask(
            runs_out,
            self._interner.sig_tools,
            self._interner.sig_is_text,
            self._interner.sig_is_read,
            volatile,
        )

    def _text_clusters(self, templates: list[list[StepTemplate]]) -> dict[str, int]:
        texts = [x for run in templates for t in run if t.texts for x in t.texts]
        return self.texts.cluster(texts) if texts else {}

    def _per_run_ids(
        self, runs: Sequence[Trajectory], templates: list[list[StepTemplate]]
    ) -> dict[int, set[str]]:
        """Find, per run, the id values that only that run had, made by its own earlier write."""
        if len(runs) < 2:
            return {}
        users: dict[str, int] = {}
        first_use: dict[str, int] = {}
        for r, run_templates in enumerate(templates):
            for i, t in enumerate(run_templates):
                for value in t.ids:
                    seen = users.get(value)
                    if seen is None:
                        users[value] = r
                        first_use[value] = i
                    elif seen != r:
                        users[value] = -1
        out: dict[int, set[str]] = {}
        joined: list[str] | None = None
        task_text: str | None = None
        for value, r in users.items():
            if r < 0:
                continue
            steps = runs[r].steps
            templ = templates[r]
            # The value must come from the observation of an earlier write of the same run ...
            source = next(
                (
                    i
                    for i in range(first_use[value])
                    if templ[i].write and value in observation_text(steps[i].observation)
                ),
                -1,
            )
            if source < 0:
                continue
            # ... and no other run, nor the task, may have seen it.
            if joined is None:
                joined = [_joined_observations(run) for run in runs]
                task_text = "\n".join({run.task or "" for run in runs})
            if task_text and value in task_text:
                continue
            if any(value in joined[o] for o in range(len(runs)) if o != r):
                continue
            out.setdefault(r, set()).add(value)
        return out


def _reorder_reads(
    runs: list[list[int]], orders: list[list[int]], templates: list[list[StepTemplate]]
) -> None:
    """Give blocks of consecutive reads holding the same calls one order across runs.

    The order is that of the first run with the block, so swapped lookups compare equal while
    the order the agent chose (user first, then reservation) stays visible.
    """
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for r, sigs in enumerate(runs):
        kinds = templates[r]
        n = len(sigs)
        i = 0
        order = orders[r]
        while i < n:
            if not kinds[i].read:
                i += 1
                continue
            j = i + 1
            while j < n and kinds[j].read:
                j += 1
            if j - i > 1:
                block = tuple(sigs[i:j])
                first = seen.setdefault(tuple(sorted(block)), block)
                if first != block:
                    slots: dict[int, list[int]] = {}
                    for k in range(i, j):
                        slots.setdefault(sigs[k], []).append(order[k])
                    order[i:j] = [slots[s].pop(0) for s in first]
                    sigs[i:j] = list(first)
            i = j


def _joined_observations(run: Trajectory) -> str:
    return "\n".join(
        [
            obs if type(obs) is str else observation_text(obs)
            for obs in [step.observation for step in run.steps]
            if obs is not None
        ]
    )


def observation_text(observation: Any) -> str:
    """An observation as text (JSON for structured values) for searching and display."""
    if observation is None:
        return ""
    if isinstance(observation, str):
        return observation
    try:
        return json.dumps(observation, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(observation)


__all__ = [
    "DEFAULT_READ_ONLY_TOOLS",
    "DEFAULT_VOLATILE_PATTERNS",
    "CanonicalConfig",
    "CanonicalRun",
    "CanonicalTask",
    "Canonicaliser",
    "StepTemplate",
    "TextClusterer",
    "observation_text",
]
