"""Test-wide guards: no real provider call and no model-hub access ever leaves a test."""

from __future__ import annotations

import os
import socket

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

_LIVE_KEYS = {"OPENAI_API_KEY", "ANTHROPIC_API_KEY"}
_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address, *args, **kwargs):  # type: ignore[no-untyped-def]
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and (
        host in {"localhost", "::1"} or host.startswith("127.") or host.startswith("/")
    ):
        return _real_connect(self, address, *args, **kwargs)
    raise RuntimeError(f"tests must not reach the network (tried {address!r})")


@pytest.fixture(autouse=True)
def _block_network(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Block every non-loopback connection unless the test is marked live."""
    if request.node.get_closest_marker("live") is None:
        monkeypatch.setattr(socket.socket, "connect", _loopback_only)
        for key in _LIVE_KEYS:
            monkeypatch.delenv(key, raising=False)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip live tests whose provider key is not set."""
    for item in items:
        marker = item.get_closest_marker("live")
        if marker is None:
            continue
        needed = marker.args[0] if marker.args else None
        if needed and not os.environ.get(needed):
            item.add_marker(pytest.mark.skip(reason=f"live test: {needed} is not set"))


@pytest.fixture(scope="session")
def postgres_server():  # type: ignore[no-untyped-def]
    """A PostgreSQL server URL: $ONCOURSE_TEST_POSTGRES, else a throwaway server (see _postgres)."""
    from _postgres import ENV, throwaway_server, wait_until_ready

    given = os.environ.get(ENV)
    if given:
        wait_until_ready(given)
        yield given
        return
    try:
        server = throwaway_server()
        url = server.__enter__()
    except RuntimeError as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs PostgreSQL: set {ENV} or install it ({exc})")
        pytest.skip(f"no PostgreSQL for this test: {exc}")
    try:
        yield url
    finally:
        server.__exit__(None, None, None)
