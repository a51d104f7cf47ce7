"""The episodic guideline memory: a thin facade over a storage backend and a faiss cache.

The rows (records, statuses, counters, vectors) live in a `StorageBackend` (`memory/backend.py`):
one SQLite file by default (`memory/_sqlite.py`). The faiss index is a per-host cache of the
stored vectors (`memory/_index.py`), checked against the rows on open and caught up with rows
other processes commit. Dedupe and merge rules are in `memory/_dedupe.py`. Every way a guideline
becomes active (add, merge, update, activate, import) passes the safety screen
(`memory/screen.py`); `memory.admit.admit` is the one entry point for new guidelines.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import numpy as np
from oncourse.consistency.errors import MemoryStoreError
from oncourse.consistency.guidelines import Guideline, GuidelineStatus
from oncourse.consistency.text import TextEmbedder, unit_rows
from oncourse.memory._dedupe import MERGEABLE, candidates_for, merge_target
from oncourse.memory._index import IndexCache, VectorIndex
from oncourse.memory._jsonl import write_guidelines
from oncourse.memory._lifecycle import LifecycleMixin, WriteTransaction
from oncourse.memory._search import SearchHit, as_rows, collect_hits, in_scope, statuses_of
from oncourse.memory.backend import StorageBackend, StoreSession, open_backend
from oncourse.memory.screen import active_reasons
from pydantic import BaseModel, Field

_TRUSTED = {"active", "retired"}
"""Statuses whose scope tools count as the store's known tools (they passed the screen)."""


class ImportReport(BaseModel):
    """What an import did."""

    added: int = Field(default=0, description="New guidelines stored.")
    merged: int = Field(default=0, description="Lines merged into an existing near-duplicate.")
    skipped: int = Field(default=0, description="Lines whose id was already in the store.")
    quarantined: int = Field(default=0, description="Lines the safety screen set aside.")


def _embedder_name(embedder: Any) -> str:
    return str(getattr(embedder, "name", type(embedder).__name__))


class GuidelineMemory(LifecycleMixin):
    """Guidelines in a store with retrieval by embedding similarity.

    Args:
        path: the SQLite file (its cache `<path>.faiss` and lock `<path>.lock` live beside it),
            or a URL a registered backend understands.
        embedder: any `TextEmbedder`; defaults to the packaged all-MiniLM-L6-v2 (loaded lazily).
        dedupe_threshold: cosine at or above which an added guideline merges into an existing one.
        hnsw_threshold: above this many vectors the index is HNSW instead of exact flat search.
        lock_timeout: seconds to wait for another process's write before giving up.
        read_only: open for reading only (None: decide from the file's permissions).
        backend: a ready `StorageBackend` instead of `path`'s.

    Nothing is opened until the first operation.
    """

    def __init__(
        self,
        path: str | Path,
        embedder: TextEmbedder | None = None,
        dedupe_threshold: float = 0.9,
        hnsw_threshold: int = 20_000,
        lock_timeout: float = 60.0,
        read_only: bool | None = None,
        backend: StorageBackend | None = None,
    ):
        self.path = Path(path)
        self.backend: StorageBackend = backend or open_backend(
            path, lock_timeout=lock_timeout, read_only=read_only
        )
        self.index_path = self.backend.cache_path
        self.dedupe_threshold = dedupe_threshold
        self.hnsw_threshold = hnsw_threshold
        self._embedder = embedder
        self._cache = IndexCache(self.index_path, hnsw_threshold)
        self._meta_cache: dict[str, str] = {}
        self._wrote = False
        self._opened = False
        self._lock = threading.RLock()

    # -- opening and closing -------------------------------------------------------------------

    @property
    def embedder(self) -> TextEmbedder:
        """The embedder in use (the MiniLM model is created on first need)."""
        if self._embedder is None:
            from oncourse.memory.embedding import MiniLMEmbedder

            self._embedder = MiniLMEmbedder()
        return self._embedder

    @property
    def read_only(self) -> bool:
        """True when this store is opened for reading only."""
        return self.backend.read_only

    def _exists(self) -> bool:
        return self.backend.exists()

    def _read(self) -> AbstractContextManager[StoreSession]:
        self._on_open()
        return self.backend.read()

    def _on_open(self) -> None:
        # A save killed midway leaves `<cache>.<random>.tmp`; saves happen under the cache lock,
        # so under it no save is running and every temp file is an orphan.
        if self._opened:
            return
        self._opened = True
        if not self.backend.read_only and self._exists() and self._cache.temp_files():
            with self.backend.cache_lock():
                self._cache.clean_temp_files()

    def _write(self) -> WriteTransaction:
        self._on_open()
        self._wrote = True
        return WriteTransaction(self)

    def close(self) -> None:
        """Save the index cache (when this handle wrote) and release the backend."""
        with self._lock:
            try:
                if self._wrote and not self.backend.read_only:
                    self._save_cache(force=False)
            finally:
                self._wrote = False
                self._opened = False
                self.backend.close()
                self._cache.drop()
                self._meta_cache.clear()

    def _save_cache(self, force: bool) -> None:
        try:
            with self.backend.cache_lock(), self.backend.read() as session:
                self._cache.current(session, self._fingerprint(session))
                state = {
                    **self._fingerprint(session),
                    "version": session.get_meta("version"),
                    "rows": session.count(),
                }
                self._cache.save(state, force=force)
        except OSError as exc:
            # The rows are the truth; a cache that cannot be written is rebuilt next time.
            if force:
                raise MemoryStoreError(
                    f"{self.index_path}: cannot write the index ({exc})"
                ) from exc
        except MemoryStoreError:
            # Closing after a write must not fail on the cache (a lock held too long by
            # another writer, a store that became unreadable): the next open rebuilds it.
            if force:
                raise

    def __enter__(self) -> GuidelineMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- vectors and the index -----------------------------------------------------------------

    def _meta(self, session: StoreSession, key: str) -> str | None:
        # store_uuid and embedder never change once set, so they are read once per handle.
        if key in self._meta_cache:
            return self._meta_cache[key]
        value = session.get_meta(key)
        if value is not None and key in ("store_uuid", "embedder"):
            self._meta_cache[key] = value
        return value

    def _fingerprint(self, session: StoreSession) -> dict[str, Any]:
        return {
            "store_uuid": self._meta(session, "store_uuid"),
            "embedder": self._meta(session, "embedder"),
        }

    def _embed(self, texts: list[str]) -> np.ndarray:
        return unit_rows(self.embedder.embed(texts))

    def _check_embedder(self, session: StoreSession, dim: int, embedded: bool = True) -> None:
        stored = self._meta(session, "embedder")
        if not embedded:
            if stored is not None and not stored.endswith(f"/{dim}"):
                raise MemoryStoreError(
                    f"{self.backend.location}: query vectors do not match {stored}"
                )
            return
        name = f"{_embedder_name(self.embedder)}/{dim}"
        if stored is None:
            if not self.backend.read_only and session is self._writing:
                session.set_meta("embedder", name)
        elif stored != name:
            raise MemoryStoreError(
                f"{self.backend.location}: store was built with embedder {stored}, not {name}; "
                "open it with the same embedder (or export and re-import)"
            )

    _writing: StoreSession | None = None

    def _index(self, session: StoreSession) -> VectorIndex | None:
        """The index, caught up with every committed row (other processes' included)."""
        return self._cache.current(session, self._fingerprint(session))

    def save_index(self) -> None:
        """Write the index cache file now (writers also write it on `close`)."""
        with self._lock:
            self._save_cache(force=True)

    def index_info(self) -> dict[str, Any]:
        """Kind, size and byte size of the index (for benchmarks and `memory ls`)."""
        with self._lock:
            if not self._exists():
                return {"kind": None, "ntotal": 0, "bytes": 0}
            with self._read() as session:
                index = self._index(session)
            if index is None:
                return {"kind": None, "ntotal": 0, "bytes": 0}
            return {"kind": index.kind, "ntotal": index.ntotal, "bytes": index.nbytes()}

    # -- the screen ----------------------------------------------------------------------------

    def _known_tools(self, session: StoreSession) -> set[str]:
        stored = session.get_meta("tools")
        if stored is not None:
            return set(json.loads(stored))
        return {t for g in session.rows(_TRUSTED) for t in g.scope.tools}

    def _remember_tools(self, session: StoreSession, guidelines: Iterable[Guideline]) -> None:
        known = self._known_tools(session)
        new = {t for g in guidelines if g.status in _TRUSTED for t in g.scope.tools}
        if new - known or session.get_meta("tools") is None:
            session.set_meta("tools", json.dumps(sorted(known | new)))

    def _screen_active(
        self, guideline: Guideline, allowed: set[str] | None, known: set[str]
    ) -> Guideline:
        """The guideline if it may be active, else quarantined with the reasons."""
        if guideline.status != "active":
            return guideline
        reasons = active_reasons(guideline, allowed, known, self.embedder)
        if not reasons:
            return guideline
        return guideline.model_copy(update={"status": "quarantined", "quarantine_reasons": reasons})

    # -- add and dedupe ------------------------------------------------------------------------

    def add(
        self, guideline: Guideline, dedupe: bool = True, allowed_tools: Iterable[str] | None = None
    ) -> Guideline:
        """Store a guideline, or merge it into a near-duplicate; returns the stored guideline.

        A merge happens when an existing proposed or active guideline has cosine similarity at
        or above `dedupe_threshold` and a scope that does not conflict (see `memory/_dedupe.py`).
        An active guideline passes the safety screen first, else it is stored quarantined.
        Compare the returned id with the given one to tell a merge from a new record.
        """
        return self.add_many([guideline], dedupe=dedupe, allowed_tools=allowed_tools)[0]

    def add_many(
        self,
        guidelines: Sequence[Guideline],
        dedupe: bool = True,
        chunk: int = 1000,
        allowed_tools: Iterable[str] | None = None,
    ) -> list[Guideline]:
        """Store many guidelines in one transaction (embedding them in batches)."""
        if not guidelines:
            return []
        allowed = None if allowed_tools is None else set(allowed_tools)
        vectors = self._embed([g.text() for g in guidelines])
        stored: list[Guideline] = []
        with self._write() as session:
            self._check_embedder(session, vectors.shape[1])
            known = self._known_tools(session) | {t for g in guidelines for t in g.scope.tools}
            screened = [self._screen_active(g, allowed, known) for g in guidelines]
            for start in range(0, len(screened), chunk):
                batch = screened[start : start + chunk]
                part = vectors[start : start + chunk]
                stored.extend(self._add_chunk(session, batch, part, dedupe, allowed, known))
            self._remember_tools(session, stored)
        return stored

    def _add_chunk(
        self,
        session: StoreSession,
        batch: Sequence[Guideline],
        vectors: np.ndarray,
        dedupe: bool,
        allowed: set[str] | None,
        known: set[str],
    ) -> list[Guideline]:
        index = self._index(session)
        neighbours = index.search(vectors, 8) if dedupe and index is not None else None
        within = vectors @ vectors.T if dedupe else None
        new_ids: list[int] = []
        out: list[Guideline] = []
        for i, guideline in enumerate(batch):
            if session.get(guideline.id) is not None:
                raise MemoryStoreError(f"guideline {guideline.id} is already in the store")
            found = None
            if dedupe and guideline.status in MERGEABLE:
                candidates = candidates_for(i, neighbours, within, new_ids, self.dedupe_threshold)
                found = merge_target(
                    session,
                    guideline,
                    candidates,
                    self.dedupe_threshold,
                    lambda g: active_reasons(g, allowed, known, self.embedder),
                )
            if found is None:
                new_ids.append(self._insert(session, guideline, vectors[i]))
                out.append(guideline)
                continue
            existing, merged = found
            if merged.text() != existing.text():
                # The merged guideline took the new text: its row gets the new vector.
                session.delete(existing.id)
                self._cache.tombstones_added = True
                new_ids.append(self._insert(session, merged, vectors[i]))
            else:
                session.replace(merged)
                new_ids.append(-1)
            out.append(merged)
        return out

    def _insert(self, session: StoreSession, guideline: Guideline, vector: np.ndarray) -> int:
        vec_id = session.insert(guideline, vector)
        self._cache.add(np.asarray([vec_id], dtype=np.int64), vector.reshape(1, -1))
        return vec_id

    # -- reading -------------------------------------------------------------------------------

    def search(
        self,
        query: str | np.ndarray,
        k: int = 5,
        min_similarity: float = 0.0,
        status: GuidelineStatus | Iterable[GuidelineStatus] | None = "active",
        tools: Iterable[str] | None = None,
        family: str | None = None,
    ) -> list[SearchHit]:
        """Top-k guidelines by cosine similarity to a text (or a unit vector), best first.

        Args:
            query: the task text, or its embedding.
            k: how many to return at most.
            min_similarity: drop hits below this cosine.
            status: one status, several, or None for all; only active ones by default.
            tools: when given, keep guidelines whose scope names only tools in this set.
            family: when given, keep guidelines whose scope has no families or includes it.
        """
        return self.search_many([query], k, min_similarity, status, tools, family)[0]

    def search_many(
        self,
        queries: Sequence[str | np.ndarray] | np.ndarray,
        k: int = 5,
        min_similarity: float = 0.0,
        status: GuidelineStatus | Iterable[GuidelineStatus] | None = "active",
        tools: Iterable[str] | None = None,
        family: str | None = None,
    ) -> list[list[SearchHit]]:
        """`search` for many queries at once (one embedding batch, one index call)."""
        if k <= 0 or not self._exists() or len(queries) == 0:
            return [[] for _ in range(len(queries))]
        statuses = statuses_of(status)
        allowed = None if tools is None else set(tools)
        texts = [q for q in queries if isinstance(q, str)]
        if texts and len(texts) != len(queries):
            raise MemoryStoreError("search queries must be all texts or all vectors")
        embedded = bool(texts)
        vectors = self._embed(texts) if embedded else as_rows(np.asarray(queries))
        with self._lock, self._read() as session:
            self._check_embedder(session, vectors.shape[1], embedded)
            index = self._index(session)
            if index is None:
                return [[] for _ in range(len(vectors))]
            return collect_hits(
                session,
                index,
                vectors,
                k,
                min_similarity,
                statuses,
                lambda g: in_scope(g, allowed, family),
            )

    def get(self, guideline_id: str) -> Guideline:
        """The guideline with this id; MemoryStoreError when there is none."""
        found = None
        if self._exists():
            with self._lock, self._read() as session:
                found = session.get(guideline_id)
        if found is None:
            raise MemoryStoreError(f"{self.backend.location}: no guideline {guideline_id}")
        return found

    def __contains__(self, guideline_id: object) -> bool:
        if not isinstance(guideline_id, str) or not self._exists():
            return False
        with self._lock, self._read() as session:
            return session.get(guideline_id) is not None

    def all(
        self, status: GuidelineStatus | Iterable[GuidelineStatus] | None = None
    ) -> list[Guideline]:
        """Every guideline (optionally of some statuses), oldest first."""
        if not self._exists():
            return []
        with self._lock, self._read() as session:
            return session.rows(statuses_of(status))

    def known_tools(self) -> set[str]:
        """Tool names the store's active (or once active) guidelines are scoped to."""
        if not self._exists():
            return set()
        with self._lock, self._read() as session:
            return self._known_tools(session)

    def __len__(self) -> int:
        if not self._exists():
            return 0
        with self._lock, self._read() as session:
            return session.count()

    # -- export / import -----------------------------------------------------------------------

    def export_jsonl(self, path: str | Path) -> int:
        """Write every guideline as one JSON line (temp file + rename); returns the count."""
        return write_guidelines(path, self.all())

    def import_jsonl(
        self, path: str | Path, allowed_tools: Iterable[str] | None = None
    ) -> ImportReport:
        """Add guidelines from a JSONL export through `admit` (screen, dedupe, store)."""
        from oncourse.memory.admit import import_guidelines

        return import_guidelines(self, path, allowed_tools)


__all__ = ["GuidelineMemory", "ImportReport", "SearchHit"]
