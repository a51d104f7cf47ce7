"""Where the shared public tau-bench sample lives: `shared/data` beside the checkout or above it."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve()
DATA = next(
    (p / "shared" / "data" for p in _HERE.parents if (p / "shared" / "data").is_dir()),
    _HERE.parents[1].parent / "shared" / "data",
)
SAMPLE = DATA / "tau-bench-airline-gpt-4o-sample.json"
