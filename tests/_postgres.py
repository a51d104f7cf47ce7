"""A PostgreSQL server for the tests: the one `ONCOURSE_TEST_POSTGRES` names, or a throwaway one.

Without the variable, `initdb` and `pg_ctl` (PATH, or Debian's /usr/lib/postgresql/*/bin) start a
server on a free loopback port with a temporary data directory (as the `postgres` user when the
tests run as root: initdb refuses root), stopped again when the session ends. Where no server
can be had the Postgres tests skip with the reason, except in CI (`CI=true`), where they fail.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ENV = "ONCOURSE_TEST_POSTGRES"


def _tool(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_postgres(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    runuser = shutil.which("runuser")
    if runuser is None:
        raise RuntimeError("running as root and no runuser to start PostgreSQL as postgres")
    return [runuser, "-u", "postgres", "--", *command]


@contextmanager
def throwaway_server() -> Iterator[str]:
    """Start a server in a temporary directory; yields its URL; stops and deletes it after."""
    initdb, pg_ctl = _tool("initdb"), _tool("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise RuntimeError("initdb/pg_ctl not found (apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="oncourse-pg-"))
    data, sockets = root / "data", root / "sock"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sockets, "postgres")
    port = _free_port()
    run = {"check": True, "capture_output": True, "text": True}
    try:
        subprocess.run(
            _as_postgres([initdb, "-D", str(data), "-A", "trust", "-U", "oncourse", "--no-sync"]),
            **run,  # type: ignore[call-overload]
        )
        options = (
            f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=60"
        )
        subprocess.run(
            _as_postgres(
                [pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"]
            ),
            **run,  # type: ignore[call-overload]
        )
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"could not start PostgreSQL: {exc.stderr.strip()[-300:]}") from exc
    try:
        yield f"postgresql://oncourse@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


def new_store_url(server: str) -> str:
    """A fresh, empty store on the server (its own Postgres schema)."""
    return f"{server}#t_{uuid.uuid4().hex[:12]}"


def drop_store(url: str) -> None:
    """Delete a store made by `new_store_url`."""
    from oncourse.memory._postgres import PostgresBackend

    backend = PostgresBackend(url)
    try:
        backend.drop_store()
    finally:
        backend.close()


def wait_until_ready(url: str, timeout: float = 30.0) -> None:
    """Wait for the server to accept connections."""
    import psycopg

    end = time.monotonic() + timeout
    while True:
        try:
            psycopg.connect(url.split("#")[0], connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > end:
                raise
            time.sleep(0.2)
