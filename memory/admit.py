"""`admit`: the one way a new guideline enters the memory — screen, then dedupe, then store.

Learn, evolve, import and the server paths all call it, so the screen that decides what may be
injected is applied the same way everywhere. A guideline that fails the screen is stored
quarantined (never merged), with the reasons, for a human to read; one that passes is stored
with the status asked for, or merged into a near-duplicate (the merge is screened again, see
`memory/_dedupe.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from oncourse.consistency.guidelines import Guideline
from oncourse.memory._jsonl import read_guidelines
from oncourse.memory.screen import active_reasons
from oncourse.memory.store import GuidelineMemory, ImportReport
from pydantic import BaseModel, Field

AdmitOutcome = Literal["added", "merged", "quarantined"]


class Admission(BaseModel):
    """What happened to one guideline given to `admit`."""

    given_id: str = Field(description="Id of the guideline as given.")
    outcome: AdmitOutcome = Field(description="added, merged (into `guideline.id`) or quarantined.")
    guideline: Guideline = Field(description="The guideline as stored (the merged one on a merge).")

    @property
    def merged_into(self) -> str | None:
        """Id of the guideline it merged into, None when it was not merged."""
        return self.guideline.id if self.outcome == "merged" else None


def admit(
    memory: GuidelineMemory,
    guidelines: Sequence[Guideline],
    status: Literal["proposed", "active"] | None = "proposed",
    allowed_tools: Iterable[str] | None = None,
    dedupe: bool = True,
) -> list[Admission]:
    """Screen, dedupe and store guidelines in one transaction; one `Admission` per guideline.

    Args:
        memory: the store.
        guidelines: new guidelines (ids not yet in the store).
        status: the status a guideline that passes the screen gets (`proposed` to wait for
            validation, `active` to be injected); None keeps each guideline's own status.
        allowed_tools: the task's tool set when known; else tool names in the text are checked
            against the store's known tools.
        dedupe: merge near-duplicates (off: always a new row).
    """
    allowed = None if allowed_tools is None else set(allowed_tools)
    known = memory.known_tools() | {t for g in guidelines for t in g.scope.tools}
    prepared: list[Guideline] = []
    for guideline in guidelines:
        wanted = status or guideline.status
        candidate = guideline.model_copy(update={"status": wanted})
        if wanted in ("proposed", "active"):
            # Active ones are screened by the store itself (the same function), in the
            # transaction, against the store's tools as they are then.
            reasons = (
                []
                if wanted == "active"
                else active_reasons(candidate, allowed, known, memory.embedder)
            )
            if reasons:
                candidate = candidate.model_copy(
                    update={"status": "quarantined", "quarantine_reasons": reasons}
                )
        prepared.append(candidate)
    fresh = [g for g in prepared if g.status != "quarantined"]
    held = [g for g in prepared if g.status == "quarantined"]
    stored = dict(
        zip(
            [g.id for g in fresh],
            memory.add_many(fresh, dedupe=dedupe, allowed_tools=allowed),
            strict=True,
        )
    )
    stored.update(zip([g.id for g in held], memory.add_many(held, dedupe=False), strict=True))
    out = []
    for given in prepared:
        kept = stored[given.id]
        if kept.status == "quarantined" and kept.id == given.id:
            outcome: AdmitOutcome = "quarantined"
        else:
            outcome = "added" if kept.id == given.id else "merged"
        out.append(Admission(given_id=given.id, outcome=outcome, guideline=kept))
    return out


def import_guidelines(
    memory: GuidelineMemory, path: str | Path, allowed_tools: Iterable[str] | None = None
) -> ImportReport:
    """Import a JSONL export through `admit`, keeping each line's status (actives re-screened).

    A line whose id is already stored (or repeated in the file) is skipped.
    """
    report = ImportReport()
    fresh: list[Guideline] = []
    seen: set[str] = set()
    for guideline in read_guidelines(path):
        if guideline.id in seen or guideline.id in memory:
            report.skipped += 1
        else:
            seen.add(guideline.id)
            fresh.append(guideline)
    for admission in admit(memory, fresh, status=None, allowed_tools=allowed_tools):
        if admission.outcome == "added":
            report.added += 1
        elif admission.outcome == "merged":
            report.merged += 1
        else:
            report.quarantined += 1
            report.added += 1
    return report


__all__ = ["Admission", "admit", "import_guidelines"]
