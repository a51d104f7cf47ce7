"""The analyzer and the contrastive generator on hand-written real-like runs (tests/_real_like.py).

Each case moves a shape of the public airline sample into another domain (a shop, a coding
agent, a mobile operator) with its own tools and fields: the decision a reader marks, a
guideline that names the deciding property or reason, and abstentions where the runs teach
nothing the agent controls (the user changed their mind; only notes and sums differ).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oncourse.adapters.importers import load_trajectories
from oncourse.consistency.analyzer import TaskAnalysis, analyze_runs
from oncourse.consistency.generators import make_generator
from oncourse.consistency.guidelines import NoGuideline
from oncourse.consistency.trajectory import Trajectory

from tests._real_like import CASES, Case


def _load(case: Case, folder: Path) -> list[Trajectory]:
    return load_trajectories([case.write(folder)], "tau-bench")


def _check(case: Case, runs: list[Trajectory], a: TaskAnalysis) -> None:
    if case.abstain == "scratch":
        # Only notes and sums differ: no fork decides anything, so nothing is reported.
        assert a.status == "mixed_no_fork" and a.divergence is None
        assert make_generator("contrastive").generate(a, runs) == []
        return
    assert a.status == "divergent" and a.divergence is not None
    assert a.divergence.context_driven is case.context_driven
    if case.decisive:
        # Every run a reader marked sits in the decision's branches at a step they marked.
        # A run with no step at the decision (it went straight on) must meet the consequence
        # at a step the reader marked (it acted where the others asked).
        later = {
            run_id: step
            for branch in (a.consequence.branches if a.consequence else [])
            for run_id, step in zip(branch.runs, branch.steps, strict=True)
        }
        for branch in a.divergence.branches:
            for run_id, step in zip(branch.runs, branch.steps, strict=True):
                at = later.get(run_id, -1) if step < 0 else step
                assert at in case.decisive[run_id], (run_id, step, case.decisive[run_id])
    if case.abstain is not None:
        with pytest.raises(NoGuideline, match=case.abstain):
            make_generator("contrastive").generate(a, runs)
        return
    [guideline] = make_generator("contrastive").generate(a, runs)
    text = guideline.instruction.lower()
    assert all(word in text for word in case.lesson), guideline.instruction
    # Never a lesson about a scratch call.
    scratch = [t for t, kind in a.tool_kinds.items() if kind == "scratch"]
    assert not any(tool in guideline.instruction for tool in scratch)


@pytest.mark.parametrize("task_id", sorted(CASES))
def test_real_like_case_lexically(task_id: str, tmp_path: Path):
    case = CASES[task_id]
    runs = _load(case, tmp_path)
    [a] = analyze_runs(runs)
    _check(case, runs, a)


@pytest.fixture(scope="module")
def minilm():
    from oncourse.memory.embedding import MiniLMEmbedder

    return MiniLMEmbedder()


@pytest.mark.slow
@pytest.mark.parametrize("task_id", sorted(CASES))
def test_real_like_case_with_minilm(task_id: str, tmp_path: Path, minilm):
    case = CASES[task_id]
    runs = _load(case, tmp_path)
    [a] = analyze_runs(runs, minilm)
    _check(case, runs, a)


def test_tool_kinds_of_a_coding_agent_come_from_its_runs(tmp_path: Path):
    # run_tests returned another result after the edit; list_files, read_file and the note sat
    # between the two test runs too, but a lookup's name and a note's empty result clear them.
    runs = _load(CASES["code-fix-source"], tmp_path)
    [a] = analyze_runs(runs)
    assert a.tool_kinds["edit_file"] == "write"
    assert (a.tool_kinds["list_files"], a.tool_kinds["read_file"]) == ("read", "read")
    assert a.tool_kinds["think"] == "scratch"


def test_a_failing_branch_that_saw_the_same_makes_the_fork_the_agents(tmp_path: Path):
    # One failing run's user answered differently ("whatever gets me my money back"), but two
    # failing runs heard the passing run's "Yes, please do." and still refunded the other order.
    runs = _load(CASES["shop-two-orders"], tmp_path)
    [a] = analyze_runs(runs)
    assert a.divergence is not None and not a.divergence.context_driven
    seen = {o.run_id: o.observation for o in a.divergence.context.preceding_observations}
    assert len(set(seen.values())) > 1
