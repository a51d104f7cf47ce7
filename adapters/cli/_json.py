"""JSON on stdout for `--json`: one object, NaN and infinities written as null."""

from __future__ import annotations

import json
import math
from typing import Any


def jsonable(value: Any) -> Any:
    """Copy of `value` with every non-finite float replaced by None (JSON has no NaN)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def print_json(value: Any) -> None:
    """Print one JSON object on stdout."""
    print(json.dumps(jsonable(value), indent=2, allow_nan=False))


__all__ = ["jsonable", "print_json"]
