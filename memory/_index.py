"""The faiss index behind the guideline store: inner product on unit vectors, flat then HNSW.

The index maps each stored vector's `vec_id` (SQLite's AUTOINCREMENT key, always increasing) to
its vector. Because ids only grow, an index "covers" every vector up to some id, and catching up
with other writers is appending the rows above it. Removed or re-embedded rows stay in the index
as tombstones that the store filters out; the store rebuilds when they pile up.

On disk the index is one file: a magic line, a JSON header (the fingerprint) and the serialized
faiss index, written to a temp file and renamed into place.
"""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

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
            return self._index.search(queries, min(k, self.ntotal))
        # One query cannot use threads; OpenMP's thread team then only adds wake-up latency,
        # which on a busy machine is milliseconds (measured: HNSW at 30k, 15 ms -> 0.3 ms).
        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)
        try:
            return self._index.search(queries, min(k, self.ntotal))
        finally:
            faiss.omp_set_num_threads(threads)

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
        """Write the index and its fingerprint atomically (temp file + rename)."""
        header = json.dumps(
            {**fingerprint, "kind": self.kind, "covered": self.covered, "dim": self.dim}
        ).encode()
        payload = b"" if self._index is None else _faiss().serialize_index(self._index).tobytes()
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
        """Read an index file; None when it is missing or unreadable (the caller rebuilds)."""
        try:
            data = path.read_bytes()
            if not data.startswith(_MAGIC):
                return None
            offset = len(_MAGIC)
            (length,) = struct.unpack("<Q", data[offset : offset + 8])
            header = json.loads(data[offset + 8 : offset + 8 + length])
            payload = data[offset + 8 + length :]
            index = cls(int(header["dim"]), str(header["kind"]))
            index.covered = int(header["covered"])
            if payload:
                faiss = _faiss()
                index._index = faiss.deserialize_index(np.frombuffer(payload, dtype=np.uint8))
                if index.kind == "hnsw":
                    faiss.downcast_index(index._index.index).hnsw.efSearch = index.ef_search
            return index, header
        except (OSError, ValueError, KeyError, struct.error, RuntimeError):
            return None


def rows_above(conn: sqlite3.Connection, vec_id: int) -> tuple[np.ndarray, np.ndarray]:
    """(vec_ids, vectors) of the store's rows with a vec_id above the given one, in order."""
    rows = conn.execute(
        "SELECT vec_id, vector FROM guidelines WHERE vec_id > ? ORDER BY vec_id", (vec_id,)
    ).fetchall()
    if not rows:
        return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
    return ids, vectors.reshape(len(rows), -1)


class IndexCache:
    """The store's index, kept in step with its rows; the rows are the truth, this is a cache.

    `current(conn, fingerprint)` loads the index file when its fingerprint matches the store
    (else rebuilds from the rows), appends rows committed since (by any process), and rebuilds
    when removed or re-embedded rows (tombstones) outnumber the live ones.
    """

    def __init__(self, path: Path, hnsw_threshold: int):
        self.path = path
        self.hnsw_threshold = hnsw_threshold
        self.index: VectorIndex | None = None
        self.dirty = False
        self.tombstones_added = False

    def drop(self) -> None:
        """Forget the in-memory index (after a rollback: it may hold uncommitted rows)."""
        self.index = None

    def _load_or_build(
        self, conn: sqlite3.Connection, fingerprint: dict[str, Any]
    ) -> VectorIndex | None:
        loaded = VectorIndex.load(self.path)
        max_id = conn.execute("SELECT COALESCE(MAX(vec_id), 0) FROM guidelines").fetchone()[0]
        if loaded is not None:
            index, header = loaded
            same = all(header.get(k) == v for k, v in fingerprint.items())
            if same and index.covered <= max_id:
                return index
        ids, vectors = rows_above(conn, 0)
        if len(ids) == 0:
            return None
        self.dirty = True
        return VectorIndex.build(vectors.shape[1], ids, vectors, self.hnsw_threshold)

    def current(self, conn: sqlite3.Connection, fingerprint: dict[str, Any]) -> VectorIndex | None:
        """The index, caught up with every committed row; None while the store is empty."""
        fresh = self.index is None
        if fresh:
            self.index = self._load_or_build(conn, fingerprint)
        if self.index is None:
            return None
        ids, vectors = rows_above(conn, self.index.covered)
        if len(ids):
            self.add(ids, vectors)
        if fresh or len(ids) or self.tombstones_added:
            # COUNT(*) scans the table, so tombstones are only counted when rows changed.
            self.tombstones_added = False
            live = conn.execute("SELECT COUNT(*) FROM guidelines").fetchone()[0]
            if self.index.ntotal - live > max(1000, live):
                self.index = None
                self.path.unlink(missing_ok=True)
                return self.current(conn, fingerprint)
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
        """Write the index file if it changed since it was loaded (or when forced)."""
        if self.index is not None and (self.dirty or force):
            self.index.save(self.path, fingerprint)
            self.dirty = False
