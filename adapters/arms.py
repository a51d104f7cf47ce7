"""What a comparison runs: one `RunSpec` (suite, model, n, seed, ...) and the arm runner.

`eval`, `evolve` and the demo run several arms (baseline, memory, controls, validations) with
the same settings; a `RunSpec` carries them once. `ArmRunner` runs (or reuses) one arm of one
split into a keyed file with a provenance JSON.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oncourse.consistency.errors import InputError
from oncourse.consistency.stats import group_by_task
from oncourse.consistency.trajectory import Trajectory
from oncourse.memory.backend import store_exists
from pydantic import BaseModel, ConfigDict, Field

RunMany = Callable[..., list[Trajectory]]


class RunSpec(BaseModel):
    """The settings every arm of one comparison shares (so each task is its own control)."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    suite: Any = Field(description="Built-in suite name, suite directory, or a Suite object.")
    model: Any = Field(description="Model spec (`simulated`, `openai:gpt-4.1`) or a model object.")
    n: int = Field(description="Runs per task per arm.")
    seed: int = Field(default=0, description="Base seed shared by every arm.")
    concurrency: int = Field(default=4, description="Runs in flight at once.")
    timeout_s: float = Field(default=120.0, description="Wall-clock limit per run.")
    max_steps: int = Field(default=30, description="Step limit per run.")
    progress: bool = Field(default=True, description="Progress bars on stderr.")
    run_many: RunMany | None = Field(
        default=None, description="Runner to call (tests inject one); `runner.run_many` if None."
    )

    def check(self) -> RunSpec:
        """Raise `InputError` on settings that cannot run; return self."""
        if self.n < 1:
            raise InputError(f"--n must be a positive number of runs per task, got {self.n}")
        if self.concurrency < 1:
            raise InputError(f"--concurrency must be >= 1, got {self.concurrency}")
        if not self.timeout_s > 0:
            raise InputError(f"timeout must be a positive number of seconds, got {self.timeout_s}")
        return self

    @classmethod
    def of(
        cls,
        suite: Any,
        model: Any = None,
        n: int | None = None,
        seed: int = 0,
        concurrency: int = 4,
        progress: bool = True,
        run_many: RunMany | None = None,
    ) -> RunSpec:
        """`suite` itself when it is a RunSpec, else one made of the separate settings."""
        if isinstance(suite, RunSpec):
            return suite
        return cls(
            suite=suite,
            model=model,
            n=n if n is not None else 0,
            seed=seed,
            concurrency=concurrency,
            progress=progress,
            run_many=run_many,
        )


def now() -> str:
    """The current UTC time, ISO-8601 to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def _key(fields: dict[str, Any]) -> str:
    blob = json.dumps(fields, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:10]


def suite_label(suite: Any) -> str:
    """A stable name for a suite: the built-in name, a directory's resolved path, or `.name`."""
    if not isinstance(suite, str | Path):
        return str(getattr(suite, "name", type(suite).__name__))
    path = Path(suite)
    return str(path.resolve()) if path.exists() else str(suite)


def model_label(model: Any) -> str:
    """The model as provenance names it: the spec string, or a model object's name."""
    if isinstance(model, str):
        return model
    return str(model.name)


def resolve_suite(suite: Any) -> Any:
    """A Suite from a built-in name or a directory; a Suite object is returned as is."""
    if not isinstance(suite, str | Path):
        return suite
    from oncourse.adapters.suites import load_suite

    return load_suite(suite)


def memory_fingerprint(memory_path: str | Path | None) -> tuple[str, int]:
    """(hash of the active guidelines' ids, status and text, how many are active)."""
    if memory_path is None or not store_exists(memory_path):
        return "empty", 0
    from oncourse.memory.store import GuidelineMemory

    active = GuidelineMemory(memory_path).all(status="active")
    blob = "\n".join(f"{g.id}\t{g.text()}" for g in sorted(active, key=lambda g: g.id))
    return hashlib.sha256(blob.encode()).hexdigest()[:12], len(active)


class ArmRunner:
    """Runs (or reuses) one arm of one split into a keyed file with a provenance JSON.

    The file name is `<arm>-<split>-<key>.jsonl`, where the key hashes the provenance (suite,
    model, n, seed, split, and for a memory or control arm the memory fingerprint), so a changed
    setting never reuses stale runs. A file whose provenance matches and which holds n runs of
    every task is reused; otherwise `run_many` resumes it.
    """

    def __init__(
        self,
        suite: Any | RunSpec,
        model: Any = None,
        n: int | None = None,
        out_dir: str | Path = ".",
        seed: int = 0,
        concurrency: int = 4,
        progress: bool = True,
        run_many: RunMany | None = None,
    ):
        self.spec = RunSpec.of(suite, model, n, seed, concurrency, progress, run_many)
        self.out_dir = Path(out_dir)
        self.runs_made = 0

    @property
    def n(self) -> int:
        """Runs per task."""
        return self.spec.n

    def provenance(self, arm: str, split: str, memory: str | None = None) -> dict[str, Any]:
        """The fields that must match for runs on disk to be reused."""
        prov: dict[str, Any] = {
            "arm": arm,
            "suite": suite_label(self.spec.suite),
            "model": model_label(self.spec.model),
            "n": self.spec.n,
            "seed": self.spec.seed,
            "split": split,
        }
        if memory is not None:
            prov["memory"] = memory
        return prov

    def _paths(self, prov: dict[str, Any]) -> tuple[Path, Path]:
        stem = f"{prov['arm']}-{prov['split']}-{_key(prov)}"
        return self.out_dir / f"{stem}.jsonl", self.out_dir / f"{stem}.json"

    def runs_missing(
        self, arm: str, split: str, task_ids: Sequence[str], memory_key: str | None = None
    ) -> int:
        """How many runs `run` would have to make (0 when everything is on disk)."""
        prov = self.provenance(arm, split, memory_key)
        existing = _read_matching(*self._paths(prov), prov) or []
        by_task = group_by_task(existing)
        return sum(max(0, self.n - len(by_task.get(t, []))) for t in task_ids)

    def run(
        self,
        arm: str,
        split: str,
        task_ids: Sequence[str],
        memory_path: str | Path | None = None,
        memory_key: str | None = None,
        control: str | None = None,
    ) -> tuple[list[Trajectory], Path, bool]:
        """Runs of `task_ids` for one arm: (trajectories, file, reused)."""
        prov = self.provenance(arm, split, memory_key)
        runs_path, prov_path = self._paths(prov)
        existing = _read_matching(runs_path, prov_path, prov)
        if existing is not None and _complete(existing, task_ids, self.n):
            return _only(existing, task_ids), runs_path, True
        self.out_dir.mkdir(parents=True, exist_ok=True)
        prov_path.write_text(json.dumps({**prov, "created_at": now()}, indent=2) + "\n")
        before = len(existing or [])
        run_many = self.spec.run_many or _default_run_many()
        extra: dict[str, Any] = {"control": control} if control is not None else {}
        trajs = run_many(
            self.spec.suite,
            self.spec.model,
            self.spec.n,
            split,
            runs_path,
            memory_path=memory_path,
            concurrency=self.spec.concurrency,
            resume=True,
            seed=self.spec.seed,
            progress=self.spec.progress,
            task_ids=list(task_ids),
            timeout_s=self.spec.timeout_s,
            max_steps=self.spec.max_steps,
            **extra,
        )
        self.runs_made += max(0, len(trajs) - before)
        return _only(trajs, task_ids), runs_path, False


def _default_run_many() -> RunMany:
    from oncourse.adapters.runner import run_many

    return run_many


def _read_matching(
    runs_path: Path, prov_path: Path, prov: dict[str, Any]
) -> list[Trajectory] | None:
    if not runs_path.exists() or not prov_path.exists():
        return None
    try:
        stored = json.loads(prov_path.read_text())
    except json.JSONDecodeError:
        return None
    if any(stored.get(k) != v for k, v in prov.items()):
        return None
    from oncourse.adapters.importers import read_jsonl_trajectories

    return list(read_jsonl_trajectories(runs_path))


def _complete(trajs: Sequence[Trajectory], task_ids: Sequence[str], n: int) -> bool:
    by_task = group_by_task(trajs)
    return all(len(by_task.get(t, [])) >= n for t in task_ids)


def _only(trajs: Sequence[Trajectory], task_ids: Sequence[str]) -> list[Trajectory]:
    wanted = set(task_ids)
    return [t for t in trajs if t.task_id in wanted]


__all__ = [
    "ArmRunner",
    "RunMany",
    "RunSpec",
    "memory_fingerprint",
    "model_label",
    "now",
    "resolve_suite",
    "suite_label",
]
