"""Eval arithmetic on tiny arms where the right answer is known by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oncourse.adapters.evaluation import ArmRunner, evaluate_split
from oncourse.adapters.importers import write_trajectories
from oncourse.consistency.trajectory import RunMeta, Trajectory


def _runs(task: str, outcomes: str, injected: tuple[str, ...] = ()) -> list[Trajectory]:
    return [
        Trajectory(
            task_id=task,
            success=o == "P",
            steps=[],
            run_id=f"{task}-{i}",
            meta=RunMeta(seed=i, injected_guidelines=list(injected)),
        )
        for i, o in enumerate(outcomes)
    ]


def test_evaluate_split_hand_computed():
    # t1 consistent in baseline, lost with memory (g-harm injected): harm.
    # t2 and t4 fail in baseline, all-3 with memory: gains. t3 consistent in both.
    # t5 flaky in both, no guideline retrieved.
    base = (
        _runs("t1", "PPP")
        + _runs("t2", "FFF")
        + _runs("t3", "PPP")
        + _runs("t4", "PFP")
        + _runs("t5", "PFF")
    )
    mem = (
        _runs("t1", "PFP", ("g-harm",))
        + _runs("t2", "PPP", ("g-good", "g-harm"))
        + _runs("t3", "PPP", ("g-good",))
        + _runs("t4", "PPP", ("g-good",))
        + _runs("t5", "FPF")
    )
    tokens = {"g-good": 10, "g-harm": 30}
    ev = evaluate_split("heldout", base, mem, tokens)
    assert ev.tasks == 5
    # all-3: baseline {t1, t3} = 40%, memory {t2, t3, t4} = 60%: lift +20 points.
    assert ev.baseline.all_n_rate == pytest.approx(0.4)
    assert ev.memory.all_n_rate == pytest.approx(0.6)
    assert ev.all_n_lift.points == pytest.approx(20.0)
    # per-run: baseline 9/15, memory 12/15.
    assert ev.baseline.per_run_rate == pytest.approx(9 / 15)
    assert ev.memory.per_run_rate == pytest.approx(12 / 15)
    # McNemar: only_baseline = {t1} = 1, only_memory = {t2, t4} = 2; binomial 2 of 3 -> p = 1.
    assert (ev.mcnemar.only_baseline, ev.mcnemar.only_candidate) == (1, 2)
    assert json.loads(ev.model_dump_json())["mcnemar"]["only_memory"] == 2  # the JSON edge
    assert ev.mcnemar.p_value == pytest.approx(1.0)
    # harm: 1 of the 2 baseline-consistent tasks lost.
    assert ev.baseline_consistent == 2
    assert ev.harm_rate == pytest.approx(0.5)
    assert [(h.task_id, h.guidelines) for h in ev.harmed] == [("t1", ["g-harm"])]
    # tokens per task: t1 30, t2 40, t3 10, t4 10, t5 0 -> mean 18.
    assert ev.mean_injected_tokens == pytest.approx(18.0)
    assert ev.mean_injected_guidelines == pytest.approx((1 + 2 + 1 + 1 + 0) / 5)
    assert ev.tasks_with_injection == 4


def test_evaluate_split_prefers_the_loops_token_count():
    mem = [
        Trajectory(
            task_id="a",
            success=True,
            steps=[],
            meta=RunMeta(injected_guidelines=["g"], injected_tokens=7),
        ),
    ]
    base = [Trajectory(task_id="a", success=True, steps=[])]
    assert evaluate_split("s", base, mem, {"g": 100}).mean_injected_tokens == 7


def test_harm_rate_is_null_without_consistent_baseline_tasks():
    ev = evaluate_split("s", _runs("a", "PF"), _runs("a", "PP"))
    assert ev.harm_rate is None
    assert json.loads(ev.model_dump_json())["harm_rate"] is None


class _FakeRunMany:
    """Writes all-pass runs for the asked tasks and counts the calls (no model involved)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, suite, model, n, split, out_path, **kw):
        self.calls.append((split, Path(out_path).name.split("-")[0]))
        trajs = [
            Trajectory(task_id=t, success=True, steps=[], run_id=f"{t}-{i}", meta=RunMeta(seed=i))
            for t in kw["task_ids"]
            for i in range(n)
        ]
        write_trajectories(out_path, trajs)
        return trajs


def test_arm_runner_reuses_runs_whose_provenance_matches(tmp_path: Path):
    fake = _FakeRunMany()
    runner = ArmRunner("mini-apps", "simulated", 3, tmp_path, seed=1, run_many=fake)
    _, path, reused = runner.run("baseline", "train", ["a", "b"])
    assert not reused and fake.calls == [("train", "baseline")]
    again = ArmRunner("mini-apps", "simulated", 3, tmp_path, seed=1, run_many=fake)
    trajs, path2, reused2 = again.run("baseline", "train", ["a", "b"])
    assert reused2 and path2 == path and len(trajs) == 6
    assert len(fake.calls) == 1, "a matching baseline must not be run again"
    # Another seed is another experiment: a new file, a new run.
    other = ArmRunner("mini-apps", "simulated", 3, tmp_path, seed=2, run_many=fake)
    _, path3, reused3 = other.run("baseline", "train", ["a", "b"])
    assert not reused3 and path3 != path
    assert json.loads(path3.with_suffix(".json").read_text())["seed"] == 2


def test_eval_cli_on_a_world_with_a_known_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A harmful guideline in memory: the whole eval path, numbers checked by hand."""
    from oncourse.adapters.cli import app
    from oncourse.adapters.models import MODEL_PROVIDERS, FunctionModel
    from oncourse.adapters.suites.loader import BUILTIN_SUITES
    from oncourse.memory.inject import inject
    from oncourse.memory.store import GuidelineMemory
    from typer.testing import CliRunner

    from tests._tiny_suite import TinySuite
    from tests.test_evolve import HARMFUL, mailer

    monkeypatch.setitem(BUILTIN_SUITES, "tiny", TinySuite)
    monkeypatch.setitem(
        MODEL_PROVIDERS, "mailer", lambda rest: FunctionModel(mailer, name="mailer")
    )
    memory_path = tmp_path / "memory.sqlite"
    store = GuidelineMemory(memory_path)
    store.add(HARMFUL.model_copy(update={"status": "active"}))
    args = [
        "eval",
        "--suite",
        "tiny",
        "--model",
        "mailer",
        "--n",
        "4",
        "--memory",
        str(memory_path),
        "--out",
        str(tmp_path / "out"),
        "--splits",
        "train",
        "--json",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    ev = json.loads(result.stdout)["splits"]["train"]
    # Baseline: Acme 4/4 (all-4), Globex flaky -> all-4 1/2. With the harmful guideline
    # injected into both Ana tasks every run mails the wrong person -> all-4 0/2.
    assert ev["baseline"]["all_n_rate"] == 0.5 and ev["memory"]["all_n_rate"] == 0.0
    assert ev["all_n_lift"]["points"] == pytest.approx(-50.0)
    assert ev["memory"]["per_run_rate"] == 0.0
    # McNemar: Acme lost, nothing won: b = 1, c = 0 -> p = 1.
    assert (ev["mcnemar"]["only_baseline"], ev["mcnemar"]["only_memory"]) == (1, 0)
    assert ev["mcnemar"]["p_value"] == 1.0
    # Harm: the one baseline-consistent task is lost, with the guideline that was injected.
    assert ev["harm_rate"] == 1.0 and ev["baseline_consistent"] == 1
    assert ev["harmed"] == [{"task_id": "mail-acme", "guidelines": [HARMFUL.id]}]
    # Tokens: the block the injector itself reports for these tasks.
    tools = ["find_contact", "send_email"]
    expected = [
        inject(store, task.instruction, "", tools=tools).tokens
        for task in TinySuite().tasks("train")
    ]
    assert ev["mean_injected_tokens"] == pytest.approx(sum(expected) / len(expected))
    assert min(expected) > 0
