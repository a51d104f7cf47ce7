"""The runner: N runs per task, bounded concurrency, paired seeds, append-only output, resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from _tiny_suite import TinySuite, picky_agent
from oncourse.adapters.models.scripted import FunctionModel
from oncourse.adapters.runner import derive_seed, run_id_for, run_many
from oncourse.consistency.chat import Message, ModelSettings, ToolSpec
from oncourse.consistency.errors import ConfigError, InputError

REPO = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_n_runs_per_task_with_deterministic_ids_and_seeds(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    runs = run_many(TinySuite(), FunctionModel(picky_agent), 4, "train", out, progress=False)

    assert [r.run_id for r in runs] == [
        f"{task}#r{i}" for task in ("mail-acme", "mail-globex") for i in range(4)
    ]
    assert [r.meta.seed for r in runs] == [
        derive_seed(0, r.task_id, int(r.run_id.split("#r")[1]))  # type: ignore[union-attr]
        for r in runs
    ]
    # The picky agent mails the wrong Ana on odd seeds: success follows the derived seed.
    assert [r.success for r in runs] == [r.meta.seed % 2 == 0 for r in runs]  # type: ignore[operator]
    saved = lines(out)
    assert sorted(d["run_id"] for d in saved) == sorted(r.run_id for r in runs)  # type: ignore[misc]
    assert {d["meta"]["suite"] for d in saved} == {"tiny"}
    assert {d["meta"]["split"] for d in saved} == {"train"}


def test_seeds_are_paired_across_arms_and_independent_of_concurrency(tmp_path: Path) -> None:
    a = run_many(
        TinySuite(),
        FunctionModel(picky_agent),
        3,
        "all",
        tmp_path / "a.jsonl",
        concurrency=1,
        progress=False,
        seed=5,
    )
    b = run_many(
        TinySuite(),
        FunctionModel(picky_agent),
        3,
        "all",
        tmp_path / "b.jsonl",
        concurrency=3,
        progress=False,
        seed=5,
    )
    c = run_many(
        TinySuite(),
        FunctionModel(picky_agent),
        3,
        "all",
        tmp_path / "c.jsonl",
        progress=False,
        seed=6,
    )
    assert [(r.run_id, r.meta.seed, r.success) for r in a] == [
        (r.run_id, r.meta.seed, r.success) for r in b
    ]
    assert [r.meta.seed for r in a] != [r.meta.seed for r in c]
    assert derive_seed(5, "mail-acme", 0) == a[0].meta.seed
    assert run_id_for("mail-acme", 2) == "mail-acme#r2"


def test_concurrency_is_bounded(tmp_path: Path) -> None:
    in_flight = 0
    peak = 0
    lock = threading.Lock()

    def reply(messages: list[Message], tools: list[ToolSpec], settings: ModelSettings) -> str:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.03)
        with lock:
            in_flight -= 1
        return "done"

    started = time.monotonic()
    runs = run_many(
        TinySuite(),
        FunctionModel(reply),
        4,
        "all",
        tmp_path / "r.jsonl",
        concurrency=3,
        progress=False,
    )
    elapsed = time.monotonic() - started
    assert len(runs) == 12
    assert peak == 3
    assert elapsed < 12 * 0.03  # faster than one at a time


def test_refuses_to_mix_into_a_non_empty_file(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    run_many(TinySuite(), FunctionModel(picky_agent), 1, "train", out, progress=False)
    before = out.read_bytes()
    with pytest.raises(InputError, match="--resume"):
        run_many(TinySuite(), FunctionModel(picky_agent), 1, "train", out, progress=False)
    assert out.read_bytes() == before


def test_resume_drops_a_torn_line_and_runs_only_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "runs.jsonl"
    run_many(TinySuite(), FunctionModel(picky_agent), 3, "train", out, progress=False)
    complete = out.read_text().splitlines(keepends=True)
    kept = complete[:2] + complete[3:4]  # three whole lines survive ...
    torn = complete[4][: len(complete[4]) // 2]  # ... and a kill cut the fifth in half
    out.write_text("".join(kept) + torn)

    model = FunctionModel(picky_agent)
    runs = run_many(TinySuite(), model, 3, "train", out, resume=True, progress=False)

    assert "torn last line" in capsys.readouterr().err
    saved = lines(out)
    assert Counter(d["task_id"] for d in saved) == {"mail-acme": 3, "mail-globex": 3}
    assert len({d["run_id"] for d in saved}) == 6
    assert out.read_text().startswith("".join(kept))  # earlier lines untouched
    assert len(model.requests) == 3 * 3  # three missing runs, three model calls each
    assert len(runs) == 6


def test_resume_of_a_complete_file_runs_nothing(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    first = run_many(TinySuite(), FunctionModel(picky_agent), 2, "all", out, progress=False)
    model = FunctionModel(picky_agent)
    again = run_many(TinySuite(), model, 2, "all", out, resume=True, progress=False)
    assert model.requests == []
    assert [r.model_dump() for r in again] == [r.model_dump() for r in first]


def test_resume_on_a_missing_file_starts_fresh(tmp_path: Path) -> None:
    runs = run_many(
        TinySuite(),
        FunctionModel(picky_agent),
        1,
        "heldout",
        tmp_path / "new" / "runs.jsonl",
        resume=True,
        progress=False,
    )
    assert [r.run_id for r in runs] == ["mail-bo#r0"]


def test_resume_rejects_a_bad_complete_line_with_its_number(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    run_many(TinySuite(), FunctionModel(picky_agent), 2, "train", out, progress=False)
    rows = out.read_text().splitlines(keepends=True)
    rows[1] = '{"task_id": "mail-acme", "steps": []}\n'
    out.write_text("".join(rows))
    with pytest.raises(InputError, match=r"runs.jsonl:2: success"):
        run_many(
            TinySuite(), FunctionModel(picky_agent), 2, "train", out, resume=True, progress=False
        )


def test_resume_with_more_runs_than_asked_or_another_model_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    run_many(TinySuite(), FunctionModel(picky_agent), 3, "train", out, progress=False)
    with pytest.raises(InputError, match="not one of the 2 runs"):
        run_many(
            TinySuite(), FunctionModel(picky_agent), 2, "train", out, resume=True, progress=False
        )
    other = FunctionModel(picky_agent, name="other-model")
    with pytest.raises(InputError, match="other-model"):
        run_many(TinySuite(), other, 4, "train", out, resume=True, progress=False)


def test_task_subset_leaves_other_tasks_in_the_file_alone(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    run_many(TinySuite(), FunctionModel(picky_agent), 2, "all", out, progress=False)
    runs = run_many(
        TinySuite(),
        FunctionModel(picky_agent),
        2,
        "all",
        out,
        resume=True,
        progress=False,
        task_ids=["mail-bo"],
    )
    assert [r.run_id for r in runs] == ["mail-bo#r0", "mail-bo#r1"]
    with pytest.raises(InputError, match="no task 'nope'"):
        run_many(
            TinySuite(),
            FunctionModel(picky_agent),
            2,
            "all",
            out,
            resume=True,
            progress=False,
            task_ids=["nope"],
        )


def test_environment_crash_is_a_failed_run(tmp_path: Path) -> None:
    class BrokenSuite(TinySuite):
        def make_env(self, task: Any) -> Any:
            raise OSError("world file missing")

    runs = run_many(
        BrokenSuite(),
        FunctionModel(picky_agent),
        2,
        "heldout",
        tmp_path / "r.jsonl",
        progress=False,
    )
    assert [(r.success, r.error.kind) for r in runs] == [(False, "harness_error")] * 2  # type: ignore[union-attr]
    assert "world file missing" in runs[0].error.message  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"n": 0}, ConfigError),
        ({"concurrency": 0}, ConfigError),
        ({"timeout_s": 0}, ConfigError),
        ({"split": "heldout-novel"}, InputError),  # the tiny suite has no such tasks
    ],
)
def test_meaningless_settings_are_refused(
    tmp_path: Path, kwargs: dict[str, Any], error: type[Exception]
) -> None:
    args: dict[str, Any] = {"n": 2, "split": "all", **kwargs}
    with pytest.raises(error):
        run_many(
            TinySuite(),
            FunctionModel(picky_agent),
            args.pop("n"),
            args.pop("split"),
            tmp_path / "r.jsonl",
            progress=False,
            **args,
        )
    assert not (tmp_path / "r.jsonl").exists()


def test_missing_memory_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no guideline memory"):
        run_many(
            TinySuite(),
            FunctionModel(picky_agent),
            1,
            "all",
            tmp_path / "r.jsonl",
            memory_path=tmp_path / "missing.sqlite",
            progress=False,
        )


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "oncourse.adapters.cli", "run", *args]


def _cli_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(TESTS)])}


@pytest.mark.slow
def test_cli_killed_midway_resumes_to_exactly_n_per_task(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    args = [
        "--suite",
        "mini-apps",
        "--model",
        "python:_tiny_suite:slow_model",
        "--n",
        "3",
        "--split",
        "train",
        "--concurrency",
        "4",
        "--out",
        str(out),
        "--no-progress",
    ]
    proc = subprocess.Popen(
        _cli(*args), cwd=tmp_path, env=_cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 12:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    before = out.read_bytes()
    before_lines = before[: before.rfind(b"\n") + 1]
    assert 12 <= before_lines.count(b"\n") < 72

    again = subprocess.run(
        _cli(*args), cwd=tmp_path, env=_cli_env(), capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 2 and "--resume" in again.stderr  # no silent mixing

    resumed = subprocess.run(
        [*_cli(*args), "--resume", "--json"],
        cwd=tmp_path,
        env=_cli_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    saved = lines(out)
    per_task = Counter(d["task_id"] for d in saved)
    assert len(per_task) == summary["tasks"] == 24
    assert set(per_task.values()) == {3}
    assert len({d["run_id"] for d in saved}) == len(saved) == 72
    assert out.read_bytes().startswith(before_lines)  # no line written before the kill was lost
    assert summary["runs"] == 72
    assert summary["new_runs"] == 72 - before_lines.count(b"\n")


@pytest.mark.slow
def test_memory_path_injects_retrieved_guidelines_into_every_run(tmp_path: Path) -> None:
    from oncourse.consistency.guidelines import Guideline
    from oncourse.memory.store import GuidelineMemory

    store_path = tmp_path / "memory.sqlite"
    store = GuidelineMemory(store_path)
    stored = store.add(
        Guideline(
            instruction="Email the Ana Ruiz who works at the company the task names.",
            trigger="Emailing Ana Ruiz when two contacts named Ana Ruiz work at two companies.",
        )
    )
    store.activate(stored.id)
    store.close()

    model = FunctionModel(picky_agent)
    runs = run_many(
        TinySuite(),
        model,
        2,
        "train",
        tmp_path / "r.jsonl",
        memory_path=store_path,
        progress=False,
        concurrency=2,
    )

    assert [r.meta.injected_guidelines for r in runs] == [[stored.id]] * 4
    assert {r.meta.model_dump()["memory"] for r in runs} == {str(store_path.resolve())}
    prompts = {request.system_prompt for request in model.requests}
    assert all(
        TinySuite.system_prompt in p and "Email the Ana Ruiz who works" in p for p in prompts
    )


@pytest.mark.slow
def test_cli_ctrl_c_writes_finished_runs_and_exits_130(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    args = [
        "--suite",
        "mini-apps",
        "--model",
        "python:_tiny_suite:slow_model",
        "--n",
        "3",
        "--split",
        "train",
        "--out",
        str(out),
        "--no-progress",
    ]
    # A shell that starts pytest in the background (nohup, `&`, a CI wrapper) leaves SIGINT
    # ignored, and an ignored signal stays ignored across exec: Python then never installs its
    # Ctrl-C handler, and the run would finish with 0. Ctrl-C from a terminal is what is tested,
    # so the child gets the handler a terminal's Python has.
    ctrl_c = (
        "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "sys.argv[0] = 'oncourse'; runpy.run_module('oncourse.adapters.cli', run_name='__main__')"
    )
    command = [sys.executable, "-c", ctrl_c, "run", *args]
    proc = subprocess.Popen(
        command, cwd=tmp_path, env=_cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 8:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert b"interrupted" in err
    data = out.read_bytes()
    assert data.endswith(b"\n")  # runs in flight were finished and written whole
    assert 8 <= data.count(b"\n") < 72
    assert len({d["run_id"] for d in lines(out)}) == data.count(b"\n")


def test_resume_never_mixes_arms(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    hot = ModelSettings(temperature=0.9)
    run_many(TinySuite(), FunctionModel(picky_agent), 2, "train", out, progress=False, settings=hot)
    rows = out.read_text().splitlines(keepends=True)
    out.write_text("".join(rows[:2]))  # interrupted after two runs
    cold = ModelSettings(temperature=0.0)
    with pytest.raises(InputError, match=r"runs.jsonl:1: .*temperature 0.9, not 0.0"):
        run_many(
            TinySuite(),
            FunctionModel(picky_agent),
            2,
            "train",
            out,
            resume=True,
            progress=False,
            settings=cold,
        )
    memory_file = tmp_path / "memory.sqlite"
    memory_file.write_bytes(b"")
    with pytest.raises(InputError, match="memory None"):
        run_many(
            TinySuite(),
            FunctionModel(picky_agent),
            2,
            "train",
            out,
            resume=True,
            progress=False,
            settings=hot,
            memory_path=memory_file,
        )
    runs = run_many(
        TinySuite(),
        FunctionModel(picky_agent),
        2,
        "train",
        out,
        resume=True,
        progress=False,
        settings=hot,
    )
    assert {r.meta.temperature for r in runs} == {0.9} and len(runs) == 4
