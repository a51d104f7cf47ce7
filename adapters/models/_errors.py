"""Turn a provider SDK's final exception into the project's `ModelCallError` with a kind."""

from __future__ import annotations

from types import ModuleType

from oncourse.consistency.errors import ModelCallError


def sdk_error_kind(sdk: ModuleType, exc: BaseException) -> str | None:
    """The `error.kind` for an exception raised by the `openai` or `anthropic` SDK.

    Both SDKs share the same exception tree; the order matters because a timeout is a
    connection error and a rate limit is a status error. Returns None for non-SDK exceptions.
    """
    if isinstance(exc, sdk.APITimeoutError):
        return "timeout"
    if isinstance(exc, sdk.APIConnectionError):
        return "connection"
    if isinstance(exc, sdk.RateLimitError):
        return "rate_limit"
    if isinstance(exc, sdk.APIStatusError):
        return "server" if exc.status_code >= 500 else "api_error"
    if isinstance(exc, sdk.APIError):
        return "api_error"
    return None


def to_model_call_error(sdk: ModuleType, exc: BaseException, model: str) -> ModelCallError:
    """Wrap an SDK exception (after the SDK's own retries) as a `ModelCallError`."""
    kind = sdk_error_kind(sdk, exc) or "api_error"
    status = getattr(exc, "status_code", None)
    detail = f"HTTP {status}: {exc}" if status is not None else str(exc) or type(exc).__name__
    return ModelCallError(kind, f"{model}: {detail}")
