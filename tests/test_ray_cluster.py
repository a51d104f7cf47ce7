"""A worker node killed mid-run: every task still ends with exactly N runs, none twice.

A real two-node Ray cluster on this machine (`ray.cluster_utils.Cluster`, one CPU per node) is
started once for the module and shut down at the end. The model answers like the simulated one
after a fixed wait; on the worker node that is killed it hangs (`tests/_ray_models.py`), so the
node certainly dies under a run, never between two.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _ray_models import HANG_ENV
from oncourse.adapters import _ray_backend
from oncourse.adapters.runner import run_many
from oncourse.adapters.suites import load_suite
from oncourse.consistency.errors import RunsLostError

pytestmark = pytest.mark.slow

MODEL = "python:_ray_models:hanging"
HANG_S = "120"  # on the node to be killed: far longer than the whole test
N = 3
TIMING = {"started_at", "duration_s"}


def comparable(traj: Any) -> dict[str, Any]:
    data = dict(traj) if isinstance(traj, dict) else traj.model_dump(mode="json")
    data["meta"] = {k: v for k, v in data["meta"].items() if k not in TIMING}
    data["steps"] = [{k: v for k, v in s.items() if k not in TIMING} for s in data["steps"]]
    return data


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    # Ray workers import the test model by name: put this folder on their path.
    here = str(Path(__file__).parent)
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (here, saved) if p)
    head = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "include_dashboard": False},
    )
    try:
        ray.init(address=head.address, logging_level="WARNING")
        yield head
    finally:
        ray.shutdown()
        head.shutdown()
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


@pytest.fixture(scope="module")
def tasks() -> list[str]:
    return [t.task_id for t in load_suite("mini-apps").tasks("train")][:6]


@pytest.fixture(scope="module")
def expected(tasks: list[str], tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The same runs made by local threads: what the cluster must end with."""
    out = tmp_path_factory.mktemp("local") / "runs.jsonl"
    runs = run_many("mini-apps", MODEL, N, "train", out, task_ids=tasks, progress=False)
    return [comparable(t) for t in runs]


def kill_after(
    cluster: Any, node: Any, out: Path, lines: int
) -> tuple[threading.Thread, list[int]]:
    """Remove `node` once `out` holds `lines` runs and a run is under way on it; records the count.

    A run ends with its line written and the driver then hands the free node its next run, so
    the watcher also waits until the node's one CPU is taken (a run leased to a worker there):
    killing a node between runs would lose nothing.
    """
    seen: list[int] = []

    def watch() -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            count = out.read_text().count("\n") if out.exists() else 0
            if count >= lines and busy(node):
                seen.append(out.read_text().count("\n"))
                cluster.remove_node(node, allow_graceful=False)
                return
            time.sleep(0.02)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread, seen


def busy(node: Any) -> bool:
    """Whether the node's CPU is leased to a run (Ray's per-node resource view)."""
    from ray._private.state import available_resources_per_node

    view = available_resources_per_node()
    # A resource fully in use is left out of the node's entry.
    return node.node_id in view and view[node.node_id].get("CPU", 0.0) < 1.0


def add_warm_node(cluster: Any) -> Any:
    """A new one-CPU worker node on which every model call hangs, its Ray worker warmed up.

    A run leased to a worker still starting up is handed to another node when its node dies
    (it never began), so the node gets one task first and its worker is reused for the runs.
    """
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    node = cluster.add_node(num_cpus=1, env_vars={HANG_ENV: HANG_S})
    cluster.wait_for_nodes()

    @ray.remote(num_cpus=1)
    def warm_up() -> tuple[str, str | None]:
        from oncourse.adapters import _ray_backend  # noqa: F401  (what run_in_worker imports)
        from oncourse.adapters.models import get_model

        get_model(MODEL)
        return str(ray.get_runtime_context().get_node_id()), os.environ.get(HANG_ENV)

    pinned = NodeAffinitySchedulingStrategy(node_id=node.node_id, soft=False)
    assert ray.get(warm_up.options(scheduling_strategy=pinned).remote()) == (node.node_id, HANG_S)
    return node


def check_file(out: Path, tasks: list[str]) -> list[str]:
    ids = [json.loads(line)["run_id"] for line in out.read_text().splitlines()]
    assert len(ids) == len(set(ids)), "no run written twice"
    per_task = Counter(run_id.split("#r")[0] for run_id in ids)
    assert set(per_task) <= set(tasks) and all(c <= N for c in per_task.values())
    return ids


def test_node_killed_mid_run_ray_retries_its_runs(
    cluster: Any, tasks: list[str], expected: list[dict[str, Any]], tmp_path: Path
) -> None:
    worker = add_warm_node(cluster)
    out = tmp_path / "runs.jsonl"
    watcher, killed_at = kill_after(cluster, worker, out, 4)
    runs = run_many(
        "mini-apps", MODEL, N, "train", out, task_ids=tasks, concurrency=2, backend="ray"
    )
    watcher.join(timeout=5)
    assert killed_at and killed_at[0] < len(tasks) * N, "the node died while runs were left"
    ids = check_file(out, tasks)
    assert len(ids) == len(tasks) * N, "exactly N runs of every task"
    assert [comparable(t) for t in runs] == expected, "the same runs as local threads make"


def test_runs_lost_with_a_node_are_made_on_resume(
    cluster: Any,
    tasks: list[str],
    expected: list[dict[str, Any]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without retries a lost run is reported, never written as a failure; resume makes it."""
    monkeypatch.setattr(_ray_backend, "DEFAULT_RETRIES", 0)
    worker = add_warm_node(cluster)
    out = tmp_path / "runs.jsonl"
    watcher, killed_at = kill_after(cluster, worker, out, 4)
    with pytest.raises(RunsLostError, match="--resume"):
        run_many("mini-apps", MODEL, N, "train", out, task_ids=tasks, concurrency=2, backend="ray")
    watcher.join(timeout=5)
    assert killed_at
    ids = check_file(out, tasks)
    assert len(ids) < len(tasks) * N, "the run on the killed node is not in the file"
    by_id = {run["run_id"]: run for run in expected}
    for line in out.read_text().splitlines():
        run = comparable(json.loads(line))
        assert run == by_id[run["run_id"]], "what is written is the real run, not a failure"

    runs = run_many(
        "mini-apps",
        MODEL,
        N,
        "train",
        out,
        task_ids=tasks,
        concurrency=2,
        backend="ray",
        resume=True,
    )
    assert len(check_file(out, tasks)) == len(tasks) * N
    assert [comparable(t) for t in runs] == expected
