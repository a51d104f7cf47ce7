"""Turning run-specific values into their roles, and finding values a guideline must not quote.

A guideline learned from one user's booking must not say "reservation ZFA04Y" or "Mia Li": it
would be wrong for every other task and it leaks data into later prompts. Values are abstracted by
where they came from (the task text, the preceding observation) and by the argument key that
carries them; short lowercase words ("economy", "one_way") are vocabulary, not data, and stay.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_VOCABULARY = re.compile(r"^[a-z][a-z_ -]{0,23}$")
_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
_GIST_RULES: list[tuple[re.Pattern[str], str]] = [
    # A quoted title or name ("Q3 budget review", "Hiring Plan 2026") is one value, as the
    # triggers write it (`[value]`), not a run of names and numbers.
    (re.compile(r"(?<![\w\"”])[\"“](?=[^\"”\n]*[A-Z0-9])[^\"”\n]{1,80}[\"”]"), '"[value]"'),
    (_EMAIL, "[email]"),
    (re.compile(r"\$\s?\d[\d,]*(\.\d+)?"), "[amount]"),
    (re.compile(rf"\b({_MONTHS})\.? \d{{1,2}}(st|nd|rd|th)?(,? \d{{4}})?\b"), "[date]"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(/\d{2,4})?\b"), "[date]"),
    (re.compile(r"\b\d{1,2}(:\d{2})?\s?(am|pm|AM|PM)\b"), "[time]"),
    (re.compile(rf"\b({_MONTHS})\b"), "[month]"),
    (re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z_])[\w-]+\b"), "[id]"),
    (re.compile(r"\b\d[\d,]*(\.\d+)?\b"), "[number]"),
    (re.compile(r"(?<=[a-z,;(] )[A-Z][a-zA-Z'-]+( [A-Z][a-zA-Z'-]+)*"), "[name]"),
]
_PERSON = [
    (re.compile(r"\bYou are\b"), "The user is"),
    (re.compile(r"\bYou're\b"), "The user is"),
    (re.compile(r"\bYou\b"), "The user"),
    (re.compile(r"\byou are\b"), "the user is"),
    (re.compile(r"\byou\b"), "the user"),
    (re.compile(r"\b[Yy]ourself\b"), "themselves"),
    (re.compile(r"\b[Yy]our\b"), "their"),
    (re.compile(r"\bthe user want\b"), "the user wants"),
    (re.compile(r"\bthe user do\b"), "the user does"),
    (re.compile(r"\bThe user want\b"), "The user wants"),
    (re.compile(r"\band want\b"), "and wants"),
    (re.compile(r"\band do not\b"), "and does not"),
]
_WANT = re.compile(
    r"\b(want|wants|would like|'d like|need|needs|hope|hopes|plan|plans|looking to|trying to|"
    r"wish|wishes)\b",
    re.IGNORECASE,
)
_FIRST_PERSON = [
    (re.compile(r"\bI'm\b|\bI am\b"), "the user is"),
    (re.compile(r"\bI've\b|\bI have\b"), "the user has"),
    (re.compile(r"\bI'd\b"), "the user would"),
    (re.compile(r"\bI'll\b"), "the user will"),
    (re.compile(r"\bI\b"), "the user"),
    (re.compile(r"\b[Mm]yself\b"), "themselves"),
    (re.compile(r"\b[Mm]y\b"), "their"),
    (re.compile(r"\b[Mm]e\b"), "them"),
    (re.compile(r"\b[Oo]ur\b"), "their"),
]
_GREETING = re.compile(
    r"^(hi|hello|hey|good (morning|afternoon|evening))( there)?\s*[,!.]\s*", re.I
)
_AGREE = re.compile(
    r"\b([Tt]he user) (need|want|hope|think|believe|wonder|plan|feel|know|remember|recall|"
    r"prefer|wish|just need|really need)\b"
)


def third_person(text: str) -> str:
    """A user's own words in the third person: "I need my ..." -> "the user needs their ..."."""
    for pattern, replacement in _FIRST_PERSON:
        text = pattern.sub(replacement, text)
    return _AGREE.sub(lambda m: f"{m.group(1)} {m.group(2)}s", text)


def parse_observation(text: Any) -> Any:
    """The observation as JSON when it is JSON text, else unchanged."""
    if isinstance(text, str):
        stripped = text.strip()
        if stripped[:1] in "[{":
            try:
                return json.loads(stripped)
            except ValueError:
                return text
    return text


def leaves(value: Any) -> Iterator[tuple[str | None, Any]]:
    """(key, scalar) pairs of a nested JSON value; the key is the innermost dict key."""
    stack: list[tuple[str | None, Any]] = [(None, value)]
    while stack:
        key, item = stack.pop()
        if isinstance(item, dict):
            stack.extend((str(k), v) for k, v in item.items())
            # Dict keys can be data too (payment ids keyed by id).
            stack.extend((key, str(k)) for k in item if any(c.isdigit() for c in str(k)))
        elif isinstance(item, list | tuple):
            stack.extend((key, v) for v in item)
        else:
            yield key, item


def is_vocabulary(value: Any) -> bool:
    """Short lowercase words such as `economy` or `one_way`: part of a rule, not of a run."""
    return isinstance(value, str) and bool(_VOCABULARY.match(value)) and not _EMAIL.search(value)


def specific_values(values: Iterable[Any]) -> set[str]:
    """The run-specific strings among scalars: ids, names, e-mails, dates, amounts >= 10."""
    out: set[str] = set()
    for value in values:
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int | float):
            if abs(value) >= 10:
                out.add(f"{value:g}" if isinstance(value, float) else str(value))
                if isinstance(value, float) and value.is_integer():
                    out.add(str(int(value)))
            continue
        text = str(value).strip()
        if len(text) < 3 or is_vocabulary(text) or len(text) > 80:
            continue
        if any(c.isdigit() for c in text) or "@" in text or text[:1].isupper():
            out.add(text)
    return out


def quoted_values(text: str, values: Iterable[str]) -> list[str]:
    """Which of `values` occur in `text` as whole words (case-insensitive)."""
    found = []
    for value in values:
        if re.search(rf"(?<![\w@.]){re.escape(value)}(?![\w@])", text, flags=re.IGNORECASE):
            found.append(value)
    return sorted(found)


def scrub(text: str, values: Iterable[str]) -> str:
    """Replace every occurrence of the given values by `[value]` (longest first)."""
    for value in sorted(values, key=len, reverse=True):
        text = re.sub(
            rf"(?<![\w@.]){re.escape(value)}(?![\w@])", "[value]", text, flags=re.IGNORECASE
        )
    return text


def task_gist(task: str, max_words: int = 24) -> str:
    """The request of a task in the third person with its values abstracted to roles.

    "You are mia_li_3668. You want to fly from New York to Seattle on May 20." becomes
    "The user wants to fly from [name] to [name] on [date]."
    """
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", task.strip()) if s.strip()]
    # A greeting ("Hi!", "Hello there!") says nothing about the task.
    sentences = [_GREETING.sub("", s) for s in sentences if len(s.split()) > 2] or sentences
    chosen = next((s for s in sentences if _WANT.search(s)), None)
    if chosen is None:
        chosen = next((s for s in sentences if not s.lower().startswith("you are")), "")
    chosen = third_person(chosen)
    for pattern, role in _GIST_RULES:
        chosen = pattern.sub(role, chosen)
    for pattern, replacement in _PERSON:
        chosen = pattern.sub(replacement, chosen)
    words = chosen.split()
    if len(words) > max_words:
        chosen = " ".join(words[:max_words]).rstrip(",;:") + " …"
    return chosen.rstrip(".")


def value_role(
    key: str, value: Any, task: str, observation: Any, observation_tool: str | None
) -> str:
    """How a guideline should name an argument value: by where it came from, never by itself."""
    label = key.replace("_", " ")
    if isinstance(value, dict | list):
        return f"the {label}"
    if is_vocabulary(value):
        return f"{label} '{value}'"
    text = str(value)
    if isinstance(value, float) and value.is_integer():
        text = str(int(value))
    if len(text) >= 2 and text.lower() in task.lower():
        return f"the {label} stated in the task"
    observed = {str(v) for _, v in leaves(observation)} | {str(k) for k, _ in leaves(observation)}
    if text in observed or (
        len(text) >= 4 and isinstance(observation, str) and text in observation
    ):
        if observation_tool == "respond":
            return f"the {label} the user gave"
        source = f"the {observation_tool} result" if observation_tool else "the last observation"
        field, mark = observed_field(text, observation)
        if field and field != key:
            source = f"the {field} field of {source}"
        return f"the {label} from {source}{mark}"
    return f"{'an' if label[:1] in 'aeiou' else 'a'} {label}"


def observed_field(text: str, observation: Any) -> tuple[str | None, str]:
    """Where a value sits in an observation: its field, and what sets its record apart.

    Returns the field name holding the value and, when the observation lists several records,
    " whose <field> is '<word>'" for a vocabulary field in which that record differs from all
    the others (a status such as 'open' vs 'paid'), else "". Data values (names, ids,
    addresses) are never named; only vocabulary words are.
    """
    records = observation if isinstance(observation, list) else [observation]
    records = [r for r in records if isinstance(r, dict)]
    for record in records:
        for field, value in record.items():
            if isinstance(value, dict | list) or str(value) != text:
                continue
            others = [r for r in records if r is not record]
            marks = [
                f" whose {k.replace('_', ' ')} is '{v}'"
                for k, v in record.items()
                if others
                and not str(k).lower().endswith("id")
                and is_vocabulary(v)
                and all(o.get(k) != v for o in others)
            ]
            return str(field), (marks[0] if marks else "")
    return None, ""
