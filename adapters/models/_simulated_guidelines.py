"""How the simulated model reads guidelines: as plain English a person wrote, by meaning.

A guideline is read as a whole (no template is assumed: "When: ... Do: ..." is just text). Its
clauses get a polarity from ordinary English negation and contrast ("never X", "do not X",
"avoid X", "X, not Y", "X rather than Y", "instead of Y, X"); a second negation inside a negated
span flips it back. Each candidate move is described in natural words: what the tool does (its
summary) and, for each value that differs from rival moves, what that value *means* according to
the tool's own documentation (`Returns: work_email: their office address ...`) and which record
it comes from (`the invoice whose status is paid, already settled`). A guideline supports the
candidates whose descriptions are closer in meaning to what it says to do than to what it says
not to do, compared with the alternatives (only differences between candidates count, so advice
that fits every move equally, like "be careful", changes nothing).

The effect is bounded: a guideline that fits the situation moves at most `cap` logits, a squashed
function of how clearly it separates the candidates; several guidelines together at most
`cap_total`. A right guideline raises the chance of the right move; it never forces it. It moves
probability between the calls of one tool only (`keep_tool_mass`): a lesson about which record
to use does not make the model likelier to act at all.
"""

from __future__ import annotations

import functools
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from oncourse.adapters.models._simulated_reading import Conversation, Value, words
from oncourse.consistency.chat import ToolSpec
from oncourse.consistency.text import TextEmbedder


@dataclass(frozen=True)
class ReadingWeights:
    """How strongly and when guidelines move the choice (logits and cosine scales)."""

    cap: float = 1.0
    cap_total: float = 1.5
    scale: float = 0.35
    deadzone: float = 0.05
    synonym: float = 0.62
    gate_low: float = 0.15
    gate_span: float = 0.2
    across_tools: float = 0.0


# Ordinary English negation and contrast. A marker flips the polarity of what follows it up to
# the end of the clause; a comma, semicolon, full stop or "but" ends a clause.
_MARKERS = re.compile(
    r"\b(?:rather than|instead of|other than|as opposed to|do not|does not|don't|doesn't|"
    r"never|not|no|avoid|without|nor|except|refrain from|stay away from)\b|n't\b",
    re.I,
)
_CLAUSE = re.compile(r"[.;,:!?\n]+|\bbut\b|\bthen\b", re.I)


def _meaningful(piece: str) -> bool:
    return len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2


# A conditional clause ("when X,", "if X:", "whenever X") names the situation, not a move: it
# counts for whether the guideline applies, not for which move it supports. With a colon after
# the conditional word, the condition runs to the end of that line or sentence.
_CONDITION = re.compile(
    r"\b(?:when|whenever|if|once|while|in case|as soon as)\b(?::[^\n.]*|[^,;:.\n]*)", re.I
)


def polarity_spans(text: str) -> list[tuple[str, int]]:
    """The guideline's spans with +1 (do) or -1 (do not), by English negation and contrast."""
    text = _CONDITION.sub(" ; ", text.replace("\u2019", "'"))
    spans: list[tuple[str, int]] = []
    for clause in _CLAUSE.split(text):
        sign = 1
        start = 0
        for match in _MARKERS.finditer(clause):
            piece = clause[start : match.start()].strip()
            if _meaningful(piece):
                spans.append((piece, sign))
            sign = -sign
            start = match.end()
        piece = clause[start:].strip()
        if _meaningful(piece):
            spans.append((piece, sign))
    return spans


_ITEM = re.compile(r"\b([A-Za-z_]\w*):\s*([^;:]+?)(?=;|$|\s[A-Za-z_]\w*:)")
_VALUE = re.compile(r"\b([\w-]+)\s*\(([^)]+)\)")


@functools.lru_cache(maxsize=1024)
def _documented(description: str) -> tuple[tuple[str, str], ...]:
    """(field, meaning) pairs of a tool's `Returns:` documentation."""
    _, _, returns = description.partition("Returns:")
    return tuple((m.group(1), " ".join(m.group(2).split())) for m in _ITEM.finditer(returns))


def field_meanings(tools: Sequence[ToolSpec]) -> dict[tuple[str, str], str]:
    """(tool, field) -> what the field means, as the tool's documentation says."""
    return {
        (tool.name, name): meaning
        for tool in tools
        for name, meaning in _documented(tool.description)
    }


def _value_meaning(meaning: str, value: object) -> str | None:
    """What one value of a field means, when the documentation lists values with glosses.

    A gloss applies to the value itself ("open (...)") or to a word of it (a file name that
    ends in "draft" gets the gloss of "draft (...)").
    """
    text = str(value).lower()
    parts = set(re.split(r"[\s_.\-/]+", text))
    for match in _VALUE.finditer(meaning):
        word = match.group(1).lower()
        if word == text or word in parts:
            return match.group(2).strip()
    return None


def summary_of(tool: ToolSpec) -> str:
    """The first line of a tool's description: what it does."""
    return tool.description.split("\n", 1)[0].strip()


class CandidateDescriber:
    """Describes candidate moves in natural words from the tool documentation and the records."""

    def __init__(self, conv: Conversation, tools: Sequence[ToolSpec]):
        self.conv = conv
        self.meanings = field_meanings(tools)
        self.summaries = {t.name: summary_of(t) for t in tools}
        self.task_words = words(conv.task)

    def _record_part(self, value: Value) -> str:
        if value.record is None:
            return ""
        record = self.conv.records[value.record]
        siblings = [self.conv.records[i] for i in record.siblings]
        if not siblings:
            return ""
        ranked: list[tuple[int, str]] = []
        for name, field_value in record.fields.items():
            if name.endswith("id") or len(str(field_value)) > 60:
                continue
            # A field that tells this record from any of its siblings: with three hits, the
            # status of two open copies still sets them apart from the paid one.
            if any(s.fields.get(name) != field_value for s in siblings):
                gloss = _value_meaning(self.meanings.get((record.tool, name), ""), field_value)
                named = bool(words(str(field_value))) and words(str(field_value)) <= self.task_words
                text = f"whose {name.replace('_', ' ')} is {field_value}"
                text += f", {gloss}" if gloss else ""
                ranked.append((-(2 * bool(gloss) + bool(named)), text))
        ranked.sort(key=lambda r: r[0])
        # Fields that say something (a documented gloss, the task's own words) crowd out the rest.
        telling = [text for rank, text in ranked if rank < 0]
        parts = telling[:2] or [text for _, text in ranked[:2]]
        return "the one " + " and ".join(parts) if parts else "one of several"

    def value(self, param: str, value: Value) -> str:
        """One argument's value described by where it comes from and what that means."""
        label = param.replace("_", " ")
        if value.record is None:
            return f"{label} as written in the task"
        field_name = value.field or ""
        meaning = self.meanings.get((value.tool or "", field_name), "")
        record = self._record_part(value)
        if field_name.endswith("id"):
            return f"{label} of {record or 'the record found'}"
        own = f"{field_name.replace('_', ' ')}, {meaning}" if meaning else field_name
        return f"{label} from the {own}" + (f", of {record}" if record else "")

    def describe(self, tool: str, sources: dict[str, Value], varying: set[str]) -> str:
        """The move in words: what the tool does, then the values that set it apart."""
        head = self.summaries.get(tool, tool.replace("_", " "))
        return f"{head} {self.detail(sources, varying)}".strip()

    def detail(self, sources: dict[str, Value], varying: set[str]) -> str:
        """Only what sets the move apart from the rival calls of its tool, in words."""
        return "; ".join(self.value(p, v) for p, v in sources.items() if p in varying)


def _squash(x: np.ndarray, weights: ReadingWeights) -> np.ndarray:
    shrunk = np.sign(x) * np.maximum(np.abs(x) - weights.deadzone, 0.0)
    return weights.cap * np.tanh(shrunk / weights.scale)


def _centred(values: np.ndarray, groups: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(value minus its group's mean, group mean minus the mean of group means) per row."""
    within = np.zeros_like(values)
    means: dict[str, float] = {}
    for group in dict.fromkeys(groups):
        rows = [i for i, g in enumerate(groups) if g == group]
        means[group] = float(values[rows].mean())
        if len(rows) > 1:
            within[rows] = values[rows] - means[group]
    overall = float(np.mean(list(means.values())))
    across = np.array([means[g] - overall for g in groups])
    return within, across


_FUNCTION_WORDS = frozenset(
    "the and for from with that this their them they its one ones any all are was were has have "
    "had will would should could can may might must use using used make sure each every other "
    "into onto than then when which who what where whose your you our not never don also only "
    "just very more most some such there here been being does did doing".split()
)


def content_words(text: str) -> list[str]:
    """The words of a text that carry meaning (function words and short tokens dropped)."""
    found = re.findall(r"[a-z]{3,}", text.lower().replace("_", " "))
    return list(dict.fromkeys(w for w in found if w not in _FUNCTION_WORDS))


_WORD_CACHE: weakref.WeakKeyDictionary[object, dict[str, np.ndarray]] = weakref.WeakKeyDictionary()


def _word_vectors(embedder: TextEmbedder, words_: Sequence[str]) -> dict[str, np.ndarray]:
    try:
        cache = _WORD_CACHE.setdefault(embedder, {})
    except TypeError:  # an embedder that cannot be weakly referenced: no cache
        cache = {}
    missing = [w for w in dict.fromkeys(words_) if w not in cache]
    if missing:
        for word, vector in zip(missing, np.asarray(embedder.embed(missing)), strict=True):
            cache[word] = np.asarray(vector, dtype=np.float64)
    return {w: cache[w] for w in words_}


def _match(span: list[str], option: list[str], vectors: dict[str, np.ndarray], t: float) -> float:
    """How many of a span's words find a word of the same meaning in an option's description."""
    if not span or not option:
        return 0.0
    a = np.stack([vectors[w] for w in span])
    b = np.stack([vectors[w] for w in option])
    best = (a @ b.T).max(axis=1)
    return float(np.where(best >= t, best, 0.0).sum())


def guideline_boosts(
    guidelines: Sequence[str],
    situation: str,
    descriptions: Sequence[str],
    groups: Sequence[str],
    embedder: TextEmbedder,
    weights: ReadingWeights | None = None,
) -> np.ndarray:
    """Extra logits per candidate from what the guidelines say, by meaning (see module doc).

    Args:
        guidelines: the guideline texts as found in the prompt.
        situation: the task and the last lookup, in words; a guideline counts in proportion to
            how close in meaning it is to this.
        descriptions: what sets each candidate move apart, in natural words.
        groups: each candidate's tool; values are compared within a tool.
        embedder: the embedder that measures meaning (of sentences and of single words).
        weights: effect sizes.
    """
    w = weights or ReadingWeights()
    boosts = np.zeros(len(descriptions), dtype=np.float64)
    if not guidelines or not descriptions:
        return boosts
    read = [[(content_words(text), sign) for text, sign in polarity_spans(g)] for g in guidelines]
    options = [content_words(d) for d in descriptions]
    vocabulary = [u for spans in read for ws, _ in spans for u in ws]
    vectors = _word_vectors(embedder, vocabulary + [v for ws in options for v in ws])
    whole = np.asarray(embedder.embed([situation, *guidelines]), dtype=np.float64)
    group_list = list(groups)
    for index, spans in enumerate(read):
        relevance = float(whole[1 + index] @ whole[0])
        gate = float(np.clip((relevance - w.gate_low) / w.gate_span, 0.0, 1.0))
        if gate == 0.0:
            continue
        support = np.array(
            [
                sum(sign * _match(ws, option, vectors, w.synonym) for ws, sign in spans)
                for option in options
            ]
        )
        within, across = _centred(support, group_list)
        boosts += gate * (_squash(within, w) + w.across_tools * _squash(across, w))
    return np.clip(boosts, -w.cap_total, w.cap_total)


def keep_tool_mass(
    logits: np.ndarray, boosts: np.ndarray, groups: Sequence[str], temperature: float
) -> np.ndarray:
    """The boosts shifted per tool so that each tool's total probability stays as it was.

    Boosts centred within a tool still raise that tool's share of the softmax (e^(s+b) +
    e^(s-b) > 2e^s): a guideline about *which* record to use would make the model likelier to
    act at all, a side effect no reader intends. The shift takes it back out, so a guideline
    only moves probability between the calls of one tool (`ReadingWeights.across_tools` is the
    separate, explicit knob for moving it between tools).
    """
    out = boosts.astype(np.float64).copy()
    for group in dict.fromkeys(groups):
        rows = [i for i, g in enumerate(groups) if g == group]
        if len(rows) < 2 or not np.any(out[rows]):
            continue
        before = logits[rows] / temperature
        after = (logits[rows] + out[rows]) / temperature
        shift = np.logaddexp.reduce(after) - np.logaddexp.reduce(before)
        out[rows] -= temperature * shift
    return out


__all__ = [
    "CandidateDescriber",
    "keep_tool_mass",
    "ReadingWeights",
    "field_meanings",
    "guideline_boosts",
    "polarity_spans",
    "summary_of",
]
