"""JSON on stdout for `--json`: one model's `model_dump(mode="json")`, NaN and infinities as null.

Every `--json` output is a pydantic model of the library; docs/json-schemas.md has their schemas
(`python -m oncourse.adapters.json_schemas`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer
from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]


def jsonable(value: Any) -> Any:
    """Copy of `value` with every non-finite float replaced by None (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def print_json(model: BaseModel) -> None:
    """Print `model.model_dump(mode="json")` as one JSON object on stdout."""
    print(json.dumps(jsonable(model.model_dump(mode="json")), indent=2, allow_nan=False))


def print_result(model: M, as_json: bool, render: Callable[[M], object]) -> None:
    """With `--json` the model as JSON; otherwise `render(model)` prints it for people."""
    if as_json:
        print_json(model)
    else:
        render(model)


__all__ = ["JsonOption", "jsonable", "print_json", "print_result"]
