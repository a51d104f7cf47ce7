"""The faiss index behind the guideline store: inner product on unit vectors, flat then HNSW.

The index maps each stored vector's `vec_id` (SQLite's AUTOINCREMENT key, always increasing) to
its vector. Because ids only grow, an index "covers" every vector up to some id, and catching up
with other writers is appending the rows above it. Removed or re-embedded rows stay in the index
as tombstones that the store filters out; the store rebuilds when they pile up.

On disk the index is one file: a magic line, a JSON header (the fingerprint) and the serialized
faiss index, written to a temp file and renamed into place.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import struct
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from oncourse.memory.backend import StoreSession
from pydantic import BaseModel, Field

_MAGIC = b"ONCOURSE-FAISS-1\n"
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = 128
_PARALLEL_QUERIES = 16


def _faiss() -> Any:
    import faiss

    return faiss


class VectorIndex:
    """An id-mapped faiss index: `IndexFlatIP` while small, inner-product `IndexHNSWFlat` above."""

    def __init__(self, dim: int, kind: str = "flat", ef_search: int = HNSW_EF_SEARCH):
        self.dim = dim
        self.kind = kind
        self.covered = 0
        self.ef_search = ef_search
        self._index: Any = None

    @classmethod
    def build(
        cls, dim: int, ids: np.ndarray, vectors: np.ndarray, hnsw_threshold: int
    ) -> VectorIndex:
        """A new index over the given rows; HNSW when there are more than `hnsw_threshold`."""
        index = cls(dim, "hnsw" if len(ids) > hnsw_threshold else "flat")
        index.add(ids, vectors)
        return index

    def _ensure(self) -> Any:
        if self._index is None:
            faiss = _faiss()
            if self.kind == "hnsw":
                inner = faiss.IndexHNSWFlat(self.dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
                inner.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
                inner.hnsw.efSearch = self.ef_search
                self._index = faiss.IndexIDMap(inner)
            else:
                self._index = faiss.IndexIDMap2(faiss.IndexFlatIP(self.dim))
        return self._index

    @property
    def ntotal(self) -> int:
        """Number of vectors in the index, tombstones included."""
        return 0 if self._index is None else int(self._index.ntotal)

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        """Append rows; `ids` must all be above `covered`."""
        if len(ids) == 0:
            return
        ids = np.ascontiguousarray(ids, dtype=np.int64)
        vectors = np.ascontiguousarray(vectors, dtype=np.float32).reshape(len(ids), self.dim)
        self._ensure().add_with_ids(vectors, ids)
        self.covered = max(self.covered, int(ids.max()))

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k (scores, vec_ids) per query row; missing slots have id -1."""
        queries = np.ascontiguousarray(queries, dtype=np.float32).reshape(-1, self.dim)
        if self.ntotal == 0 or k <= 0:
            shape = (len(queries), max(k, 0))
            return np.zeros(shape, dtype=np.float32), np.full(shape, -1, dtype=np.int64)
        faiss = _faiss()
        if len(queries) >= _PARALLEL_QUERIES:
            return self._search(queries, k)
        # One query cannot use threads; OpenMP's thread team then only adds wake-up latency,
        # which on a busy machine is milliseconds (measured: HNSW at 30k, 15 ms -> 0.3 ms).
        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)
        try:
            return self._search(queries, k)
        finally:
            faiss.omp_set_num_threads(threads)

    def _search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        # faiss is unannotated: its (scores, ids) pair is typed here, where it enters our code.
        scores, ids = self._index.search(queries, min(k, self.ntotal))
        return np.asarray(scores, dtype=np.float32), np.asarray(ids, dtype=np.int64)

    def vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """All (ids, vectors) of a flat index (used to upgrade it to HNSW without the DB)."""
        if self._index is None:
            return np.zeros(0, dtype=np.int64), np.zeros((0, self.dim), dtype=np.float32)
        faiss = _faiss()
        ids = faiss.vector_to_array(self._index.id_map).astype(np.int64)
        flat = faiss.downcast_index(self._index.index)
        vectors = faiss.rev_swig_ptr(flat.get_xb(), flat.ntotal * self.dim)
        return ids, np.array(vectors, dtype=np.float32).reshape(-1, self.dim)

    def nbytes(self) -> int:
        """Size of the serialized index in bytes."""
        if self._index is None:
            return 0
        return int(_faiss().serialize_index(self._index).nbytes)

    def save(self, path: Path, fingerprint: dict[str, Any]) -> None:
        """Write the index, its fingerprint and a SHA-256 of the payload atomically."""
        payload = b"" if self._index is None else _faiss().serialize_index(self._index).tobytes()
        header = json.dumps(
            {
                **fingerprint,
                "kind": self.kind,
                "covered": self.covered,
                "dim": self.dim,
                "ntotal": self.ntotal,
                "sha256": hashlib.sha256(payload).hexdigest(),
            }
        ).encode()
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_MAGIC + struct.pack("<Q", len(header)) + header + payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: Path) -> tuple[VectorIndex, dict[str, Any]] | None:
        """Read an index file; None when it is missing, damaged or fails its checksum."""
        try:
            data = path.read_bytes()
            if not data.startswith(_MAGIC):
                return None
            offset = len(_MAGIC)
            (length,) = struct.unpack("<Q", data[offset : offset + 8])
            header = json.loads(data[offset + 8 : offset + 8 + length])
            payload = data[offset + 8 + length :]
            if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
                return None
            index = cls(int(header["dim"]), str(header["kind"]))
            index.covered = int(header["covered"])
            if payload:
                faiss = _faiss()
                index._index = faiss.deserialize_index(np.frombuffer(payload, dtype=np.uint8))
                if index.kind == "hnsw":
                    faiss.downcast_index(index._index.index).hnsw.efSearch = index.ef_search
            if index.ntotal != int(header["ntotal"]) or (payload and index._index.d != index.dim):
                return None
            return index, header
        except (OSError, ValueError, KeyError, TypeError, struct.error, RuntimeError):
            return None


class CacheState(BaseModel):
    """What the cache check found (for `oncourse memory check`)."""

    present: bool = Field(description="A cache file was there.")
    valid: bool = Field(description="It was readable, its checksum held and it matched the rows.")
    reason: str = Field(default="", description="Why it was not trusted, when it was not.")
    stale_rows: int = Field(default=0, description="Rows committed since it was written.")


class IndexCache:
    """The store's index, kept in step with its rows; the rows are the truth, this is a cache.

    `current(session, fingerprint)` loads the cache file when its checksum holds and its
    fingerprint, row count and version agree with the store (else rebuilds from the rows in
    memory), appends rows committed since (by any process), and rebuilds when removed or
    re-embedded rows (tombstones) outnumber the live ones. Reading never writes the file: only
    `save` does, and the store calls it after its own writes.
    """

    def __init__(self, path: Path | None, hnsw_threshold: int):
        self.path = path
        self.hnsw_threshold = hnsw_threshold
        self.index: VectorIndex | None = None
        self.dirty = False
        self.tombstones_added = False

    def drop(self) -> None:
        """Forget the in-memory index (after a rollback: it may hold uncommitted rows)."""
        self.index = None

    def verify(self, session: StoreSession, fingerprint: dict[str, Any]) -> CacheState:
        """Check the cache file against the rows without using it."""
        if self.path is None or not self.path.exists():
            return CacheState(present=False, valid=False, reason="no cache file")
        loaded = VectorIndex.load(self.path)
        if loaded is None:
            return CacheState(present=True, valid=False, reason="unreadable or checksum mismatch")
        index, header = loaded
        reason = _mismatch(index, header, session, fingerprint)
        if reason:
            return CacheState(present=True, valid=False, reason=reason)
        stale = session.count() - session.count(index.covered)
        return CacheState(present=True, valid=True, stale_rows=stale)

    def _load_or_build(
        self, session: StoreSession, fingerprint: dict[str, Any]
    ) -> VectorIndex | None:
        loaded = None if self.path is None else VectorIndex.load(self.path)
        if loaded is not None:
            index, header = loaded
            if not _mismatch(index, header, session, fingerprint):
                return index
        ids, vectors = session.vectors_above(0)
        self.dirty = True
        if len(ids) == 0:
            return None
        return VectorIndex.build(vectors.shape[1], ids, vectors, self.hnsw_threshold)

    def current(self, session: StoreSession, fingerprint: dict[str, Any]) -> VectorIndex | None:
        """The index, caught up with every committed row; None while the store is empty."""
        fresh = self.index is None
        if fresh:
            self.index = self._load_or_build(session, fingerprint)
        if self.index is None:
            return None
        ids, vectors = session.vectors_above(self.index.covered)
        if len(ids):
            self.add(ids, vectors)
        if fresh or len(ids) or self.tombstones_added:
            # COUNT(*) scans the table, so tombstones are only counted when rows changed.
            self.tombstones_added = False
            live = session.count()
            if self.index.ntotal - live > max(1000, live):
                self.index = None
                self.dirty = True
                return self.current(session, fingerprint)
        return self.index

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        """Append rows; a flat index that grows past the threshold becomes HNSW."""
        if self.index is None:
            self.index = VectorIndex(vectors.shape[1])
        index = self.index
        if index.kind == "flat" and index.ntotal + len(ids) > self.hnsw_threshold:
            old_ids, old_vectors = index.vectors()
            self.index = VectorIndex.build(
                vectors.shape[1],
                np.concatenate([old_ids, ids]),
                np.concatenate([old_vectors, vectors]),
                self.hnsw_threshold,
            )
        else:
            index.add(ids, vectors)
        self.dirty = True

    def save(self, fingerprint: dict[str, Any], force: bool = False) -> None:
        """Write the cache file if it changed since it was loaded (or when forced)."""
        if self.path is None:
            return
        if self.index is None:
            if self.dirty or force:
                self.path.unlink(missing_ok=True)
                self.dirty = False
            return
        if self.dirty or force:
            self.index.save(self.path, fingerprint)
            self.dirty = False

    def temp_files(self) -> list[Path]:
        """Temp files a cache save left behind (a save killed midway)."""
        if self.path is None:
            return []
        return list(self.path.parent.glob(glob.escape(self.path.name) + ".*.tmp"))

    def clean_temp_files(self) -> int:
        """Remove temp files left by a save that was killed; returns how many."""
        removed = 0
        for tmp in self.temp_files():
            try:
                tmp.unlink()
                removed += 1
            except OSError:
                pass
        return removed


def _mismatch(
    index: VectorIndex, header: dict[str, Any], session: StoreSession, fingerprint: dict[str, Any]
) -> str:
    """Why a loaded cache does not fit the store ('' when it fits)."""
    for key, value in fingerprint.items():
        if header.get(key) != value:
            return f"built for another {key} ({header.get(key)!r})"
    if index.covered > session.max_vec_id():
        return "covers rows the store does not have"
    below = session.count(index.covered)
    # Every row up to `covered` is in the index, plus tombstones of removed ones; a cache from
    # this same version must hold exactly the rows it was saved with.
    if index.ntotal < below or index.ntotal > index.covered:
        return f"holds {index.ntotal} vectors for {below} rows"
    if "rows" in header and header.get("version") == fingerprint_version(session):
        if int(header["rows"]) != session.count():
            return "row count differs at the same version"
    return ""


def fingerprint_version(session: StoreSession) -> str | None:
    """The store's version as the cache header records it."""
    return session.get_meta("version")
