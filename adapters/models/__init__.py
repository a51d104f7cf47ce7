"""Chat-model providers, chosen by one string such as `openai:gpt-4.1` or `simulated`.

| spec                                           | model                                    |
|------------------------------------------------|------------------------------------------|
| `openai:MODEL`                                 | OpenAI chat completions (`OPENAI_API_KEY`) |
| `anthropic:MODEL`                              | Anthropic messages (`ANTHROPIC_API_KEY`) |
| `openai-compatible:http://host:port/v1#MODEL`  | vLLM, Ollama, llama.cpp server, ...      |
| `simulated` or `simulated:temperature=0.7,seed=3` | the offline stand-in for an LLM       |
| `python:package.module:factory`                | your own `ChatModel`, built by `factory()` |
| `delayed:SECONDS:SPEC`                          | SPEC's model after a fixed wait (benchmarks) |

Every model exposes `name`, `provider` and `simulated`, which go into each run's provenance.
Provider SDKs are imported only when a model is first called.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

from oncourse.adapters.models.anthropic_model import AnthropicModel
from oncourse.adapters.models.openai_model import OpenAIModel
from oncourse.adapters.models.scripted import FunctionModel, ScriptedModel
from oncourse.consistency.chat import ChatModel
from oncourse.consistency.errors import ConfigError

ModelFactory = Callable[[str], ChatModel]


def _openai(rest: str) -> ChatModel:
    if not rest:
        raise ConfigError("model spec 'openai:MODEL' needs a model name, e.g. openai:gpt-4.1")
    return OpenAIModel(rest)


def _anthropic(rest: str) -> ChatModel:
    if not rest:
        raise ConfigError(
            "model spec 'anthropic:MODEL' needs a model name, e.g. anthropic:claude-sonnet-4-5"
        )
    return AnthropicModel(rest)


def _openai_compatible(rest: str) -> ChatModel:
    from oncourse.adapters.models.openai_model import OPENAI_KEY_VAR

    base_url, _, model = rest.rpartition("#")
    if not base_url or not model or not base_url.startswith(("http://", "https://")):
        raise ConfigError(
            "model spec must read openai-compatible:http://HOST:PORT/v1#MODEL, "
            f"got openai-compatible:{rest}"
        )
    return OpenAIModel(
        model,
        base_url=base_url,
        api_key=os.environ.get(OPENAI_KEY_VAR) or None,
        provider="openai-compatible",
    )


def _parse_options(rest: str, spec: str) -> dict[str, Any]:
    """`key=value,key=value` with int and float values recognised."""
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, raw = part.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"model spec {spec!r}: expected key=value, got {part!r}")
        value: Any = raw.strip()
        for cast in (int, float):
            try:
                value = cast(value)
                break
            except ValueError:
                continue
        options[key.strip()] = value
    return options


def _simulated(rest: str) -> ChatModel:
    from oncourse.adapters.models.simulated import SimulatedModel

    options = _parse_options(rest, f"simulated:{rest}")
    try:
        model: ChatModel = SimulatedModel(**options)
    except TypeError as exc:
        raise ConfigError(f"model spec 'simulated:{rest}': {exc}") from exc
    return model


def _python(rest: str) -> ChatModel:
    module_name, _, attr = rest.partition(":")
    if not module_name or not attr:
        raise ConfigError(f"model spec must read python:package.module:factory, got python:{rest}")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"model spec python:{rest}: {exc}") from exc
    model = factory()
    missing = [m for m in ("complete", "name", "provider", "simulated") if not hasattr(model, m)]
    if missing or not isinstance(model, ChatModel):
        raise ConfigError(
            f"model spec python:{rest}: {attr}() did not return a ChatModel "
            f"(missing: {', '.join(missing) or 'complete'})"
        )
    return model


def _delayed(rest: str) -> ChatModel:
    from oncourse.adapters.models.delayed import delayed

    return delayed(rest)


MODEL_PROVIDERS: dict[str, ModelFactory] = {
    "openai": _openai,
    "anthropic": _anthropic,
    "openai-compatible": _openai_compatible,
    "simulated": _simulated,
    "python": _python,
    "delayed": _delayed,
}


def register_provider(prefix: str, factory: ModelFactory) -> None:
    """Make `get_model("PREFIX:rest")` call `factory("rest")`."""
    MODEL_PROVIDERS[prefix] = factory


def get_model(spec: str) -> ChatModel:
    """Build the chat model a spec string names (see the module docstring for the forms)."""
    prefix, _, rest = spec.strip().partition(":")
    factory = MODEL_PROVIDERS.get(prefix)
    if factory is None:
        known = ", ".join(sorted(MODEL_PROVIDERS))
        raise ConfigError(f"unknown model {spec!r}; use one of {known} (e.g. openai:gpt-4.1)")
    return factory(rest.strip())


def describe_model(model: ChatModel) -> dict[str, Any]:
    """Provenance fields of a model: name, provider, simulated flag (and endpoint if any)."""
    info: dict[str, Any] = {
        "model": model.name,
        "provider": model.provider,
        "simulated": bool(model.simulated),
    }
    base_url = getattr(model, "base_url", None)
    if base_url:
        info["base_url"] = str(base_url)
    return info


def __getattr__(name: str) -> Any:
    # The simulated model pulls in embeddings; import it only when someone asks for it.
    if name == "SimulatedModel":
        from oncourse.adapters.models.simulated import SimulatedModel

        return SimulatedModel
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "MODEL_PROVIDERS",
    "AnthropicModel",
    "FunctionModel",
    "ModelFactory",
    "OpenAIModel",
    "ScriptedModel",
    "SimulatedModel",
    "describe_model",
    "get_model",
    "register_provider",
]
