"""The `--json` contract: which model each command prints, and its schema as docs.

    python -m oncourse.adapters.json_schemas > docs/json-schemas.md
    python -m oncourse.adapters.json_schemas --json > docs/json-schemas.json

Every `--json` output is `Model.model_dump(mode="json")` of the model named here (NaN and
infinities become null). tests/test_json_schemas.py fails when the docs are out of date or when
a command with `--json` is missing from `COMMAND_MODELS`.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

COMMAND_MODELS: dict[str, str] = {
    "report": "oncourse.adapters.recorded:RunsReport",
    "analyze": "oncourse.adapters.recorded:AnalyzeReport",
    "learn": "oncourse.adapters.learning:LearnReport",
    "run": "oncourse.consistency.run_summary:RunReport",
    "evolve": "oncourse.adapters.evolve_models:EvolveResult",
    "eval": "oncourse.adapters.eval_models:EvalResult",
    "gate": "oncourse.consistency.gate:GateResult",
    "plan": "oncourse.consistency.planning:Plan",
    "demo": "oncourse.adapters.demo:DemoResult",
    "export": "oncourse.adapters.recorded:ExportResult",
    "memory ls": "oncourse.memory.curation:StoredGuidelines",
    "memory show": "oncourse.consistency.guidelines:Guideline",
    "memory search": "oncourse.memory.inject:InjectionPreview",
    "memory activate": "oncourse.consistency.guidelines:Guideline",
    "memory retire": "oncourse.consistency.guidelines:Guideline",
    "memory rm": "oncourse.memory.curation:RemovedGuideline",
    "memory export": "oncourse.memory.curation:GuidelineExport",
    "memory import": "oncourse.memory.store:ImportReport",
    "memory check": "oncourse.memory.integrity:IntegrityReport",
    "memory salvage": "oncourse.memory.integrity:SalvageReport",
    "memory migrate": "oncourse.memory.migrate:MigrateReport",
}
"""`oncourse <command> --json` -> `module:Model` it prints."""


def model_for(command: str) -> type[BaseModel]:
    """The model class that `oncourse <command> --json` prints."""
    module, _, name = COMMAND_MODELS[command].partition(":")
    model = getattr(importlib.import_module(module), name)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise TypeError(f"{COMMAND_MODELS[command]} is not a pydantic model")
    return model


def _models() -> list[type[BaseModel]]:
    return list({model_for(c): None for c in COMMAND_MODELS})


def _mode(model: type[BaseModel]) -> JsonSchemaMode:
    # Serialization mode shows the keys as printed (aliases, field serializers); a model whose
    # whole-model serializer returns a plain dict has no keys there, so its fields are shown.
    has_keys = "properties" in model.model_json_schema(mode="serialization")
    return "serialization" if has_keys else "validation"


def schema_document() -> dict[str, Any]:
    """One JSON Schema with every `--json` model under `$defs`, keyed as the JSON prints them."""
    _, document = models_json_schema(
        [(m, _mode(m)) for m in _models()], title="oncourse --json outputs"
    )
    return document


def _type(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    if "anyOf" in schema:
        return " \\| ".join(_type(s) for s in schema["anyOf"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " \\| ".join(json.dumps(v) for v in schema["enum"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list[{_type(schema.get('items', {}))}]"
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"dict[str, {_type(schema['additionalProperties'])}]"
    return "null" if kind == "null" else str(kind)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _description(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    # pydantic leaves out a field's description when it repeats the referenced model's.
    if "description" in schema:
        return _cell(schema["description"])
    ref = schema.get("$ref", "").rsplit("/", 1)[-1]
    return _cell(defs.get(ref, {}).get("description", ""))


def _section(name: str, schema: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    lines = [f"### {name}", "", _cell(schema.get("description", "")), ""]
    if "properties" not in schema:
        return [*lines, f"`{_type(schema)}`", ""]
    lines += ["| key | type | description |", "|---|---|---|"]
    for key, prop in schema["properties"].items():
        lines.append(f"| `{key}` | {_type(prop)} | {_description(prop, defs)} |")
    for pattern, prop in schema.get("patternProperties", {}).items():
        lines.append(f"| `{pattern}` (pattern) | {_type(prop)} | {_description(prop, defs)} |")
    return [*lines, ""]


def markdown() -> str:
    """docs/json-schemas.md: the command table, then every model's keys, types and meanings."""
    document = schema_document()
    lines = [
        "# `--json` outputs",
        "",
        "Generated by `python -m oncourse.adapters.json_schemas > docs/json-schemas.md` from the",
        "pydantic models (do not edit by hand; tests/test_json_schemas.py checks it is current).",
        "Each command prints `Model.model_dump(mode=\"json\")`; NaN and infinities print as",
        "`null`. The keys are a contract: new keys may be added, none is renamed or dropped.",
        "The full JSON Schema is docs/json-schemas.json",
        "(`python -m oncourse.adapters.json_schemas --json`).",
        "",
        "| command | prints |",
        "|---|---|",
    ]
    for command in COMMAND_MODELS:
        name = model_for(command).__name__
        lines.append(f"| `oncourse {command} --json` | [{name}](#{name.lower()}) |")
    lines += ["", "## Models", ""]
    defs = document["$defs"]
    for name, schema in sorted(defs.items()):
        lines += _section(name, schema, defs)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> None:
    """Print the markdown (or, with `--json`, the JSON Schema document) on stdout."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--json"]:
        print(json.dumps(schema_document(), indent=2, sort_keys=False))
    elif not args:
        print(markdown(), end="")
    else:
        sys.exit("usage: python -m oncourse.adapters.json_schemas [--json]")


if __name__ == "__main__":
    main()


__all__ = ["COMMAND_MODELS", "main", "markdown", "model_for", "schema_document"]
