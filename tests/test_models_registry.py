"""Choosing a model by spec string: the registry, the simulated options, user factories."""

from __future__ import annotations

from pathlib import Path

import pytest
from oncourse.adapters.models import MODEL_PROVIDERS, ScriptedModel, describe_model, get_model
from oncourse.consistency.chat import ChatModel
from oncourse.consistency.errors import ConfigError


def test_simulated_spec_with_options() -> None:
    plain = get_model("simulated")
    tuned = get_model("simulated:temperature=0.7,seed=3")
    assert (plain.simulated, plain.provider) == (True, "simulated")  # type: ignore[attr-defined]
    assert (tuned.temperature, tuned.seed) == (0.7, 3)  # type: ignore[attr-defined]
    assert describe_model(tuned) == {
        "model": "simulated",
        "provider": "simulated",
        "simulated": True,
    }


@pytest.mark.parametrize("spec", ["simulated:temperature", "simulated:colour=blue"])
def test_bad_simulated_options_are_config_errors(spec: str) -> None:
    with pytest.raises(ConfigError, match="simulated"):
        get_model(spec)


def test_python_spec_builds_a_user_model() -> None:
    model = get_model("python:_tiny_suite:slow_model")
    assert isinstance(model, ChatModel)
    assert describe_model(model)["model"] == "slow-answer"
    with pytest.raises(ConfigError, match="no_such_module"):
        get_model("python:no_such_module:factory")
    with pytest.raises(ConfigError, match="python:package.module:factory"):
        get_model("python:just_a_module")


def test_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(
        ConfigError, match="anthropic, delayed, openai, openai-compatible, python, simulated"
    ):
        get_model("mistral:large")


def test_registry_is_a_dict_users_can_extend(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def canned(rest: str) -> ChatModel:
        asked.append(rest)
        return ScriptedModel(["hi"], name="canned-model", provider="canned")

    monkeypatch.setitem(MODEL_PROVIDERS, "canned", canned)
    model = get_model("  canned:  gpt:4.1  ")
    # The spec is split at its first colon only and both parts are stripped.
    assert asked == ["gpt:4.1"]
    assert describe_model(model) == {
        "model": "canned-model",
        "provider": "canned",
        "simulated": False,
    }


def test_python_spec_names_what_a_user_model_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A model must declare name, provider and simulated: provenance reads them, never guesses.
    (tmp_path / "half_model.py").write_text(
        "class Half:\n"
        "    name = 'half'\n"
        "    def complete(self, messages, tools, settings):\n"
        "        return None\n"
        "def make():\n"
        "    return Half()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ConfigError, match="missing: provider, simulated"):
        get_model("python:half_model:make")
