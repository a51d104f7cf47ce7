"""Every `--json` output is a documented model (issue 14): docs/json-schemas.{md,json} are current,
every command with `--json` names its model, and what the CLI prints has that model's keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer.main
from oncourse.adapters.cli import app
from oncourse.adapters.importers import example_path
from oncourse.adapters.json_schemas import COMMAND_MODELS, markdown, model_for, schema_document
from typer.testing import CliRunner

DOCS = Path(__file__).resolve().parent.parent / "docs"
REGENERATE = "run `python -m oncourse.adapters.json_schemas [--json] > docs/json-schemas.{md,json}`"


def _commands_with_json(group: Any, prefix: str = "") -> set[str]:
    found = set()
    for name, command in group.commands.items():
        path = f"{prefix}{name}"
        if hasattr(command, "commands"):  # a group (typer vendors its own click)
            found |= _commands_with_json(command, f"{path} ")
        elif any("--json" in getattr(p, "opts", ()) for p in command.params):
            found.add(path)
    return found


def test_the_markdown_docs_match_the_models() -> None:
    assert (DOCS / "json-schemas.md").read_text(encoding="utf-8") == markdown(), REGENERATE


def test_the_json_schema_docs_match_the_models() -> None:
    on_disk = json.loads((DOCS / "json-schemas.json").read_text(encoding="utf-8"))
    assert on_disk == schema_document(), REGENERATE


def test_every_command_with_json_names_its_model_and_no_other_is_named() -> None:
    cli = typer.main.get_command(app)
    with_json = _commands_with_json(cli)
    assert {"report", "analyze", "memory ls", "memory migrate"} <= with_json
    assert with_json == set(COMMAND_MODELS)


def _printed(*argv: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, list(argv), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("report", ["report", "{example}", "--json"]),
        ("analyze", ["analyze", "{example}", "--json", "--embedder", "lexical"]),
        ("export", ["export", "{example}", "-o", "{tmp}/out.jsonl", "--json"]),
        ("plan", ["plan", "--flip-rate", "0.02", "--runs", "{example}", "--json"]),
    ],
)
def test_what_the_cli_prints_has_exactly_the_documented_keys(
    command: str, argv: list[str], tmp_path: Path
) -> None:
    args = [a.format(example=example_path(), tmp=tmp_path) for a in argv]
    printed = _printed(*args)
    schema = schema_document()["$defs"][model_for(command).__name__]
    assert list(printed) == list(schema["properties"])
    assert set(schema.get("required", [])) <= set(printed)
