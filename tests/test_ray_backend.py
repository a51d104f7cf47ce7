"""The Ray backend: the same runs as local threads, the driver alone writes the log.

The tests marked slow start a real local Ray instance (2 CPUs) once for the module and shut it
down at the end; the others need no Ray at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _tiny_suite import TinySuite
from oncourse.adapters._ray_backend import run_in_worker
from oncourse.adapters.models import get_model
from oncourse.adapters.runner import RunRequest, make_run, public_location, run_many
from oncourse.adapters.suites import load_suite
from oncourse.consistency.errors import ConfigError
from oncourse.consistency.guidelines import Guideline, GuidelineScope

TIMING = {"started_at", "duration_s"}
LEARNED = [
    # Two guidelines `oncourse evolve` learned on mini-apps with the simulated model (seed 0).
    Guideline(
        status="active",
        trigger='Write to [name] using their business email address; subject: "[value]"; '
        "search_contacts has returned one result",
        instruction="When search_contacts returns one result, call send_email with the body "
        "stated in the task, the subject stated in the task and the to from the work_email "
        "field of the search_contacts result rather than call send_email with the body stated "
        "in the task, the subject stated in the task and the to from the personal_email field "
        "of the search_contacts result.",
        scope=GuidelineScope(tools=["search_contacts", "send_email"]),
    ),
    Guideline(
        status="active",
        trigger="Invoice [id] from [name] is still outstanding; please pay it; search_invoices "
        "has returned several results",
        instruction="When search_invoices returns several results, call pay_invoice with the "
        "invoice id from the search_invoices result whose status is 'open' rather than call "
        "pay_invoice with the invoice id from the search_invoices result whose status is "
        "'paid'.",
        scope=GuidelineScope(tools=["pay_invoice", "search_invoices"]),
    ),
]


def comparable(traj: Any) -> dict[str, Any]:
    """A run without its clock readings (wall times differ between any two executions)."""
    data = traj.model_dump(mode="json") if not isinstance(traj, dict) else dict(traj)
    data["meta"] = {k: v for k, v in data["meta"].items() if k not in TIMING}
    data["steps"] = [{k: v for k, v in s.items() if k not in TIMING} for s in data["steps"]]
    return data


def without_paths(value: Any, root: str) -> Any:
    """The JSON without the files it names under `root` (each backend writes its own)."""
    if isinstance(value, dict):
        return {
            k: without_paths(v, root)
            for k, v in value.items()
            if not (isinstance(v, str) and v.startswith(root))
        }
    if isinstance(value, list):
        return [without_paths(v, root) for v in value]
    return value


def test_memory_url_loses_its_password_before_it_is_logged() -> None:
    assert (
        public_location("postgresql://bob:s3cret@db.example:5433/mem?sslmode=require")
        == "postgresql://bob@db.example:5433/mem?sslmode=require"
    )
    assert public_location("postgresql://bob@db/mem") == "postgresql://bob@db/mem"
    assert public_location("runs/memory.sqlite") == "runs/memory.sqlite"


def test_ray_backend_refuses_objects_it_cannot_rebuild_on_a_worker(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="rebuilds the suite"):
        run_many(TinySuite(), "simulated", 1, "train", tmp_path / "a.jsonl", backend="ray")
    with pytest.raises(ConfigError, match="rebuilds the model"):
        run_many(
            "mini-apps", get_model("simulated"), 1, "train", tmp_path / "b.jsonl", backend="ray"
        )
    with pytest.raises(ConfigError, match="backend must be one of local, ray"):
        run_many("mini-apps", "simulated", 1, "train", tmp_path / "c.jsonl", backend="dask")
    assert not (tmp_path / "a.jsonl").exists()


def test_cli_refuses_a_ray_address_without_the_ray_backend(tmp_path: Path) -> None:
    from oncourse.adapters.cli import app
    from typer.testing import CliRunner

    args = ["run", "--suite", "mini-apps", "--out", str(tmp_path / "r.jsonl")]
    result = CliRunner().invoke(app, [*args, "--ray-address", "auto"])
    assert result.exit_code != 0
    assert "--ray-address needs --backend ray" in str(result.exception or result.output)
    assert not (tmp_path / "r.jsonl").exists()


def test_a_worker_rebuilds_suite_and_model_by_name_and_makes_the_same_run() -> None:
    """The worker entry point, called in-process: names in, the local run out."""
    suite = load_suite("mini-apps")
    task = suite.tasks("train")[3]
    request = RunRequest(
        suite="mini-apps",
        model="simulated",
        split="train",
        seed=11,
        system_prompt=suite.system_prompt or "",
        max_steps=30,
        timeout_s=60.0,
        extra_meta={"suite": suite.name, "split": "train", "memory": None},
    )
    local = make_run(suite, get_model("simulated"), None, request, task, 2)
    remote = json.loads(run_in_worker(request.model_dump_json(), task.task_id, 2))
    assert comparable(remote) == comparable(local)
    assert remote["run_id"] == f"{task.task_id}#r2" and remote["meta"]["split"] == "train"
    assert len(local.steps) > 1, "a run of several steps, so equality means something"


# -- on a real local Ray instance ---------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.mark.slow
def test_ray_makes_the_same_runs_as_local_threads(tmp_path: Path, local_ray: Any) -> None:
    tasks = [t.task_id for t in load_suite("mini-apps").tasks("train")][:6]
    common: dict[str, Any] = {"n": 3, "split": "train", "seed": 4, "task_ids": tasks}
    local = run_many("mini-apps", "simulated", out_path=tmp_path / "l.jsonl", **common)
    remote = run_many(
        "mini-apps", "simulated", out_path=tmp_path / "r.jsonl", backend="ray", **common
    )
    assert [comparable(t) for t in remote] == [comparable(t) for t in local]
    assert len({t.success for t in local}) == 2, "passes and failures, so equality means something"
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert sorted(d["run_id"] for d in lines) == sorted(t.run_id for t in local)


@pytest.mark.slow
def test_resume_on_ray_completes_a_file_begun_locally(tmp_path: Path, local_ray: Any) -> None:
    """Resume keeps the runs on disk and makes only the missing ones, wherever they run."""
    tasks = [t.task_id for t in load_suite("mini-apps").tasks("heldout")][:4]
    common: dict[str, Any] = {"n": 3, "split": "heldout", "seed": 1, "task_ids": tasks}
    full = run_many("mini-apps", "simulated", out_path=tmp_path / "full.jsonl", **common)
    out = tmp_path / "runs.jsonl"
    begun = (tmp_path / "full.jsonl").read_text().splitlines(keepends=True)[:5]
    out.write_text("".join(begun))
    runs = run_many("mini-apps", "simulated", out_path=out, resume=True, backend="ray", **common)
    lines = out.read_text().splitlines(keepends=True)
    assert lines[:5] == begun, "runs already on disk are kept as they were"
    ids = [json.loads(line)["run_id"] for line in lines]
    assert len(ids) == len(set(ids)) == 12, "exactly 3 runs of each of 4 tasks, none twice"
    assert [comparable(t) for t in runs] == [comparable(t) for t in full]


@pytest.mark.slow
def test_eval_gives_identical_results_on_ray(tmp_path: Path, local_ray: Any) -> None:
    """The issue's check: the same `oncourse eval` with --backend local and --backend ray."""
    from oncourse.adapters.cli import app
    from oncourse.memory.store import GuidelineMemory
    from typer.testing import CliRunner

    memory = tmp_path / "memory.sqlite"
    with GuidelineMemory(memory) as store:
        store.add_many(LEARNED)
    results = {}
    for backend in ("local", "ray"):
        args = ["eval", "--suite", "mini-apps", "--model", "simulated", "--n", "2"]
        args += ["--memory", str(memory), "--out", str(tmp_path / backend), "--splits", "train"]
        result = CliRunner().invoke(app, [*args, "--json", "--backend", backend])
        assert result.exit_code == 0, result.output
        results[backend] = json.loads(result.stdout)
    local, ray = (without_paths(results[b], str(tmp_path)) for b in ("local", "ray"))
    for result in (local, ray):
        for key in ("started_at", "finished_at"):
            result.pop(key)
    assert ray == local
    train = local["splits"]["train"]
    assert train["tasks_with_injection"] > 0, "the guideline reached some tasks"


def test_delayed_model_answers_as_the_model_it_wraps() -> None:
    from oncourse.consistency.chat import Message, ModelSettings

    suite = load_suite("mini-apps")
    task = suite.tasks("train")[0]
    env = suite.make_env(task)
    messages = [Message(role="system", content="x"), Message(role="user", content=task.instruction)]
    settings = ModelSettings(seed=3)
    plain = get_model("simulated").complete(messages, env.tools(), settings)
    delayed = get_model("delayed:0.01:simulated")
    assert delayed.complete(messages, env.tools(), settings) == plain
    assert (delayed.name, delayed.simulated) == ("simulated", True)
    for bad in ("delayed:soon:simulated", "delayed:0.1", "delayed:-1:simulated"):
        with pytest.raises(ConfigError, match="delayed:SECONDS:SPEC"):
            get_model(bad)
