"""Runs of one task from a string of outcomes ('PPF': pass, pass, fail), for report tests."""

from __future__ import annotations

from oncourse.consistency.trajectory import Action, RunMeta, Step, Trajectory


def searched_runs(task: str, outcomes: str, simulated: bool = True) -> list[Trajectory]:
    """One `search` step per run; run i has seed i and run id `{task}-{i}`."""
    return [
        Trajectory(
            task_id=task,
            success=o == "P",
            steps=[Step(action=Action(tool="search", args={"q": task}))],
            run_id=f"{task}-{i}",
            meta=RunMeta(model="simulated", simulated=simulated, seed=i, oncourse_version="t"),
        )
        for i, o in enumerate(outcomes)
    ]
