"""A model for the node-kill tests: the delayed simulated model, which hangs on a marked node.

`python:_ray_models:hanging` answers like `delayed:0.2:simulated`. In a process whose environment
sets `ONCOURSE_TEST_HANG_S` (a Ray node started with that variable) every call first waits that
long, so a run on that node is certainly under way when the test kills the node.
"""

from __future__ import annotations

import os
import time

from oncourse.adapters.models import get_model
from oncourse.consistency.chat import AssistantMessage, ChatModel, Message, ModelSettings, ToolSpec

HANG_ENV = "ONCOURSE_TEST_HANG_S"


class HangingModel:
    """`delayed:0.2:simulated`, after a further wait of `$ONCOURSE_TEST_HANG_S` when it is set."""

    def __init__(self, inner: ChatModel):
        self.inner = inner
        self.name = inner.name
        self.provider = inner.provider
        self.simulated = inner.simulated

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Hang on a marked node, then answer as the wrapped model."""
        time.sleep(float(os.environ.get(HANG_ENV, "0")))
        return self.inner.complete(messages, tools, settings)


def hanging() -> ChatModel:
    """The factory the `python:` model spec names."""
    return HangingModel(get_model("delayed:0.2:simulated"))
