"""What the provider SDK adapters share: the API key, a lazily built client, error mapping.

A subclass names its SDK module, client class and base exception, and supplies the three parts
that differ between providers: the request body, the call, and the parsing of the response.
The SDK is imported, and the client built, on the first call, so that constructing a model does
no I/O and `oncourse --help` stays fast.
"""

from __future__ import annotations

import importlib
import os
import threading
from types import ModuleType
from typing import Any, ClassVar

from oncourse.adapters.models._errors import to_model_call_error
from oncourse.consistency.chat import AssistantMessage, Message, ModelSettings, ToolSpec
from oncourse.consistency.errors import ConfigError

NO_KEY = "not-needed"


class SDKChatModel:
    """Base of `ChatModel`s backed by an official provider SDK (OpenAI, Anthropic)."""

    sdk_module: ClassVar[str]
    """Module of the SDK, imported on the first call."""
    client_class: ClassVar[str]
    """Name of the SDK's client class (it takes api_key, base_url, max_retries, timeout)."""
    sdk_error: ClassVar[str]
    """Name of the SDK's base exception: any of them ends the call as a `ModelCallError`."""
    key_var: ClassVar[str]
    """Environment variable holding the API key."""
    simulated: bool = False

    def __init__(
        self,
        model: str,
        *,
        provider: str,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 2,
        timeout_s: float = 60.0,
        http_client: Any = None,
        key_required: bool = True,
    ):
        """Describe the model; nothing is sent until `complete` is called."""
        key = api_key or os.environ.get(self.key_var)
        if not key:
            if key_required:
                raise ConfigError(f"{self.key_var} is not set; it is needed for model {model!r}")
            key = NO_KEY
        self.name = model
        self.provider = provider
        self.base_url = base_url
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self._api_key = key
        self._http_client = http_client
        self._client: Any = None
        self._lock = threading.Lock()

    def _sdk(self) -> ModuleType:
        return importlib.import_module(self.sdk_module)

    def _sdk_client(self) -> Any:
        with self._lock:
            if self._client is None:
                self._client = getattr(self._sdk(), self.client_class)(
                    api_key=self._api_key,
                    base_url=self.base_url,
                    max_retries=self.max_retries,
                    timeout=self.timeout_s,
                    http_client=self._http_client,
                )
            return self._client

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Send one request; raise `ModelCallError` when it fails for good (after SDK retries)."""
        return self._complete_body(self.request_body(messages, tools, settings), settings)

    def _complete_body(self, request: dict[str, Any], settings: ModelSettings) -> AssistantMessage:
        sdk = self._sdk()
        try:
            response = self._send(self._sdk_client(), request, settings.timeout_s or self.timeout_s)
        except getattr(sdk, self.sdk_error) as exc:
            raise to_model_call_error(sdk, exc, self.name) from exc
        # The SDKs build their objects without validation; a broken block would only warn here.
        return self.parse_response(response.model_dump(warnings=False))

    def request_body(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> dict[str, Any]:
        """The JSON body of one request, as the provider's API documents it."""
        raise NotImplementedError

    def _send(self, client: Any, request: dict[str, Any], timeout: float) -> Any:
        raise NotImplementedError

    def parse_response(self, body: dict[str, Any]) -> AssistantMessage:
        """A response body as an `AssistantMessage`."""
        raise NotImplementedError


__all__ = ["NO_KEY", "SDKChatModel"]
