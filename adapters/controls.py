"""Control arms for an eval: what the memory arm would inject, with the lesson taken out.

A lift over the baseline can come from *any* text in the prompt (more context, a nudge to be
careful), not from what the guidelines say. The controls keep everything but the content:

- `placebo`: on the same tasks, the same number of guidelines with the same triggers (the same
  retrieval decides), each instruction replaced by generic advice of about the same token length.
- `shuffled`: on the same tasks, each retrieved guideline keeps its trigger but carries the
  instruction of another stored guideline (a fixed rotation), so real lessons land on the wrong
  situations.

A control is a memory hook (the agent loop's seam), so the runner, its seeds and its files are
the same as for the memory arm.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from oncourse.consistency.errors import InputError
from oncourse.consistency.guidelines import Guideline

CONTROLS = ("placebo", "shuffled")
"""The control arms an eval can run next to the memory arm."""

PLACEBO_ADVICE = (
    "Read the request carefully before you start.",
    "Take one step at a time and do not rush.",
    "Keep your answer brief and polite.",
    "Think about what the user is asking for.",
    "Stay calm and work through the request in order.",
    "Be clear and courteous in what you write.",
    "Do not guess when you can look something up.",
    "Tell the user plainly what you did.",
)
"""Generic advice with no lesson in it: what a placebo guideline says."""

Hook = Callable[[str, Sequence[str] | None], tuple[str, list[str]]]


def _count(text: str) -> int:
    from oncourse.memory.embedding import count_tokens

    return count_tokens(text)


def placebo_instruction(guideline: Guideline, count: Callable[[str], int] = _count) -> str:
    """Generic advice about as long (in tokens) as the guideline's instruction, fixed per text."""
    target = count(guideline.instruction)
    start = int(_content_key(guideline), 16) % len(PLACEBO_ADVICE)
    sentences: list[str] = []
    for step in range(4 * len(PLACEBO_ADVICE)):
        candidate = PLACEBO_ADVICE[(start + step) % len(PLACEBO_ADVICE)]
        longer = " ".join([*sentences, candidate])
        if sentences and abs(count(longer) - target) > abs(count(" ".join(sentences)) - target):
            break
        sentences.append(candidate)
    return " ".join(sentences)


def _content_key(guideline: Guideline) -> str:
    """A digest of what the guideline says (its trigger and instruction).

    Ids are random, so ordering by them would make the controls differ between two runs of the
    same command on the same learned content.
    """
    return hashlib.sha256(f"{guideline.trigger}\n{guideline.instruction}".encode()).hexdigest()


def shuffled_instructions(guidelines: Sequence[Guideline]) -> dict[str, str]:
    """Guideline id -> the instruction of the next guideline in content order (a rotation)."""
    ordered = sorted(guidelines, key=lambda g: (_content_key(g), g.id))
    if len(ordered) < 2:
        return {g.id: g.instruction for g in ordered}
    return {g.id: ordered[(i + 1) % len(ordered)].instruction for i, g in enumerate(ordered)}


def control_hook(memory_path: str | Path, control: str, embedder: Any = None) -> Hook:
    """A memory hook that retrieves as the memory arm does and injects the control's text."""
    if control not in CONTROLS:
        raise InputError(f"unknown control {control!r}; use one of {', '.join(CONTROLS)}")
    from oncourse.memory.inject import HEADER, inject, render_guideline
    from oncourse.memory.store import GuidelineMemory

    memory = GuidelineMemory(memory_path, embedder=embedder)
    active = memory.all(status="active")
    swapped = (
        shuffled_instructions(active)
        if control == "shuffled"
        else {g.id: placebo_instruction(g) for g in active}
    )

    def hook(task_text: str, tool_names: Sequence[str] | None = None) -> tuple[str, list[str]]:
        chosen = inject(memory, task_text, "", tools=tool_names)
        if not chosen.guideline_ids:
            return "", []
        by_id = {g.id: g for g in active}
        entries = [
            render_guideline(i + 1, by_id[gid].model_copy(update={"instruction": swapped[gid]}))
            for i, gid in enumerate(chosen.guideline_ids)
        ]
        return "\n".join([HEADER, *entries]), list(chosen.guideline_ids)

    return hook


def parse_controls(text: str) -> list[str]:
    """`placebo,shuffled` -> the control names, checked; an empty text means none."""
    names = [c.strip() for c in text.split(",") if c.strip() and c.strip() != "none"]
    unknown = [c for c in names if c not in CONTROLS]
    if unknown:
        raise InputError(f"unknown control {unknown[0]!r}; use {', '.join(CONTROLS)} or none")
    return list(dict.fromkeys(names))


__all__ = [
    "CONTROLS",
    "PLACEBO_ADVICE",
    "control_hook",
    "parse_controls",
    "placebo_instruction",
    "shuffled_instructions",
]
