"""The guideline store on PostgreSQL: one store shared by every host, same rows as the SQLite file.

Location: `postgresql://user@host:port/database#name`. The fragment names the store: its tables
live in the Postgres schema `name` (`oncourse` when there is no fragment), so one database can
hold several stores. The password, if any, is best left to libpq (`PGPASSWORD`, `~/.pgpass`).

Transactions: every write (add, merge, status change, counter bump) is one transaction that first
takes a transaction-level advisory lock on the store. Writers are therefore serialized as with
the SQLite file lock, which gives three guarantees: dedupe sees every committed guideline (two
hosts never add the same one twice); a read-modify-write of a counter never loses an increment;
and `vec_id`s (an identity column) become visible in increasing order, so a reader's faiss cache
catches up by reading the rows above the highest `vec_id` it holds. Reads are REPEATABLE READ,
READ ONLY snapshots. A connection dropped mid-transaction loses that transaction only: the
server rolls it back, the caller gets a `MemoryStoreError`, and the next call reconnects.

The faiss index is kept in each process's memory (no cache file) and caught up on every read;
`version` in the meta table counts committed writes, as in the SQLite store.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
from oncourse.consistency.errors import MemoryStoreError
from oncourse.consistency.guidelines import Guideline

SCHEMA_VERSION = "1"
DEFAULT_STORE = "oncourse"
_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def _schema_sql(schema: str) -> str:
    return f"""
CREATE SCHEMA IF NOT EXISTS "{schema}";
CREATE TABLE IF NOT EXISTS "{schema}".meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS "{schema}".guidelines (
    vec_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    record JSONB NOT NULL,
    vector BYTEA NOT NULL
);
CREATE INDEX IF NOT EXISTS guidelines_status ON "{schema}".guidelines (status);
"""


def split_location(location: str) -> tuple[str, str]:
    """(libpq connection URL, store name) of `postgresql://...#name`."""
    parts = urlsplit(location)
    name = parts.fragment or DEFAULT_STORE
    if not _NAME.match(name):
        raise MemoryStoreError(
            f"{redact(location)}: store name {name!r} must be lower-case letters, digits and _"
        )
    return urlunsplit(parts._replace(fragment="")), name


def redact(location: str) -> str:
    """The location without its password (for messages and logs)."""
    parts = urlsplit(location)
    if parts.password is None:
        return location
    netloc = f"{parts.username}@{parts.hostname or ''}" if parts.username else parts.hostname
    if parts.port is not None:
        netloc = f"{netloc}:{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc or ""))


def _decode(record: Any) -> Guideline:
    if isinstance(record, str | bytes):
        return Guideline.model_validate_json(record)
    return Guideline.model_validate(record)


class PostgresSession:
    """A `StoreSession` on one Postgres connection inside one transaction."""

    def __init__(self, conn: Any, schema: str):
        self.conn = conn
        self.t = f'"{schema}".guidelines'
        self.m = f'"{schema}".meta'

    def _all(self, query: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(self.conn.execute(query, params).fetchall())

    def _one(self, query: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(query, params).fetchone()

    def get_meta(self, key: str) -> str | None:
        """A meta value, None when unset."""
        row = self._one(f"SELECT value FROM {self.m} WHERE key = %s", (key,))
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Set a meta value."""
        self.conn.execute(
            f"INSERT INTO {self.m} VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (key, value),
        )

    def get(self, guideline_id: str) -> Guideline | None:
        """The guideline with this id, or None."""
        row = self._one(f"SELECT record FROM {self.t} WHERE id = %s", (guideline_id,))
        return None if row is None else _decode(row[0])

    def insert(self, guideline: Guideline, vector: np.ndarray) -> int:
        """Add a row; returns its vec_id."""
        row = self._one(
            f"INSERT INTO {self.t} (id, status, record, vector) "
            "VALUES (%s, %s, %s::jsonb, %s) RETURNING vec_id",
            (
                guideline.id,
                guideline.status,
                guideline.model_dump_json(),
                np.ascontiguousarray(vector, dtype=np.float32).tobytes(),
            ),
        )
        return int(row[0])

    def replace(self, guideline: Guideline) -> None:
        """Overwrite a row's record and status."""
        self.conn.execute(
            f"UPDATE {self.t} SET status = %s, record = %s::jsonb WHERE id = %s",
            (guideline.status, guideline.model_dump_json(), guideline.id),
        )

    def delete(self, guideline_id: str) -> bool:
        """Delete a row; False when there was none."""
        cursor = self.conn.execute(f"DELETE FROM {self.t} WHERE id = %s", (guideline_id,))
        return bool(cursor.rowcount)

    def statuses(self, vec_ids: Sequence[int]) -> dict[int, str]:
        """Status of each existing row among these."""
        rows = self._all(
            f"SELECT vec_id, status FROM {self.t} WHERE vec_id = ANY(%s)",
            ([int(v) for v in vec_ids],),
        )
        return {int(v): str(s) for v, s in rows}

    def records(self, vec_ids: Sequence[int]) -> dict[int, Guideline]:
        """The guideline of each existing row among these."""
        rows = self._all(
            f"SELECT vec_id, record FROM {self.t} WHERE vec_id = ANY(%s)",
            ([int(v) for v in vec_ids],),
        )
        return {int(v): _decode(r) for v, r in rows}

    def rows(self, statuses: set[str] | None = None) -> list[Guideline]:
        """Every guideline (of these statuses), oldest first."""
        if statuses is None:
            found = self._all(f"SELECT record FROM {self.t} ORDER BY vec_id")
        else:
            found = self._all(
                f"SELECT record FROM {self.t} WHERE status = ANY(%s) ORDER BY vec_id",
                (sorted(statuses),),
            )
        return [_decode(r[0]) for r in found]

    def vectors_above(self, vec_id: int) -> tuple[np.ndarray, np.ndarray]:
        """(vec_ids, vectors) of the rows above this vec_id, in order."""
        rows = self._all(
            f"SELECT vec_id, vector FROM {self.t} WHERE vec_id > %s ORDER BY vec_id", (vec_id,)
        )
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        vectors = np.frombuffer(b"".join(bytes(r[1]) for r in rows), dtype=np.float32)
        return ids, vectors.reshape(len(rows), -1)

    def count(self, up_to: int | None = None) -> int:
        """Number of rows (with vec_id <= up_to when given)."""
        if up_to is None:
            return int(self._one(f"SELECT COUNT(*) FROM {self.t}")[0])
        return int(self._one(f"SELECT COUNT(*) FROM {self.t} WHERE vec_id <= %s", (up_to,))[0])

    def max_vec_id(self) -> int:
        """The highest vec_id, 0 when empty."""
        return int(self._one(f"SELECT COALESCE(MAX(vec_id), 0) FROM {self.t}")[0])


class PostgresBackend:
    """A `StorageBackend` on a PostgreSQL server (see the module docstring).

    Args:
        location: `postgresql://user@host:port/database#store`.
        lock_timeout: seconds a write waits for another writer's advisory lock.
        read_only: True to refuse writes (reads run as READ ONLY transactions anyway).
        connect_timeout: seconds to wait for the server when connecting.
    """

    cache_path: Path | None = None

    def __init__(
        self,
        location: str,
        lock_timeout: float = 60.0,
        read_only: bool | None = None,
        connect_timeout: float = 10.0,
    ):
        self.url, self.schema = split_location(str(location))
        self.location = redact(str(location))
        self.lock_timeout = lock_timeout
        self.connect_timeout = connect_timeout
        self._read_only = bool(read_only)
        self._conn: Any = None
        self._exists = False
        self._schema_ok = False
        self._lock = threading.RLock()

    @property
    def read_only(self) -> bool:
        """True when opened with `read_only=True`."""
        return self._read_only

    # -- connections -------------------------------------------------------------------------

    def _error(self, exc: Exception, what: str) -> MemoryStoreError:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return MemoryStoreError(f"{self.location}: {what} ({text})")

    def _connect(self) -> Any:
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        self._drop()
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise MemoryStoreError(
                "a postgresql:// memory needs psycopg: pip install 'oncourse[postgres]'"
            ) from exc
        try:
            conn = psycopg.connect(
                self.url,
                autocommit=True,
                connect_timeout=max(1, int(self.connect_timeout)),
                application_name="oncourse",
            )
            # Writers wait this long for another writer's advisory lock, then give up.
            conn.execute(f"SET lock_timeout = '{int(self.lock_timeout * 1000)}ms'")
        except psycopg.Error as exc:
            raise self._error(exc, "cannot connect to the guideline store") from None
        self._conn = conn
        self._schema_ok = False
        return conn

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:  # noqa: BLE001 - the connection is gone either way
                pass
            self._conn = None

    def _lock_key(self) -> str:
        return f"oncourse-store:{self.schema}"

    def exists(self) -> bool:
        """True once the store's tables exist on the server."""
        if self._exists:
            return True
        import psycopg

        with self._lock:
            for attempt in (1, 2):
                conn = self._connect()
                try:
                    row = conn.execute(
                        "SELECT to_regclass(%s) IS NOT NULL", (f'"{self.schema}".guidelines',)
                    ).fetchone()
                    break
                except psycopg.Error as exc:
                    self._drop()
                    if attempt == 2:
                        raise self._error(exc, "cannot read the guideline store") from None
            self._exists = bool(row[0])
            return self._exists

    def _create(self, conn: Any) -> None:
        """Create the schema once, under the store's advisory lock (two creators may race)."""
        conn.read_only = False
        with conn.transaction():
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (self._lock_key(),)
            )
            conn.execute(_schema_sql(self.schema))
            conn.execute(
                f'INSERT INTO "{self.schema}".meta VALUES '
                "('schema_version', %s), ('store_uuid', %s) ON CONFLICT (key) DO NOTHING",
                (SCHEMA_VERSION, uuid.uuid4().hex),
            )
        self._exists = True

    def _check_schema(self, session: PostgresSession) -> None:
        found = session.get_meta("schema_version")
        if found != SCHEMA_VERSION:
            raise MemoryStoreError(
                f"{self.location}: store schema {found or 'none'} is not supported"
            )

    def _begin(self, conn: Any, session: PostgresSession, write: bool) -> None:
        """The first statements of a transaction: the writers' lock, the schema (once)."""
        if write:
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (self._lock_key(),)
            )
        if not self._schema_ok:
            self._check_schema(session)
            self._schema_ok = True

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[PostgresSession]:
        import psycopg

        with self._lock:
            conn = self._connect()
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                # Nested inside this backend's own transaction: that transaction's view.
                yield PostgresSession(conn, self.schema)
                return
            if not self.exists():
                if not write:
                    raise MemoryStoreError(f"{self.location}: no guideline store there")
                try:
                    self._create(self._connect())
                except psycopg.Error as exc:
                    self._drop()
                    raise self._error(exc, "cannot create the guideline store") from None
            for attempt in (1, 2):
                started = False
                conn = self._connect()
                # Set on the connection, they go out with BEGIN: no extra round trip.
                conn.isolation_level = (
                    psycopg.IsolationLevel.READ_COMMITTED
                    if write
                    else psycopg.IsolationLevel.REPEATABLE_READ
                )
                conn.read_only = not write
                try:
                    with conn.transaction():
                        session = PostgresSession(conn, self.schema)
                        self._begin(conn, session, write)
                        started = True
                        version = int(session.get_meta("version") or 0) if write else 0
                        yield session
                        if write:
                            session.set_meta("version", str(version + 1))
                    return
                except psycopg.errors.LockNotAvailable as exc:
                    raise self._error(exc, "another writer holds the store's lock") from None
                except psycopg.OperationalError as exc:
                    # The connection (or the server) went away and the server rolled the
                    # transaction back. Before anything ran (a connection that died while
                    # idle) one new connection is tried; after, the caller hears of it.
                    self._drop()
                    if started or attempt == 2:
                        raise self._error(
                            exc, "connection lost; this transaction was rolled back"
                        ) from None
                except psycopg.Error as exc:
                    raise self._error(exc, "the store refused the transaction") from None

    def read(self) -> Any:
        """A REPEATABLE READ, READ ONLY snapshot."""
        return self._transaction(write=False)

    def write(self) -> Any:
        """One write transaction under the store's advisory lock; bumps `version`."""
        if self.read_only:
            raise MemoryStoreError(f"{self.location}: the store is read-only; nothing was written")
        return self._transaction(write=True)

    def cache_lock(self) -> Any:
        """Nothing to lock: the index lives in this process's memory only."""
        return nullcontext()

    def integrity(self) -> list[str]:
        """Rows whose vector length differs from the others' ([] when the store is sound)."""
        if not self.exists():
            return []
        with self.read() as session:
            sizes = session._all(f"SELECT length(vector), COUNT(*) FROM {session.t} GROUP BY 1")
        if len(sizes) > 1:
            return [f"vectors of {len(sizes)} different sizes: {sorted(sizes)}"]
        return []

    def drop_store(self) -> None:
        """Delete the store's tables for good (its Postgres schema, CASCADE)."""
        with self._lock:
            conn = self._connect()
            conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
            self._exists = False

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._drop()


__all__ = ["PostgresBackend", "PostgresSession", "redact", "split_location"]
