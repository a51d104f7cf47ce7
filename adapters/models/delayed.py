"""A test double for scheduling: another model's replies, each after a fixed wait.

`delayed:0.2:simulated` answers like `simulated`, 200 ms after being asked. The wait stands in
for a hosted model's latency without using CPU, so a benchmark of the runner's backends measures
scheduling and transport, not the machine's speed.
"""

from __future__ import annotations

import time

from oncourse.consistency.chat import AssistantMessage, ChatModel, Message, ModelSettings, ToolSpec
from oncourse.consistency.errors import ConfigError


class DelayedModel:
    """Wraps a model; every `complete` sleeps `delay_s` seconds first, then asks the model."""

    def __init__(self, inner: ChatModel, delay_s: float):
        if not delay_s >= 0:
            raise ConfigError(f"delay must be a non-negative number of seconds, got {delay_s}")
        self.inner = inner
        self.delay_s = delay_s
        self.name = inner.name
        self.provider = inner.provider
        self.simulated = inner.simulated
        self.temperature = getattr(inner, "temperature", None)
        self.supports_temperature = bool(getattr(inner, "supports_temperature", True))

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Wait, then return the wrapped model's reply."""
        time.sleep(self.delay_s)
        return self.inner.complete(messages, tools, settings)


def delayed(rest: str) -> ChatModel:
    """`delayed:SECONDS:SPEC` -> SPEC's model, answering after SECONDS."""
    from oncourse.adapters.models import get_model

    seconds, sep, inner = rest.partition(":")
    try:
        delay = float(seconds)
    except ValueError:
        delay = -1.0
    if not sep or not inner or not delay >= 0:
        raise ConfigError(f"model spec must read delayed:SECONDS:SPEC, got delayed:{rest}")
    return DelayedModel(get_model(inner), delay)


__all__ = ["DelayedModel", "delayed"]
