"""The storage protocol behind `GuidelineMemory`: rows, statuses, counters, versions.

A backend stores one row per guideline: its id, its status, the guideline record (JSON, with
provenance and counters) and its unit embedding vector. Every row also has a `vec_id`, an integer
the backend assigns on insert that only ever grows (SQLite AUTOINCREMENT, a Postgres identity
column): the faiss index is a per-host cache keyed by `vec_id`, so catching up with other writers
is reading the rows above the highest `vec_id` it covers. A guideline whose text changes is
deleted and re-inserted under a new `vec_id`.

Each write transaction bumps the store's `version` (a meta row), which a cache records to tell
whether it is current. Meta also holds `schema_version`, `store_uuid` (the cache's owner) and
`embedder` (the embedding space, e.g. `all-MiniLM-L6-v2/384`).

The SQLite file (`memory/_sqlite.py`) is one implementation; a second backend (Postgres) provides
the same two protocols and registers its URL scheme in `BACKENDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from oncourse.consistency.guidelines import Guideline


class StoreSession(Protocol):
    """One transaction on a store: a read snapshot, or a write that commits as a whole."""

    def get_meta(self, key: str) -> str | None:
        """A meta value (schema_version, store_uuid, embedder, version), None when unset."""
        ...

    def set_meta(self, key: str, value: str) -> None:
        """Set a meta value (write sessions only)."""
        ...

    def get(self, guideline_id: str) -> Guideline | None:
        """The guideline with this id, or None."""
        ...

    def insert(self, guideline: Guideline, vector: np.ndarray) -> int:
        """Add a row with its unit vector; returns the new, never reused, `vec_id`."""
        ...

    def replace(self, guideline: Guideline) -> None:
        """Overwrite the record and status of an existing row (same text, same vector)."""
        ...

    def delete(self, guideline_id: str) -> bool:
        """Delete a row; False when there was none."""
        ...

    def statuses(self, vec_ids: Sequence[int]) -> dict[int, str]:
        """Status of each of these rows that still exists."""
        ...

    def records(self, vec_ids: Sequence[int]) -> dict[int, Guideline]:
        """The guideline of each of these rows that still exists."""
        ...

    def rows(self, statuses: set[str] | None = None) -> list[Guideline]:
        """Every guideline (of these statuses, or all), oldest first."""
        ...

    def vectors_above(self, vec_id: int) -> tuple[np.ndarray, np.ndarray]:
        """(vec_ids, vectors) of the rows above this `vec_id`, in order."""
        ...

    def count(self, up_to: int | None = None) -> int:
        """Number of rows (with `vec_id <= up_to` when given)."""
        ...

    def max_vec_id(self) -> int:
        """The highest `vec_id` of a row, 0 when the store is empty."""
        ...


class StorageBackend(Protocol):
    """Where guideline rows live; opened lazily, nothing touched in the constructor."""

    location: str
    """The store's path or URL, for messages."""
    cache_path: Path | None
    """Where this host keeps the faiss cache file (None: keep it in memory only)."""

    @property
    def read_only(self) -> bool:
        """True when the store is opened for reading only (writes raise MemoryStoreError)."""
        ...

    def exists(self) -> bool:
        """True when the store has been created (reads on a missing store are empty)."""
        ...

    def read(self) -> AbstractContextManager[StoreSession]:
        """A read transaction (a consistent snapshot); never writes anything."""
        ...

    def write(self) -> AbstractContextManager[StoreSession]:
        """One write transaction, serialized with every other writer, that bumps `version`."""
        ...

    def cache_lock(self) -> AbstractContextManager[None]:
        """Held while this host's cache file is written or its temp files are cleaned."""
        ...

    def integrity(self) -> list[str]:
        """Problems the engine's own consistency check reports ([] when none)."""
        ...

    def close(self) -> None:
        """Release connections and locks."""
        ...


BackendFactory = Callable[..., StorageBackend]


def _sqlite(location: str | Path, **options: Any) -> StorageBackend:
    from oncourse.memory._sqlite import SQLiteBackend

    return SQLiteBackend(Path(location), **options)


def _postgres(location: str | Path, **options: Any) -> StorageBackend:
    from oncourse.memory._postgres import PostgresBackend

    return PostgresBackend(str(location), **options)


BACKENDS: dict[str, BackendFactory] = {"file": _sqlite, "postgresql": _postgres}
"""URL scheme -> backend factory; a plain path is `file`. A server backend registers here."""


def open_backend(location: str | Path, **options: Any) -> StorageBackend:
    """The backend for a path or URL (`postgresql://...` once a Postgres backend registers)."""
    text = str(location)
    scheme = text.split("://", 1)[0].lower() if "://" in text else "file"
    if scheme.startswith("postgres"):
        scheme = "postgresql"
    factory = BACKENDS.get(scheme)
    if factory is None:
        from oncourse.consistency.errors import MemoryStoreError

        raise MemoryStoreError(
            f"{text}: no guideline store backend for {scheme}:// (known: {sorted(BACKENDS)})"
        )
    return factory(text[len("file://") :] if text.startswith("file://") else location, **options)


def store_exists(location: str | Path) -> bool:
    """True when a store has been created at this path or URL (creates nothing)."""
    backend = open_backend(location, read_only=True)
    try:
        return backend.exists()
    finally:
        backend.close()


__all__ = ["BACKENDS", "StorageBackend", "StoreSession", "open_backend", "store_exists"]
