"""The SQLite guideline store: one file in WAL mode, writers serialized by a file lock.

Every write is one transaction, so a writer killed mid-add (even by SIGKILL) loses only its own
uncommitted work and the file reopens cleanly; updating one row does not rewrite the others;
readers see a consistent snapshot while a writer works. A file lock (`<path>.lock`) serializes
writers across processes, so dedupe sees every committed guideline. A store that cannot be
written (read-only file, folder or mount, or `read_only=True`) is opened with SQLite's read-only
mode and never creates a file; a full disk is a `MemoryStoreError` and rolls back.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from oncourse.consistency.errors import MemoryStoreError
from oncourse.consistency.guidelines import Guideline

SCHEMA_VERSION = "1"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS guidelines (
    vec_id INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    vector BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS guidelines_status ON guidelines(status);
"""


def _decode(record: str) -> Guideline:
    return Guideline.model_validate_json(record)


class SQLiteSession:
    """A `StoreSession` on one SQLite connection (the caller holds the transaction)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def get_meta(self, key: str) -> str | None:
        """A meta value, None when unset."""
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Set a meta value."""
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def get(self, guideline_id: str) -> Guideline | None:
        """The guideline with this id, or None."""
        row = self.conn.execute(
            "SELECT record FROM guidelines WHERE id=?", (guideline_id,)
        ).fetchone()
        return None if row is None else _decode(row[0])

    def insert(self, guideline: Guideline, vector: np.ndarray) -> int:
        """Add a row; returns its vec_id."""
        cursor = self.conn.execute(
            "INSERT INTO guidelines (id, status, record, vector) VALUES (?, ?, ?, ?)",
            (
                guideline.id,
                guideline.status,
                guideline.model_dump_json(),
                np.ascontiguousarray(vector, dtype=np.float32).tobytes(),
            ),
        )
        return int(cursor.lastrowid or 0)

    def replace(self, guideline: Guideline) -> None:
        """Overwrite a row's record and status."""
        self.conn.execute(
            "UPDATE guidelines SET status=?, record=? WHERE id=?",
            (guideline.status, guideline.model_dump_json(), guideline.id),
        )

    def delete(self, guideline_id: str) -> bool:
        """Delete a row; False when there was none."""
        return bool(
            self.conn.execute("DELETE FROM guidelines WHERE id=?", (guideline_id,)).rowcount
        )

    def statuses(self, vec_ids: Sequence[int]) -> dict[int, str]:
        """Status of each existing row among these."""
        out: dict[int, str] = {}
        for part in _chunks(vec_ids):
            marks = ",".join("?" * len(part))
            out.update(
                self.conn.execute(
                    f"SELECT vec_id, status FROM guidelines WHERE vec_id IN ({marks})", part
                ).fetchall()
            )
        return out

    def records(self, vec_ids: Sequence[int]) -> dict[int, Guideline]:
        """The guideline of each existing row among these."""
        out: dict[int, Guideline] = {}
        for part in _chunks(vec_ids):
            marks = ",".join("?" * len(part))
            rows = self.conn.execute(
                f"SELECT vec_id, record FROM guidelines WHERE vec_id IN ({marks})", part
            ).fetchall()
            out.update((int(v), _decode(r)) for v, r in rows)
        return out

    def rows(self, statuses: set[str] | None = None) -> list[Guideline]:
        """Every guideline (of these statuses), oldest first."""
        found = self.conn.execute("SELECT status, record FROM guidelines ORDER BY vec_id")
        return [_decode(r) for s, r in found if statuses is None or s in statuses]

    def vectors_above(self, vec_id: int) -> tuple[np.ndarray, np.ndarray]:
        """(vec_ids, vectors) of the rows above this vec_id, in order."""
        rows = self.conn.execute(
            "SELECT vec_id, vector FROM guidelines WHERE vec_id > ? ORDER BY vec_id", (vec_id,)
        ).fetchall()
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        return ids, vectors.reshape(len(rows), -1)

    def count(self, up_to: int | None = None) -> int:
        """Number of rows (with vec_id <= up_to when given)."""
        if up_to is None:
            return int(self.conn.execute("SELECT COUNT(*) FROM guidelines").fetchone()[0])
        query = "SELECT COUNT(*) FROM guidelines WHERE vec_id <= ?"
        return int(self.conn.execute(query, (up_to,)).fetchone()[0])

    def max_vec_id(self) -> int:
        """The highest vec_id, 0 when empty."""
        query = "SELECT COALESCE(MAX(vec_id), 0) FROM guidelines"
        return int(self.conn.execute(query).fetchone()[0])


def _chunks(ids: Sequence[int], size: int = 500) -> Iterator[list[int]]:
    items = [int(i) for i in ids]
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _writable(path: Path) -> bool:
    if path.exists():
        return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return os.access(parent, os.W_OK)


def store_error(location: str, exc: sqlite3.Error) -> MemoryStoreError:
    """The one-line error for an SQLite failure (full disk, read-only, damaged file)."""
    text = str(exc)
    if "full" in text:
        return MemoryStoreError(f"{location}: disk full; nothing was written ({text})")
    if "readonly" in text or "read-only" in text:
        return MemoryStoreError(f"{location}: the store is read-only ({text})")
    return MemoryStoreError(f"{location}: not a guideline store or damaged ({text})")


class SQLiteBackend:
    """A `StorageBackend` in one SQLite file; the faiss cache is `<path>.faiss` beside it.

    Args:
        path: the SQLite file; `<path>.lock` beside it serializes writers.
        lock_timeout: seconds to wait for another process's write before giving up.
        read_only: True to open read-only; None to decide from the file's permissions.
    """

    def __init__(self, path: Path, lock_timeout: float = 60.0, read_only: bool | None = None):
        self.path = Path(path)
        self.location = str(self.path)
        self.cache_path: Path | None = self.path.with_name(self.path.name + ".faiss")
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.lock_timeout = lock_timeout
        self._forced_read_only = read_only
        self._conn: sqlite3.Connection | None = None
        self._file_lock: Any = None
        self._lock = threading.RLock()

    @property
    def read_only(self) -> bool:
        """True when the store is (or will be) opened read-only."""
        if self._forced_read_only is not None:
            return self._forced_read_only
        return not _writable(self.path)

    def exists(self) -> bool:
        """True once the file exists."""
        return self._conn is not None or self.path.exists()

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        if self.read_only:
            conn = self._connect_read_only()
        else:
            conn = self._connect_writable()
        try:
            version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.Error as exc:
            conn.close()
            raise store_error(self.location, exc) from exc
        if version is None or version[0] != SCHEMA_VERSION:
            conn.close()
            found = "none" if version is None else version[0]
            raise MemoryStoreError(f"{self.path}: store schema {found} is not supported")
        self._conn = conn
        return conn

    def _connect_read_only(self) -> sqlite3.Connection:
        if not self.path.exists():
            raise MemoryStoreError(f"{self.path}: no guideline store there")
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        try:
            conn = sqlite3.connect(
                uri, uri=True, timeout=self.lock_timeout, check_same_thread=False
            )
            conn.isolation_level = None
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError:
            # A WAL store on a read-only mount has no -shm to map: SQLite can still read the
            # file as immutable (no one can be writing it there).
            uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
            try:
                conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
                conn.isolation_level = None
                return conn
            except sqlite3.Error as exc:
                raise store_error(self.location, exc) from exc
        except sqlite3.Error as exc:
            raise store_error(self.location, exc) from exc

    def _connect_writable(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, timeout=self.lock_timeout, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA synchronous=FULL")
            # Switching to WAL needs the database to itself and SQLite answers "database is
            # locked" at once, without waiting, when another process is creating the store at
            # the same moment: do it under the file lock, like the schema.
            with self._flock():
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(_SCHEMA)
                conn.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?), ('store_uuid', ?)",
                    (SCHEMA_VERSION, uuid.uuid4().hex),
                )
            return conn
        except sqlite3.Error as exc:
            raise store_error(self.location, exc) from exc
        except OSError as exc:
            raise MemoryStoreError(f"{self.path}: cannot create the store ({exc})") from exc

    @contextmanager
    def _flock(self) -> Iterator[None]:
        from filelock import FileLock, Timeout

        if self._file_lock is None:
            self._file_lock = FileLock(str(self.lock_path), timeout=self.lock_timeout)
        try:
            # Poll often: the default 50 ms lets a busy writer starve the others.
            self._file_lock.acquire(poll_interval=0.002)
        except Timeout as exc:
            raise MemoryStoreError(f"{self.lock_path}: another writer holds the lock") from exc
        except OSError as exc:
            raise MemoryStoreError(f"{self.lock_path}: cannot take the lock ({exc})") from exc
        try:
            yield
        finally:
            self._file_lock.release()

    def cache_lock(self) -> Any:
        """The writers' file lock (the cache is written by writers only)."""
        return self._flock()

    @contextmanager
    def read(self) -> Iterator[SQLiteSession]:
        """A read snapshot (nested inside a write, it is that write's view)."""
        with self._lock:
            conn = self._connect()
            if conn.in_transaction:
                yield SQLiteSession(conn)
                return
            try:
                conn.execute("BEGIN")
                try:
                    yield SQLiteSession(conn)
                finally:
                    conn.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                raise store_error(self.location, exc) from exc

    @contextmanager
    def write(self) -> Iterator[SQLiteSession]:
        """One write transaction under the process lock and the cross-process file lock."""
        if self.read_only:
            raise MemoryStoreError(f"{self.location}: the store is read-only; nothing was written")
        with self._lock:
            conn = self._connect()
            with self._flock():
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    session = SQLiteSession(conn)
                    version = int(session.get_meta("version") or 0)
                    yield session
                    session.set_meta("version", str(version + 1))
                    conn.execute("COMMIT")
                except BaseException as exc:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    if isinstance(exc, sqlite3.Error):
                        raise store_error(self.location, exc) from exc
                    raise

    def integrity(self) -> list[str]:
        """What `PRAGMA integrity_check` reports ([] when the file is sound)."""
        try:
            with self.read() as session:
                rows = session.conn.execute("PRAGMA integrity_check(20)").fetchall()
        except MemoryStoreError as exc:
            return [str(exc)]
        found = [str(r[0]) for r in rows]
        return [] if found == ["ok"] else found

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


__all__ = ["SCHEMA_VERSION", "SQLiteBackend", "SQLiteSession", "store_error"]
