"""Status changes and counters of stored guidelines (part of `GuidelineMemory`).

A change that makes a guideline active (activate, or an update of status or text) passes the
same safety screen as `admit`; `force` is for a human who has read the text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from oncourse.consistency.errors import MemoryStoreError
from oncourse.consistency.guidelines import Guideline
from pydantic import ValidationError

if TYPE_CHECKING:
    import numpy as np
    from oncourse.memory._index import IndexCache
    from oncourse.memory.backend import StorageBackend, StoreSession
    from oncourse.memory.store import GuidelineMemory


class LifecycleMixin:
    """Update, activate, retire, quarantine, remove, and outcome counters."""

    if TYPE_CHECKING:
        backend: StorageBackend
        _cache: IndexCache

        def _write(self) -> WriteTransaction: ...
        def _embed(self, texts: list[str]) -> np.ndarray: ...
        def _check_embedder(self, session: StoreSession, dim: int) -> None: ...
        def _insert(
            self, session: StoreSession, guideline: Guideline, vector: np.ndarray
        ) -> int: ...
        def _known_tools(self, session: StoreSession) -> set[str]: ...
        def _remember_tools(
            self, session: StoreSession, guidelines: Iterable[Guideline]
        ) -> None: ...
        def _screen_active(
            self, guideline: Guideline, allowed: set[str] | None, known: set[str]
        ) -> Guideline: ...

    def _mutate(
        self,
        guideline_id: str,
        change: Callable[[Guideline], Guideline],
        allowed_tools: Iterable[str] | None = None,
        force: bool = False,
    ) -> Guideline:
        allowed = None if allowed_tools is None else set(allowed_tools)
        with self._write() as session:
            current = session.get(guideline_id)
            if current is None:
                raise MemoryStoreError(f"{self.backend.location}: no guideline {guideline_id}")
            updated = change(current)
            becomes_active = updated.status == "active" and (
                current.status != "active" or updated.text() != current.text()
            )
            if becomes_active and not force:
                known = self._known_tools(session) | set(updated.scope.tools)
                updated = self._screen_active(updated, allowed, known)
            if updated.text() != current.text():
                # New text, new vector: re-insert under a new vec_id; the old one is a tombstone.
                vector = self._embed([updated.text()])
                self._check_embedder(session, vector.shape[1])
                session.delete(guideline_id)
                self._cache.tombstones_added = True
                self._insert(session, updated, vector[0])
            else:
                session.replace(updated)
            self._remember_tools(session, [updated])
            return updated

    def update(self, guideline_id: str, **changes: Any) -> Guideline:
        """Change fields of a guideline (validated); new text is re-embedded and re-screened."""
        if "id" in changes:
            raise MemoryStoreError("a guideline's id cannot be changed")

        def change(current: Guideline) -> Guideline:
            try:
                return Guideline.model_validate({**current.model_dump(), **changes})
            except ValidationError as exc:
                raise MemoryStoreError(f"invalid update of {guideline_id}: {exc}") from exc

        return self._mutate(guideline_id, change)

    def activate(
        self,
        guideline_id: str,
        allowed_tools: Iterable[str] | None = None,
        force: bool = False,
    ) -> Guideline:
        """Make a guideline active after the safety screen; a failing one is quarantined.

        Raises MemoryStoreError (after quarantining it) when the screen finds something, unless
        `force` is set by a human who has read it.
        """
        updated = self._mutate(
            guideline_id,
            lambda g: g.model_copy(update={"status": "active", "quarantine_reasons": []}),
            allowed_tools,
            force,
        )
        if updated.status != "active":
            raise MemoryStoreError(
                f"guideline {guideline_id} failed the safety screen and was quarantined: "
                + "; ".join(updated.quarantine_reasons)
            )
        return updated

    def retire(self, guideline_id: str) -> Guideline:
        """Stop injecting a guideline (kept for its provenance and counters)."""
        return self._mutate(guideline_id, lambda g: g.model_copy(update={"status": "retired"}))

    def quarantine(self, guideline_id: str, reasons: Sequence[str] = ()) -> Guideline:
        """Set a guideline aside for a human to read, with the reasons why."""
        return self._mutate(
            guideline_id,
            lambda g: g.model_copy(
                update={"status": "quarantined", "quarantine_reasons": list(reasons)}
            ),
        )

    def remove(self, guideline_id: str) -> None:
        """Delete a guideline for good."""
        with self._write() as session:
            if not session.delete(guideline_id):
                raise MemoryStoreError(f"{self.backend.location}: no guideline {guideline_id}")
            self._cache.tombstones_added = True

    def record_injection(self, guideline_ids: Iterable[str]) -> None:
        """Count one injection for each of these guidelines (unknown ids are ignored)."""
        ids = list(dict.fromkeys(guideline_ids))
        if not ids:
            return
        with self._write() as session:
            for guideline_id in ids:
                current = session.get(guideline_id)
                if current is not None:
                    current.counters.injected += 1
                    session.replace(current)

    def record_outcome(self, guideline_id: str, success: bool, injected: bool) -> Guideline:
        """Count one task outcome for a guideline, with or without it injected."""

        def change(current: Guideline) -> Guideline:
            updated = current.model_copy(deep=True)
            count = (
                updated.counters.outcomes_with if injected else updated.counters.outcomes_without
            )
            count.runs += 1
            count.successes += int(success)
            return updated

        return self._mutate(guideline_id, change)


class WriteTransaction:
    """The store's write transaction: drops the in-memory index when it rolls back."""

    def __init__(self, memory: GuidelineMemory):
        self.memory = memory
        self._context: AbstractContextManager[StoreSession] | None = None

    def __enter__(self) -> StoreSession:
        self.memory._lock.acquire()
        try:
            context = self.memory.backend.write()
            session = context.__enter__()
            self._context = context
        except BaseException:
            self.memory._lock.release()
            raise
        self.memory._writing = session
        return session

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        try:
            if kind is not None:
                # The in-memory index may hold vectors of rows that were rolled back.
                self.memory._cache.drop()
                self.memory._meta_cache.clear()
            try:
                if self._context is not None:
                    self._context.__exit__(kind, exc, tb)
            except BaseException:
                self.memory._cache.drop()
                self.memory._meta_cache.clear()
                raise
        finally:
            self.memory._writing = None
            self.memory._lock.release()
