"""A model for the node-kill tests: the delayed simulated model, which hangs on a marked node.

`python:_ray_models:hanging` answers like `delayed:0.2:simulated`. In a process whose environment
sets `ONCOURSE_TEST_HANG_S` (a Ray node started with that variable) every call first waits that
long, so a run on that node is certainly under way when the test kills the node.
"""

from __future__ import annotations

import os
import time

from oncourse.adapters.models import get_model
from oncourse.adapters.models.delayed import DelayedModel
from oncourse.consistency.chat import AssistantMessage, ChatModel, Message, ModelSettings, ToolSpec

HANG_ENV = "ONCOURSE_TEST_HANG_S"


class HangingModel(DelayedModel):
    """A `DelayedModel` that first waits `$ONCOURSE_TEST_HANG_S` more when it is set."""

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Hang on a marked node, then answer as the delayed model."""
        time.sleep(float(os.environ.get(HANG_ENV, "0")))
        return super().complete(messages, tools, settings)


def hanging() -> ChatModel:
    """The factory the `python:` model spec names."""
    return HangingModel(get_model("simulated"), 0.2)
