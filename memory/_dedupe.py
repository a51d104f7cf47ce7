"""Dedupe: a new guideline whose text is a near-duplicate of a stored one merges into it.

Only proposed and active guidelines absorb new ones, and never across conflicting scopes. A merge
keeps one text. When the merge makes the guideline active, the text kept is one that has passed
the screen as active: a proposed (never screened) text cannot ride into an active guideline on
the back of an active near-duplicate. The merged text is screened again with the merged scope;
when it fails, the two are not merged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from oncourse.consistency.guidelines import Guideline
from oncourse.memory.backend import StoreSession

MERGEABLE = ("proposed", "active")

Screen = Callable[[Guideline], list[str]]
"""Reasons a guideline may not be active ([] when it may)."""


def candidates_for(
    i: int,
    neighbours: tuple[np.ndarray, np.ndarray] | None,
    within: np.ndarray | None,
    new_ids: Sequence[int],
    threshold: float,
) -> list[tuple[float, int]]:
    """(cosine, vec_id) of possible merge targets of batch item i: stored rows and earlier items."""
    found: list[tuple[float, int]] = []
    if neighbours is not None:
        found += [
            (float(s), int(v)) for s, v in zip(neighbours[0][i], neighbours[1][i], strict=True)
        ]
    if within is not None:
        close = np.nonzero(within[i, :i] >= threshold)[0]
        found += [(float(within[i, j]), int(new_ids[int(j)])) for j in close]
    return found


def merge(existing: Guideline, new: Guideline) -> Guideline:
    """The guideline both become: one text, every provenance, the union of scopes.

    The result is active when either was. Its text is the existing one's, unless the result is
    active and only the new one was active: then the new (screened) text is kept.
    """
    status = "active" if "active" in (existing.status, new.status) else existing.status
    base = existing
    if status == "active" and existing.status != "active":
        base = existing.model_copy(
            update={
                "instruction": new.instruction,
                "trigger": new.trigger,
                "rationale": new.rationale,
            }
        )
    return base.model_copy(
        update={
            "provenance": [*existing.provenance, *new.provenance],
            "scope": existing.scope.union(new.scope),
            "status": status,
            "quarantine_reasons": [],
        }
    )


def merge_target(
    session: StoreSession,
    guideline: Guideline,
    candidates: list[tuple[float, int]],
    threshold: float,
    screen: Screen,
) -> tuple[Guideline, Guideline] | None:
    """(existing, merged) for the closest mergeable row whose merge passes the screen, or None."""
    ranked = [(s, v) for s, v in sorted(candidates, reverse=True) if s >= threshold and v >= 0]
    if not ranked:
        return None
    statuses = session.statuses([v for _, v in ranked])
    wanted = [v for _, v in ranked if statuses.get(v) in MERGEABLE]
    records = session.records(wanted) if wanted else {}
    for vec_id in wanted:
        existing = records.get(vec_id)
        if existing is None or existing.scope.conflicts_with(guideline.scope):
            continue
        merged = merge(existing, guideline)
        if merged.status == "active" and screen(merged):
            continue
        return existing, merged
    return None


__all__ = ["MERGEABLE", "candidates_for", "merge", "merge_target"]
