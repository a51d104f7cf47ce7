"""Nearest guidelines: ask the index for a few more than k, filter, widen only when needed."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from oncourse.consistency.errors import MemoryStoreError
from oncourse.consistency.guidelines import GUIDELINE_STATUSES, Guideline, GuidelineStatus
from oncourse.memory._index import VectorIndex
from oncourse.memory.backend import StoreSession
from pydantic import BaseModel, Field


class SearchHit(BaseModel):
    """One retrieved guideline and its cosine similarity to the query."""

    guideline: Guideline = Field(description="The stored guideline.")
    similarity: float = Field(description="Cosine similarity to the query, in [-1, 1].")


Keep = Callable[[Guideline], bool]


def _filter(
    session: StoreSession,
    scores: np.ndarray,
    ids: np.ndarray,
    k: int,
    min_similarity: float,
    statuses: set[str] | None,
    keep: Keep,
) -> list[SearchHit]:
    """The first k hits (best first) that pass the filters; records are decoded lazily."""
    wanted = [(float(s), int(v)) for s, v in zip(scores, ids, strict=True) if v >= 0]
    wanted = [(s, v) for s, v in wanted if s >= min_similarity]
    if not wanted:
        return []
    # Statuses first (they are small), records for the survivors only, a few at a time: most
    # searches decode just k records.
    statuses_of = session.statuses([v for _, v in wanted])
    candidates = [
        (similarity, vec_id)
        for similarity, vec_id in wanted
        if vec_id in statuses_of and (statuses is None or statuses_of[vec_id] in statuses)
    ]
    hits: list[SearchHit] = []
    for start in range(0, len(candidates), k):
        part = candidates[start : start + k]
        records = session.records([v for _, v in part])
        for similarity, vec_id in part:
            guideline = records.get(vec_id)
            if guideline is not None and keep(guideline):
                hits.append(SearchHit(guideline=guideline, similarity=similarity))
                if len(hits) == k:
                    return hits
    return hits


def collect_hits(
    session: StoreSession,
    index: VectorIndex,
    vectors: np.ndarray,
    k: int,
    min_similarity: float,
    statuses: set[str] | None,
    keep: Keep,
) -> list[list[SearchHit]]:
    """Top-k hits per query vector; the index is asked again, wider, when filters ate too many."""
    fetch = min(index.ntotal, max(4 * k, 32))
    scores, ids = index.search(vectors, fetch)
    out = []
    for row, vector in enumerate(vectors):
        hits = _filter(session, scores[row], ids[row], k, min_similarity, statuses, keep)
        wider = fetch
        last = scores[row][-1] if len(scores[row]) else -1.0
        while len(hits) < k and wider < index.ntotal and last >= min_similarity:
            wider = min(index.ntotal, wider * 4)
            s, i = index.search(vector.reshape(1, -1), wider)
            hits = _filter(session, s[0], i[0], k, min_similarity, statuses, keep)
            last = s[0][-1] if len(s[0]) else -1.0
        out.append(hits)
    return out


def as_rows(vectors: np.ndarray) -> np.ndarray:
    """Query vectors as a 2-D float32 array."""
    array = np.asarray(vectors, dtype=np.float32)
    return array.reshape(-1, array.shape[-1])


def statuses_of(status: GuidelineStatus | Iterable[GuidelineStatus] | None) -> set[str] | None:
    """The statuses asked for as a set (None: all); MemoryStoreError for an unknown one."""
    if status is None:
        return None
    chosen: set[str] = {status} if isinstance(status, str) else set(status)
    unknown = chosen - set(GUIDELINE_STATUSES)
    if unknown:
        raise MemoryStoreError(f"unknown status {sorted(unknown)}; use {list(GUIDELINE_STATUSES)}")
    return chosen


def in_scope(guideline: Guideline, tools: set[str] | None, family: str | None) -> bool:
    """True when a guideline's scope fits the task's tools and family."""
    if tools is not None and not set(guideline.scope.tools) <= tools:
        return False
    return not (
        family is not None and guideline.scope.families and family not in guideline.scope.families
    )


__all__ = ["SearchHit", "as_rows", "collect_hits", "in_scope", "statuses_of"]
