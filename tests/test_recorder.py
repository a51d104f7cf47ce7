"""The wrapping API: users record runs of their own agent loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oncourse.adapters.importers import read_jsonl_trajectories
from oncourse.adapters.recorder import record
from oncourse.consistency.trajectory import RESPOND_TOOL


def test_readme_example_records_a_run_per_loop(tmp_path: Path) -> None:
    # The README's example, with a toy agent standing in for the user's own.
    out = tmp_path / "runs.jsonl"

    def my_agent(task: str, system: str) -> list[tuple[str, dict, object, str]]:
        return [
            ("search_contacts", {"query": "Ana"}, [{"email": "ana@acme.test"}], "look up"),
            ("send_email", {"to": "ana@acme.test"}, {"status": "sent"}, "mail the Acme one"),
        ]

    def hook(task_text: str, tool_names: list[str]) -> tuple[str, list[str]]:
        return "1. When two contacts match, use the company in the task.", ["g-7"]

    task = "Email Ana at Acme."
    for i in range(3):
        with record(
            "email-ana",
            task,
            out=out,
            run_id=f"email-ana#r{i}",
            meta={"model": "gpt-4.1", "provider": "openai", "seed": i},
        ) as run:
            extra = run.apply_memory(hook, ["search_contacts", "send_email"])
            for tool, args, result, why in my_agent(task, "You are helpful.\n\n" + extra):
                run.step(tool, args, observation=result, thought=why)
            run.step(RESPOND_TOOL, {"text": "Sent."})
            run.finish(success=i != 1, final_answer="Sent.")

    runs = read_jsonl_trajectories(out)
    assert [r.run_id for r in runs] == ["email-ana#r0", "email-ana#r1", "email-ana#r2"]
    assert [r.success for r in runs] == [True, False, True]
    first = runs[0]
    assert [s.action.tool for s in first.steps] == ["search_contacts", "send_email", RESPOND_TOOL]
    assert first.steps[1].thought == "mail the Acme one"
    assert first.steps[0].observation == [{"email": "ana@acme.test"}]
    assert first.meta.injected_guidelines == ["g-7"]
    assert (first.meta.model, first.meta.seed) == ("gpt-4.1", 0)
    assert first.meta.started_at and first.meta.oncourse_version
    assert first.meta.duration_s is not None and first.meta.duration_s >= 0


def test_exception_records_a_failed_run_and_propagates(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    with pytest.raises(TimeoutError):
        with record("t1", "task", out=out) as run:
            run.step("lookup", {"q": 1}, observation="x")
            raise TimeoutError("agent hung")
    (line,) = out.read_text().splitlines()
    saved = json.loads(line)
    assert saved["success"] is False
    assert saved["error"] == {"kind": "TimeoutError", "message": "agent hung"}
    assert len(saved["steps"]) == 1
    assert run.trajectory is not None and run.trajectory.error is not None


def test_exception_can_be_swallowed(tmp_path: Path) -> None:
    with record("t1", "task", reraise=False) as run:
        raise ValueError("bad tool output")
    assert run.trajectory is not None
    assert run.trajectory.error is not None and run.trajectory.error.kind == "ValueError"


def test_block_without_finish_is_an_unfinished_failed_run() -> None:
    with record("t1") as run:
        run.step("lookup")
    assert run.trajectory is not None and run.trajectory.success is False
    assert run.trajectory.error is not None and run.trajectory.error.kind == "unfinished"


def test_finish_twice_is_refused_and_usage_adds_up() -> None:
    with record("t1", meta={"model": "m"}) as run:
        run.add_usage(100, 20)
        run.add_usage(50, 5)
        traj = run.finish(success=True)
        with pytest.raises(RuntimeError):
            run.finish(success=False)
    assert (traj.meta.tokens_in, traj.meta.tokens_out) == (150, 25)
    assert traj.success is True and traj.error is None
